package stripepay

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/webhook"
)

// Event types the shop listens for; the webhook endpoint in Stripe's
// dashboard sends these.
const (
	EventSessionCompleted             = "checkout.session.completed"
	EventSessionAsyncPaymentSucceeded = "checkout.session.async_payment_succeeded"
	EventSessionAsyncPaymentFailed    = "checkout.session.async_payment_failed"
	EventSessionExpired               = "checkout.session.expired"
	EventChargeRefunded               = "charge.refunded"
)

// Why ParseWebhook refused an event; test with errors.Is. A refused event
// should be answered with HTTP 400 so that it shows as failed in Stripe's
// dashboard.
var (
	// ErrWebhookSignature: the Stripe-Signature header is missing or
	// malformed, or no signature in it matches the body and the secret (a
	// forged or altered request, or the wrong secret configured).
	ErrWebhookSignature = errors.New("stripe: webhook signature does not match")
	// ErrWebhookTooOld: the signature's timestamp is more than 5 minutes
	// old, as a captured request replayed later would be.
	ErrWebhookTooOld = errors.New("stripe: webhook timestamp outside the 5-minute tolerance")
	// ErrWebhookAPIVersion: the event was rendered in an API version other
	// than APIVersion; set the endpoint's version in Stripe's dashboard.
	ErrWebhookAPIVersion = errors.New("stripe: webhook event rendered in another API version")
	// ErrWebhookNoSecret: Config.WebhookSecret is empty.
	ErrWebhookNoSecret = errors.New("stripe: no webhook secret configured")
)

// Event is a verified webhook event, reduced to what the shop acts on.
type Event struct {
	ID   string
	Type string
	// Created is when Stripe made the event. Events can arrive late, out
	// of order and more than once; the Session or the refund figures say
	// the state at that moment.
	Created time.Time

	// Session is set for checkout.session.* events.
	Session *Session

	// For charge.refunded: the payment refunded, the total refunded so
	// far (all partial refunds together, not just this one) and its
	// currency.
	PaymentIntent  string
	AmountRefunded shop.Cents
	Currency       string
}

// ParseWebhook verifies a webhook request (its raw body and its
// Stripe-Signature header) and decodes it. It refuses a bad or missing
// signature, a timestamp outside the default 5-minute tolerance and an
// event rendered in an API version that stripe-go does not deem compatible
// with APIVersion (another release train); the error wraps
// ErrWebhookSignature, ErrWebhookTooOld or ErrWebhookAPIVersion to say
// which. Event types other than the ones above decode with only ID, Type
// and Created set.
func (c *Client) ParseWebhook(payload []byte, signatureHeader string) (Event, error) {
	if c.webhookSecret == "" {
		return Event{}, ErrWebhookNoSecret
	}
	e, err := webhook.ConstructEventWithOptions(payload, signatureHeader, c.webhookSecret, webhook.ConstructEventOptions{})
	if err != nil {
		return Event{}, webhookError(payload, err)
	}

	out := Event{ID: e.ID, Type: string(e.Type), Created: time.Unix(e.Created, 0)}
	if e.Data == nil {
		return out, nil
	}
	switch out.Type {
	case EventSessionCompleted, EventSessionAsyncPaymentSucceeded, EventSessionAsyncPaymentFailed, EventSessionExpired:
		var s stripe.CheckoutSession
		if err := json.Unmarshal(e.Data.Raw, &s); err != nil {
			return Event{}, fmt.Errorf("stripe: webhook %s %s: decode session: %w", out.Type, out.ID, err)
		}
		out.Session = fromStripe(&s)
	case EventChargeRefunded:
		var ch stripe.Charge
		if err := json.Unmarshal(e.Data.Raw, &ch); err != nil {
			return Event{}, fmt.Errorf("stripe: webhook %s %s: decode charge: %w", out.Type, out.ID, err)
		}
		if ch.PaymentIntent != nil {
			out.PaymentIntent = ch.PaymentIntent.ID
		}
		out.AmountRefunded = shop.Cents(ch.AmountRefunded)
		out.Currency = string(ch.Currency)
	}
	return out, nil
}

// webhookError names why stripe-go refused an event. Its signature and
// timestamp errors are sentinels; past those, the body was signed and only
// its JSON or its API version can be at fault, and the version is read here
// to tell the two apart.
func webhookError(payload []byte, err error) error {
	switch {
	case errors.Is(err, webhook.ErrTooOld):
		return ErrWebhookTooOld
	case errors.Is(err, webhook.ErrNotSigned), errors.Is(err, webhook.ErrInvalidHeader), errors.Is(err, webhook.ErrNoValidSignature):
		return fmt.Errorf("%w (%v)", ErrWebhookSignature, err)
	}
	var v struct {
		APIVersion string `json:"api_version"`
	}
	if json.Unmarshal(payload, &v) == nil && v.APIVersion != APIVersion {
		return fmt.Errorf("%w: event has %q, this shop reads %q", ErrWebhookAPIVersion, v.APIVersion, APIVersion)
	}
	return fmt.Errorf("stripe: webhook: %w", err)
}
