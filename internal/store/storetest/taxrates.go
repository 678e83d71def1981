package storetest

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// rawExec is the store's own statement runner (? placeholders), through
// which a test writes rows as the release before did.
type rawExec interface {
	Exec(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// exactTaxRates checks that a tax rate and an order's tax line keep a rate
// finer than a basis point, and that rows the release before exact rates
// writes (basis points only, on insert and on update) keep their meaning.
func exactTaxRates(t *testing.T, s PricingStore) {
	ctx := context.Background()
	raw, ok := s.(rawExec)
	if !ok {
		t.Skipf("%T runs no statements of a test's own", s)
	}
	nyc, err := s.SaveTaxRate(ctx, shop.TaxRate{Name: "Sales tax", Country: "United States", State: "NY", PPM: 88750})
	must(t, err)
	// The previous release inserts without rate_ppm and updates only rate.
	_, err = raw.Exec(ctx, `INSERT INTO tax_rates (id, name, country, state, rate) VALUES ('old', 'Sales tax', 'United States', 'CA', 725)`)
	must(t, err)
	got := taxRatesByID(t, s)
	if r := got[nyc.ID]; r.Exact() != 88750 || r.Rate != 888 {
		t.Errorf("saved 8.875 %%: read %+v, want 88750 millionths and 888 basis points", r)
	}
	if r := got["old"]; r.Exact() != 72500 || r.PPM != 0 {
		t.Errorf("a row with only basis points: read %+v, want 7.25 %%", r)
	}
	_, err = raw.Exec(ctx, `UPDATE tax_rates SET rate = 900 WHERE id = ?`, nyc.ID)
	must(t, err)
	if r := taxRatesByID(t, s)[nyc.ID]; r.Exact() != 90000 {
		t.Errorf("a rate changed to 9 %% by the previous release reads as %d millionths, want 90000", r.Exact())
	}

	// An order keeps the exact rate of its tax line; one written without
	// it reads its basis points.
	o := order("NOC-nyc", "u1", shop.StatusProcessing, 10000, time.Now())
	o.TaxLines = []shop.TaxLine{{Name: "Sales tax", Rate: 888, PPM: 88750, Base: 10000, Amount: 888}}
	must(t, s.InsertOrder(ctx, o))
	_, err = raw.Exec(ctx, `INSERT INTO order_tax_lines (order_id, position, name, rate, base_cents, amount_cents) VALUES (?, 1, 'Old', 1000, 100, 10)`, o.ID)
	must(t, err)
	placed, err := s.Order(ctx, o.ID)
	must(t, err)
	if len(placed.TaxLines) != 2 || placed.TaxLines[0].Exact() != 88750 || placed.TaxLines[1].Exact() != 100000 {
		t.Errorf("order tax lines %+v, want 8.875 %% and 10 %%", placed.TaxLines)
	}
}

func taxRatesByID(t *testing.T, s PricingStore) map[string]shop.TaxRate {
	t.Helper()
	rates, err := s.TaxRates(context.Background())
	must(t, err)
	out := map[string]shop.TaxRate{}
	for _, r := range rates {
		out[r.ID] = r
	}
	return out
}
