package shop

import (
	"context"
	"time"
)

// RefundState is where money on its way back to a shopper stands.
type RefundState string

// The states of a refund intent: open from the moment the refund is
// counted until the provider made it (sent) or refused it (undone). A
// refund paid back by hand stays open until staff confirm they sent it.
const (
	RefundOpen   RefundState = "open"
	RefundSent   RefundState = "sent"
	RefundUndone RefundState = "undone"
)

// RefundIntent is a refund recorded before any money moves, so a process
// that stops between counting it and asking the provider leaves a row a
// sweep can finish or undo. Key is both its id and the idempotency key the
// provider is sent, so sending it again pays once.
type RefundIntent struct {
	Key               string
	OrderID, ReturnID string
	Was, Amount       Cents
	// Method is the payment method's name (Order.PaymentProvider); ByHand
	// says staff send the money themselves (its words' ByHand).
	Method string
	ByHand bool
	Actor  string
	// Reason is what the shopper reads in the refund mail.
	Reason     string
	State      RefundState
	LeaseUntil time.Time
	CreatedAt  time.Time
}

// RefundDone is what completing an open intent writes in the transaction
// that marks it sent: the audit entry and, when the mailer keeps its mail
// in the database, the shopper's mail.
type RefundDone struct {
	Key   string
	Audit AuditEntry
	Mail  *Email
	At    time.Time
}

// RefundIntentStore keeps refund intents. The intent itself is written by
// PaymentStore.ClaimRefund (RefundClaim.Key) or by the cancel that refunds
// (Transition.Refund), in the transaction that counts the refund, and
// undone by UndoRefund.
type RefundIntentStore interface {
	// FinishRefund marks the open intent d.Key sent and writes d's audit
	// entry and mail with it, in one transaction; it reports false, and
	// writes nothing, when the intent is no longer open.
	FinishRefund(ctx context.Context, d RefundDone) (bool, error)
	// StaleRefunds lists the open intents sent through a provider whose
	// lease ended before now, oldest first: those a process left behind.
	StaleRefunds(ctx context.Context, now time.Time) ([]RefundIntent, error)
	// TakeRefund extends the lease of an open intent whose lease ended
	// before now to until, and reports whether this caller took it: of two
	// sweepers, one does.
	TakeRefund(ctx context.Context, key string, now, until time.Time) (bool, error)
	// RefundsByHand lists the open intents staff pay back themselves,
	// oldest first.
	RefundsByHand(ctx context.Context) ([]RefundIntent, error)
	// RefundIntent is the intent key, or an ENOTFOUND.
	RefundIntent(ctx context.Context, key string) (*RefundIntent, error)
}

// NewRefundKey is a fresh intent key for a refund of order orderID.
func NewRefundKey(orderID string) string { return "nocturne-refund-" + orderID + "-" + RandomHex(8) }
