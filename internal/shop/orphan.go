package shop

import (
	"context"
	"time"
)

// OrphanState is where a payment without an order stands.
type OrphanState string

// States of a payment without an order: open until someone acts;
// refunding once a refund is claimed (the provider may not have answered
// yet: resending it is safe, it is keyed); refunded; or settled by staff
// by hand (paid back outside the shop, or matched to an order).
const (
	OrphanOpen      OrphanState = "open"
	OrphanRefunding OrphanState = "refunding"
	OrphanRefunded  OrphanState = "refunded"
	OrphanSettled   OrphanState = "settled"
)

// OrphanMoves are the moves a payment without an order may take.
var OrphanMoves = Moves[OrphanState]{
	{OrphanOpen, OrphanRefunding},
	{OrphanOpen, OrphanSettled},
	{OrphanRefunding, OrphanRefunded},
}

// OrphanLabel is how an orphan payment's state reads on a page; a state
// this release doesn't know reads as stored.
func OrphanLabel(s OrphanState) string {
	switch s {
	case OrphanOpen:
		return "Needs a decision"
	case OrphanRefunding:
		return "Refund sent, awaiting the provider"
	case OrphanRefunded:
		return "Refunded"
	case OrphanSettled:
		return "Settled by hand"
	}
	return string(s)
}

// OrphanPayment is money a payment method took for an order that was gone
// by the time the payment was confirmed. It is never revenue.
type OrphanPayment struct {
	// ID is the method's reference of the payment (a Stripe Checkout
	// Session id); Method names the method.
	ID, Method    string
	OrderID       string
	PaymentIntent string
	Amount        Cents
	Currency      string
	Email         string
	State         OrphanState
	Note          string
	UpdatedBy     string
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// OrphanStore keeps payments without an order.
type OrphanStore interface {
	// RecordOrphan keeps p once (state open); a repeated delivery of the
	// same payment reports false.
	RecordOrphan(ctx context.Context, p OrphanPayment) (bool, error)
	// Orphans lists the payments in one of states, oldest first.
	Orphans(ctx context.Context, states ...OrphanState) ([]OrphanPayment, error)
	// Orphan is one payment, or an ENOTFOUND.
	Orphan(ctx context.Context, id string) (*OrphanPayment, error)
	// MoveOrphan moves a payment from one of the states the table lets
	// reach to (a conditional update): a payment moved meanwhile is an
	// ECONFLICT with MsgOrphanMoved.
	MoveOrphan(ctx context.Context, id string, to OrphanState, note, actor string, at time.Time) error
}

// Messages of payments without an order.
const (
	MsgOrphanNotFound = "Payment not found."
	MsgOrphanMoved    = "This payment is %s now: someone acted on it meanwhile."
	MsgOrphanNote     = "Say how it was settled (the audit log keeps it)."
)
