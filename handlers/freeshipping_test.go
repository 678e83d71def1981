package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/nocturne/storefront/internal/backoffice"
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

// Staff choose the methods a free-shipping code frees in its editor; the
// list says which, a code without a choice says the zone's cheapest, and
// a method that is gone is refused with the ticks kept.
func TestAdminCodes_FreeShippingMethods(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	_, doc := b.admin.get("/admin/codes")
	if n := doc.Find(`input[name="free_methods"]`).Length(); n != 4 {
		t.Fatalf("%d methods to choose from, want the 4 seeded", n)
	}
	form := url.Values{"code": {"FASTFREE"}, "kind": {shop.PromoFreeShipping}, "free_methods": {"next-day", "express"}}
	if res, _ := b.admin.post("/admin/codes", form); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("create: %d", res.StatusCode)
	}
	pc, err := b.app.db.PromoCode(context.Background(), "FASTFREE")
	if err != nil || !slices.Equal(pc.FreeMethods, []string{"express", "next-day"}) {
		t.Fatalf("saved methods %q (%v), want express and next-day", pc.FreeMethods, err)
	}
	if res, _ := b.admin.post("/admin/codes", url.Values{"code": {"SHIPFREE"}, "kind": {shop.PromoFreeShipping}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("create without a choice: %d", res.StatusCode)
	}
	_, doc = b.admin.get("/admin/codes")
	for code, want := range map[string]string{"FASTFREE": "Free shipping by Express, Next Day", "SHIPFREE": "Free shipping by the cheapest method of the shopper's zone"} {
		if got := strings.Join(strings.Fields(doc.Find(`[data-testid="code"][data-code="`+code+`"]`).Text()), " "); !strings.Contains(got, want) {
			t.Errorf("%s listed as %q, want %q", code, got, want)
		}
	}
	form = url.Values{"code": {"GONE"}, "kind": {shop.PromoFreeShipping}, "free_methods": {"express", "hovercraft"}}
	res, doc := b.admin.post("/admin/codes", form)
	if res.StatusCode != http.StatusUnprocessableEntity || text(doc, `[data-testid="free_methods-error"]`) != backoffice.MsgFreeMethodGone {
		t.Errorf("a method gone: %d %q", res.StatusCode, text(doc, `[data-testid="free_methods-error"]`))
	}
	if _, ok := doc.Find(`input[name="free_methods"][value="express"]`).Attr("checked"); !ok {
		t.Error("the methods ticked are lost")
	}
}
