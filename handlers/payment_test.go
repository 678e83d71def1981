package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/nocturne/storefront/handlers"
	"github.com/nocturne/storefront/internal/checkout"
	"github.com/nocturne/storefront/internal/shop"
)

// gatedGateway holds every charge until the test releases it, so a test can
// act "during the payment" without timing.
type gatedGateway struct {
	checkout.Gateway
	entered chan struct{}
	release chan struct{}
}

func gate(app *testApp) *gatedGateway {
	g := &gatedGateway{Gateway: app.checkout.Gateway, entered: make(chan struct{}, 8), release: make(chan struct{})}
	app.checkout.Gateway = g
	return g
}

func (g *gatedGateway) Charge(ctx context.Context, token string, amount shop.Cents, key string) error {
	g.entered <- struct{}{}
	<-g.release
	return g.Gateway.Charge(ctx, token, amount, key)
}

func reviewKey(t *testing.T, c *client) string {
	t.Helper()
	_, doc := c.get("/checkout/review")
	key := doc.Find(`input[name="key"]`).AttrOr("value", "")
	if key == "" {
		t.Fatal("review has no key")
	}
	return key
}

// placeAsync presses Place Order in the background.
func placeAsync(c *client, key string) chan *http.Response {
	done := make(chan *http.Response, 1)
	go func() {
		req := formRequest("/checkout/place", url.Values{"key": {key}})
		for k, v := range c.cookies {
			req.AddCookie(&http.Cookie{Name: k, Value: v})
		}
		res, err := c.app.Test(req, -1)
		if err != nil {
			res = nil
		}
		done <- res
	}()
	return done
}

// One account at Review on two devices presses Place Order
// on both during the payment: one order, one charge, and an item added from
// the second device during the payment stays in the cart.
func TestPlaceOrder_TwoDevicesOneOrder(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	phone := app.register(t, "Ada", "ada@example.com", "night-owl-41")
	laptop := app.client(t)
	if res := app.signIn(t, laptop, "ada@example.com", "night-owl-41", "/"); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign in: %d", res.StatusCode)
	}
	phone.addToCart("/products", "nb-001", "2")
	checkoutToReview(t, phone, testCard)
	checkoutToReview(t, laptop, testCard)
	k1, k2 := reviewKey(t, phone), reviewKey(t, laptop)
	if k1 != k2 {
		t.Fatalf("two reviews of one cart have different keys %q and %q", k1, k2)
	}

	g := gate(app)
	app.checkout.WaitForOther = -1 // answer "still processing" at once
	first := placeAsync(phone, k1)
	<-g.entered
	laptop.addToCart("/products", "nb-002", "1") // during the payment
	res, doc := laptop.post("/checkout/place", url.Values{"key": {k2}})
	if res.StatusCode != http.StatusAccepted || doc.Find(`[data-testid="payment-processing"]`).Length() != 1 {
		t.Fatalf("second device during the payment: %d %q, want 202 and the processing page", res.StatusCode, res.Header.Get("Location"))
	}
	check := doc.Find(`[data-testid="payment-check"]`).AttrOr("href", "")
	close(g.release)
	r1 := <-first
	if r1 == nil || !strings.HasPrefix(r1.Header.Get("Location"), "/orders/NOC-") {
		t.Fatalf("first device: %v", r1)
	}
	orderPath := r1.Header.Get("Location")

	uid := userID(t, app, "ada@example.com")
	if n, _ := app.db.CountOrders(context.Background(), uid); n != 1 {
		t.Fatalf("%d orders, want 1", n)
	}
	if n := app.db.CountCharges(context.Background()); n != 1 {
		t.Errorf("%d charges, want 1", n)
	}
	o, err := app.db.Order(context.Background(), strings.TrimPrefix(orderPath, "/orders/"))
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Lines) != 1 || o.Lines[0].ProductID != "nb-001" || o.Lines[0].Quantity != 2 {
		t.Errorf("order lines %+v, want exactly the charged 2 × nb-001", o.Lines)
	}
	if got := cartLines(t, laptop); len(got) != 1 || got["nb-002"] != "1" {
		t.Errorf("cart after the order %v, want the item added during payment", got)
	}

	// The second device's "Check again" and a replay of its form show the
	// placed order, and charge nothing more.
	res, _ = laptop.get(check)
	if res.Header.Get("Location") != orderPath {
		t.Errorf("check again went to %q, want %q", res.Header.Get("Location"), orderPath)
	}
	res, _ = laptop.post("/checkout/place", url.Values{"key": {k2}})
	if res.Header.Get("Location") != orderPath {
		t.Errorf("replay went to %q, want %q", res.Header.Get("Location"), orderPath)
	}
	_, doc = laptop.get(orderPath)
	if got := text(doc, `[data-testid="flash"]`); got != handlers.MsgOrderPlaced {
		t.Errorf("order page flash %q", got)
	}
	if n := app.db.CountCharges(context.Background()); n != 1 {
		t.Errorf("%d charges after replays, want 1", n)
	}

	// The item left in the cart is a new checkout with a new key.
	if k3 := reviewKey(t, laptop); k3 == k1 {
		t.Error("the rest of the cart has the ordered cart's key")
	}
}

// Tab 1 pays with the decline card, tab 2 presses Place
// Order meanwhile: tab 2 is told the payment is processing, then that it
// was declined; never "placed" on a 404.
func TestPlaceOrder_DeclinedTruthInEveryTab(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.register(t, "Ada", "ada@example.com", "night-owl-41")
	c.addToCart("/products", "nb-001", "1")
	checkoutToReview(t, c, "4000 0000 0000 0002")
	key := reviewKey(t, c)

	g := gate(app)
	app.checkout.WaitForOther = -1 // answer "still processing" at once
	tab1 := placeAsync(c, key)
	<-g.entered
	res, doc := c.post("/checkout/place", url.Values{"key": {key}})
	if res.StatusCode != http.StatusAccepted {
		t.Fatalf("tab 2 during the payment: %d to %q, want 202 processing", res.StatusCode, res.Header.Get("Location"))
	}
	check := doc.Find(`[data-testid="payment-check"]`).AttrOr("href", "")
	close(g.release)
	if r := <-tab1; r == nil || r.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("tab 1: %v", r)
	}

	for name, do := range map[string]func() (*http.Response, string){
		"check again": func() (*http.Response, string) {
			res, doc := c.get(check)
			return res, text(doc, `[data-testid="form-error"]`) + text(doc, `.alert`)
		},
		"press again": func() (*http.Response, string) {
			res, doc := c.post("/checkout/place", url.Values{"key": {key}})
			return res, text(doc, `[data-testid="form-error"]`) + text(doc, `.alert`)
		},
	} {
		res, msg := do()
		if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(msg, checkout.MsgOrderFailed) {
			t.Errorf("%s: %d %q, want 422 and %q", name, res.StatusCode, msg, checkout.MsgOrderFailed)
		}
	}
	if n, _ := app.db.CountOrders(context.Background(), userID(t, app, "ada@example.com")); n != 0 {
		t.Errorf("%d orders after a decline", n)
	}
	if n := app.db.CountCharges(context.Background()); n != 1 {
		t.Errorf("%d charge attempts, want 1 (a replay answers the recorded decline)", n)
	}
	if len(cartLines(t, c)) != 1 {
		t.Error("the decline emptied the cart")
	}
}

// Without waiting pages, a second press waits for the first press's
// payment and shows its outcome: both tabs end on the same order.
func TestPlaceOrder_SecondPressWaitsForTheFirst(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, card string
		placed     bool
	}{{"Approved", testCard, true}, {"Declined", "4000 0000 0000 0002", false}} {
		t.Run(tt.name, func(t *testing.T) {
			app := newTestApp(t)
			c := app.register(t, "Ada", "ada@example.com", "night-owl-41")
			c.addToCart("/products", "nb-001", "1")
			checkoutToReview(t, c, tt.card)
			key := reviewKey(t, c)
			g := gate(app)
			tab1 := placeAsync(c, key)
			<-g.entered
			tab2 := placeAsync(c, key)
			close(g.release)
			r1, r2 := <-tab1, <-tab2
			if r1 == nil || r2 == nil {
				t.Fatal("a press failed")
			}
			if tt.placed {
				if l := r1.Header.Get("Location"); !strings.HasPrefix(l, "/orders/NOC-") || r2.Header.Get("Location") != l {
					t.Errorf("tabs went to %q and %q, want the same order", l, r2.Header.Get("Location"))
				}
			} else if r1.StatusCode != http.StatusUnprocessableEntity || r2.StatusCode != http.StatusUnprocessableEntity {
				t.Errorf("declined: tabs got %d and %d, want 422 both", r1.StatusCode, r2.StatusCode)
			}
			n, _ := app.db.CountOrders(context.Background(), userID(t, app, "ada@example.com"))
			if want := map[bool]int{true: 1, false: 0}[tt.placed]; n != want {
				t.Errorf("%d orders, want %d", n, want)
			}
			if n := app.db.CountCharges(context.Background()); n != 1 {
				t.Errorf("%d charges, want 1", n)
			}
		})
	}
}

// While its payment is being confirmed an order is not called placed, on
// its page or in its timeline.
func TestOrderPage_PendingIsNotPlaced(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.register(t, "Ada", "ada@example.com", "night-owl-41")
	c.addToCart("/products", "nb-001", "1")
	checkoutToReview(t, c, testCard)
	key := reviewKey(t, c)
	g := gate(app)
	done := placeAsync(c, key)
	<-g.entered
	o, err := app.db.OrderByKey(context.Background(), key)
	if err != nil || o.Status != shop.StatusPending {
		close(g.release)
		t.Fatalf("order during the payment: %+v, %v", o, err)
	}
	_, doc := c.get("/orders/" + o.ID)
	close(g.release)
	<-done
	if got := text(doc, `[data-testid="status"]`); got != "Confirming payment" {
		t.Errorf("status %q", got)
	}
	if strings.Contains(text(doc, "main"), "Placed") {
		t.Errorf("a pending order's page says Placed: %q, timeline %q", text(doc, `[data-testid="order-when"]`), text(doc, `[data-testid="timeline"]`))
	}
	_, doc = c.get("/orders/" + o.ID)
	if !strings.HasPrefix(text(doc, `[data-testid="order-when"]`), "Placed") {
		t.Errorf("once paid the order says %q", text(doc, `[data-testid="order-when"]`))
	}
}
