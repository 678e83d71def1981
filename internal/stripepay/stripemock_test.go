package stripepay_test

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/stripepay"
)

// stripeMockVersion is the stripe-mock the Taskfile installs; its bundled
// OpenAPI spec is what the request shapes are checked against.
const stripeMockVersion = "v0.203.0"

// findStripeMock looks for the stripe-mock binary on PATH, then where
// `go install` puts it (GOBIN, else each GOPATH's bin).
func findStripeMock() string {
	if p, err := exec.LookPath("stripe-mock"); err == nil {
		return p
	}
	out, err := exec.Command("go", "env", "GOBIN", "GOPATH").Output()
	if err != nil {
		return ""
	}
	// One line each, GOBIN's empty when unset: split before trimming.
	lines := strings.Split(string(out), "\n")
	var dirs []string
	if gobin := strings.TrimSpace(lines[0]); gobin != "" {
		dirs = append(dirs, gobin)
	}
	if len(lines) > 1 {
		for _, gp := range filepath.SplitList(strings.TrimSpace(lines[1])) {
			dirs = append(dirs, filepath.Join(gp, "bin"))
		}
	}
	for _, d := range dirs {
		p := filepath.Join(d, "stripe-mock")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
	}
	return ""
}

// startStripeMock runs stripe-mock on loopback ports the system picks and
// returns its HTTP base URL. It learns the port from the line stripe-mock
// prints once its listener is bound, so no polling is needed. Without the
// binary the test skips, except under CI, where it fails.
func startStripeMock(t *testing.T) string {
	t.Helper()
	bin := findStripeMock()
	if bin == "" {
		msg := "stripe-mock not installed: go install github.com/stripe/stripe-mock@" + stripeMockVersion
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	// Both listeners on loopback: left to its defaults stripe-mock also
	// opens HTTPS on every interface.
	cmd := exec.Command(bin, "-http-addr", "127.0.0.1:0", "-https-addr", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})

	const prefix = "Listening for HTTP at address: "
	sc := bufio.NewScanner(stdout)
	var addr string
	for sc.Scan() {
		if a, found := strings.CutPrefix(sc.Text(), prefix); found {
			addr = a
			break
		}
	}
	if addr == "" {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("stripe-mock exited without listening: %s", stderr.String())
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()

	base := "http://" + addr
	// The listener is bound before the line is printed, so the first
	// request is answered; this one proves it is stripe-mock that answers.
	req, _ := http.NewRequest(http.MethodGet, base+"/v1/balance", nil)
	req.Header.Set("Authorization", "Bearer sk_test_123")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("stripe-mock does not answer: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("stripe-mock GET /v1/balance: %s", resp.Status)
	}
	return base
}

// recorder keeps every request the client sends, to check what goes on
// the wire beyond what stripe-mock validates.
type recorder struct {
	mu   sync.Mutex
	reqs []recorded
}

type recorded struct {
	method, path, idemKey string
	form                  url.Values
}

func (rec *recorder) RoundTrip(r *http.Request) (*http.Response, error) {
	var body []byte
	if r.Body != nil {
		body, _ = io.ReadAll(r.Body)
		r.Body.Close()
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	form, _ := url.ParseQuery(string(body))
	rec.mu.Lock()
	rec.reqs = append(rec.reqs, recorded{r.Method, r.URL.Path, r.Header.Get("Idempotency-Key"), form})
	rec.mu.Unlock()
	return http.DefaultTransport.RoundTrip(r)
}

func (rec *recorder) last(method, path string) (recorded, bool) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for i := len(rec.reqs) - 1; i >= 0; i-- {
		if rec.reqs[i].method == method && rec.reqs[i].path == path {
			return rec.reqs[i], true
		}
	}
	return recorded{}, false
}

// TestStripeMock sends every call Client makes to stripe-mock, which
// validates each request against Stripe's OpenAPI spec and refuses unknown
// or malformed parameters, so a pass here means Stripe's API accepts the
// shapes. stripe-mock keeps no state, so what comes back is its fixtures:
// only decoding is checked on the answers.
func TestStripeMock(t *testing.T) {
	base := startStripeMock(t)
	rec := &recorder{}
	c, err := stripepay.New(stripepay.Config{
		SecretKey:  "sk_test_123",
		APIURL:     base,
		HTTPClient: &http.Client{Transport: rec},
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	full := stripepay.SessionRequest{
		OrderID:  "ord_1001",
		Email:    "ada@example.com",
		Currency: "usd",
		Lines: []stripepay.Line{
			{Name: "Night lamp", UnitAmount: 4000, Quantity: 2},
			{Name: "Velvet scarf", UnitAmount: 1999, Quantity: 1},
		},
		Shipping:       1000,
		Tax:            800,
		Discount:       500,
		SuccessURL:     "https://shop.example/checkout/done?session={CHECKOUT_SESSION_ID}",
		CancelURL:      "https://shop.example/checkout/payment",
		ExpiresAt:      time.Now().Add(time.Hour),
		IdempotencyKey: "order-ord_1001-pay-1",
	}
	minimal := stripepay.SessionRequest{
		OrderID:        "ord_1002",
		Lines:          []stripepay.Line{{Name: "Pin", UnitAmount: 50, Quantity: 1}},
		SuccessURL:     "https://shop.example/done",
		CancelURL:      "https://shop.example/cancel",
		IdempotencyKey: "order-ord_1002-pay-1",
	}

	for _, tc := range []struct {
		name      string
		req       stripepay.SessionRequest
		lineItems []string // names sent, in order
		coupon    bool
	}{
		{"lines, shipping, tax and discount", full, []string{"Night lamp", "Velvet scarf", "Shipping", "Tax"}, true},
		{"one line, nothing else", minimal, []string{"Pin"}, false},
	} {
		t.Run("CreateSession/"+tc.name, func(t *testing.T) {
			s, err := c.CreateSession(ctx, tc.req)
			if err != nil {
				t.Fatalf("CreateSession: %v", err)
			}
			if !strings.HasPrefix(s.ID, "cs_") {
				t.Errorf("session id %q", s.ID)
			}

			sent, found := rec.last(http.MethodPost, "/v1/checkout/sessions")
			if !found {
				t.Fatal("no create request recorded")
			}
			f := sent.form
			want := map[string]string{
				"mode":                    "payment",
				"payment_method_types[0]": "card",
				"client_reference_id":     tc.req.OrderID,
				"metadata[order_id]":      tc.req.OrderID,
				"success_url":             tc.req.SuccessURL,
				"cancel_url":              tc.req.CancelURL,
			}
			for k, v := range want {
				if got := f.Get(k); got != v {
					t.Errorf("%s = %q, want %q", k, got, v)
				}
			}
			for _, k := range []string{"automatic_tax[enabled]", "allow_promotion_codes"} {
				if f.Has(k) {
					t.Errorf("sent %s", k)
				}
			}
			if sent.idemKey != tc.req.IdempotencyKey {
				t.Errorf("Idempotency-Key %q, want %q", sent.idemKey, tc.req.IdempotencyKey)
			}
			for i, name := range tc.lineItems {
				if got := f.Get("line_items[" + strconv.Itoa(i) + "][price_data][product_data][name]"); got != name {
					t.Errorf("line %d name %q, want %q", i, got, name)
				}
			}
			if f.Has("line_items[" + strconv.Itoa(len(tc.lineItems)) + "][quantity]") {
				t.Errorf("more than %d line items sent", len(tc.lineItems))
			}
			if got := f.Has("discounts[0][coupon]"); got != tc.coupon {
				t.Errorf("discount coupon sent: %v, want %v", got, tc.coupon)
			}
			if tc.coupon {
				cp, found := rec.last(http.MethodPost, "/v1/coupons")
				if !found {
					t.Fatal("no coupon request recorded")
				}
				if cp.form.Get("amount_off") != "500" || cp.form.Get("duration") != "once" {
					t.Errorf("coupon form %v", cp.form)
				}
				if cp.idemKey == "" || cp.idemKey == tc.req.IdempotencyKey {
					t.Errorf("coupon Idempotency-Key %q: want its own key", cp.idemKey)
				}
			}
		})
	}

	t.Run("Session", func(t *testing.T) {
		s, err := c.Session(ctx, "cs_test_a1b2c3")
		if err != nil {
			t.Fatalf("Session: %v", err)
		}
		if s.ID == "" || s.Status == "" {
			t.Errorf("decoded %+v", s)
		}
	})

	t.Run("ExpireSession", func(t *testing.T) {
		s, err := c.ExpireSession(ctx, "cs_test_a1b2c3", "order-ord_1001-expire-1")
		if err != nil {
			t.Fatalf("ExpireSession: %v", err)
		}
		if s.ID == "" {
			t.Errorf("decoded %+v", s)
		}
		if sent, _ := rec.last(http.MethodPost, "/v1/checkout/sessions/cs_test_a1b2c3/expire"); sent.idemKey != "order-ord_1001-expire-1" {
			t.Errorf("Idempotency-Key %q", sent.idemKey)
		}
	})

	t.Run("Refund", func(t *testing.T) {
		id, err := c.Refund(ctx, "pi_123", shop.Cents(2500), stripepay.ReasonRequestedByCustomer, "order-ord_1001-refund-1")
		if err != nil {
			t.Fatalf("Refund: %v", err)
		}
		if id == "" {
			t.Error("no refund id")
		}
		sent, _ := rec.last(http.MethodPost, "/v1/refunds")
		if sent.form.Get("payment_intent") != "pi_123" || sent.form.Get("amount") != "2500" || sent.idemKey != "order-ord_1001-refund-1" {
			t.Errorf("refund request %v, key %q", sent.form, sent.idemKey)
		}
	})

	t.Run("stripe-mock refuses a malformed request", func(t *testing.T) {
		// A control: the checks above mean something only if stripe-mock
		// does refuse what Stripe would.
		req, _ := http.NewRequest(http.MethodPost, base+"/v1/checkout/sessions", strings.NewReader("mode=payment&no_such_param=1"))
		req.Header.Set("Authorization", "Bearer sk_test_123")
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("status %s, want 400", resp.Status)
		}
	})
}
