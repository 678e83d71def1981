package checkout

import (
	"context"
	"fmt"

	"github.com/nocturne/storefront/internal/shop"
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
