package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// New York City's 8.875 % is typed in the tax editor (its state by name)
// and charged exactly by the next checkout, with no restart: $229.00 is
// taxed $20.324…, so $20.32, where the rate rounded to 8.88 % would charge
// $20.34.
func TestAdminTax_ExactRateChargedAtCheckout(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	form := url.Values{"name": {"Sales tax"}, "country": {"United States"}, "state": {"New York"}, "rate": {"8.875"}}
	if res, doc := b.admin.post("/admin/tax/rates/new", form); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("create: %d %q", res.StatusCode, text(doc, ".field-error"))
	}
	_, doc := b.admin.get("/admin/tax")
	if got := doc.Find(`[data-testid="rate-value"]`).Text(); !strings.Contains(got, "8.875%") || !strings.Contains(got, "10%") {
		t.Errorf("listed as %q, want 10%% and 8.875%%", got)
	}
	if e := b.lastAudit(t, "tax.rate.create"); !strings.Contains(e.After, `"rate":"8.875%"`) || !strings.Contains(e.After, `"state":"NY"`) {
		t.Errorf("audited as %s", e.After)
	}
	editor := doc.Find(`[data-testid="rate"] a[href^="/admin/tax/rates/tax_"]`).AttrOr("href", "")
	if _, doc := b.admin.get(editor); doc.Find("#rate").AttrOr("value", "") != "8.875" || doc.Find("#state").AttrOr("value", "") != "NY" {
		t.Errorf("editor %q shows rate %q state %q", editor, doc.Find("#rate").AttrOr("value", ""), doc.Find("#state").AttrOr("value", ""))
	}

	c := b.app.client(t)
	c.addToCart("/products", "nb-001", "1") // $229.00
	address := usAddress("standard")
	address.Set("state", "ny")
	address.Set("zipCode", "10001")
	toReviewWith(t, c, address)
	_, doc = c.get("/checkout/review")
	if got := text(doc, `[data-testid="tax"]`); got != "$20.32" {
		t.Errorf("tax %q, want $20.32", got)
	}
	if got := doc.Find(`[data-testid="tax"]`).Prev().Text(); !strings.Contains(got, "8.875%") {
		t.Errorf("tax labelled %q, want the exact rate", got)
	}
	o, err := b.app.db.Order(context.Background(), strings.TrimPrefix(orderPath(placeOrder(t, c)), "/orders/"))
	if err != nil {
		t.Fatal(err)
	}
	if o.Tax != 2032 || len(o.TaxLines) != 1 || o.TaxLines[0].PPM != 88750 || o.TaxLines[0].Rate != 888 {
		t.Errorf("order taxed %d with lines %+v, want 2032 at 88750 millionths", o.Tax, o.TaxLines)
	}
}
