package checkout

import (
	"context"
	"fmt"

	"github.com/nocturne/storefront/internal/shop"
)

// notifyStaff mails StaffEmail the order that was just placed, so it is
// packed without anyone watching the back office.
func (s *Service) notifyStaff(ctx context.Context, o *shop.Order) {
	if s.StaffEmail == "" {
		return
	}
	state := "paid"
	if o.PaymentStatus != shop.PaymentPaid {
		state = "awaiting payment"
	}
	body := fmt.Sprintf("Order %s, %s, %s: %d lines for %s.\n\nSee it at %s/admin/orders/%s\n",
		o.ID, o.Total, state, len(o.Lines), o.ShipTo.Name, s.BaseURL, o.ID)
	if err := s.Mailer.Send(ctx, shop.Email{To: s.StaffEmail, Subject: "New order " + o.ID + " (" + state + ")", Body: body}); err != nil {
		s.Log.Error("staff order e-mail", "err", err, "order", o.ID)
	}
}
