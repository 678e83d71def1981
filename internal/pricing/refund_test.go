package pricing_test

import (
	"testing"

	"github.com/nocturne/storefront/internal/pricing"
	"github.com/nocturne/storefront/internal/shop"
)

func TestQuote_Refund(t *testing.T) {
	// 3 × 1000 with 10 % off: 2700 + 1000 shipping + 270 tax = 3970.
	coded := us(line("a", 1000, 3))
	coded.Code = code(shop.PromoPercent, 1000)
	// 3 × 333 taxed 99.9 → 100: a third of the tax is not a whole cent.
	odd := us(line("a", 333, 3))
	// 2400 + 1200 + 395 shipping holding 400 + 200 + 66 of VAT.
	vat := uk(line("a", 2400, 1), line("b", 1200, 1))
	tests := []struct {
		name     string
		in       pricing.Input
		lines    map[string]int
		shipping bool
		want     pricing.Refund
	}{
		{"one item of a discounted line", coded, map[string]int{"a": 1}, false, pricing.Refund{Amount: 990, Discount: 100, Tax: 90}},
		{"everything", coded, map[string]int{"a": 3}, true, pricing.Refund{Amount: 3970, Discount: 300, Tax: 270, Shipping: 1000}},
		{"more items than bought", coded, map[string]int{"a": 9}, false, pricing.Refund{Amount: 2970, Discount: 300, Tax: 270}},
		{"shipping alone", coded, nil, true, pricing.Refund{Amount: 1000, Shipping: 1000}},
		{"an unknown line", coded, map[string]int{"z": 1}, false, pricing.Refund{}},
		{"a third of the tax rounds down", odd, map[string]int{"a": 1}, false, pricing.Refund{Amount: 366, Tax: 33}},
		{"two thirds of the tax rounds down", odd, map[string]int{"a": 2}, false, pricing.Refund{Amount: 732, Tax: 66}},
		{"VAT stays within the price", vat, map[string]int{"b": 1}, false, pricing.Refund{Amount: 1200, Tax: 200}},
		{"VAT on shipping", vat, map[string]int{"a": 1, "b": 1}, true, pricing.Refund{Amount: 3995, Tax: 666, Shipping: 395}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := pricing.Price(tt.in).Refund(tt.lines, tt.shipping); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}
