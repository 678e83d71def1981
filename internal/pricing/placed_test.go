package pricing_test

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/nocturne/storefront/internal/pricing"
	"github.com/nocturne/storefront/internal/shop"
)

// An order keeps enough of its quote to rebuild it: the lines' shares of
// the discount and tax come out as they were priced, for any cart, code,
// rate and setting, so a refund of items is worked out by the same rule.
func TestPlacedQuote_RebuildsTheQuote(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	for i := range 3000 {
		in := randomInput(r)
		q := pricing.Price(in)
		if q.NoMethod {
			continue
		}
		o := shop.Order{Subtotal: q.Subtotal, Discount: q.Discount, Shipping: q.Shipping, Tax: q.Tax, Total: q.Total,
			TaxIncluded: q.TaxIncluded, TaxLines: q.TaxLines, ShippingMethod: q.Method.Name}
		for _, l := range q.Lines {
			o.Lines = append(o.Lines, shop.OrderLine{Price: l.Price, Quantity: l.Quantity})
		}
		got := pricing.PlacedQuote(o)
		if got.Total != q.Total || got.Discount != q.Discount || got.Tax != q.Tax || got.Shipping != q.Shipping {
			t.Fatalf("input %d: rebuilt %+v, placed %+v", i, got, q)
		}
		for j, l := range got.Lines {
			if l.Key != strconv.Itoa(j) || l.Discount != q.Lines[j].Discount || l.Tax != q.Lines[j].Tax {
				t.Fatalf("input %d line %d: rebuilt %+v, placed %+v", i, j, l, q.Lines[j])
			}
		}
	}
}

// Orders from before tax lines were kept were taxed 10 % on the subtotal:
// their refunds get that share back.
func TestPlacedQuote_LegacyOrder(t *testing.T) {
	o := shop.Order{Subtotal: 3200, Shipping: 1000, Tax: 320, Total: 4520,
		Lines: []shop.OrderLine{{Price: 1600, Quantity: 2}}}
	q := pricing.PlacedQuote(o)
	if q.Total != 4520 || q.Tax != 320 {
		t.Fatalf("rebuilt %+v", q)
	}
	if r := q.Refund(map[string]int{"0": 1}, false); r.Amount != 1760 || r.Tax != 160 {
		t.Errorf("one of two back: %+v, want 1760 with 160 tax", r)
	}
}
