package returns

import (
	"context"
	"fmt"

	"github.com/nocturne/storefront/internal/shop"
)

// notifyStaff mails StaffEmail that a shopper asked to return items, so
// someone approves or rejects it without watching the back office.
func (s *Service) notifyStaff(ctx context.Context, r *shop.ReturnRequest) {
	if s.StaffEmail == "" {
		return
	}
	body := fmt.Sprintf("Return %s for order %s: %d items, reason %q.\n\n%s\n\nDecide at %s/admin/orders/%s\n",
		r.ID, r.OrderID, r.ItemCount(), r.Reason, r.Comment, s.BaseURL, r.OrderID)
	if err := s.Mailer.Send(ctx, shop.Email{To: s.StaffEmail, Subject: "Return requested: " + r.ID + " (order " + r.OrderID + ")", Body: body}); err != nil {
		s.Log.Error("staff return e-mail", "err", err, "return", r.ID)
	}
}
