package handlers_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/nocturne/storefront/internal/shop"
)

// A free-shipping code makes the zone's cheapest method free and leaves
// Express and Next Day their price, and the review says why; staff may
// choose the methods a code covers instead. (International is the only,
// so the cheapest, method of its own zone.)
func TestCheckout_FreeShippingCodeScope(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	savePromo(t, app, shop.PromoCode{Code: "SHIPFREE", Kind: shop.PromoFreeShipping})
	savePromo(t, app, shop.PromoCode{Code: "FASTFREE", Kind: shop.PromoFreeShipping, FreeMethods: []string{"next-day"}})
	c := app.client(t)
	c.addToCart("/products", "nb-042", "1") // $16.00
	applyCode(t, c, "SHIPFREE")
	c.postFrom("/checkout", "/guest", url.Values{"from": {"/checkout"}})
	_, doc := c.get("/checkout/shipping")
	for id, want := range map[string]string{"standard": "Free", "express": "$14.99", "next-day": "$19.99", "international": "Free"} {
		if got := doc.Find(`input[name="shipMethod"][value="` + id + `"]`).Parent().Text(); !strings.Contains(got, want) {
			t.Errorf("%s offered with SHIPFREE as %q, want %s", id, got, want)
		}
	}

	toReviewWith(t, c, usAddress("next-day"))
	_, doc = c.get("/checkout/review")
	for sel, want := range map[string]string{
		`[data-testid="shipping"]`:      "$19.99",
		`[data-testid="shipping-note"]`: "Free shipping applies to Standard",
		`[data-testid="total"]`:         "$37.59",
	} {
		if got := text(doc, sel); got != want {
			t.Errorf("review with SHIPFREE on Next Day: %s %q, want %q", sel, got, want)
		}
	}

	c.postFrom("/checkout/review", "/checkout/code", url.Values{"action": {"remove"}})
	c.postFrom("/checkout/review", "/checkout/code", url.Values{"code": {"fastfree"}, "action": {"apply"}})
	_, doc = c.get("/checkout/review")
	if got := text(doc, `[data-testid="shipping"]`); got != "Free" {
		t.Errorf("review with FASTFREE, chosen for Next Day: shipping %q, want Free", got)
	}
	if n := doc.Find(`[data-testid="shipping-note"]`).Length(); n != 0 {
		t.Errorf("a note on a method the code covers: %q", text(doc, `[data-testid="shipping-note"]`))
	}
}
