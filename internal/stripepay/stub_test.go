package stripepay_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/stripepay"
	"github.com/nocturne/storefront/internal/stripepay/stripestub"
	"github.com/stripe/stripe-go/v82"
)

// clock is a settable time source for the stand-in.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// receiver is the shop's side of the webhook: it verifies every event with
// ParseWebhook, as the shop's handler will, and keeps what it accepted.
type receiver struct {
	c *stripepay.Client
	// readBack makes the handler read each event's session back from the
	// API, as a careful shop might, while the stand-in waits for the answer.
	readBack bool
	mu       sync.Mutex
	events   []stripepay.Event
	errs     []error
	readBk   []*stripepay.Session
}

func (rv *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	e, err := rv.c.ParseWebhook(body, r.Header.Get("Stripe-Signature"))
	var back *stripepay.Session
	if err == nil && rv.readBack && e.Session != nil {
		back, err = rv.c.Session(r.Context(), e.Session.ID)
	}
	rv.mu.Lock()
	defer rv.mu.Unlock()
	if err != nil {
		rv.errs = append(rv.errs, err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rv.events = append(rv.events, e)
	if back != nil {
		rv.readBk = append(rv.readBk, back)
	}
}

func (rv *receiver) got() ([]stripepay.Event, []error) {
	rv.mu.Lock()
	defer rv.mu.Unlock()
	return append([]stripepay.Event(nil), rv.events...), append([]error(nil), rv.errs...)
}

type stubEnv struct {
	stub   *stripestub.Server
	api    *httptest.Server
	client *stripepay.Client
	recv   *receiver
	clock  *clock
	// browser follows no redirects, so each 303 can be checked.
	browser *http.Client
}

func newStubEnv(t *testing.T) *stubEnv {
	t.Helper()
	clk := &clock{t: time.Now().Truncate(time.Second)}
	stub := stripestub.New(stripestub.Options{WebhookSecret: testWebhookSecret, Now: clk.Now, Logf: t.Logf})
	api := httptest.NewServer(stub)
	t.Cleanup(api.Close)
	c := newTestClient(t, api.URL)
	recv := &receiver{c: c}
	hooks := httptest.NewServer(recv)
	t.Cleanup(hooks.Close)
	stub.SetWebhookURL(hooks.URL + "/webhooks/stripe")
	return &stubEnv{
		stub: stub, api: api, client: c, recv: recv, clock: clk,
		browser: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
	}
}

// order is a cart of $99.99 with $10.00 shipping, $8.00 tax and $5.00
// off: $112.99 due.
func (env *stubEnv) order(id string) stripepay.SessionRequest {
	return stripepay.SessionRequest{
		OrderID:  id,
		Email:    "ada@example.com",
		Currency: "usd",
		Lines: []stripepay.Line{
			{Name: "Night lamp", UnitAmount: 4000, Quantity: 2},
			{Name: "Velvet scarf", UnitAmount: 1999, Quantity: 1},
		},
		Shipping:       1000,
		Tax:            800,
		Discount:       500,
		SuccessURL:     "http://shop.test/checkout/done?session={CHECKOUT_SESSION_ID}",
		CancelURL:      "http://shop.test/checkout/payment",
		ExpiresAt:      env.clock.Now().Add(time.Hour),
		IdempotencyKey: "order-" + id + "-pay-1",
	}
}

// page loads the hosted page as a browser with JavaScript off would.
func (env *stubEnv) page(t *testing.T, pageURL string) *goquery.Document {
	t.Helper()
	resp, err := env.browser.Get(pageURL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", pageURL, resp.Status)
	}
	doc, err := goquery.NewDocumentFromReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// submit posts the form whose button reads label, as a browser would, and
// returns the response without following its redirect.
func (env *stubEnv) submit(t *testing.T, pageURL string, doc *goquery.Document, label string) *http.Response {
	t.Helper()
	var action string
	doc.Find("form").Each(func(_ int, f *goquery.Selection) {
		if strings.TrimSpace(f.Find("button").Text()) == label {
			action, _ = f.Attr("action")
			if m, _ := f.Attr("method"); m != "post" {
				t.Errorf("form %q has method %q", label, m)
			}
		}
	})
	if action == "" {
		t.Fatalf("no form with a %q button", label)
	}
	base, _ := url.Parse(pageURL)
	target, _ := base.Parse(action)
	resp, err := env.browser.PostForm(target.String(), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

func TestStubPayOnHostedPage(t *testing.T) {
	env := newStubEnv(t)
	env.recv.readBack = true
	ctx := context.Background()
	s, err := env.client.CreateSession(ctx, env.order("ord_1"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Status != stripepay.StatusOpen || s.PaymentStatus != stripepay.PaymentUnpaid || s.AmountTotal != 11299 || s.OrderID != "ord_1" {
		t.Errorf("created %+v", s)
	}
	if !strings.HasPrefix(s.URL, env.api.URL+"/pay/") {
		t.Errorf("url %q is not the stand-in's page", s.URL)
	}

	doc := env.page(t, s.URL)
	text := doc.Text()
	for _, want := range []string{"Night lamp", "Velvet scarf", "Shipping", "Tax", "$80.00", "$112.99", "-$5.00"} {
		if !strings.Contains(text, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if doc.Find("script").Length() != 0 {
		t.Error("the page has a script")
	}

	resp := env.submit(t, s.URL, doc, "Pay $112.99")
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("pay: %s", resp.Status)
	}
	if got, want := resp.Header.Get("Location"), "http://shop.test/checkout/done?session="+s.ID; got != want {
		t.Errorf("redirect to %q, want %q", got, want)
	}

	// The webhook was delivered before the redirect.
	events, errs := env.recv.got()
	if len(errs) != 0 || len(events) != 1 {
		t.Fatalf("events %+v, errors %v", events, errs)
	}
	e := events[0]
	if e.Type != stripepay.EventSessionCompleted || e.Session == nil || e.Session.ID != s.ID || !e.Session.Paid() ||
		e.Session.OrderID != "ord_1" || e.Session.AmountTotal != 11299 || e.Session.PaymentIntent == "" {
		t.Errorf("event %+v session %+v", e, e.Session)
	}

	// The handler could read the session back while the stand-in waited
	// on it, and saw it paid.
	env.recv.mu.Lock()
	back := env.recv.readBk
	env.recv.mu.Unlock()
	if len(back) != 1 || !back[0].Paid() {
		t.Errorf("read back in the handler: %+v", back)
	}

	got, err := env.client.Session(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Paid() || got.PaymentIntent != e.Session.PaymentIntent || got.URL != "" {
		t.Errorf("read back %+v", got)
	}

	// A second press (back button, double click) goes to the shop again
	// and pays nothing more.
	resp = env.submit(t, s.URL, doc, "Pay $112.99")
	if resp.StatusCode != http.StatusSeeOther {
		t.Errorf("second pay: %s", resp.Status)
	}
	if events, _ := env.recv.got(); len(events) != 1 {
		t.Errorf("%d events after a second press", len(events))
	}
}

func TestStubCancelOnHostedPage(t *testing.T) {
	env := newStubEnv(t)
	s, err := env.client.CreateSession(context.Background(), env.order("ord_2"))
	if err != nil {
		t.Fatal(err)
	}
	resp := env.submit(t, s.URL, env.page(t, s.URL), "Cancel")
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "http://shop.test/checkout/payment" {
		t.Errorf("cancel: %s to %q", resp.Status, resp.Header.Get("Location"))
	}
	if st, _ := env.stub.Session(s.ID); st.Status != stripepay.StatusOpen {
		t.Errorf("status %q after cancel", st.Status)
	}
	if d := env.stub.Deliveries(); len(d) != 0 {
		t.Errorf("deliveries %+v", d)
	}
}

func TestStubExpire(t *testing.T) {
	ctx := context.Background()
	t.Run("through the API", func(t *testing.T) {
		env := newStubEnv(t)
		s, err := env.client.CreateSession(ctx, env.order("ord_3"))
		if err != nil {
			t.Fatal(err)
		}
		got, err := env.client.ExpireSession(ctx, s.ID, "order-ord_3-expire")
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != stripepay.StatusExpired || got.URL != "" {
			t.Errorf("expired %+v", got)
		}
		events, errs := env.recv.got()
		if len(errs) != 0 || len(events) != 1 || events[0].Type != stripepay.EventSessionExpired || events[0].Session.OrderID != "ord_3" {
			t.Fatalf("events %+v, errors %v", events, errs)
		}

		// Expiring again with a new key: Stripe refuses, and the current
		// state comes back instead of an error.
		again, err := env.client.ExpireSession(ctx, s.ID, "order-ord_3-expire-2")
		if err != nil || again.Status != stripepay.StatusExpired {
			t.Errorf("again: %+v, %v", again, err)
		}

		doc := env.page(t, s.URL)
		if !strings.Contains(doc.Text(), "expired") || doc.Find("form").Length() != 0 {
			t.Error("the page of an expired session still offers to pay")
		}
		resp, err := env.browser.PostForm(s.URL+"/pay", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusGone {
			t.Errorf("paying an expired session: %s", resp.Status)
		}
	})

	t.Run("a paid session is returned as it is", func(t *testing.T) {
		env := newStubEnv(t)
		s, err := env.client.CreateSession(ctx, env.order("ord_4"))
		if err != nil {
			t.Fatal(err)
		}
		if err := env.stub.Pay(s.ID); err != nil {
			t.Fatal(err)
		}
		got, err := env.client.ExpireSession(ctx, s.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		if !got.Paid() {
			t.Errorf("got %+v", got)
		}
	})

	t.Run("when its time passes", func(t *testing.T) {
		env := newStubEnv(t)
		s, err := env.client.CreateSession(ctx, env.order("ord_5"))
		if err != nil {
			t.Fatal(err)
		}
		env.clock.Add(2 * time.Hour)
		if err := env.stub.Pay(s.ID); !errors.Is(err, stripestub.ErrNotOpen) {
			t.Errorf("Pay after expiry: %v", err)
		}
		events, _ := env.recv.got()
		if len(events) != 1 || events[0].Type != stripepay.EventSessionExpired {
			t.Errorf("events %+v", events)
		}
	})

	t.Run("unknown session", func(t *testing.T) {
		env := newStubEnv(t)
		_, err := env.client.ExpireSession(ctx, "cs_test_nosuch", "k")
		var se *stripe.Error
		if !errors.As(err, &se) || se.HTTPStatusCode != http.StatusNotFound {
			t.Errorf("err = %v", err)
		}
	})
}

func TestStubRefund(t *testing.T) {
	env := newStubEnv(t)
	ctx := context.Background()
	s, err := env.client.CreateSession(ctx, env.order("ord_6"))
	if err != nil {
		t.Fatal(err)
	}
	if err := env.stub.Pay(s.ID); err != nil {
		t.Fatal(err)
	}
	paid, err := env.client.Session(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	pi := paid.PaymentIntent

	for _, step := range []struct {
		name     string
		amount   shop.Cents
		key      string
		wantCode stripe.ErrorCode // "" for success
		refunded shop.Cents       // AmountRefunded in the event, on success
	}{
		{"part", 3000, "refund-1", "", 3000},
		{"more than what is left", 8300, "refund-2", stripe.ErrorCodeAmountTooLarge, 0},
		{"the rest", 8299, "refund-3", "", 11299},
		{"anything once all is refunded", 1, "refund-4", stripe.ErrorCodeChargeAlreadyRefunded, 0},
	} {
		t.Run(step.name, func(t *testing.T) {
			before, _ := env.recv.got()
			id, err := env.client.Refund(ctx, pi, step.amount, stripepay.ReasonRequestedByCustomer, step.key)
			after, errs := env.recv.got()
			if len(errs) != 0 {
				t.Fatalf("webhook errors %v", errs)
			}
			if step.wantCode != "" {
				var se *stripe.Error
				if !errors.As(err, &se) || se.Code != step.wantCode {
					t.Fatalf("err = %v, want code %s", err, step.wantCode)
				}
				if len(after) != len(before) {
					t.Errorf("a refused refund sent an event")
				}
				return
			}
			if err != nil || !strings.HasPrefix(id, "re_") {
				t.Fatalf("Refund = %q, %v", id, err)
			}
			if len(after) != len(before)+1 {
				t.Fatalf("%d new events", len(after)-len(before))
			}
			e := after[len(after)-1]
			if e.Type != stripepay.EventChargeRefunded || e.PaymentIntent != pi || e.AmountRefunded != step.refunded || e.Currency != "usd" {
				t.Errorf("event %+v", e)
			}
		})
	}

	t.Run("a retried refund with the same key refunds once", func(t *testing.T) {
		env := newStubEnv(t)
		s, _ := env.client.CreateSession(ctx, env.order("ord_7"))
		if err := env.stub.Pay(s.ID); err != nil {
			t.Fatal(err)
		}
		st, _ := env.stub.Session(s.ID)
		first, err := env.client.Refund(ctx, st.PaymentIntent, 1000, "", "refund-ord_7-1")
		if err != nil {
			t.Fatal(err)
		}
		second, err := env.client.Refund(ctx, st.PaymentIntent, 1000, "", "refund-ord_7-1")
		if err != nil || second != first {
			t.Errorf("retry = %q, %v; first %q", second, err, first)
		}
		if st, _ := env.stub.Session(s.ID); st.AmountRefunded != 1000 {
			t.Errorf("refunded %d", st.AmountRefunded)
		}
	})
}

func TestStubIdempotentCreate(t *testing.T) {
	env := newStubEnv(t)
	ctx := context.Background()
	req := env.order("ord_8")
	first, err := env.client.CreateSession(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	again, err := env.client.CreateSession(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if again.ID != first.ID || again.URL != first.URL {
		t.Errorf("retry opened %s, first %s", again.ID, first.ID)
	}
	st, _ := env.stub.Session(first.ID)
	if st.AmountDiscount != 500 || st.AmountTotal != 11299 || len(st.Lines) != 4 {
		t.Errorf("stand-in holds %+v", st)
	}

	// The same key with other parameters is refused, as Stripe does.
	changed := req
	changed.Lines = append([]stripepay.Line{{Name: "Extra", UnitAmount: 100, Quantity: 1}}, req.Lines...)
	_, err = env.client.CreateSession(ctx, changed)
	var se *stripe.Error
	if !errors.As(err, &se) || se.Code != stripe.ErrorCodeIdempotencyKeyInUse {
		t.Errorf("reused key, other parameters: err = %v", err)
	}

	// A new key opens a new session.
	next := req
	next.IdempotencyKey = "order-ord_8-pay-2"
	other, err := env.client.CreateSession(ctx, next)
	if err != nil || other.ID == first.ID {
		t.Errorf("new key: %+v, %v", other, err)
	}
}

// TestStubEventFor delivers events the way Stripe may: repeated and out of
// order. Each is signed so that ParseWebhook accepts it.
func TestStubEventFor(t *testing.T) {
	env := newStubEnv(t)
	ctx := context.Background()
	s, err := env.client.CreateSession(ctx, env.order("ord_9"))
	if err != nil {
		t.Fatal(err)
	}
	if err := env.stub.Pay(s.ID); err != nil {
		t.Fatal(err)
	}
	for _, typ := range []string{
		stripepay.EventChargeRefunded, // before any refund was made
		stripepay.EventSessionAsyncPaymentFailed,
		stripepay.EventSessionAsyncPaymentSucceeded,
		stripepay.EventSessionExpired,
		stripepay.EventSessionCompleted,
	} {
		t.Run(typ, func(t *testing.T) {
			payload, header, err := env.stub.EventFor(typ, s.ID)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for range 2 {
				e, err := env.client.ParseWebhook(payload, header)
				if err != nil {
					t.Fatal(err)
				}
				if e.Type != typ {
					t.Errorf("type %q", e.Type)
				}
				if typ == stripepay.EventChargeRefunded {
					if e.PaymentIntent == "" || e.AmountRefunded != 0 {
						t.Errorf("event %+v", e)
					}
				} else if e.Session == nil || e.Session.ID != s.ID || e.Session.OrderID != "ord_9" {
					t.Errorf("session %+v", e.Session)
				}
				ids = append(ids, e.ID)
			}
			if ids[0] != ids[1] {
				t.Errorf("a repeated payload has ids %v", ids)
			}
		})
	}
	if _, _, err := env.stub.EventFor("invoice.paid", s.ID); err == nil {
		t.Error("EventFor made an event type it does not know")
	}
}

// TestStubRefusesWhatItDoesNotImplement: the stand-in must not accept a
// parameter and ignore it, or a test against it would pass for behaviour
// it never had.
func TestStubRefusesWhatItDoesNotImplement(t *testing.T) {
	env := newStubEnv(t)
	base := "mode=payment&success_url=http%3A%2F%2Fshop.test%2F&line_items[0][quantity]=1" +
		"&line_items[0][price_data][currency]=usd&line_items[0][price_data][unit_amount]=1000" +
		"&line_items[0][price_data][product_data][name]=Lamp"
	for _, tc := range []struct {
		name, body, key string
		want            int
	}{
		{"a well-formed session", base, "sk_test_x", http.StatusOK},
		{"automatic tax", base + "&automatic_tax[enabled]=true", "sk_test_x", http.StatusBadRequest},
		{"promotion codes", base + "&allow_promotion_codes=true", "sk_test_x", http.StatusBadRequest},
		{"subscription mode", strings.Replace(base, "mode=payment", "mode=subscription", 1), "sk_test_x", http.StatusBadRequest},
		{"below the minimum charge", strings.Replace(base, "unit_amount]=1000", "unit_amount]=49", 1), "sk_test_x", http.StatusBadRequest},
		{"expiring in ten minutes", base + "&expires_at=" + itoa64(env.clock.Now().Add(10*time.Minute).Unix()), "sk_test_x", http.StatusBadRequest},
		{"expiring in two days", base + "&expires_at=" + itoa64(env.clock.Now().Add(48*time.Hour).Unix()), "sk_test_x", http.StatusBadRequest},
		{"a live key", base, "sk_live_x", http.StatusUnauthorized},
		{"no key", base, "", http.StatusUnauthorized},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, env.api.URL+"/v1/checkout/sessions", strings.NewReader(tc.body))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			if tc.key != "" {
				req.Header.Set("Authorization", "Bearer "+tc.key)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.want {
				t.Errorf("status %d, want %d: %s", resp.StatusCode, tc.want, body)
			}
			if tc.key == "sk_live_x" && strings.Contains(string(body), "sk_live_x") {
				t.Error("the key is echoed back")
			}
		})
	}
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }

// TestAPIErrorText: an error Stripe returns reads as one line with what was
// being done and why, and never carries the key.
func TestAPIErrorText(t *testing.T) {
	env := newStubEnv(t)
	_, err := env.client.Session(context.Background(), "cs_test_nosuch")
	if err == nil {
		t.Fatal("no error for an unknown session")
	}
	msg := err.Error()
	for _, want := range []string{"stripe: get checkout session cs_test_nosuch: HTTP 404 invalid_request_error (resource_missing)", "No such checkout.session"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q lacks %q", msg, want)
		}
	}
	if strings.Contains(msg, "sk_test_nocturne") || strings.Contains(msg, "\n") {
		t.Errorf("error text %q", msg)
	}
}
