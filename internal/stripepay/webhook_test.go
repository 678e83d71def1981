package stripepay_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/stripepay"
	"github.com/stripe/stripe-go/v82/webhook"
)

const testWebhookSecret = "whsec_test_nocturne"

func newTestClient(t *testing.T, apiURL string) *stripepay.Client {
	t.Helper()
	c, err := stripepay.New(stripepay.Config{SecretKey: "sk_test_nocturne", WebhookSecret: testWebhookSecret, APIURL: apiURL})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// eventJSON renders an event the way Stripe sends it, in apiVersion.
func eventJSON(t *testing.T, apiVersion, typ string, object map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{
		"id": "evt_test_1", "object": "event", "api_version": apiVersion, "created": 1767225600,
		"type": typ, "livemode": false, "data": map[string]any{"object": object},
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func sign(payload []byte, secret string, at time.Time) string {
	return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: at}).Header
}

var completedSession = map[string]any{
	"id": "cs_test_1", "object": "checkout.session", "status": "complete", "payment_status": "paid",
	"client_reference_id": "ord_1", "amount_total": 11299, "currency": "usd",
	"payment_intent": "pi_test_1", "expires_at": 1767312000, "metadata": map[string]any{"order_id": "ord_1"},
}

func TestParseWebhookAccepts(t *testing.T) {
	c := newTestClient(t, "")
	for _, tc := range []struct {
		name    string
		typ     string
		object  map[string]any
		version string
		check   func(t *testing.T, e stripepay.Event)
	}{
		{"session completed", stripepay.EventSessionCompleted, completedSession, stripepay.APIVersion, func(t *testing.T, e stripepay.Event) {
			s := e.Session
			if s == nil || s.ID != "cs_test_1" || s.OrderID != "ord_1" || s.AmountTotal != 11299 || s.PaymentIntent != "pi_test_1" || !s.Paid() {
				t.Errorf("session %+v", s)
			}
			if !s.ExpiresAt.Equal(time.Unix(1767312000, 0)) {
				t.Errorf("expires %v", s.ExpiresAt)
			}
		}},
		{"order id from metadata when client_reference_id is missing", stripepay.EventSessionExpired, map[string]any{
			"id": "cs_test_2", "object": "checkout.session", "status": "expired", "payment_status": "unpaid",
			"metadata": map[string]any{"order_id": "ord_2"},
		}, stripepay.APIVersion, func(t *testing.T, e stripepay.Event) {
			if e.Session == nil || e.Session.OrderID != "ord_2" || e.Session.Status != stripepay.StatusExpired || e.Session.PaymentIntent != "" {
				t.Errorf("session %+v", e.Session)
			}
		}},
		{"charge refunded", stripepay.EventChargeRefunded, map[string]any{
			"id": "ch_test_1", "object": "charge", "amount": 11299, "amount_refunded": 3000, "currency": "usd", "payment_intent": "pi_test_1",
		}, stripepay.APIVersion, func(t *testing.T, e stripepay.Event) {
			if e.PaymentIntent != "pi_test_1" || e.AmountRefunded != shop.Cents(3000) || e.Currency != "usd" || e.Session != nil {
				t.Errorf("event %+v", e)
			}
		}},
		{"another event type decodes to its envelope", "customer.created", map[string]any{"id": "cus_1", "object": "customer"}, stripepay.APIVersion,
			func(t *testing.T, e stripepay.Event) {
				if e.Type != "customer.created" || e.Session != nil || e.PaymentIntent != "" {
					t.Errorf("event %+v", e)
				}
			}},
		{"same release train, other date (stripe-go deems it compatible)", stripepay.EventSessionCompleted, completedSession, "2025-03-31.basil", func(t *testing.T, e stripepay.Event) {
			if e.Session == nil || e.Session.ID != "cs_test_1" {
				t.Errorf("session %+v", e.Session)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			payload := eventJSON(t, tc.version, tc.typ, tc.object)
			e, err := c.ParseWebhook(payload, sign(payload, testWebhookSecret, time.Now()))
			if err != nil {
				t.Fatalf("ParseWebhook: %v", err)
			}
			if e.ID != "evt_test_1" || e.Type != tc.typ || !e.Created.Equal(time.Unix(1767225600, 0)) {
				t.Errorf("envelope %+v", e)
			}
			tc.check(t, e)
		})
	}
}

func TestParseWebhookRefuses(t *testing.T) {
	c := newTestClient(t, "")
	good := eventJSON(t, stripepay.APIVersion, stripepay.EventSessionCompleted, completedSession)
	tampered := eventJSON(t, stripepay.APIVersion, stripepay.EventSessionCompleted, map[string]any{
		"id": "cs_test_1", "object": "checkout.session", "status": "complete", "payment_status": "paid", "amount_total": 1,
	})
	now := time.Now()
	for _, tc := range []struct {
		name    string
		payload []byte
		header  string
		want    error
	}{
		{"signed with another secret", good, sign(good, "whsec_someone_else", now), stripepay.ErrWebhookSignature},
		{"body changed after signing", tampered, sign(good, testWebhookSecret, now), stripepay.ErrWebhookSignature},
		{"no signature header", good, "", stripepay.ErrWebhookSignature},
		{"malformed signature header", good, "garbage", stripepay.ErrWebhookSignature},
		{"signed ten minutes ago", good, sign(good, testWebhookSecret, now.Add(-10*time.Minute)), stripepay.ErrWebhookTooOld},
		{"an older API version", eventJSON(t, "2024-06-20", stripepay.EventSessionCompleted, completedSession), "", stripepay.ErrWebhookAPIVersion},
		{"another release train", eventJSON(t, "2025-09-30.clover", stripepay.EventSessionCompleted, completedSession), "", stripepay.ErrWebhookAPIVersion},
	} {
		t.Run(tc.name, func(t *testing.T) {
			header := tc.header
			if header == "" && errors.Is(tc.want, stripepay.ErrWebhookAPIVersion) {
				header = sign(tc.payload, testWebhookSecret, now)
			}
			_, err := c.ParseWebhook(tc.payload, header)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}

	t.Run("no webhook secret configured", func(t *testing.T) {
		c, err := stripepay.New(stripepay.Config{SecretKey: "sk_test_nocturne"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.ParseWebhook(good, sign(good, "", now)); !errors.Is(err, stripepay.ErrWebhookNoSecret) {
			t.Fatalf("err = %v", err)
		}
	})
}
