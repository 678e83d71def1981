package checkout

import (
	"context"
	"fmt"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/stripepay"
)

// ChargeRefunded is the outcome the simulated gateway records for a refund.
const ChargeRefunded = "refunded"

// RefundKey is the gateway idempotency key of refunding charge chargeKey:
// one refund per charge, however often a cancel is retried.
func RefundKey(chargeKey string) string { return "refund_" + chargeKey }

// Refund gives a charge's amount back. Like a real gateway's refund it is
// idempotent per charge: the record of the first refund stands.
func (g *SimulatedGateway) Refund(ctx context.Context, chargeKey string, amount shop.Cents) error {
	if g.Charges == nil {
		return nil
	}
	c, err := g.Charges.ChargeByKey(ctx, chargeKey)
	if err != nil {
		return fmt.Errorf("refund: %w", err)
	}
	if c.Outcome != shop.ChargeSucceeded {
		return fmt.Errorf("refund: charge %s was not taken (%s)", chargeKey, c.Outcome)
	}
	if _, err := g.Charges.RecordCharge(ctx, shop.Charge{Key: RefundKey(chargeKey), Amount: amount, Outcome: ChargeRefunded}); err != nil {
		return fmt.Errorf("refund: %w", err)
	}
	return nil
}

// Refund gives amount of order o's payment back through whoever took it:
// the demo gateway's records, or Stripe's Refund API with a key per order
// and amount, so a retried refund is made once. A bank transfer is
// refunded by hand, outside the shop.
func (s *Service) Refund(ctx context.Context, o *shop.Order, amount shop.Cents) error {
	if amount <= 0 {
		return nil
	}
	switch o.PaymentProvider {
	case shop.ProviderStripe:
		if s.Stripe.Pages == nil {
			return fmt.Errorf("refund %s: stripe is not configured", o.ID)
		}
		_, err := s.Stripe.Pages.Refund(ctx, o.PaymentIntent, amount, stripepay.ReasonRequestedByCustomer,
			fmt.Sprintf("nocturne-refund-%s-%d-%d", o.ID, o.Refunded, amount))
		return err
	case shop.ProviderDemo:
		if g, ok := s.Gateway.(*SimulatedGateway); ok && o.ChargeKey != "" {
			return g.Refund(ctx, o.ChargeKey, amount)
		}
	}
	return nil
}
