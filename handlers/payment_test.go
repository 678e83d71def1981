package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/nocturne/storefront/handlers"
	"github.com/nocturne/storefront/internal/checkout"
	"github.com/nocturne/storefront/internal/democard"
	"github.com/nocturne/storefront/internal/shop"
)

// gatedGateway holds every charge until the test releases it, so a test can
// act "during the payment" without timing.
type gatedGateway struct {
	democard.Gateway
	entered chan struct{}
	release chan struct{}
}

func gate(app *testApp) *gatedGateway {
	g := &gatedGateway{Gateway: app.card.Gateway, entered: make(chan struct{}, 8), release: make(chan struct{})}
	app.card.Gateway = g
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
// on both during the payment: one order, one charge, both devices sent to
// its status page, and an item added from the second device during the
// payment stays in the cart.
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
	r1 := <-placeAsync(phone, k1)
	<-g.entered
	statusPath := r1.Header.Get("Location")
	if r1.StatusCode != http.StatusSeeOther || !strings.HasPrefix(statusPath, "/orders/NOC-") || !strings.HasSuffix(statusPath, "/status") {
		t.Fatalf("first device: %d to %q, want the order's status page", r1.StatusCode, statusPath)
	}
	laptop.addToCart("/products", "nb-002", "1") // during the payment
	res, _ := laptop.post("/checkout/place", url.Values{"key": {k2}})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != statusPath {
		t.Fatalf("second device during the payment: %d to %q, want %q", res.StatusCode, res.Header.Get("Location"), statusPath)
	}
	close(g.release)
	phone.settle()
	orderPath := strings.TrimSuffix(statusPath, "/status")

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

	// Both devices' status pages say paid, and a replay of the second
	// device's form shows the placed order and charges nothing more.
	for name, c := range map[string]*client{"phone": phone, "laptop": laptop} {
		if _, doc := c.get(statusPath); doc.Find(`[data-testid="order-status"]`).AttrOr("data-state", "") != "paid" {
			t.Errorf("%s's status page: %q", name, text(doc, "main"))
		}
	}
	res, _ = laptop.post("/checkout/place", url.Values{"key": {k2}})
	if res.Header.Get("Location") != orderPath {
		t.Errorf("replay went to %q, want %q", res.Header.Get("Location"), orderPath)
	}
	_, doc := laptop.get(orderPath)
	if got := text(doc, `[data-testid="flash"]`); got != handlers.MsgOrderPlaced {
		t.Errorf("order page flash %q", got)
	}
	if n := app.db.CountCharges(context.Background()); n != 1 {
		t.Errorf("%d charges after replays, want 1", n)
	}

	// The item left in the cart is a new checkout with a new key.
	checkoutToReview(t, laptop, testCard)
	if k3 := reviewKey(t, laptop); k3 == k1 {
		t.Error("the rest of the cart has the ordered cart's key")
	}
}

// Place Order answers at once with the order's status page while the demo
// card's charge is still running: the request is not held for the payment.
// On the status page the order is being processed, refreshing itself
// without JavaScript, until the charge ends.
func TestPlaceOrder_AnswersBeforeThePayment(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.register(t, "Ada", "ada@example.com", "night-owl-41")
	c.addToCart("/products", "nb-001", "1")
	checkoutToReview(t, c, testCard)
	key := reviewKey(t, c)
	g := gate(app)
	// The charge is held until the answer has come: a Place Order that
	// waited for the payment would never answer.
	res := <-placeAsync(c, key)
	<-g.entered
	loc := res.Header.Get("Location")
	if res.StatusCode != http.StatusSeeOther || !strings.HasSuffix(loc, "/status") {
		close(g.release)
		t.Fatalf("Place Order: %d to %q, want 303 to the order's status page", res.StatusCode, loc)
	}
	_, doc := c.get(loc)
	state := doc.Find(`[data-testid="order-status"]`).AttrOr("data-state", "")
	refresh := doc.Find(`meta[http-equiv="refresh"]`).AttrOr("content", "")
	close(g.release)
	c.settle()
	if state != "processing" || text(doc, "h1") != "Processing your payment…" || refresh == "" {
		t.Errorf("status page during the payment: state %q, %q, refresh %q", state, text(doc, "h1"), refresh)
	}
	_, doc = c.get(loc)
	if state := doc.Find(`[data-testid="order-status"]`).AttrOr("data-state", ""); state != "paid" {
		t.Errorf("status page after the payment: %q", state)
	}
	if doc.Find(`meta[http-equiv="refresh"]`).Length() != 0 {
		t.Error("a settled payment's page still refreshes")
	}
	if text(doc, "h1") != handlers.MsgOrderPlaced {
		t.Errorf("paid: %q", text(doc, "h1"))
	}
}

// Tab 1 pays with the decline card, tab 2 presses Place Order meanwhile:
// both are sent to the status page, which says processing, then that the
// card was declined; never "placed". "Use another card" leads back to the
// Payment step with the address kept, and another card places the order.
func TestPlaceOrder_DeclinedTruthInEveryTab(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.register(t, "Ada", "ada@example.com", "night-owl-41")
	c.addToCart("/products", "nb-001", "1")
	checkoutToReview(t, c, "4000 0000 0000 0002")
	key := reviewKey(t, c)

	g := gate(app)
	tab1 := <-placeAsync(c, key)
	<-g.entered
	statusPath := tab1.Header.Get("Location")
	res, _ := c.post("/checkout/place", url.Values{"key": {key}})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != statusPath {
		t.Fatalf("tab 2 during the payment: %d to %q, want %q", res.StatusCode, res.Header.Get("Location"), statusPath)
	}
	close(g.release)
	c.settle()

	for name, do := range map[string]func() *goquery.Document{
		"status page": func() *goquery.Document { _, doc := c.get(statusPath); return doc },
		"press again": func() *goquery.Document {
			res, _ := c.post("/checkout/place", url.Values{"key": {key}})
			if res.Header.Get("Location") != statusPath {
				t.Errorf("press again went to %q, want %q", res.Header.Get("Location"), statusPath)
			}
			_, doc := c.get(statusPath)
			return doc
		},
	} {
		doc := do()
		if got := text(doc, `[data-testid="form-alert"]`); got != checkout.MsgOrderFailed+" "+checkout.MsgCardDeclined {
			t.Errorf("%s: %q, want the decline", name, got)
		}
		if strings.Contains(text(doc, "main"), "placed") {
			t.Errorf("%s calls a declined order placed: %q", name, text(doc, "main"))
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

	res, _ = c.post("/checkout/retry", nil)
	if res.Header.Get("Location") != "/checkout/payment" {
		t.Fatalf("use another card went to %q", res.Header.Get("Location"))
	}
	res, _ = c.postFrom("/checkout/payment", "/checkout/payment", paymentValues(testCard))
	if res.Header.Get("Location") != "/checkout/review" {
		t.Fatalf("another card: %d to %q, want the review with the address kept", res.StatusCode, res.Header.Get("Location"))
	}
	if res := placeOrder(t, c); !strings.HasSuffix(res.Header.Get("Location"), "/status") {
		t.Fatalf("place with another card: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	if n, _ := app.db.CountOrders(context.Background(), userID(t, app, "ada@example.com")); n != 1 {
		t.Errorf("%d orders after another card, want 1", n)
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
	<-done
	o, err := app.db.OrderByKey(context.Background(), key)
	if err != nil || o.Status != shop.StatusPending {
		close(g.release)
		t.Fatalf("order during the payment: %+v, %v", o, err)
	}
	_, doc := c.get("/orders/" + o.ID)
	close(g.release)
	c.settle()
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
