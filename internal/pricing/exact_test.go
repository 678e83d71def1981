package pricing_test

import (
	"errors"
	"testing"

	"github.com/nocturne/storefront/internal/pricing"
	"github.com/nocturne/storefront/internal/shop"
)

// A rate finer than basis points is charged exactly, rounded once for the
// order and half up (decision 0012): 8.875 % of $100.00 is $8.875, so
// $8.88; held in the prices it is 10000 × 8.875 ÷ 108.875 = 815.15…, so
// $8.15.
func TestPrice_ExactRate(t *testing.T) {
	nyc := shop.TaxRate{Name: "Sales tax", Country: "United States", State: "NY", Rate: 888, PPM: 88750}
	tests := []struct {
		name     string
		lines    []pricing.Line
		state    string
		included bool
		tax      shop.Cents
		shares   []shop.Cents
	}{
		{"HalfUp", []pricing.Line{line("a", 10000, 1)}, "NY", false, 888, []shop.Cents{888}},
		{"ByName", []pricing.Line{line("a", 10000, 1)}, "New York", false, 888, []shop.Cents{888}},
		{"JustBelowHalf", []pricing.Line{line("a", 9999, 1)}, "NY", false, 887, []shop.Cents{887}}, // 887.41…
		{"Included", []pricing.Line{line("a", 10000, 1)}, "NY", true, 815, []shop.Cents{815}},
		{"SharedByLargestRemainder", []pricing.Line{line("a", 5000, 1), line("b", 5000, 1)}, "NY", false, 888, []shop.Cents{444, 444}},
		{"SharedUnevenly", []pricing.Line{line("a", 3333, 1), line("b", 6667, 1)}, "NY", false, 888, []shop.Cents{296, 592}},
		{"OtherStateDefault", []pricing.Line{line("a", 10000, 1)}, "NJ", false, 1000, []shop.Cents{1000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := pricing.Price(pricing.Input{Lines: tt.lines, Country: "United States", State: tt.state,
				Rates:    []shop.TaxRate{{Name: "Tax", Rate: 1000}, nyc},
				Settings: shop.PricingSettings{PricesIncludeTax: tt.included}})
			if q.Tax != tt.tax {
				t.Errorf("tax %d, want %d", q.Tax, tt.tax)
			}
			for i, want := range tt.shares {
				if q.Lines[i].Tax != want {
					t.Errorf("line %d's share %d, want %d", i, q.Lines[i].Tax, want)
				}
			}
			if tt.state == "NY" && (len(q.TaxLines) != 1 || q.TaxLines[0].PPM != 88750 || q.TaxLines[0].Rate != 888) {
				t.Errorf("tax lines %+v, want 8.875 %% kept exactly", q.TaxLines)
			}
		})
	}
}

// A rate row with only basis points (written before PPM, or edited since by
// a release that writes only them) keeps its meaning; PPM counts only
// where the basis points are it rounded.
func TestTaxRate_Exact(t *testing.T) {
	tests := []struct {
		name string
		rate shop.TaxRate
		want int
	}{
		{"OnlyBasisPoints", shop.TaxRate{Rate: 825}, 82500},
		{"Exact", shop.TaxRate{Rate: 888, PPM: 88750}, 88750},
		{"EditedByAnOlderRelease", shop.TaxRate{Rate: 900, PPM: 88750}, 90000},
		{"BelowABasisPoint", shop.TaxRate{Rate: 0, PPM: 40}, 40},
		{"Zero", shop.TaxRate{}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.rate.Exact(); got != tt.want {
				t.Errorf("got %d, want %d", got, tt.want)
			}
		})
	}
}

func TestParseTaxRate(t *testing.T) {
	tests := []struct {
		in   string
		want int
		msg  string
	}{
		{in: "8.875", want: 88750},
		{in: "8.875 %", want: 88750},
		{in: "10", want: 100000},
		{in: "8.25", want: 82500},
		{in: "0.0001", want: 1},
		{in: "4.7125", want: 47125},
		{in: "100", want: 1000000},
		{in: "0", want: 0},
		{in: "8.87501", msg: pricing.MsgTaxRateDecimals},
		{in: "100.0001", msg: pricing.MsgRateRange},
		{in: "-1", msg: pricing.MsgRateRange},
		{in: "8,875", msg: pricing.MsgRateSyntax},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := pricing.ParseTaxRate(tt.in)
			if tt.msg == "" {
				if err != nil || got != tt.want {
					t.Fatalf("got %d, %v, want %d", got, err, tt.want)
				}
				return
			}
			var e *shop.Error
			if !errors.As(err, &e) || e.Code != shop.EINVALID || e.Message != tt.msg {
				t.Errorf("got %d, %v, want an EINVALID with %q", got, err, tt.msg)
			}
		})
	}
}

// Rates are shown exactly, and whole ones as before.
func TestTaxRateText(t *testing.T) {
	for ppm, want := range map[int]string{100000: "10%", 82500: "8.25%", 88750: "8.875%", 47125: "4.7125%", 125000: "12.5%", 0: "0%", 1: "0.0001%", 1000000: "100%"} {
		if got := pricing.TaxRateText(ppm); got != want {
			t.Errorf("TaxRateText(%d) = %q, want %q", ppm, got, want)
		}
		if got, err := pricing.ParseTaxRate(pricing.TaxRateInput(ppm)); err != nil || got != ppm {
			t.Errorf("ParseTaxRate(TaxRateInput(%d)) = %d, %v", ppm, got, err)
		}
	}
	if got := pricing.RateText(1000); got != "10%" {
		t.Errorf("RateText(1000) = %q, want 10%%", got)
	}
}
