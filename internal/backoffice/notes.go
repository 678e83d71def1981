package backoffice

import (
	"context"
	"strings"

	"github.com/nocturne/storefront/internal/shop"
)

// Messages of notes, tracking and the confirmations of what cannot be
// undone.
const (
	MsgNoteRequired = "Write the note."
	MsgNoteTooLong  = "Too long (at most 2000 characters)."
	// MsgRemoveSelf: removing one's own role would lock the last admin out
	// as easily as anyone else.
	MsgRemoveSelf = "You cannot remove yourself from staff; another admin can, or the server's storefront staff remove."
	// MsgConfirmIncomplete: a confirmation posted without what its page
	// showed (a stale or hand-made form) does nothing.
	MsgConfirmIncomplete = "The confirmation was incomplete, so nothing was done. Please start again."
	// MsgChangedSinceShown: %s names what changed since its confirmation
	// was shown ("Order NOC-…").
	MsgChangedSinceShown = "%s changed since the confirmation was shown, so nothing was done. Please check it and start again."
	// MsgCancelledAlready: %s is the order number; a confirmation posted
	// twice.
	MsgCancelledAlready = "Order %s is cancelled already; nothing more was done."
	// MsgNotStaff: %s is the e-mail.
	MsgNotStaff = "%s is not staff (any more); nothing was changed."
	// MsgProductGone: %s is the product's id.
	MsgProductGone = "Product %s is deleted already; nothing more was done."
)

// AddNote adds staff's internal note to an order's timeline and the audit
// log. Shoppers never see it (shop.ShopperTimeline).
func (s *Service) AddNote(ctx context.Context, actor, orderID, note string) (shop.FieldErrors, error) {
	note = strings.TrimSpace(strings.ReplaceAll(note, "\r\n", "\n"))
	switch {
	case note == "":
		return shop.FieldErrors{"note": MsgNoteRequired}, nil
	case len(note) > shop.MaxNoteLength:
		return shop.FieldErrors{"note": MsgNoteTooLong}, nil
	}
	if err := s.Orders.AddOrderNote(ctx, orderID, note, actor, s.Now().UTC()); err != nil {
		return nil, err
	}
	s.Record(ctx, actor, "order.note", orderID, "", note)
	return nil, nil
}

// TrackingURL is the page that tracks o's parcel, from its carrier's
// template now; "" when it has not shipped or its carrier has no page. A
// failure to read the carriers is logged: the link is a courtesy.
func (s *Service) TrackingURL(ctx context.Context, o *shop.Order) string {
	if o.TrackingNumber == "" || s.Carriers == nil {
		return ""
	}
	carriers, err := s.Carriers.Carriers(ctx)
	if err != nil {
		s.Log.Error("carriers", "err", err, "order", o.ID)
		return ""
	}
	c, _ := shop.CarrierNamed(carriers, o.Carrier)
	return c.TrackingURL(o.TrackingNumber)
}

// CancelText says what confirming a staff cancel of o does, in the words
// of its payment method: "Cancel order NOC-… and refund $458.00 through
// Stripe".
func (s *Service) CancelText(o *shop.Order) string {
	left := Refundable(o)
	if left <= 0 {
		return "Cancel order " + o.ID
	}
	refund := s.RefundText(o, left)
	return "Cancel order " + o.ID + " and " + strings.ToLower(refund[:1]) + refund[1:]
}
