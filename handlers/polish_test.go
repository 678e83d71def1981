package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Shopper-facing words and rules where the spec's own text would mislead or
// dead-end: shipping, counts, form fields, descriptions and typo search.

func TestCart_ShippingRuleAndItemCount(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.client(t)
	c.addToCart("/products", "nb-042", "1") // $16.00
	_, doc := c.get("/cart")
	for sel, want := range map[string]string{
		`[data-testid="subtotal-label"]`:     "Subtotal (1 item)",
		`[data-testid="shipping"]`:           "$10.00",
		`[data-testid="tax"]`:                "$1.60",
		`[data-testid="total"]`:              "$27.60",
		`[data-testid="free-shipping-note"]`: "Add $34.00 more for free standard shipping (free on orders of $50 or more).",
	} {
		if got := text(doc, sel); got != want {
			t.Errorf("%s: got %q, want %q", sel, got, want)
		}
	}
	c.addToCart("/products", "nb-042", "2") // 3 × $16.00 = $48.00, still below
	c.addToCart("/products", "nb-052", "1") // + $9.99 = $57.99
	_, doc = c.get("/cart")
	for sel, want := range map[string]string{
		`[data-testid="subtotal-label"]`:     "Subtotal (4 items)",
		`[data-testid="shipping"]`:           "Free",
		`[data-testid="tax"]`:                "$5.80",
		`[data-testid="total"]`:              "$63.79",
		`[data-testid="free-shipping-note"]`: "Your order ships free.",
	} {
		if got := text(doc, sel); got != want {
			t.Errorf("%s: got %q, want %q", sel, got, want)
		}
	}
}

func TestCheckout_ShippingBelowFiftyEverywhere(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.client(t)
	c.addToCart("/products", "nb-042", "1") // $16.00
	c.postFrom("/checkout", "/guest", url.Values{"from": {"/checkout"}})
	ship := url.Values{"firstName": {"Ada"}, "lastName": {"Lovelace"}, "email": {"ada@example.com"}, "phone": {"(217) 555-0100"},
		"address": {"1 Main St"}, "city": {"Springfield"}, "state": {"IL"}, "zipCode": {"62701"}, "country": {"United States"}}
	if res, _ := c.postFrom("/checkout/shipping", "/checkout/shipping", ship); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("shipping: %d", res.StatusCode)
	}
	c.postFrom("/checkout/payment", "/checkout/payment", paymentValues(testCard))
	_, doc := c.get("/checkout/review")
	if got := text(doc, `[data-testid="shipping"]`); got != "$10.00" {
		t.Errorf("checkout shipping %q", got)
	}
	if got := text(doc, `[data-testid="tax"]`); got != "$1.60" {
		t.Errorf("tax %q (10%% of the subtotal)", got)
	}
	res := placeOrder(t, c)
	_, doc = c.get(orderPath(res))
	if got := text(doc, `[data-testid="order-shipping"]`); got != "$10.00" {
		t.Errorf("order shipping %q", got)
	}
	if got := text(doc, `main [data-testid="order-total"]`); got != "$27.60" {
		t.Errorf("order total %q", got)
	}
	mails, _ := app.db.Outbox(context.Background())
	if len(mails) != 1 {
		t.Fatalf("outbox: %d mails", len(mails))
	}
	for _, want := range []string{"Shipping (Standard) $10.00", "Total $27.60", "Springfield, IL 62701, United States"} {
		if !strings.Contains(mails[0].Body, want) {
			t.Errorf("e-mail lacks %q:\n%s", want, mails[0].Body)
		}
	}
}

func TestCheckout_PhoneAndZipPerCountry(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.client(t)
	c.addToCart("/products", "nb-042", "1")
	c.postFrom("/checkout", "/guest", url.Values{"from": {"/checkout"}})
	ship := url.Values{"firstName": {"Ada"}, "lastName": {"Lovelace"}, "email": {"ada@example.com"}, "phone": {"abc"},
		"address": {"1 Main St"}, "city": {"Springfield"}, "state": {"IL"}, "zipCode": {"zzzzzzzzzz"}, "country": {"United States"}}
	res, doc := c.postFrom("/checkout/shipping", "/checkout/shipping", ship)
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("status %d, want 422", res.StatusCode)
	}
	if got := text(doc, `[data-testid="ship-phone-error"]`); !strings.HasPrefix(got, "Please enter a valid phone number") {
		t.Errorf("phone error %q", got)
	}
	if got := text(doc, `[data-testid="ship-zip-error"]`); got != "Please enter a valid ZIP code, e.g. 62701 or 62701-1234." {
		t.Errorf("zip error %q", got)
	}
	if got := doc.Find(`#ship-zip`).AttrOr("value", ""); got != "zzzzzzzzzz" {
		t.Errorf("typed ZIP not kept: %q", got)
	}
}

func TestPages_EveryPageHasAMetaDescription(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.client(t)
	for _, path := range []string{"/", "/products", "/cart", "/faq", "/shipping", "/returns", "/contact", "/login", "/register",
		"/forgot-password", "/orders/lookup", "/search?q=lamp", "/product/nb-001", "/no-such-page"} {
		_, doc := c.get(path)
		if got := doc.Find(`meta[name="description"]`).AttrOr("content", ""); len(got) < 20 {
			t.Errorf("%s: meta description %q", path, got)
		}
	}
}

func TestSearch_TypoShowsCorrectedResults(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.client(t)
	_, doc := c.get("/search?q=hedphones")
	if got := text(doc, `[data-testid="corrected"]`); got != "Showing results for headphones — search instead for hedphones" {
		t.Errorf("corrected line %q", got)
	}
	if n := doc.Find(`[data-testid="product-card"]`).Length(); n == 0 {
		t.Error("no results for the correction")
	}
	if got := doc.Find(`[data-testid="search-instead"]`).AttrOr("href", ""); got != "/search?q=hedphones&exact=1" {
		t.Errorf("search instead %q", got)
	}
	res, doc := c.get("/search?q=hedphones&exact=1")
	if res.StatusCode != http.StatusOK || doc.Find(`[data-testid="search-empty"]`).Length() != 1 || text(doc, `[data-testid="suggestion"] a`) != "headphones" {
		t.Errorf("as typed: %d, empty %d, suggestion %q", res.StatusCode, doc.Find(`[data-testid="search-empty"]`).Length(), text(doc, `[data-testid="suggestion"] a`))
	}
	for _, q := range []string{"jewelry", "jewellery"} {
		_, doc := c.get("/search?q=" + q)
		if got := text(doc, `[data-testid="result-count"]`); got != "13 products" {
			t.Errorf("%s: %q, want 13 products", q, got)
		}
		if doc.Find(`[data-testid="suggestion"], [data-testid="corrected"]`).Length() != 0 {
			t.Errorf("%s: the shop's own spelling is corrected", q)
		}
	}
	if _, doc := c.get("/search?q=cheap"); doc.Find(`[data-testid="suggestion"]`).Length() != 0 {
		t.Errorf("cheap: suggests %q", text(doc, `[data-testid="suggestion"]`))
	}
}
