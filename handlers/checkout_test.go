package handlers_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/nocturne/storefront/handlers"
	"github.com/nocturne/storefront/internal/checkout"
	"github.com/nocturne/storefront/internal/demo"
	"github.com/nocturne/storefront/internal/shop"
)

var shippingValues = url.Values{"firstName": {"Ada"}, "lastName": {"Lovelace"}, "email": {"ada@example.com"}, "phone": {"555 0100"},
	"address": {"12 St James's Square"}, "city": {"London"}, "state": {"LDN"}, "zipCode": {"SW1Y 4LE"}, "country": {"United Kingdom"}}

const testCard, testCVV = "4242 4242 4242 4242", "9731"

func paymentValues(number string) url.Values {
	return url.Values{"method": {"demo"}, "cardNumber": {number}, "cardName": {"Ada Lovelace"}, "expiryDate": {"12/28"}, "cvv": {testCVV}, "action": {"next"}}
}

// checkoutToReview takes a shopper with a cart through shipping and payment.
func checkoutToReview(t *testing.T, c *client, card string) {
	t.Helper()
	res, _ := c.postFrom("/checkout/shipping", "/checkout/shipping", shippingValues)
	if res.Header.Get("Location") != "/checkout/payment" {
		t.Fatalf("shipping: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	res, _ = c.postFrom("/checkout/payment", "/checkout/payment", paymentValues(card))
	if res.Header.Get("Location") != "/checkout/review" {
		t.Fatalf("payment: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
}

// placeOrder presses Place Order on the review and waits for the demo
// card's charge, which runs after the answer. The answer's Location is the
// order's status page; orderPath gives its order page.
func placeOrder(t *testing.T, c *client) *http.Response {
	t.Helper()
	_, doc := c.get("/checkout/review")
	key := doc.Find(`input[name="key"]`).AttrOr("value", "")
	if key == "" {
		t.Fatal("review has no idempotency key")
	}
	res, _ := c.postFrom("/checkout/review", "/checkout/place", url.Values{"key": {key}})
	c.settle()
	return res
}

// orderPath is the order page of Place Order's answer (which is the
// order's status page, or the order page itself).
func orderPath(res *http.Response) string {
	return strings.TrimSuffix(res.Header.Get("Location"), "/status")
}

func TestCheckout_Guest(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.client(t)
	if res, _ := c.get("/checkout"); res.Header.Get("Location") != "/cart" {
		t.Fatalf("empty cart: went to %q", res.Header.Get("Location"))
	}
	c.addToCart("/products", "nb-001", "2")
	c.addToCart("/products", "nb-002", "1")
	_, doc := c.get("/checkout")
	if doc.Find(`[data-testid="checkout-gate"]`).Length() != 1 {
		t.Fatal("no sign-in-or-guest prompt")
	}
	if got := doc.Find(`[data-testid="gate-signin"]`).AttrOr("href", ""); got != "/login?from=%2Fcheckout" {
		t.Errorf("sign in link %q", got)
	}
	res, _ := c.postFrom("/checkout", "/guest", url.Values{"from": {"/checkout"}})
	if res.Header.Get("Location") != "/checkout" {
		t.Fatalf("guest: went to %q", res.Header.Get("Location"))
	}
	if res, _ := c.get("/checkout"); res.Header.Get("Location") != "/checkout/shipping" {
		t.Fatalf("checkout entry: %q", res.Header.Get("Location"))
	}
	_, doc = c.get("/checkout/shipping")
	if got := text(doc, `[data-testid="shipping"]`); got != "Free" { // $598.99: over $50
		t.Errorf("summary shipping %q", got)
	}
	checkoutToReview(t, c, testCard)
	_, doc = c.get("/checkout/review")
	if got := text(doc, `[data-testid="review-card"]`); got != "Visa ending 4242" {
		t.Errorf("review card %q", got)
	}
	totalOnReview := text(doc, `[data-testid="total"]`)
	res = placeOrder(t, c)
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "/orders/NOC-") {
		t.Fatalf("place: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	_, doc = c.get(res.Header.Get("Location"))
	if got := text(doc, "h1"); got != handlers.MsgOrderPlaced {
		t.Errorf("status page %q", got)
	}
	_, doc = c.get(orderPath(res))
	if got := text(doc, `[data-testid="status"]`); got != "Processing" {
		t.Errorf("status %q", got)
	}
	if got := text(doc, `main [data-testid="order-total"]`); got != totalOnReview {
		t.Errorf("order total %q, review said %q", got, totalOnReview)
	}
	if got := text(doc, `[data-testid="tracking"]`); got != "Not shipped yet" {
		t.Errorf("tracking %q", got)
	}
	if got := len(cartLines(t, c)); got != 0 {
		t.Errorf("cart not emptied: %d lines", got)
	}
	_, doc = c.get("/orders")
	if n := doc.Find(`[data-testid="order-row"]`).Length(); n != 1 {
		t.Errorf("orders list: %d rows", n)
	}
	mails, _ := app.db.Outbox(context.Background())
	if len(mails) != 1 || !strings.HasPrefix(mails[0].Subject, "Your order NOC-") || mails[0].To != "ada@example.com" {
		t.Errorf("confirmation e-mail: %+v", mails)
	}
}

func TestCheckout_SignedInPrefillAndSavedCard(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.register(t, "Ada Lovelace", "ada@example.com", "night-owl-41")
	c.postFrom("/profile/setup", "/profile/setup", url.Values{"action": {"save"}, "city": {"Toronto"}, "country": {"Canada"}, "zipCode": {"M5V 2T6"}})
	c.addToCart("/products", "nb-003", "1")
	_, doc := c.get("/checkout/shipping")
	for id, want := range map[string]string{"ship-first": "Ada", "ship-last": "Lovelace", "ship-email": "ada@example.com", "ship-city": "Toronto", "ship-zip": "M5V 2T6"} {
		if got := doc.Find("#"+id).AttrOr("value", ""); got != want {
			t.Errorf("%s prefilled %q, want %q", id, got, want)
		}
	}
	if got := doc.Find(`#ship-country option[selected]`).AttrOr("value", ""); got != "Canada" {
		t.Errorf("country %q", got)
	}
	c.postFrom("/checkout/shipping", "/checkout/shipping", shippingValues)
	pay := paymentValues(testCard)
	pay.Set("saveCard", "1")
	c.postFrom("/checkout/payment", "/checkout/payment", pay)
	placeOrder(t, c)

	c.addToCart("/products", "nb-004", "1")
	c.postFrom("/checkout/shipping", "/checkout/shipping", shippingValues)
	_, doc = c.get("/checkout/payment")
	if !strings.Contains(doc.Find(`.saved-card`).Text(), "Visa ending 4242") {
		t.Fatal("saved card not offered")
	}
	res, _ := c.postFrom("/checkout/payment", "/checkout/payment", url.Values{"use_saved": {"1"}, "cvv": {"123"}, "action": {"next"}})
	if res.Header.Get("Location") != "/checkout/review" {
		t.Fatalf("saved card payment: %d", res.StatusCode)
	}
	if res := placeOrder(t, c); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("place with saved card: %d", res.StatusCode)
	}
	_, doc = c.get("/profile")
	if got := text(doc, `[data-testid="orders-count"]`); got != "2" {
		t.Errorf("profile orders %q", got)
	}
}

func TestCheckout_ValidationKeepsData(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.register(t, "Ada", "ada@example.com", "night-owl-41")
	c.addToCart("/products", "nb-001", "1")
	bad := url.Values{}
	for k, v := range shippingValues {
		bad[k] = v
	}
	bad.Set("lastName", "")
	bad.Set("zipCode", " ")
	res, doc := c.postFrom("/checkout/shipping", "/checkout/shipping", bad)
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("status %d", res.StatusCode)
	}
	if got := text(doc, `[data-testid="form-alert"]`); got != "Please fill in all required fields: Last Name, ZIP Code" {
		t.Errorf("alert %q", got)
	}
	if got := doc.Find(`#ship-city`).AttrOr("value", ""); got != "London" {
		t.Errorf("typed city lost: %q", got)
	}
	checkoutToReview(t, c, testCard)

	// Back from review and from payment keeps the shipping data.
	res, _ = c.postFrom("/checkout/review", "/checkout/back", url.Values{})
	if res.Header.Get("Location") != "/checkout/payment" {
		t.Fatalf("back from review: %q", res.Header.Get("Location"))
	}
	_, doc = c.postFrom("/checkout/payment", "/checkout/payment", url.Values{"cardNumber": {"4242"}, "cardName": {"Ada"}, "expiryDate": {"12/28"}, "cvv": {"123"}})
	if got := text(doc, `[data-testid="form-alert"]`); got != checkout.MsgBadCard {
		t.Errorf("card alert %q", got)
	}
	if doc.Find(`#card-number`).AttrOr("value", "") != "" || doc.Find(`#card-cvv`).AttrOr("value", "") != "" {
		t.Error("card number or CVV sent back into the form")
	}
	if got := doc.Find(`#card-name`).AttrOr("value", ""); got != "Ada" {
		t.Errorf("name on card lost: %q", got)
	}
	res, _ = c.postFrom("/checkout/payment", "/checkout/payment", url.Values{"action": {"back"}})
	if res.Header.Get("Location") != "/checkout/shipping" {
		t.Fatalf("back from payment: %q", res.Header.Get("Location"))
	}
	_, doc = c.get("/checkout/shipping")
	if got := doc.Find(`#ship-address`).AttrOr("value", ""); got != "12 St James's Square" {
		t.Errorf("shipping after Back: %q", got)
	}
	// The review cannot be reached by skipping a step.
	fresh := app.register(t, "Bo", "bo@example.com", "night-owl-41")
	fresh.addToCart("/products", "nb-001", "1")
	if res, _ := fresh.get("/checkout/review"); res.Header.Get("Location") != "/checkout/shipping" {
		t.Errorf("skipping to review went to %q", res.Header.Get("Location"))
	}
}

func TestCheckout_Declined(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.register(t, "Ada", "ada@example.com", "night-owl-41")
	c.addToCart("/products", "nb-001", "1")
	checkoutToReview(t, c, "4000 0000 0000 0002")
	res := placeOrder(t, c)
	_, doc := c.get(res.Header.Get("Location"))
	if got, want := text(doc, `[data-testid="form-alert"]`), checkout.MsgOrderFailed+" "+checkout.MsgCardDeclined; got != want {
		t.Errorf("alert: got %q, want %q", got, want)
	}
	if got := doc.Find(`form:has([data-testid="use-another-card"])`).AttrOr("action", ""); got != "/checkout/retry" {
		t.Errorf("way back to the card: got %q, want /checkout/retry", got)
	}
	if res, _ := c.post("/checkout/retry", nil); res.Header.Get("Location") != "/checkout/payment" {
		t.Fatalf("use another card went to %q", res.Header.Get("Location"))
	}
	c.postFrom("/checkout/payment", "/checkout/payment", paymentValues(testCard))
	_, doc = c.get("/checkout/review")
	if !strings.Contains(text(doc, `[data-testid="review-address"]`), "London") {
		t.Error("shipping data lost after a decline")
	}
	if n, _ := app.db.CountOrders(context.Background(), userID(t, app, "ada@example.com")); n != 0 {
		t.Errorf("declined payment left %d orders", n)
	}
	if len(cartLines(t, c)) != 1 {
		t.Error("declined payment emptied the cart")
	}
}

// A product whose price was stored as $0.00 (as the old parser did for
// "0.001") cannot be bought for nothing.
func TestCheckout_ZeroTotalRefused(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	ctx := context.Background()
	p, err := app.db.AdminProduct(ctx, "nb-001")
	if err != nil {
		t.Fatal(err)
	}
	p.Price, p.Original = 0, 0
	if err := app.db.SaveProduct(ctx, shop.ProductEdit{Product: *p, StockWas: p.Stock}); err != nil {
		t.Fatal(err)
	}
	if err := app.catalog.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	c := app.register(t, "Ada", "ada@example.com", "night-owl-41")
	c.addToCart("/products", "nb-001", "1")
	checkoutToReview(t, c, testCard)
	_, doc := c.get("/checkout/review")
	res, doc := c.postFrom("/checkout/review", "/checkout/place", url.Values{"key": {doc.Find(`input[name="key"]`).AttrOr("value", "")}})
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("a $0.00 order: %d to %q, want 422", res.StatusCode, res.Header.Get("Location"))
	}
	if got := text(doc, `[data-testid="form-alert"]`); !strings.Contains(got, checkout.MsgZeroTotal) {
		t.Errorf("alert %q", got)
	}
	if n, _ := app.db.CountOrders(ctx, userID(t, app, "ada@example.com")); n != 0 {
		t.Errorf("a $0.00 order was placed (%d orders)", n)
	}
}

func TestCheckout_PlaceOnce(t *testing.T) {
	t.Parallel()
	app := newTestApp(t, withDBFile(filepath.Join(t.TempDir(), "shop.db")))
	c := app.register(t, "Ada", "ada@example.com", "night-owl-41")
	c.addToCart("/products", "nb-001", "1")
	checkoutToReview(t, c, testCard)
	_, doc := c.get("/checkout/review")
	key := doc.Find(`input[name="key"]`).AttrOr("value", "")

	var wg sync.WaitGroup
	locations := make([]string, 8)
	for i := range locations {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := formRequest("/checkout/place", url.Values{"key": {key}})
			for k, v := range c.cookies {
				req.AddCookie(&http.Cookie{Name: k, Value: v})
			}
			res, err := app.app.Test(req, -1)
			if err == nil {
				locations[i] = res.Header.Get("Location")
			}
		}()
	}
	wg.Wait()
	c.settle()
	if n, _ := app.db.CountOrders(context.Background(), userID(t, app, "ada@example.com")); n != 1 {
		t.Fatalf("concurrent Place Order made %d orders, want 1 (%v)", n, locations)
	}
	// Each press is sent to the one order: its status page, or its page
	// once paid.
	first := strings.TrimSuffix(locations[0], "/status")
	if first == "" || slices.ContainsFunc(locations, func(l string) bool { return strings.TrimSuffix(l, "/status") != first }) {
		t.Errorf("concurrent presses went to %v, want one order", locations)
	}
	// And a later double submit of the same form goes to the same order.
	res, _ := c.postFrom("/", "/checkout/place", url.Values{"key": {key}})
	if !strings.HasPrefix(res.Header.Get("Location"), "/orders/NOC-") {
		t.Errorf("resubmit went to %q", res.Header.Get("Location"))
	}
	if n, _ := app.db.CountOrders(context.Background(), userID(t, app, "ada@example.com")); n != 1 {
		t.Errorf("resubmit made another order: %d", n)
	}
}

// After a checkout, the card number and CVV are nowhere: not in the
// database (orders, sessions, anything), not in the logs.
func TestCheckout_NoCardDataKept(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var logs bytes.Buffer
	app := newTestApp(t, withDBFile(filepath.Join(dir, "shop.db")), func(_ map[string]string, d *handlers.Deps) {
		d.Log = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	c := app.register(t, "Ada", "ada@example.com", "night-owl-41")
	c.addToCart("/products", "nb-001", "1")
	checkoutToReview(t, c, testCard)
	// A rejected attempt too: its number must not be echoed or logged.
	c.postFrom("/checkout/payment", "/checkout/payment", url.Values{"cardNumber": {testCard}, "cardName": {"A"}, "expiryDate": {"13/99"}, "cvv": {testCVV}})
	checkoutToReview(t, c, testCard)
	if res := placeOrder(t, c); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("place: %d", res.StatusCode)
	}
	app.db.Close()
	files, _ := filepath.Glob(filepath.Join(dir, "shop.db*"))
	needles := []string{strings.ReplaceAll(testCard, " ", ""), testCard, "4242-4242", testCVV}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		for _, n := range needles {
			if bytes.Contains(b, []byte(n)) {
				t.Errorf("%s contains %q", filepath.Base(f), n)
			}
		}
	}
	for _, n := range needles {
		if strings.Contains(logs.String(), n) {
			t.Errorf("logs contain %q", n)
		}
	}
}

func TestOrders_ListSortFilterPaginate(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	acct, err := demo.Seed(context.Background(), app.db, app.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	c := app.client(t)
	if res := app.signIn(t, c, acct.Email, acct.Password, ""); res.StatusCode != http.StatusSeeOther {
		t.Fatal("demo sign-in failed")
	}
	dates := func(path string) ([]string, *goquerySel) {
		_, doc := c.get(path)
		var out []string
		doc.Find(`[data-testid="order-row"] th a`).Each(func(_ int, s *goquerySel) { out = append(out, s.Text()) })
		return out, doc.Selection
	}
	first, doc := dates("/orders")
	if len(first) != 10 || first[0] != "NOC-DEMO-001" {
		t.Fatalf("page 1 (newest first): %v", first)
	}
	if got := doc.Find(`[data-testid="sort-Date"]`).AttrOr("href", ""); got != "/orders?dir=asc&sort=date" {
		t.Errorf("active Date link flips to %q", got)
	}
	if got := doc.Find(`[data-testid="sort-Total"]`).AttrOr("href", ""); got != "/orders?dir=asc&sort=total" {
		t.Errorf("new column starts at %q", got)
	}
	third, _ := dates("/orders?page=3")
	if len(third) != 5 {
		t.Errorf("page 3: %d rows, want 5", len(third))
	}
	asc, _ := dates("/orders?sort=date&dir=asc")
	if asc[0] != "NOC-DEMO-025" {
		t.Errorf("oldest first: %v", asc)
	}
	_, cdoc := c.get("/orders?status=cancelled&sort=total&dir=desc&page=1")
	rows := cdoc.Find(`[data-testid="order-row"]`)
	if rows.Length() != 6 {
		t.Errorf("cancelled: %d rows, want 6", rows.Length())
	}
	rows.Find(`[data-testid="status"]`).Each(func(_ int, s *goquerySel) {
		if s.Text() != "Cancelled" || !s.HasClass("status-cancelled") {
			t.Errorf("row status %q", s.Text())
		}
	})
	var totals []string
	rows.Find(`[data-testid="order-total"]`).Each(func(_ int, s *goquerySel) { totals = append(totals, s.Text()) })
	for i := 1; i < len(totals); i++ {
		if cents(totals[i]) > cents(totals[i-1]) {
			t.Errorf("totals not descending: %v", totals)
		}
	}
	// Changing the filter keeps the sort and starts at page 1.
	if cdoc.Find(`[data-testid="orders-filter"] input[name="page"]`).Length() != 0 {
		t.Error("filter form carries the page")
	}

	other := app.register(t, "Eve", "eve@example.com", "night-owl-41")
	if res, _ := other.get("/orders/NOC-DEMO-001"); res.StatusCode != http.StatusNotFound {
		t.Errorf("another user's order: %d, want 404", res.StatusCode)
	}
	_, odoc := other.get("/orders")
	if text(odoc, `[data-testid="orders-empty"] h2`) != "No Orders Found" {
		t.Error("no empty state for a user without orders")
	}
}

func cents(s string) int {
	n := 0
	for _, r := range s {
		if r >= '0' && r <= '9' {
			n = n*10 + int(r-'0')
		}
	}
	return n
}

func TestOrders_GuestHandOverAndLookup(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.client(t)
	c.addToCart("/products", "nb-001", "1")
	c.postFrom("/checkout", "/guest", url.Values{"from": {"/checkout"}})
	checkoutToReview(t, c, testCard)
	res := placeOrder(t, c)
	orderPath := orderPath(res)
	id := strings.TrimPrefix(orderPath, "/orders/")

	visitor := app.client(t)
	if res, _ := visitor.get(orderPath); res.StatusCode != http.StatusNotFound {
		t.Errorf("visitor sees the order: %d", res.StatusCode)
	}
	res, doc := visitor.postFrom("/orders/lookup", "/orders/lookup", url.Values{"order": {id}, "email": {"someone@example.com"}})
	if res.StatusCode != http.StatusUnprocessableEntity || text(doc, `[data-testid="form-alert"]`) != handlers.MsgLookupFailed {
		t.Errorf("wrong e-mail: %d", res.StatusCode)
	}
	res, _ = visitor.postFrom("/orders/lookup", "/orders/lookup", url.Values{"order": {strings.ToLower(id)}, "email": {"ADA@example.com"}})
	if res.Header.Get("Location") != orderPath {
		t.Fatalf("lookup went to %q", res.Header.Get("Location"))
	}
	res, doc = visitor.get(orderPath)
	if res.StatusCode != http.StatusOK {
		t.Errorf("looked-up order: %d", res.StatusCode)
	}
	// A signed-out visitor has no order list: Back leads to the lookup,
	// never to the sign-in page, a dead end for a guest.
	if back := doc.Find(`[data-testid="back-to-orders"]`); back.AttrOr("href", "") != "/orders/lookup" || back.Text() != "Back to order lookup" {
		t.Errorf("visitor's back link: %q %q", back.AttrOr("href", ""), back.Text())
	}

	// The guest registers: the order is theirs now.
	c.postFrom("/register", "/register", registerForm("Ada", "ada@example.com", "night-owl-41"))
	_, doc = c.get("/orders")
	if doc.Find(`[data-testid="order-row"]`).Length() != 1 {
		t.Error("guest's order did not move to the account")
	}
	_, doc = c.get("/profile")
	if got := text(doc, `[data-testid="orders-count"]`); got != "1" {
		t.Errorf("profile orders %q", got)
	}
}

type goquerySel = goquery.Selection

// Back to Orders returns to the list as the shopper left it, so they do
// not have to filter and sort it again.
func TestOrders_BackKeepsFilterAndSort(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	acct, err := demo.Seed(context.Background(), app.db, app.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	c := app.client(t)
	if res := app.signIn(t, c, acct.Email, acct.Password, ""); res.StatusCode != http.StatusSeeOther {
		t.Fatal("demo sign-in failed")
	}
	list := "/orders?dir=asc&sort=total&status=delivered"
	_, doc := c.get(list)
	href := doc.Find(`[data-testid="order-row"] th a`).First().AttrOr("href", "")
	if !strings.HasPrefix(href, "/orders/NOC-DEMO-") {
		t.Fatalf("row link %q", href)
	}
	_, doc = c.get(href)
	if got := doc.Find(`[data-testid="back-to-orders"]`).AttrOr("href", ""); got != list {
		t.Errorf("back: got %q, want %q", got, list)
	}
	for _, from := range []string{"https://evil.example/orders", "//evil.example", "/profile"} {
		_, doc = c.get("/orders/NOC-DEMO-001?from=" + url.QueryEscape(from))
		if got := doc.Find(`[data-testid="back-to-orders"]`).AttrOr("href", ""); got != "/orders" {
			t.Errorf("from=%q: back %q, want /orders", from, got)
		}
	}
	_, doc = c.get("/orders")
	if got := doc.Find(`[data-testid="order-row"] th a`).First().AttrOr("href", ""); got != "/orders/NOC-DEMO-001" {
		t.Errorf("the plain list links plainly: %q", got)
	}
}

// What a shopper is charged is what they reviewed: when the cart changes
// on another device after Review, Place Order is refused with the "cart
// changed" message, and no order is made and no card charged.
func TestCheckout_CartChangedAfterReview(t *testing.T) {
	t.Parallel()
	for _, change := range []struct {
		name string
		do   func(c *client)
	}{
		{"ItemAdded", func(c *client) { c.addToCart("/products", "nb-002", "1") }},
		{"QuantityChanged", func(c *client) {
			c.post("/cart/items/nb-001", url.Values{"quantity": {"3"}, "return_to": {"/cart"}})
		}},
	} {
		t.Run(change.name, func(t *testing.T) {
			app := newTestApp(t)
			phone := app.register(t, "Ada", "ada@example.com", "night-owl-41")
			phone.addToCart("/products", "nb-001", "1")
			checkoutToReview(t, phone, testCard)
			key := reviewKey(t, phone)
			laptop := app.client(t)
			app.signIn(t, laptop, "ada@example.com", "night-owl-41", "/")
			change.do(laptop)
			res, doc := phone.post("/checkout/place", url.Values{"key": {key}})
			if res.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("Place Order after the cart changed: %d to %q, want 422", res.StatusCode, res.Header.Get("Location"))
			}
			if got := text(doc, `[data-testid="form-alert"]`); !strings.Contains(got, checkout.MsgCartChanged) {
				t.Errorf("alert %q, want the cart-changed message", got)
			}
			if n, _ := app.db.CountOrders(context.Background(), userID(t, app, "ada@example.com")); n != 0 {
				t.Errorf("%d orders were placed from a cart that changed after review", n)
			}
			if n := app.db.CountCharges(context.Background()); n != 0 {
				t.Errorf("%d charges were made", n)
			}
		})
	}
}
