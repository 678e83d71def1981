package democard

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/nocturne/storefront/internal/checkout"
	"github.com/nocturne/storefront/internal/shop"
)

// DeclinedCard is the test card the simulated gateway always refuses.
const DeclinedCard = "4000000000000002"

// SimulatedGateway approves every card except DeclinedCard, after Delay
// (the spec's business constants: 2 s). Like a real gateway it keeps a record per idempotency key
// (in Charges, the shop's database, so the records survive a crash and
// every instance sees them); with Charges nil it remembers nothing.
type SimulatedGateway struct {
	Delay   time.Duration
	Charges shop.ChargeStore
}

// Tokenize returns a token; a declined card's token says so.
func (g *SimulatedGateway) Tokenize(ctx context.Context, number string, c checkout.Card) (string, error) {
	prefix := "tok_"
	if number == DeclinedCard {
		prefix = "tok_decline_"
	}
	return prefix + shop.RandomHex(12), nil
}

// Charge waits Delay and approves or declines; a key charged before gets
// its recorded outcome at once.
func (g *SimulatedGateway) Charge(ctx context.Context, token string, amount shop.Cents, key string) error {
	if g.Charges != nil {
		if c, err := g.Charges.ChargeByKey(ctx, key); err == nil {
			return outcomeErr(c.Outcome)
		} else if shop.ErrorCode(err) != shop.ENOTFOUND {
			return fmt.Errorf("gateway: %w", err)
		}
	}
	if g.Delay > 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(g.Delay):
		}
	}
	outcome := shop.ChargeSucceeded
	if strings.HasPrefix(token, "tok_decline_") || token == "" {
		outcome = shop.ChargeDeclined
	}
	if g.Charges != nil {
		c, err := g.Charges.RecordCharge(context.WithoutCancel(ctx), shop.Charge{Key: key, Amount: amount, Outcome: outcome})
		if err != nil {
			return fmt.Errorf("gateway: %w", err)
		}
		outcome = c.Outcome
	}
	return outcomeErr(outcome)
}

// Lookup answers from the charge records.
func (g *SimulatedGateway) Lookup(ctx context.Context, key string) (string, error) {
	if g.Charges == nil {
		return "", shop.Errorf(shop.ENOTFOUND, shop.MsgNoCharge)
	}
	c, err := g.Charges.ChargeByKey(ctx, key)
	if err != nil {
		return "", err
	}
	return c.Outcome, nil
}

func outcomeErr(outcome string) error {
	if outcome == shop.ChargeSucceeded {
		return nil
	}
	return checkout.ErrDeclined
}

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
