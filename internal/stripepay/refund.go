package stripepay

import (
	"context"
	"errors"
	"fmt"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/stripe/stripe-go/v82"
)

// Refund reasons Stripe accepts; "" sends none.
const (
	ReasonDuplicate           = "duplicate"
	ReasonFraudulent          = "fraudulent"
	ReasonRequestedByCustomer = "requested_by_customer"
)

// Refund gives back amount of the payment paymentIntent (a Session's
// PaymentIntent) and returns the refund's id. Partial refunds may follow
// one another until the payment is used up; Stripe refuses more than what
// is left. idempotencyKey is required: a retried refund must never pay out
// twice, so derive it from the shop's own record of this refund.
func (c *Client) Refund(ctx context.Context, paymentIntent string, amount shop.Cents, reason, idempotencyKey string) (refundID string, err error) {
	if err := checkRefund(paymentIntent, amount, reason, idempotencyKey); err != nil {
		return "", fmt.Errorf("stripe: refund: %w", err)
	}
	p := &stripe.RefundCreateParams{
		PaymentIntent: stripe.String(paymentIntent),
		Amount:        stripe.Int64(int64(amount)),
	}
	if reason != "" {
		p.Reason = stripe.String(reason)
	}
	p.SetIdempotencyKey(idempotencyKey)
	r, err := c.sc.V1Refunds.Create(ctx, p)
	if err != nil {
		return "", wrap("refund "+paymentIntent, err)
	}
	return r.ID, nil
}

func checkRefund(paymentIntent string, amount shop.Cents, reason, idempotencyKey string) error {
	switch {
	case !validID(paymentIntent, "pi_"):
		return fmt.Errorf("malformed payment intent id %q", paymentIntent)
	case amount <= 0:
		return fmt.Errorf("amount %d is not above zero", amount)
	case idempotencyKey == "":
		return errors.New("no idempotency key")
	case len(idempotencyKey) > maxKeyLen:
		return fmt.Errorf("idempotency key longer than %d bytes", maxKeyLen)
	}
	switch reason {
	case "", ReasonDuplicate, ReasonFraudulent, ReasonRequestedByCustomer:
		return nil
	}
	return fmt.Errorf("reason %q is not one Stripe accepts (duplicate, fraudulent, requested_by_customer)", reason)
}
