package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/nocturne/storefront/internal/shop"
)

// A shop in yen: the built-in catalogue opens in whole yen, pages write
// amounts as yen, an order is placed in yen, and the product editor takes
// whole yen only. Not parallel: the shop's currency is the process's, and
// every other test of this package writes dollars.
func TestShop_InYen(t *testing.T) {
	jpy, err := shop.NewCurrency("JPY", "en-US")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(shop.SetCurrency(jpy))
	b := newBackOffice(t)
	ctx := context.Background()

	// nb-001 is 229.0 in the seed.
	_, doc := b.shopper.get("/product/nb-001")
	if got := text(doc, `[data-testid="price"]`); got != "¥229" {
		t.Errorf("product page price: got %q, want ¥229", got)
	}
	var ld struct {
		Offers struct {
			PriceCurrency string `json:"priceCurrency"`
			Price         string `json:"price"`
		} `json:"offers"`
	}
	if err := json.Unmarshal([]byte(doc.Find(`#product-jsonld`).Text()), &ld); err != nil {
		t.Fatal(err)
	}
	if ld.Offers.PriceCurrency != "JPY" || ld.Offers.Price != "229" {
		t.Errorf("JSON-LD offer: got %+v, want 229 JPY", ld.Offers)
	}

	_, doc = b.shopper.get("/products")
	if got := strings.TrimSpace(doc.Find(`.price-range legend`).Text()); got != "Price (¥)" {
		t.Errorf("price filter: got %q, want Price (¥)", got)
	}
	if got := doc.Find(`#filter-min`).AttrOr("step", ""); got != "1" {
		t.Errorf("price filter step: got %q, want 1", got)
	}

	o, err := b.app.db.Order(ctx, b.orderID)
	if err != nil {
		t.Fatal(err)
	}
	if o.Currency != "jpy" {
		t.Errorf("order currency: got %q, want jpy", o.Currency)
	}

	form := b.editorForm(t, "nb-001")
	if got := form.Get("price"); got != "229" {
		t.Errorf("editor's price: got %q, want 229", got)
	}
	form.Set("price", "109.95")
	res, doc := b.admin.post("/admin/products/nb-001", form)
	if res.StatusCode != http.StatusUnprocessableEntity || text(doc, `[data-testid="price-error"]`) != "Use no decimal places." {
		t.Errorf("109.95 yen: %d %q, want 422 and Use no decimal places.", res.StatusCode, text(doc, `[data-testid="price-error"]`))
	}
	if got := strings.TrimSpace(doc.Find(`label[for="price"]`).Text()); !strings.HasPrefix(got, "Price (¥)") {
		t.Errorf("editor's price label: got %q, want Price (¥)", got)
	}
	form.Set("price", "¥1,235")
	if res, _ := b.admin.post("/admin/products/nb-001", form); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("¥1,235: %d, want 303", res.StatusCode)
	}
	if p, err := b.app.db.AdminProduct(ctx, "nb-001"); err != nil || p.Price != 1235 {
		t.Errorf("saved price: got %v (%v), want 1235 yen", p, err)
	}
}
