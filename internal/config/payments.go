package config

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// Payments are the payment methods' settings.
type Payments struct {
	// Methods are the names of the methods the Payment step offers, in
	// PAYMENT_METHODS' order ("demo", "stripe", "bank_transfer").
	Methods []string
	// Stripe Checkout: the API key, the webhook endpoint's signing secret,
	// the API's address (a test server's in tests) and how long a hosted
	// payment page stays open, holding the order's stock.
	StripeSecretKey     string
	StripeWebhookSecret string
	StripeAPIURL        string
	StripeSessionTTL    time.Duration
	// BankTransferInstructions tell the shopper where to send the money;
	// an unpaid bank transfer is cancelled after BankTransferHold.
	BankTransferInstructions string
	BankTransferHold         time.Duration
	// OrphanRefundAfter is how long a payment whose order was gone waits
	// for staff before it is refunded by itself.
	OrphanRefundAfter time.Duration
	// BankTransferMaxOpen is how many unpaid bank transfers one e-mail
	// address, account or session may have at once: each holds its stock
	// for the whole hold, so more would let one shopper take an item off
	// sale for everyone without paying.
	BankTransferMaxOpen int
}

// Offers reports whether the Payment step offers method.
func (p Payments) Offers(method string) bool { return slices.Contains(p.Methods, method) }

// Defaults of the payment settings.
const (
	// DefaultStripeSessionTTL is Stripe's shortest: a Checkout Session may
	// expire 30 minutes to 24 hours after it is made, and stock is held
	// while it is open.
	DefaultStripeSessionTTL  = 30 * time.Minute
	DefaultBankTransferHold  = 7 * 24 * time.Hour
	DefaultOrphanRefundAfter = 24 * time.Hour
	// DefaultBankTransferMaxOpen lets a shopper await one transfer at a
	// time.
	DefaultBankTransferMaxOpen = 1
	DefaultStripeAPIURL        = "https://api.stripe.com"
)

// DefaultPaymentMethods is PAYMENT_METHODS unset: the demo card.
const DefaultPaymentMethods = "demo"

// loadPayments reads the payment methods named and every method's
// settings. Which names exist, and what each method needs when it is
// offered, is the methods' own to say (package paymethods checks both at
// start), so a new method adds nothing here but its settings.
func loadPayments(e *env, cfg *Config) {
	p := &cfg.Payments
	p.Methods = nil
	for _, m := range strings.Split(e.text("PAYMENT_METHODS", DefaultPaymentMethods), ",") {
		m = strings.TrimSpace(m)
		switch {
		case m == "":
			continue
		case slices.Contains(p.Methods, m):
			e.fail("PAYMENT_METHODS lists %s twice", m)
		}
		p.Methods = append(p.Methods, m)
	}
	p.StripeSecretKey = e.get("STRIPE_SECRET_KEY")
	p.StripeWebhookSecret = e.get("STRIPE_WEBHOOK_SECRET")
	p.StripeAPIURL = strings.TrimRight(e.httpURL("STRIPE_API_URL", DefaultStripeAPIURL, "STRIPE_API_URL must be an absolute http(s) URL"), "/")
	p.StripeSessionTTL = e.duration("STRIPE_SESSION_TTL", DefaultStripeSessionTTL, 30*time.Minute, 24*time.Hour,
		"STRIPE_SESSION_TTL must be a duration from 30m to 24h (Stripe's limits) such as 30m")
	p.BankTransferInstructions = strings.TrimSpace(e.get("BANK_TRANSFER_INSTRUCTIONS"))
	p.BankTransferHold = e.days("BANK_TRANSFER_HOLD", DefaultBankTransferHold, time.Hour, 90*24*time.Hour,
		"BANK_TRANSFER_HOLD must be a duration from 1h to 90d such as 7d or 72h")
	p.OrphanRefundAfter = e.days("ORPHAN_PAYMENT_REFUND_AFTER", DefaultOrphanRefundAfter, time.Hour, 90*24*time.Hour,
		"ORPHAN_PAYMENT_REFUND_AFTER must be a duration from 1h to 90d such as 24h or 3d")
	p.BankTransferMaxOpen = e.number("BANK_TRANSFER_MAX_OPEN", DefaultBankTransferMaxOpen, 1, 100,
		"BANK_TRANSFER_MAX_OPEN must be a whole number from 1 to 100")
}

// days reads a duration that may also be written in whole days ("7d").
func (e *env) days(key string, def, lo, hi time.Duration, what string) time.Duration {
	v := e.get(key)
	if n, ok := strings.CutSuffix(v, "d"); ok && v != "" {
		d, err := strconv.Atoi(n)
		if err != nil || time.Duration(d)*24*time.Hour < lo || time.Duration(d)*24*time.Hour > hi {
			e.fail("%s, got %q", what, v)
			return def
		}
		return time.Duration(d) * 24 * time.Hour
	}
	return e.duration(key, def, lo, hi, what)
}
