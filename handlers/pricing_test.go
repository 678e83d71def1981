package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// usAddress is a shipping form for the United States, whose zone offers
// Standard, Express and Next Day.
func usAddress(method string) url.Values {
	v := url.Values{"firstName": {"Ada"}, "lastName": {"Lovelace"}, "email": {"ada@example.com"}, "phone": {"(217) 555-0100"},
		"address": {"1 Main St"}, "city": {"Springfield"}, "state": {"IL"}, "zipCode": {"62701"}, "country": {"United States"}}
	if method != "" {
		v.Set("shipMethod", method)
	}
	return v
}

// toReviewWith takes a guest with a cart through the shipping step with
// address and the demo card's payment step to the review.
func toReviewWith(t *testing.T, c *client, address url.Values) {
	t.Helper()
	c.postFrom("/checkout", "/guest", url.Values{"from": {"/checkout"}})
	if res, _ := c.postFrom("/checkout/shipping", "/checkout/shipping", address); res.Header.Get("Location") != "/checkout/payment" {
		t.Fatalf("shipping: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	if res, _ := c.postFrom("/checkout/payment", "/checkout/payment", paymentValues(testCard)); res.Header.Get("Location") != "/checkout/review" {
		t.Fatalf("payment: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
}

func savePromo(t *testing.T, app *testApp, c shop.PromoCode) {
	t.Helper()
	if _, err := app.db.SavePromoCode(context.Background(), c); err != nil {
		t.Fatalf("save code %s: %v", c.Code, err)
	}
}

// The shipping step offers each zone's methods with their prices; the
// method chosen is what the review and the order charge.
func TestCheckout_ShippingMethodChangesTheTotal(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.client(t)
	c.addToCart("/products", "nb-042", "1") // $16.00
	c.postFrom("/checkout", "/guest", url.Values{"from": {"/checkout"}})
	_, doc := c.get("/checkout/shipping")
	for id, want := range map[string]string{"standard": "$10.00", "express": "$14.99", "next-day": "$19.99", "international": "$24.99"} {
		radio := doc.Find(`input[name="shipMethod"][value="` + id + `"]`)
		if radio.Length() != 1 {
			t.Fatalf("no %s on the shipping step", id)
		}
		if got := radio.Parent().Text(); !strings.Contains(got, want) {
			t.Errorf("%s offered as %q, want %s", id, got, want)
		}
	}
	if _, ok := doc.Find(`input[value="standard"]`).Attr("checked"); !ok {
		t.Error("Standard is not chosen by default")
	}

	toReviewWith(t, c, usAddress("express"))
	_, doc = c.get("/checkout/review")
	for sel, want := range map[string]string{
		`[data-testid="shipping"]`:               "$14.99",
		`[data-testid="tax"]`:                    "$1.60",
		`[data-testid="total"]`:                  "$32.59",
		`[data-testid="review-shipping-method"]`: "Shipping: Express",
	} {
		if got := text(doc, sel); got != want {
			t.Errorf("review %s: %q, want %q", sel, got, want)
		}
	}
	res := placeOrder(t, c)
	o, err := app.db.Order(context.Background(), strings.TrimPrefix(orderPath(res), "/orders/"))
	if err != nil {
		t.Fatal(err)
	}
	if o.Shipping != 1499 || o.Total != 3259 || o.ShippingMethod != "Express" {
		t.Errorf("order: shipping %d, total %d, method %q", o.Shipping, o.Total, o.ShippingMethod)
	}
	if len(o.TaxLines) != 1 || o.TaxLines[0].Rate != 1000 || o.TaxLines[0].Amount != 160 {
		t.Errorf("order tax lines %+v", o.TaxLines)
	}
}

// An address abroad gets its zone's method; a method of another zone is
// refused next to the choice when the zone offers several, and taken for
// the zone's only one otherwise.
func TestCheckout_ShippingMethodFollowsTheAddress(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.client(t)
	c.addToCart("/products", "nb-042", "1")
	toReviewWith(t, c, shippingValues) // London, with no method posted
	_, doc := c.get("/checkout/review")
	if got := text(doc, `[data-testid="shipping"]`); got != "$24.99" {
		t.Errorf("international shipping %q", got)
	}
	uk := url.Values{}
	for k, v := range shippingValues {
		uk[k] = v
	}
	uk.Set("shipMethod", "next-day")
	if res, _ := c.postFrom("/checkout/shipping", "/checkout/shipping", uk); res.Header.Get("Location") != "/checkout/payment" {
		t.Errorf("a US method for London: %d, want the zone's only method", res.StatusCode)
	}
	res, doc := c.postFrom("/checkout/shipping", "/checkout/shipping", usAddress("international"))
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("International for Illinois: %d", res.StatusCode)
	}
	if got := text(doc, `[data-testid="ship-method-error"]`); got != "Please choose a shipping method that delivers to United States." {
		t.Errorf("error %q", got)
	}
	if got := doc.Find(`input[name="city"]`).AttrOr("value", ""); got != "Springfield" {
		t.Errorf("typed city lost: %q", got)
	}
}

// The cart shows Standard shipping and tax for the default country,
// estimated; a code applied there takes its discount off and can be
// removed.
func TestCart_PromoCodeAppliedAndRemoved(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	savePromo(t, app, shop.PromoCode{Code: "NIGHT10", Kind: shop.PromoPercent, Value: 1000})
	c := app.client(t)
	c.addToCart("/products", "nb-042", "2") // $32.00
	_, doc := c.get("/cart")
	if got := doc.Find(`[data-testid="total"]`).Parent().Find("dt").Text(); got != "Estimated total" {
		t.Errorf("cart total labelled %q", got)
	}
	res, _ := c.postFrom("/cart", "/cart/code", url.Values{"code": {"night10"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("apply: %d", res.StatusCode)
	}
	_, doc = c.get("/cart")
	for sel, want := range map[string]string{
		`[data-testid="discount"]`:     "−$3.20",
		`[data-testid="shipping"]`:     "$10.00",
		`[data-testid="tax"]`:          "$2.88",
		`[data-testid="total"]`:        "$41.68",
		`[data-testid="applied-code"]`: "NIGHT10",
	} {
		if got := text(doc, sel); got != want {
			t.Errorf("cart %s: %q, want %q", sel, got, want)
		}
	}
	c.postFrom("/cart", "/cart/code", url.Values{"action": {"remove"}})
	_, doc = c.get("/cart")
	if doc.Find(`[data-testid="discount"]`).Length() != 0 || text(doc, `[data-testid="total"]`) != "$45.20" {
		t.Errorf("after removing: total %q", text(doc, `[data-testid="total"]`))
	}
}

// Each reason a code is refused is said next to the field, with the code
// as typed, and nothing is taken off.
func TestPromoCode_Refusals(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	now := app.clock.Now()
	for _, c := range []shop.PromoCode{
		{Code: "OLD", Kind: shop.PromoFixed, Value: 500, EndsAt: now.Add(-time.Hour)},
		{Code: "SOON", Kind: shop.PromoFixed, Value: 500, StartsAt: now.Add(24 * time.Hour)},
		{Code: "BIG", Kind: shop.PromoFixed, Value: 500, MinSubtotal: 10000},
		{Code: "GONE", Kind: shop.PromoFixed, Value: 500, UsageCap: 1},
		{Code: "PAUSED", Kind: shop.PromoFixed, Value: 500, Paused: true},
	} {
		savePromo(t, app, c)
	}
	// GONE's one use is taken by an order.
	first := app.client(t)
	first.addToCart("/products", "nb-042", "1")
	toReviewWith(t, first, usAddress(""))
	first.postFrom("/checkout/review", "/checkout/code", url.Values{"code": {"GONE"}})
	if res := placeOrder(t, first); !strings.HasPrefix(res.Header.Get("Location"), "/orders/NOC-") {
		t.Fatalf("order with GONE: %d %q", res.StatusCode, res.Header.Get("Location"))
	}

	c := app.client(t)
	c.addToCart("/products", "nb-042", "1")
	for _, tt := range []struct{ code, want string }{
		{"NOPE", shop.MsgPromoUnknown},
		{"PAUSED", shop.MsgPromoUnknown},
		{"OLD", shop.MsgPromoExpired},
		{"SOON", shop.MsgPromoNotYet},
		{"BIG", "That code needs a subtotal of at least $100.00."},
		{"GONE", shop.MsgPromoUsedUp},
	} {
		res, doc := c.postFrom("/cart", "/cart/code", url.Values{"code": {tt.code}})
		if res.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("%s: %d", tt.code, res.StatusCode)
		}
		if got := text(doc, `#promo-code-error`); got != tt.want {
			t.Errorf("%s: message %q, want %q", tt.code, got, tt.want)
		}
		if got := doc.Find(`#promo-code`).AttrOr("value", ""); got != tt.code {
			t.Errorf("%s: field holds %q", tt.code, got)
		}
		if doc.Find(`[data-testid="discount"]`).Length() != 0 {
			t.Errorf("%s: a discount is shown", tt.code)
		}
	}
}

// A code once per customer is refused to the same guest e-mail, at
// Review, after its first order.
func TestPromoCode_OncePerCustomer(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	savePromo(t, app, shop.PromoCode{Code: "WELCOME", Kind: shop.PromoFreeShipping, OncePerCustomer: true})
	for i, want := range []string{"", shop.MsgPromoAlreadyUsed} {
		c := app.client(t)
		c.addToCart("/products", "nb-042", "1")
		toReviewWith(t, c, usAddress("standard"))
		res, doc := c.postFrom("/checkout/review", "/checkout/code", url.Values{"code": {"welcome"}})
		if want != "" {
			if got := text(doc, `#promo-code-error`); res.StatusCode != http.StatusUnprocessableEntity || got != want {
				t.Errorf("order %d: %d %q, want %q", i+1, res.StatusCode, got, want)
			}
			continue
		}
		_, doc = c.get("/checkout/review")
		if got := text(doc, `[data-testid="shipping"]`); got != "Free" {
			t.Errorf("free shipping code: shipping %q", got)
		}
		res = placeOrder(t, c)
		o, err := app.db.Order(context.Background(), strings.TrimPrefix(orderPath(res), "/orders/"))
		if err != nil {
			t.Fatal(err)
		}
		if o.PromoCode != "WELCOME" || o.Shipping != 0 || o.Total != 1760 {
			t.Errorf("order: code %q, shipping %d, total %d", o.PromoCode, o.Shipping, o.Total)
		}
	}
}

// Prices keep the settings they read until the catalogue version moves; a
// change of a method moves it, so the cart shows the new price once the
// catalogue follows (at once on the instance that saved it).
func TestCart_SettingsChangeIsPricedAfterReload(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.client(t)
	c.addToCart("/products", "nb-042", "1") // $16.00: Standard costs $10.00
	if _, doc := c.get("/cart"); text(doc, `[data-testid="shipping"]`) != "$10.00" {
		t.Fatalf("shipping %q", text(doc, `[data-testid="shipping"]`))
	}
	ctx := context.Background()
	methods, err := app.db.ShippingMethods(ctx)
	if err != nil {
		t.Fatal(err)
	}
	standard := methods[0]
	standard.Price = 795
	if _, err := app.db.SaveShippingMethod(ctx, standard); err != nil {
		t.Fatal(err)
	}
	if err := app.catalog.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	if _, doc := c.get("/cart"); text(doc, `[data-testid="shipping"]`) != "$7.95" {
		t.Errorf("after the change: shipping %q, want $7.95", text(doc, `[data-testid="shipping"]`))
	}
	if _, doc := c.get("/shipping"); !strings.Contains(text(doc, `[data-testid="standard-cost"]`), "$7.95") {
		t.Errorf("/shipping says %q", text(doc, `[data-testid="standard-cost"]`))
	}
}
