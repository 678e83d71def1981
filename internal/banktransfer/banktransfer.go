// Package banktransfer is payment by bank transfer: the order is placed at
// once and holds its stock while the shop waits for the money; staff mark
// it paid when it arrives, and one not paid within the hold is cancelled.
// Its refunds are sent back by hand, outside the shop: they are only
// recorded.
package banktransfer

import (
	"context"
	"fmt"
	"time"

	"github.com/nocturne/storefront/internal/checkout"
	"github.com/nocturne/storefront/internal/shop"
)

// Name is the method's word in PAYMENT_METHODS and on its orders.
const Name = "bank_transfer"

// MsgAwaitingTransfer refuses another bank transfer to a shopper with as
// many unpaid as MaxOpen allows, next to the choice of method.
const MsgAwaitingTransfer = "Your earlier bank transfer still awaits payment. Please pay it first (the details are in its confirmation e-mail), or choose another way to pay."

// MsgNotReceived is the reason an unpaid bank transfer is cancelled with;
// %d is the hold in days.
const MsgNotReceived = "Your bank transfer did not arrive within %d days, so the items went back on sale."

// Method is the bank transfer as a checkout.Method: Instructions say where
// to send the money; an unpaid order is cancelled after Hold. Each unpaid
// order holds its stock for the whole Hold, so one shopper (an e-mail
// address, an account or a session) may have at most MaxOpen of them at
// once, counted in Unpaid; without Unpaid or MaxOpen nobody is refused.
type Method struct {
	Instructions string
	Hold         time.Duration
	MaxOpen      int
	Unpaid       Unpaid
}

// Unpaid counts the unpaid orders of a shopper (shop.PaymentStore).
type Unpaid interface {
	UnpaidBy(ctx context.Context, provider, userID, email string) (int, error)
}

var (
	_ checkout.Method      = (*Method)(nil)
	_ checkout.AdmitMethod = (*Method)(nil)
)

// Name is "bank_transfer".
func (m *Method) Name() string { return Name }

// Words are the bank transfer's choice, its review and its hold.
func (m *Method) Words() checkout.Words {
	return checkout.Words{
		Label:  "Bank transfer",
		Note:   fmt.Sprintf("pay from your bank after placing the order; we hold your items for %d days", checkout.HoldDays(m.Hold)),
		Review: "Bank transfer", ReviewNote: "Our bank details come with your order confirmation.",
		ByHand: true, Hold: m.Hold, Lapsed: fmt.Sprintf(MsgNotReceived, checkout.HoldDays(m.Hold)),
	}
}

// Claim names the payment; there is no charge to key.
func (m *Method) Claim(o *shop.Order, _ checkout.PlaceInput, _ time.Time) error {
	o.PaymentMethod = "Bank transfer"
	return nil
}

// Admit refuses a shopper who has MaxOpen unpaid transfers already, by
// the account or session or by the e-mail given (a new guest session with
// the same address is the same shopper).
func (m *Method) Admit(ctx context.Context, in checkout.PlaceInput) error {
	if m.Unpaid == nil || m.MaxOpen <= 0 {
		return nil
	}
	n, err := m.Unpaid.UnpaidBy(ctx, Name, in.UserID, in.Shipping.Email)
	if err != nil {
		return fmt.Errorf("unpaid bank transfers: %w", err)
	}
	if n >= m.MaxOpen {
		return shop.Errorf(shop.EINVALID, MsgAwaitingTransfer)
	}
	return nil
}

// Start places the order at once: nothing is charged now, its stock is
// held, and it waits for the money.
func (m *Method) Start(ctx context.Context, p checkout.Payer, o *shop.Order, _ checkout.PlaceInput) (checkout.Result, error) {
	if err := p.Paid(ctx, o, false, nil); err != nil {
		return checkout.Result{}, err
	}
	return checkout.Result{State: checkout.Placed, Order: o, Fresh: true}, nil
}

// Check releases an order left pending: placing one takes no payment, so
// only a crash between its claim and its completion leaves one, unpaid.
func (m *Method) Check(ctx context.Context, p checkout.Payer, o *shop.Order) (bool, error) {
	return false, p.Unpaid(ctx, o)
}

// Refund records nothing more: the money goes back by hand.
func (m *Method) Refund(context.Context, *shop.Order, shop.Cents, string) error { return nil }

// Explain gives the instructions and the hold in the confirmation.
func (m *Method) Explain(o *shop.Order) checkout.Explanation {
	return checkout.Explanation{
		Confirmation: fmt.Sprintf("Please pay %s by bank transfer, with %s as the reference:\n\n%s\n\nWe hold your items for %d days and ship once the money arrives; an order not paid by then is cancelled.",
			o.Total, o.ID, m.Instructions, checkout.HoldDays(m.Hold)),
		Instructions: m.Instructions,
		RefundTo:     "by bank transfer, to the account you paid from",
		Refund:       "Mark %s refunded (bank transfer)",
	}
}
