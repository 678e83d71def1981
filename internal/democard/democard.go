// Package democard is the demo card: a payment method that takes a card on
// the Payment step and charges it through a simulated gateway, as the spec
// asks, with no money taken. Its charges are recorded in the shop's
// database, so they survive a crash and every instance sees them.
package democard

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nocturne/storefront/internal/checkout"
	"github.com/nocturne/storefront/internal/shop"
)

// Name is the method's word in PAYMENT_METHODS and on its orders.
const Name = "demo"

// Gateway takes card payments. The shop's is simulated; a real one
// implements the same calls.
type Gateway interface {
	// Tokenize exchanges card details for a token that can be charged once;
	// the card number never goes further than this call.
	Tokenize(ctx context.Context, number string, c checkout.Card) (string, error)
	// Charge charges the token once per idempotency key: a second call with
	// the same key answers the first call's outcome without charging again.
	Charge(ctx context.Context, token string, amount shop.Cents, idempotencyKey string) error
	// Lookup answers what happened to the charge with idempotency key:
	// shop.ChargeSucceeded, shop.ChargeDeclined, or an ENOTFOUND when no
	// charge was made under it.
	Lookup(ctx context.Context, idempotencyKey string) (string, error)
	// Refund gives amount of the charge under chargeKey back, once per
	// charge.
	Refund(ctx context.Context, chargeKey string, amount shop.Cents) error
}

// Method is the demo card as a checkout.Method.
type Method struct {
	Gateway Gateway
}

var _ checkout.CardMethod = (*Method)(nil)

// Name is "demo".
func (m *Method) Name() string { return Name }

// Words are the demo card's choice and how the review shows it.
func (m *Method) Words() checkout.Words {
	return checkout.Words{Label: "Demo card", Note: "a simulated card payment: no money is taken", Card: true}
}

// Claim records the card's label and the charge's key on the order.
func (m *Method) Claim(o *shop.Order, in checkout.PlaceInput, _ time.Time) error {
	o.PaymentMethod, o.ChargeKey = in.Card.Label(), ChargeKey(in.Key, in.Card.Token)
	return nil
}

// Start charges the card after Place Order has answered: the shopper is
// sent to the order's status page at once, which refreshes itself until
// the outcome is known.
func (m *Method) Start(ctx context.Context, p checkout.Payer, o *shop.Order, in checkout.PlaceInput) (checkout.Result, error) {
	paying := *o // the caller keeps o; the charge gets its own copy
	bg := context.WithoutCancel(ctx)
	p.Go(func() { m.charge(bg, p, &paying, in.Card) })
	return checkout.Result{State: checkout.Processing, Order: o, Fresh: true}, nil
}

// charge pays for a claimed order and completes it, or releases it (its
// cart untouched) when the card is declined. An outcome the gateway can't
// tell is left to the recovery sweep.
func (m *Method) charge(bg context.Context, p checkout.Payer, o *shop.Order, card checkout.Card) {
	// The payment runs to its own time limit: neither a closed connection
	// nor a shutdown cuts a charge in half.
	pctx, cancel := context.WithTimeout(bg, p.Timeout())
	defer cancel()
	cerr := m.Gateway.Charge(pctx, card.Token, o.Total, o.ChargeKey)
	if cerr != nil && !errors.Is(cerr, checkout.ErrDeclined) {
		// The outcome is unknown (timeout, network): ask the gateway.
		outcome, lerr := m.Gateway.Lookup(bg, o.ChargeKey)
		switch {
		case lerr == nil && outcome == shop.ChargeSucceeded:
			cerr = nil
		case lerr == nil || shop.ErrorCode(lerr) == shop.ENOTFOUND:
			// Declined, or never charged: release below.
		default:
			// Unknown still: the recovery sweep resolves the claim once its
			// lease ends.
			p.LogError("charge outcome unknown", "err", cerr, "lookup_err", lerr, "order", o.ID)
			return
		}
	}
	if cerr != nil {
		if !errors.Is(cerr, checkout.ErrDeclined) {
			p.LogError("charge failed", "err", cerr, "order", o.ID)
		}
		if err := p.Unpaid(bg, o); err != nil {
			p.LogError("release order", "err", err, "order", o.ID)
		}
		return
	}
	var keep *shop.SavedCard
	if card.Save {
		keep = &shop.SavedCard{Brand: card.Brand, Last4: card.Last4, ExpMonth: card.ExpMonth, ExpYear: card.ExpYear, Name: card.Name}
	}
	if err := p.Paid(bg, o, true, keep); err != nil {
		// The charge stands; the sweep completes the order once its lease
		// ends, as the gateway says it was paid.
		p.LogError("complete order", "err", err, "order", o.ID)
	}
}

// Check asks the gateway about the order's charge: completed if it was
// taken, released if it was declined or never made.
func (m *Method) Check(ctx context.Context, p checkout.Payer, o *shop.Order) (bool, error) {
	outcome := ""
	if o.ChargeKey != "" {
		var err error
		outcome, err = m.Gateway.Lookup(ctx, o.ChargeKey)
		if err != nil && shop.ErrorCode(err) != shop.ENOTFOUND {
			return false, fmt.Errorf("gateway lookup: %w", err)
		}
	}
	if outcome == shop.ChargeSucceeded {
		return true, p.Paid(ctx, o, true, nil)
	}
	return false, p.Unpaid(ctx, o)
}

// Refund gives amount of the order's charge back. The simulated gateway
// keys refunds by charge (RefundKey), so the intent's key is not needed
// for a resend to pay once.
func (m *Method) Refund(ctx context.Context, o *shop.Order, amount shop.Cents, _ string) error {
	if o.ChargeKey == "" {
		return nil
	}
	return m.Gateway.Refund(ctx, o.ChargeKey, amount)
}

// Explain names the card the order was paid with.
func (m *Method) Explain(o *shop.Order) checkout.Explanation {
	last4 := o.PaymentMethod
	if i := strings.LastIndex(last4, " "); i >= 0 {
		last4 = last4[i+1:]
	}
	return checkout.Explanation{
		Confirmation: "Paid with " + o.PaymentMethod + ".",
		RefundTo:     "to your " + o.PaymentMethod,
		Refund:       "Refund %s to the demo card •••• " + last4,
	}
}

// Tokenize hands the card to the gateway.
func (m *Method) Tokenize(ctx context.Context, number string, c checkout.Card) (string, error) {
	return m.Gateway.Tokenize(ctx, number, c)
}

// Declined reports whether the charge of cart key with token was refused.
func (m *Method) Declined(ctx context.Context, cartKey, token string) (bool, error) {
	outcome, err := m.Gateway.Lookup(ctx, ChargeKey(cartKey, token))
	if err != nil && shop.ErrorCode(err) != shop.ENOTFOUND {
		return false, err
	}
	return err == nil && outcome == shop.ChargeDeclined, nil
}

// ChargeKey is the gateway idempotency key of paying for cart key with a
// card token: a retry with the same card is the same charge (a replay gets
// its outcome), another card is a new attempt.
func ChargeKey(cartKey, token string) string {
	sum := sha256.Sum256([]byte("charge\x00" + cartKey + "\x00" + token))
	return "chg_" + hex.EncodeToString(sum[:16])
}
