package stripepay_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/stripepay"
)

func TestNew(t *testing.T) {
	for _, tc := range []struct {
		name    string
		cfg     stripepay.Config
		wantErr string // "" for success
	}{
		{"test key, Stripe's URL", stripepay.Config{SecretKey: "sk_test_abc"}, ""},
		{"restricted key, local URL", stripepay.Config{SecretKey: "rk_test_abc", APIURL: "http://127.0.0.1:12111/"}, ""},
		{"live key over https", stripepay.Config{SecretKey: "sk_live_abc", APIURL: "https://api.stripe.com"}, ""},
		{"no key", stripepay.Config{}, "no secret key"},
		{"blank key", stripepay.Config{SecretKey: "  "}, "no secret key"},
		{"publishable key", stripepay.Config{SecretKey: "pk_test_abc"}, "must start with sk_ or rk_"},
		{"unparsable URL", stripepay.Config{SecretKey: "sk_test_abc", APIURL: "http://[::1"}, "API URL"},
		{"relative URL", stripepay.Config{SecretKey: "sk_test_abc", APIURL: "/v1"}, "absolute http or https"},
		{"live key over plain http", stripepay.Config{SecretKey: "sk_live_abc", APIURL: "http://127.0.0.1:12111"}, "only sent over https"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := stripepay.New(tc.cfg)
			if tc.wantErr == "" {
				if err != nil || c == nil {
					t.Fatalf("New: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("err = %v, want %q", err, tc.wantErr)
			}
			if k := strings.TrimSpace(tc.cfg.SecretKey); k != "" && strings.Contains(err.Error(), k) {
				t.Errorf("the error repeats the key: %v", err)
			}
		})
	}
}

func TestLiveKey(t *testing.T) {
	for key, want := range map[string]bool{
		"sk_live_abc": true, "rk_live_abc": true,
		"sk_test_abc": false, "rk_test_abc": false, "pk_live_abc": false, "": false,
	} {
		if got := stripepay.LiveKey(key); got != want {
			t.Errorf("LiveKey(%q) = %v", key, got)
		}
	}
}

// refusing is an API that counts requests; the requests below must be
// refused before any is sent.
func refusing(t *testing.T) (*stripepay.Client, *atomic.Int32) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		http.Error(w, "unexpected", http.StatusTeapot)
	}))
	t.Cleanup(srv.Close)
	return newTestClient(t, srv.URL), &n
}

func TestCreateSessionRefusesBeforeSending(t *testing.T) {
	c, sent := refusing(t)
	ok := stripepay.SessionRequest{
		OrderID:        "ord_1",
		Lines:          []stripepay.Line{{Name: "Lamp", UnitAmount: 4000, Quantity: 1}},
		SuccessURL:     "https://shop.example/done",
		CancelURL:      "https://shop.example/back",
		ExpiresAt:      time.Now().Add(time.Hour),
		IdempotencyKey: "order-ord_1-pay-1",
	}
	for _, tc := range []struct {
		name   string
		change func(*stripepay.SessionRequest)
		want   string
	}{
		{"no order", func(r *stripepay.SessionRequest) { r.OrderID = "" }, "no order id"},
		{"no idempotency key", func(r *stripepay.SessionRequest) { r.IdempotencyKey = "" }, "no idempotency key"},
		{"idempotency key too long", func(r *stripepay.SessionRequest) { r.IdempotencyKey = strings.Repeat("k", 250) }, "longer than"},
		{"no success URL", func(r *stripepay.SessionRequest) { r.SuccessURL = "" }, "success and cancel"},
		{"no lines", func(r *stripepay.SessionRequest) { r.Lines = nil }, "no lines"},
		{"nameless line", func(r *stripepay.SessionRequest) { r.Lines[0].Name = " " }, "no name"},
		{"zero quantity", func(r *stripepay.SessionRequest) { r.Lines[0].Quantity = 0 }, "quantity 0"},
		{"negative price", func(r *stripepay.SessionRequest) { r.Lines[0].UnitAmount = -1 }, "amount -1"},
		{"negative tax", func(r *stripepay.SessionRequest) { r.Tax = -5 }, "cannot be negative"},
		{"below the minimum", func(r *stripepay.SessionRequest) { r.Lines[0].UnitAmount = 49 }, "below Stripe's minimum charge of $0.50"},
		{"discount leaves less than the minimum", func(r *stripepay.SessionRequest) { r.Discount = 3960 }, "total $0.40"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := ok
			r.Lines = append([]stripepay.Line(nil), ok.Lines...)
			tc.change(&r)
			_, err := c.CreateSession(context.Background(), r)
			if err == nil || !strings.HasPrefix(err.Error(), "stripe: create checkout session: ") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
	if n := sent.Load(); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

func TestRefundAndSessionRefuseBeforeSending(t *testing.T) {
	c, sent := refusing(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		call func() error
		want string
	}{
		{"refund: no payment", func() error { _, err := c.Refund(ctx, "", 100, "", "k"); return err }, "malformed payment intent"},
		{"refund: a path in the id", func() error { _, err := c.Refund(ctx, "pi_1/../x", 100, "", "k"); return err }, "malformed payment intent"},
		{"refund: zero", func() error { _, err := c.Refund(ctx, "pi_1", 0, "", "k"); return err }, "not above zero"},
		{"refund: no key", func() error { _, err := c.Refund(ctx, "pi_1", 100, "", ""); return err }, "no idempotency key"},
		{"refund: free-text reason", func() error { _, err := c.Refund(ctx, "pi_1", 100, "broken on arrival", "k"); return err }, "not one Stripe accepts"},
		{"session: a path in the id", func() error { _, err := c.Session(ctx, "cs_1/expire"); return err }, "malformed id"},
		{"session: not a session id", func() error { _, err := c.Session(ctx, "pi_1"); return err }, "malformed id"},
		{"expire: empty id", func() error { _, err := c.ExpireSession(ctx, "", "k"); return err }, "malformed id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			if err == nil || !strings.HasPrefix(err.Error(), "stripe: ") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
	if n := sent.Load(); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

// Stripe takes amounts in the currency's minor units, as the shop keeps
// them (whole yen for JPY), except in the currencies whose units differ
// from ISO 4217's or that want rounding the shop does not do.
func TestCheckCurrency(t *testing.T) {
	for _, tc := range []struct {
		code string
		ok   bool
	}{
		{"USD", true}, {"usd", true}, {"EUR", true}, {"JPY", true}, {"jpy", true}, {"KRW", true}, {"GBP", true},
		{"ISK", false}, {"MGA", false}, {"KWD", false}, {"bhd", false}, {"JOD", false}, {"OMR", false}, {"TND", false},
	} {
		t.Run(tc.code, func(t *testing.T) {
			if err := stripepay.CheckCurrency(tc.code); (err == nil) != tc.ok {
				t.Errorf("got %v, want accepted: %v", err, tc.ok)
			}
		})
	}
}
