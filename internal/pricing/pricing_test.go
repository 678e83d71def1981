package pricing_test

import (
	"maps"
	"math/big"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/nocturne/storefront/internal/pricing"
	"github.com/nocturne/storefront/internal/shop"
)

// The shop as it is seeded: one zone for the United States, Standard
// shipping at the flat fee and free from the threshold, and 10 % tax added
// on the subtotal everywhere.
var (
	usZones = []shop.ShippingZone{{ID: "us", Name: "United States", Countries: []string{shop.DefaultCountry}}}
	usRates = []shop.TaxRate{{ID: "tax", Name: "Tax", Rate: 1000}}
	usMeths = []shop.ShippingMethod{
		{ID: "standard", Name: "Standard", Price: 1000, FreeFrom: 5000, MinDays: 3, MaxDays: 5, CutoffHour: 14, ZoneIDs: []string{"us"}, Position: 0, Enabled: true},
		{ID: "express", Name: "Express", Price: 1499, MinDays: 2, MaxDays: 3, CutoffHour: 14, ZoneIDs: []string{"us"}, Position: 1, Enabled: true},
		{ID: "next-day", Name: "Next Day", Price: 1999, MinDays: 1, MaxDays: 1, CutoffHour: 14, ZoneIDs: []string{"us"}, Position: 2, Enabled: true},
		{ID: "pickup", Name: "Pick up", Price: 0, CutoffHour: -1, ZoneIDs: []string{"us"}, Position: 3, Enabled: true},
		{ID: "courier", Name: "Courier", Price: 2500, ZoneIDs: []string{"us"}, Position: 4, Enabled: false},
	}
)

// The United Kingdom, VAT style: prices hold 20 % VAT, shipping is taxed.
var (
	ukZones    = []shop.ShippingZone{{ID: "uk", Name: "UK", Countries: []string{"United Kingdom"}}}
	ukRates    = []shop.TaxRate{{ID: "vat", Name: "VAT", Country: "United Kingdom", Rate: 2000}}
	ukMeths    = []shop.ShippingMethod{{ID: "royal-mail", Name: "Royal Mail", Price: 395, FreeFrom: 4000, MinDays: 1, MaxDays: 3, ZoneIDs: []string{"uk"}, Enabled: true}}
	ukSettings = shop.PricingSettings{PricesIncludeTax: true, TaxShipping: true}
)

// Japan: the yen has no minor units, so every amount is whole yen.
var (
	jpZones = []shop.ShippingZone{{ID: "jp", Name: "Japan", Countries: []string{"Japan"}}}
	jpRates = []shop.TaxRate{{ID: "jct", Name: "Consumption tax", Country: "Japan", Rate: 1000}}
	jpMeths = []shop.ShippingMethod{{ID: "yamato", Name: "Yamato", Price: 500, FreeFrom: 5000, MinDays: 1, MaxDays: 2, ZoneIDs: []string{"jp"}, Enabled: true}}
)

func us(lines ...pricing.Line) pricing.Input {
	return pricing.Input{Lines: lines, Country: shop.DefaultCountry, Zones: usZones, Methods: usMeths, Rates: usRates}
}

func uk(lines ...pricing.Line) pricing.Input {
	return pricing.Input{Lines: lines, Country: "United Kingdom", Zones: ukZones, Methods: ukMeths, Rates: ukRates, Settings: ukSettings}
}

func line(key string, price shop.Cents, qty int) pricing.Line {
	return pricing.Line{Key: key, Price: price, Quantity: qty}
}

func code(kind string, value int64) *shop.PromoCode {
	return &shop.PromoCode{Code: "CODE", Kind: kind, Value: value}
}

func TestPrice(t *testing.T) {
	tests := []struct {
		name string
		in   pricing.Input
		edit func(in *pricing.Input)
		want pricing.Quote // only the sums, the method's id and NoMethod are compared
		// lineDiscounts and lineTaxes, when set, are the lines' shares.
		lineDiscounts, lineTaxes []shop.Cents
		taxLines                 []shop.TaxLine
	}{
		{
			name: "US tax added",
			in:   us(line("a", 1999, 1), line("b", 1250, 1)),
			want: pricing.Quote{Subtotal: 3249, Shipping: 1000, Tax: 325, Total: 4574, Method: usMeths[0]},
			// Shipping is not taxed here, so the lines hold all the tax.
			lineTaxes: []shop.Cents{200, 125},
			taxLines:  []shop.TaxLine{{Name: "Tax", Rate: 1000, PPM: 100000, Base: 3249, Amount: 325}},
		},
		{
			name: "UK VAT included",
			in:   uk(line("a", 2400, 1), line("b", 1200, 1)),
			// 3995 holds 3995 × 20/120 = 665.83 of VAT; the total does not grow.
			want:      pricing.Quote{Subtotal: 3600, Shipping: 395, Tax: 666, ShippingTax: 66, Total: 3995, TaxIncluded: true, Method: ukMeths[0]},
			lineTaxes: []shop.Cents{400, 200},
			taxLines:  []shop.TaxLine{{Name: "VAT", Rate: 2000, PPM: 200000, Base: 3329, Amount: 666}},
		},
		{
			name: "free shipping at the threshold",
			in:   us(line("a", 5000, 1)),
			want: pricing.Quote{Subtotal: 5000, Shipping: 0, Tax: 500, Total: 5500, Method: usMeths[0]},
		},
		{
			name: "a cent below the threshold pays shipping",
			in:   us(line("a", 4999, 1)),
			want: pricing.Quote{Subtotal: 4999, Shipping: 1000, Tax: 500, Total: 6499, Method: usMeths[0]},
		},
		{
			name: "percent code keeps free shipping above the threshold",
			in:   us(line("a", 3000, 2)),
			edit: func(in *pricing.Input) { in.Code = code(shop.PromoPercent, 1000) },
			want: pricing.Quote{Subtotal: 6000, Discount: 600, Shipping: 0, Tax: 540, Total: 5940, Method: usMeths[0]},
		},
		{
			name: "percent code that takes the subtotal below the threshold",
			in:   us(line("a", 3000, 2)),
			edit: func(in *pricing.Input) { in.Code = code(shop.PromoPercent, 2000) },
			want: pricing.Quote{Subtotal: 6000, Discount: 1200, Shipping: 1000, Tax: 480, Total: 6280, Method: usMeths[0]},
		},
		{
			name: "percent code with a free method",
			in:   us(line("a", 1999, 1)),
			edit: func(in *pricing.Input) { in.Code, in.MethodID = code(shop.PromoPercent, 2500), "pickup" },
			// 1999 × 25 % = 499.75, rounded half up.
			want: pricing.Quote{Subtotal: 1999, Discount: 500, Shipping: 0, Tax: 150, Total: 1649, Method: usMeths[3]},
		},
		{
			name: "free-shipping code on Standard, the zone's cheapest",
			in:   us(line("a", 1999, 1)),
			edit: func(in *pricing.Input) { in.Code = code(shop.PromoFreeShipping, 0) },
			want: pricing.Quote{Subtotal: 1999, Shipping: 0, ShippingDiscount: 1000, Tax: 200, Total: 2199, Method: usMeths[0]},
		},
		{
			name: "free-shipping code leaves Next Day its price",
			in:   us(line("a", 1999, 1)),
			edit: func(in *pricing.Input) { in.Code, in.MethodID = code(shop.PromoFreeShipping, 0), "next-day" },
			want: pricing.Quote{Subtotal: 1999, Shipping: 1999, Tax: 200, Total: 4198, Method: usMeths[2]},
		},
		{
			name: "free-shipping code that staff chose for Express",
			in:   us(line("a", 1999, 1)),
			edit: func(in *pricing.Input) {
				in.Code, in.MethodID = code(shop.PromoFreeShipping, 0), "express"
				in.Code.FreeMethods = []string{"express", "next-day"}
			},
			want: pricing.Quote{Subtotal: 1999, Shipping: 0, ShippingDiscount: 1499, Tax: 200, Total: 2199, Method: usMeths[1]},
		},
		{
			name: "fixed code larger than the subtotal",
			in:   us(line("a", 1999, 1), line("b", 500, 2)),
			edit: func(in *pricing.Input) { in.Code = code(shop.PromoFixed, 10000) },
			// The discount stops at the subtotal; shipping is still paid.
			want:          pricing.Quote{Subtotal: 2999, Discount: 2999, Shipping: 1000, Tax: 0, Total: 1000, Method: usMeths[0]},
			lineDiscounts: []shop.Cents{1999, 1000},
		},
		{
			name: "fixed code larger than an order shipped free",
			in:   us(line("a", 1999, 1)),
			edit: func(in *pricing.Input) { in.Code, in.MethodID = code(shop.PromoFixed, 10000), "pickup" },
			want: pricing.Quote{Subtotal: 1999, Discount: 1999, Total: 0, Method: usMeths[3]},
		},
		{
			name: "yen have no minor units",
			in: pricing.Input{
				Lines: []pricing.Line{line("a", 1980, 1), line("b", 355, 2)}, Country: "Japan",
				Zones: jpZones, Methods: jpMeths, Rates: jpRates, Settings: shop.PricingSettings{TaxShipping: true},
				Code: code(shop.PromoPercent, 1500),
			},
			// 2690 × 15 % = 403.5 → 404 yen; (2286 + 500) × 10 % = 278.6 → 279 yen.
			want:          pricing.Quote{Subtotal: 2690, Discount: 404, Shipping: 500, Tax: 279, ShippingTax: 50, Total: 3065, Method: jpMeths[0]},
			lineDiscounts: []shop.Cents{297, 107},
			taxLines:      []shop.TaxLine{{Name: "Consumption tax", Rate: 1000, PPM: 100000, Base: 2786, Amount: 279}},
		},
		{
			name: "ten each of three odd prices with a code",
			in:   us(line("a", 333, 10), line("b", 1999, 10), line("c", 7, 10)),
			edit: func(in *pricing.Input) { in.Code = code(shop.PromoPercent, 1500) },
			// 23390 × 15 % = 3508.5 → 3509, shared 499.57 / 2998.93 / 10.50:
			// the two leftover cents go to the largest fractions.
			want:          pricing.Quote{Subtotal: 23390, Discount: 3509, Shipping: 0, Tax: 1988, Total: 21869, Method: usMeths[0]},
			lineDiscounts: []shop.Cents{500, 2999, 10},
			lineTaxes:     []shop.Cents{283, 1699, 6},
		},
		{
			name: "ten each of three odd prices",
			in:   us(line("a", 333, 10), line("b", 1999, 10), line("c", 7, 10)),
			want: pricing.Quote{Subtotal: 23390, Shipping: 0, Tax: 2339, Total: 25729, Method: usMeths[0]},
		},
		{
			name: "empty cart",
			in:   us(),
			want: pricing.Quote{Method: usMeths[0]},
		},
		{
			name: "address in no zone",
			in:   us(line("a", 1999, 1)),
			edit: func(in *pricing.Input) { in.Country = "Canada" },
			want: pricing.Quote{Subtotal: 1999, Tax: 200, Total: 2199, NoMethod: true},
		},
		{
			name: "a method not offered falls back to the first",
			in:   us(line("a", 1999, 1)),
			edit: func(in *pricing.Input) { in.MethodID = "courier" },
			want: pricing.Quote{Subtotal: 1999, Shipping: 1000, Tax: 200, Total: 3199, Method: usMeths[0]},
		},
		{
			name: "no tax rate",
			in:   us(line("a", 1999, 1)),
			edit: func(in *pricing.Input) { in.Rates = nil },
			want: pricing.Quote{Subtotal: 1999, Shipping: 1000, Total: 2999, Method: usMeths[0]},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.in
			if tt.edit != nil {
				tt.edit(&in)
			}
			q := pricing.Price(in)
			got := pricing.Quote{
				Subtotal: q.Subtotal, Discount: q.Discount, Shipping: q.Shipping, ShippingDiscount: q.ShippingDiscount,
				Tax: q.Tax, ShippingTax: q.ShippingTax, Total: q.Total, TaxIncluded: q.TaxIncluded, NoMethod: q.NoMethod,
			}
			want := tt.want
			want.Method = shop.ShippingMethod{}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got %+v, want %+v", got, want)
			}
			if q.Method.ID != tt.want.Method.ID {
				t.Errorf("method: got %q, want %q", q.Method.ID, tt.want.Method.ID)
			}
			if tt.lineDiscounts != nil {
				if got := lineField(q, func(l pricing.LineQuote) shop.Cents { return l.Discount }); !reflect.DeepEqual(got, tt.lineDiscounts) {
					t.Errorf("line discounts: got %v, want %v", got, tt.lineDiscounts)
				}
			}
			if tt.lineTaxes != nil {
				if got := lineField(q, func(l pricing.LineQuote) shop.Cents { return l.Tax }); !reflect.DeepEqual(got, tt.lineTaxes) {
					t.Errorf("line taxes: got %v, want %v", got, tt.lineTaxes)
				}
			}
			if tt.taxLines != nil && !reflect.DeepEqual(q.TaxLines, tt.taxLines) {
				t.Errorf("tax lines: got %+v, want %+v", q.TaxLines, tt.taxLines)
			}
			checkSums(t, in, q)
		})
	}
}

func lineField(q pricing.Quote, f func(pricing.LineQuote) shop.Cents) []shop.Cents {
	var out []shop.Cents
	for _, l := range q.Lines {
		out = append(out, f(l))
	}
	return out
}

// The methods offered are the enabled ones of the address's zone, in order,
// each at what it would cost this order.
func TestPrice_Methods(t *testing.T) {
	tests := []struct {
		name string
		in   pricing.Input
		want map[string]shop.Cents
		ids  []string
		free []string // the methods the code makes free, by name
	}{
		{
			name: "below the threshold",
			in:   us(line("a", 1999, 1)),
			ids:  []string{"standard", "express", "next-day", "pickup"},
			want: map[string]shop.Cents{"standard": 1000, "express": 1499, "next-day": 1999, "pickup": 0},
		},
		{
			name: "from the threshold only Standard turns free",
			in:   us(line("a", 5000, 1)),
			ids:  []string{"standard", "express", "next-day", "pickup"},
			want: map[string]shop.Cents{"standard": 0, "express": 1499, "next-day": 1999, "pickup": 0},
		},
		{
			name: "a free-shipping code makes the zone's cheapest method free, the others keep their price",
			in: func() pricing.Input {
				in := us(line("a", 1999, 1))
				in.Code = code(shop.PromoFreeShipping, 0)
				return in
			}(),
			ids:  []string{"standard", "express", "next-day", "pickup"},
			want: map[string]shop.Cents{"standard": 0, "express": 1499, "next-day": 1999, "pickup": 0},
			free: []string{"Standard"},
		},
		{
			name: "a free-shipping code makes the methods staff chose free",
			in: func() pricing.Input {
				in := us(line("a", 1999, 1))
				in.Code = code(shop.PromoFreeShipping, 0)
				in.Code.FreeMethods = []string{"express", "next-day"}
				return in
			}(),
			ids:  []string{"standard", "express", "next-day", "pickup"},
			want: map[string]shop.Cents{"standard": 1000, "express": 0, "next-day": 0, "pickup": 0},
			free: []string{"Express", "Next Day"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := pricing.Price(tt.in)
			var ids []string
			for _, o := range q.Methods {
				ids = append(ids, o.Method.ID)
				if o.Price != tt.want[o.Method.ID] {
					t.Errorf("%s: got %v, want %v", o.Method.ID, o.Price, tt.want[o.Method.ID])
				}
			}
			if !reflect.DeepEqual(ids, tt.ids) {
				t.Errorf("methods: got %v, want %v", ids, tt.ids)
			}
			if !reflect.DeepEqual(q.FreeShippingFor, tt.free) {
				t.Errorf("free shipping for %q, want %q", q.FreeShippingFor, tt.free)
			}
		})
	}
}

// An address belongs to the first zone by Position that holds it, and is
// taxed at its state's rate, else its country's, else the default.
func TestPrice_ZonesAndRates(t *testing.T) {
	zones := []shop.ShippingZone{
		{ID: "rest", Countries: []string{"United States"}, Position: 2},
		{ID: "far", Countries: []string{"United States"}, States: []string{"AK", "HI"}, Position: 1},
	}
	methods := []shop.ShippingMethod{
		{ID: "far-b", Price: 3000, ZoneIDs: []string{"far"}, Position: 2, Enabled: true},
		{ID: "far-a", Price: 2000, ZoneIDs: []string{"far"}, Position: 1, Enabled: true},
		{ID: "rest", Price: 500, ZoneIDs: []string{"rest"}, Enabled: true},
	}
	rates := []shop.TaxRate{
		{Name: "Default", Rate: 500},
		{Name: "CA", Country: "United States", State: "CA", Rate: 725},
		{Name: "US", Country: "United States", Rate: 100},
		{Name: "UK", Country: "United Kingdom", Rate: 2000},
	}
	tests := []struct {
		country, state string
		method         string
		rate           string
	}{
		{"United States", "HI", "far-a", "US"},
		{"united states", "hi", "far-a", "US"},
		{"United States", "CA", "rest", "CA"},
		{"United States", "", "rest", "US"},
		{"Germany", "", "", "Default"},
	}
	for _, tt := range tests {
		t.Run(tt.country+"/"+tt.state, func(t *testing.T) {
			q := pricing.Price(pricing.Input{
				Lines: []pricing.Line{line("a", 10000, 1)}, Country: tt.country, State: tt.state,
				Zones: zones, Methods: methods, Rates: rates,
			})
			if q.Method.ID != tt.method || q.NoMethod != (tt.method == "") {
				t.Errorf("method: got %q (none %v), want %q", q.Method.ID, q.NoMethod, tt.method)
			}
			if len(q.TaxLines) != 1 || q.TaxLines[0].Name != tt.rate {
				t.Errorf("tax lines: got %+v, want the %s rate", q.TaxLines, tt.rate)
			}
		})
	}
}

// The seeded settings price every cart without a code by the spec's
// formula, computed exactly with rationals: Standard shipping is $10 below a
// $50 subtotal and free from $50; tax is 10% of the subtotal rounded half
// up to the cent; total = subtotal + shipping + tax.
func TestPrice_SeededIsTheSpecFormula(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 5000 {
		var lines []pricing.Line
		var sub int64
		for j := range r.IntN(6) {
			price := shop.Cents(1 + r.IntN(20000))
			if r.IntN(4) == 0 {
				price = shop.Cents(1 + r.IntN(500))
			}
			qty := 1 + r.IntN(shop.MaxCartQuantity)
			lines = append(lines, line(string(rune('a'+j)), price, qty))
			sub += int64(price) * int64(qty)
		}
		tax := new(big.Rat).SetFrac64(sub*10, 100)
		tax.Add(tax, big.NewRat(1, 2))
		wantTax := shop.Cents(new(big.Int).Quo(tax.Num(), tax.Denom()).Int64()) // floor(x + 1/2)
		wantShip := shop.Cents(1000)
		if sub == 0 || sub >= 5000 {
			wantShip = 0
		}
		q := pricing.Price(us(lines...))
		if q.Subtotal != shop.Cents(sub) || q.Shipping != wantShip || q.Tax != wantTax || q.Total != shop.Cents(sub)+wantShip+wantTax {
			t.Fatalf("cart %d %+v: got %+v, want subtotal %d, shipping %d, tax %d", i, lines, q, sub, wantShip, wantTax)
		}
	}
}

// Whatever the cart, code, rates and settings, the sums hold together and
// refunds never give back more than was paid.
func TestPrice_Properties(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for i := range 5000 {
		in := randomInput(r)
		q := pricing.Price(in)
		if t.Failed() {
			return
		}
		checkSums(t, in, q)

		all := map[string]int{}
		for _, l := range q.Lines {
			all[l.Key] = l.Quantity
		}
		if got := q.Refund(all, true).Amount; got != q.Total {
			t.Fatalf("input %d: refunding everything gave %v, want the total %v", i, got, q.Total)
		}

		// Return the items a few at a time, shipping with one of them.
		var refunded shop.Cents
		left := maps.Clone(all)
		shipped := r.IntN(3)
		for step := range 3 {
			part := map[string]int{}
			for _, l := range q.Lines { // in order, so the seed decides
				n, take := left[l.Key], left[l.Key]
				if step < 2 {
					take = r.IntN(n + 1)
				}
				part[l.Key], left[l.Key] = take, n-take
			}
			rf := q.Refund(part, step == shipped)
			if rf.Amount < 0 || rf.Tax < 0 || rf.Discount < 0 {
				t.Fatalf("input %d: negative refund %+v", i, rf)
			}
			refunded += rf.Amount
		}
		if refunded > q.Total {
			t.Fatalf("input %d: refunds add up to %v, more than the total %v", i, refunded, q.Total)
		}
	}
}

func randomInput(r *rand.Rand) pricing.Input {
	in := pricing.Input{Country: "Testland", Zones: []shop.ShippingZone{{ID: "z", Countries: []string{"Testland"}}}}
	for j := range r.IntN(6) {
		in.Lines = append(in.Lines, line(string(rune('a'+j)), shop.Cents(r.IntN(50000)), r.IntN(11)))
	}
	for j := range 1 + r.IntN(3) {
		m := shop.ShippingMethod{ID: string(rune('m' + j)), Price: shop.Cents(r.IntN(3000)), ZoneIDs: []string{"z"}, Position: j, Enabled: true}
		if r.IntN(2) == 0 {
			m.FreeFrom = shop.Cents(r.IntN(60000))
		}
		in.Methods = append(in.Methods, m)
	}
	in.MethodID = string(rune('m' + r.IntN(3)))
	if r.IntN(5) > 0 {
		in.Rates = []shop.TaxRate{{Name: "Tax", Country: "Testland", Rate: r.IntN(3000)}}
	}
	switch r.IntN(5) {
	case 1:
		in.Code = code(shop.PromoPercent, int64(r.IntN(10001)))
	case 2:
		in.Code = code(shop.PromoFixed, int64(r.IntN(60000)))
	case 3:
		in.Code = code(shop.PromoFreeShipping, 0)
	}
	in.Settings = shop.PricingSettings{PricesIncludeTax: r.IntN(2) == 0, TaxShipping: r.IntN(2) == 0}
	return in
}

// checkSums checks what must hold of any quote.
func checkSums(t *testing.T, in pricing.Input, q pricing.Quote) {
	t.Helper()
	want := q.Subtotal - q.Discount + q.Shipping
	if !q.TaxIncluded {
		want += q.Tax
	}
	if q.Total != want || q.Total < 0 {
		t.Errorf("%+v: total %v, want %v and never negative", in, q.Total, want)
	}
	if q.Discount < 0 || q.Discount > q.Subtotal {
		t.Errorf("%+v: discount %v outside 0..%v", in, q.Discount, q.Subtotal)
	}
	var subtotal, discounts, taxes, taxLines shop.Cents
	for _, l := range q.Lines {
		subtotal += l.Total
		discounts += l.Discount
		taxes += l.Tax
		if l.Discount > l.Total {
			t.Errorf("%+v: line %s discounted %v of %v", in, l.Key, l.Discount, l.Total)
		}
	}
	for _, tl := range q.TaxLines {
		taxLines += tl.Amount
	}
	if subtotal != q.Subtotal || subtotal != pricing.Subtotal(in.Lines) {
		t.Errorf("%+v: lines add up to %v, subtotal %v", in, subtotal, q.Subtotal)
	}
	if discounts != q.Discount {
		t.Errorf("%+v: line discounts add up to %v, discount %v", in, discounts, q.Discount)
	}
	if taxes+q.ShippingTax != q.Tax || taxLines != q.Tax {
		t.Errorf("%+v: line taxes %v + shipping %v and tax lines %v, tax %v", in, taxes, q.ShippingTax, taxLines, q.Tax)
	}
}
