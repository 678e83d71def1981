package shop

import (
	"context"
	"time"
)

// EventNote is the kind (OrderEvent.Status) of a staff member's internal
// note on an order: it is on the back office's timeline and nowhere a
// shopper looks.
const EventNote = "note"

// MaxNoteLength bounds a note, in bytes.
const MaxNoteLength = 2000

// StaffOnly reports whether e is for staff eyes only. Every page, mail or
// export a shopper sees leaves such events out (ShopperTimeline).
func (e OrderEvent) StaffOnly() bool { return e.Status == EventNote }

// ShopperTimeline is events without those for staff only: the timeline a
// shopper may be shown.
func ShopperTimeline(events []OrderEvent) []OrderEvent {
	out := make([]OrderEvent, 0, len(events))
	for _, e := range events {
		if !e.StaffOnly() {
			out = append(out, e)
		}
	}
	return out
}

// OrderNoteStore keeps staff notes on orders.
type OrderNoteStore interface {
	// AddOrderNote adds note to the timeline of a placed order as an
	// EventNote by actor at at; an order that does not exist or is not
	// placed yet is an ENOTFOUND.
	AddOrderNote(ctx context.Context, orderID, note, actor string, at time.Time) error
}
