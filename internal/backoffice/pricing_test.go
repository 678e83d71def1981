package backoffice_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/money"
	"github.com/nocturne/storefront/internal/pricing"
	"github.com/nocturne/storefront/internal/shop"
)

var countries = []string{"United States", "Canada", "United Kingdom"}

func TestParseZone(t *testing.T) {
	ok := backoffice.ZoneInput{Name: " West coast ", Countries: []string{"United States"}, States: "CA, OR,,wa ", Position: "3"}
	tests := []struct {
		name string
		edit func(in *backoffice.ZoneInput)
		want shop.ShippingZone
		errs shop.FieldErrors
	}{
		{"OK", nil, shop.ShippingZone{Name: "West coast", Countries: []string{"United States"}, States: []string{"CA", "OR", "wa"}, Position: 3}, nil},
		{"OKCountriesInTheCheckoutsOrder", func(in *backoffice.ZoneInput) { in.Countries = []string{"United Kingdom", "Canada"}; in.States = "" },
			shop.ShippingZone{Name: "West coast", Countries: []string{"Canada", "United Kingdom"}, Position: 3}, nil},
		{"ErrNameRequired", func(in *backoffice.ZoneInput) { in.Name = "  " }, shop.ShippingZone{}, shop.FieldErrors{"name": backoffice.MsgNameRequired}},
		{"ErrNoCountry", func(in *backoffice.ZoneInput) { in.Countries = nil }, shop.ShippingZone{}, shop.FieldErrors{"countries": backoffice.MsgCountriesChoose}},
		{"ErrUnknownCountry", func(in *backoffice.ZoneInput) { in.Countries = []string{"Atlantis"} }, shop.ShippingZone{}, shop.FieldErrors{"countries": backoffice.MsgCountryUnknown}},
		{"ErrStateTwice", func(in *backoffice.ZoneInput) { in.States = "CA, ca" }, shop.ShippingZone{}, shop.FieldErrors{"states": backoffice.MsgStatesInvalid}},
		{"ErrPosition", func(in *backoffice.ZoneInput) { in.Position = "-1" }, shop.ShippingZone{}, shop.FieldErrors{"position": backoffice.MsgPosition}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := ok
			if tt.edit != nil {
				tt.edit(&in)
			}
			got, errs := backoffice.ParseZone(in, countries)
			if !reflect.DeepEqual(errs, tt.errs) {
				t.Fatalf("errors %v, want %v", errs, tt.errs)
			}
			if tt.errs == nil && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestParseMethod(t *testing.T) {
	ok := backoffice.MethodInput{Name: "Courier", Price: "12.50", FreeFrom: "", MinDays: "1", MaxDays: "2", Cutoff: "14",
		Position: "5", Zones: []string{"us"}, Enabled: true}
	zones := []string{"us", "intl"}
	tests := []struct {
		name string
		edit func(in *backoffice.MethodInput)
		want shop.ShippingMethod
		errs shop.FieldErrors
	}{
		{"OK", nil, shop.ShippingMethod{Name: "Courier", Price: 1250, MinDays: 1, MaxDays: 2, CutoffHour: 14, ZoneIDs: []string{"us"}, Position: 5, Enabled: true}, nil},
		{"OKNoCutoffFreeFromDisabled", func(in *backoffice.MethodInput) {
			in.Cutoff, in.FreeFrom, in.Enabled, in.MinDays, in.MaxDays = backoffice.NoCutoff, "$75", false, "0", "60"
		}, shop.ShippingMethod{Name: "Courier", Price: 1250, FreeFrom: 7500, MinDays: 0, MaxDays: 60, CutoffHour: -1, ZoneIDs: []string{"us"}, Position: 5}, nil},
		{"ErrPrice", func(in *backoffice.MethodInput) { in.Price = "12.5.0" }, shop.ShippingMethod{}, shop.FieldErrors{"price": money.MsgSyntax()}},
		{"ErrPriceMissing", func(in *backoffice.MethodInput) { in.Price = "" }, shop.ShippingMethod{}, shop.FieldErrors{"price": money.MsgSyntax()}},
		{"ErrFreeFrom", func(in *backoffice.MethodInput) { in.FreeFrom = "lots" }, shop.ShippingMethod{},
			shop.FieldErrors{"free_from": money.MsgSyntax() + backoffice.MsgFreeFromEmpty}},
		{"ErrDaysRange", func(in *backoffice.MethodInput) { in.MaxDays = "61" }, shop.ShippingMethod{}, shop.FieldErrors{"max_days": backoffice.MsgDays}},
		{"ErrDaysOrder", func(in *backoffice.MethodInput) { in.MinDays, in.MaxDays = "5", "3" }, shop.ShippingMethod{}, shop.FieldErrors{"max_days": backoffice.MsgDaysOrder}},
		{"ErrCutoff", func(in *backoffice.MethodInput) { in.Cutoff = "24" }, shop.ShippingMethod{}, shop.FieldErrors{"cutoff": backoffice.MsgCutoff}},
		{"ErrNoZone", func(in *backoffice.MethodInput) { in.Zones = nil }, shop.ShippingMethod{}, shop.FieldErrors{"zones": backoffice.MsgZonesChoose}},
		{"ErrZoneGone", func(in *backoffice.MethodInput) { in.Zones = []string{"us", "moon"} }, shop.ShippingMethod{}, shop.FieldErrors{"zones": backoffice.MsgZoneGone}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := ok
			if tt.edit != nil {
				tt.edit(&in)
			}
			got, errs := backoffice.ParseMethod(in, zones)
			if !reflect.DeepEqual(errs, tt.errs) {
				t.Fatalf("errors %v, want %v", errs, tt.errs)
			}
			if tt.errs == nil && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestParseTaxRate(t *testing.T) {
	tests := []struct {
		name string
		in   backoffice.TaxRateInput
		want shop.TaxRate
		errs shop.FieldErrors
	}{
		{"OK", backoffice.TaxRateInput{Name: "Sales tax", Country: "United States", State: " NY ", Rate: "8.25"},
			shop.TaxRate{Name: "Sales tax", Country: "United States", State: "NY", Rate: 825, PPM: 82500}, nil},
		{"OKExactByName", backoffice.TaxRateInput{Name: "Sales tax", Country: "United States", State: "new york", Rate: "8.875"},
			shop.TaxRate{Name: "Sales tax", Country: "United States", State: "NY", Rate: 888, PPM: 88750}, nil},
		{"ErrStateUnknown", backoffice.TaxRateInput{Name: "Sales tax", Country: "United States", State: "СА", Rate: "5"}, shop.TaxRate{},
			shop.FieldErrors{"state": "Please enter a state or province of United States, e.g. CA or California."}},
		{"ErrFiveDecimals", backoffice.TaxRateInput{Name: "Sales tax", Country: "United States", Rate: "8.87501"}, shop.TaxRate{},
			shop.FieldErrors{"rate": pricing.MsgTaxRateDecimals}},
		{"OKEverywhereElse", backoffice.TaxRateInput{Name: "Tax", Rate: "0"}, shop.TaxRate{Name: "Tax"}, nil},
		{"ErrStateWithoutCountry", backoffice.TaxRateInput{Name: "Tax", State: "NY", Rate: "5"}, shop.TaxRate{},
			shop.FieldErrors{"state": backoffice.MsgStateNeedsPlace}},
		{"ErrCountry", backoffice.TaxRateInput{Name: "Tax", Country: "Atlantis", Rate: "5"}, shop.TaxRate{},
			shop.FieldErrors{"country": backoffice.MsgCountryUnknown}},
		{"ErrRate", backoffice.TaxRateInput{Name: "VAT", Country: "United Kingdom", Rate: "120"}, shop.TaxRate{},
			shop.FieldErrors{"rate": pricing.MsgRateRange}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, errs := backoffice.ParseTaxRate(tt.in, countries)
			if !reflect.DeepEqual(errs, tt.errs) {
				t.Fatalf("errors %v, want %v", errs, tt.errs)
			}
			if tt.errs == nil && got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestParsePromo(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	ok := backoffice.PromoInput{Code: "AUTUMN-25", Kind: shop.PromoPercent, Value: "12.5", MinSubtotal: "40",
		StartsAt: "2026-11-27T00:00", EndsAt: "2026-12-01T23:59", UsageCap: "100", OncePerCustomer: true}
	tests := []struct {
		name string
		edit func(in *backoffice.PromoInput)
		want shop.PromoCode
		errs shop.FieldErrors
	}{
		// Midnight in New York is five in the morning in UTC.
		{"OK", nil, shop.PromoCode{Code: "AUTUMN-25", Kind: shop.PromoPercent, Value: 1250, MinSubtotal: 4000,
			StartsAt: time.Date(2026, 11, 27, 5, 0, 0, 0, time.UTC), EndsAt: time.Date(2026, 12, 2, 4, 59, 0, 0, time.UTC),
			UsageCap: 100, OncePerCustomer: true}, nil},
		{"OKFixedWithoutLimits", func(in *backoffice.PromoInput) {
			*in = backoffice.PromoInput{Code: "take_5", Kind: shop.PromoFixed, Value: "5"}
		}, shop.PromoCode{Code: "take_5", Kind: shop.PromoFixed, Value: 500}, nil},
		{"OKFreeShippingIgnoresValue", func(in *backoffice.PromoInput) {
			*in = backoffice.PromoInput{Code: "SHIPFREE", Kind: shop.PromoFreeShipping, Value: "whatever"}
		}, shop.PromoCode{Code: "SHIPFREE", Kind: shop.PromoFreeShipping}, nil},
		{"OKSecondsFromTheBrowser", func(in *backoffice.PromoInput) { in.StartsAt, in.EndsAt = "2026-11-27T00:00:00", "" },
			shop.PromoCode{Code: "AUTUMN-25", Kind: shop.PromoPercent, Value: 1250, MinSubtotal: 4000,
				StartsAt: time.Date(2026, 11, 27, 5, 0, 0, 0, time.UTC), UsageCap: 100, OncePerCustomer: true}, nil},
		{"ErrCodeShort", func(in *backoffice.PromoInput) { in.Code = "AB" }, shop.PromoCode{}, shop.FieldErrors{"code": backoffice.MsgPromoCode}},
		{"ErrCodeSpace", func(in *backoffice.PromoInput) { in.Code = "AUTUMN 25" }, shop.PromoCode{}, shop.FieldErrors{"code": backoffice.MsgPromoCode}},
		{"ErrCodeLong", func(in *backoffice.PromoInput) { in.Code = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456" }, shop.PromoCode{}, shop.FieldErrors{"code": backoffice.MsgPromoCode}},
		{"ErrKind", func(in *backoffice.PromoInput) { in.Kind = "" }, shop.PromoCode{}, shop.FieldErrors{"kind": backoffice.MsgPromoKind}},
		{"ErrPercentZero", func(in *backoffice.PromoInput) { in.Value = "0" }, shop.PromoCode{}, shop.FieldErrors{"value": backoffice.MsgPromoPercentZero}},
		{"ErrPercentOver", func(in *backoffice.PromoInput) { in.Value = "101" }, shop.PromoCode{}, shop.FieldErrors{"value": pricing.MsgRateRange}},
		{"ErrFixed", func(in *backoffice.PromoInput) { in.Kind, in.Value = shop.PromoFixed, "1.005" }, shop.PromoCode{},
			shop.FieldErrors{"value": "Use at most 2 decimal places."}},
		{"ErrMinimum", func(in *backoffice.PromoInput) { in.MinSubtotal = "-5" }, shop.PromoCode{},
			shop.FieldErrors{"min_subtotal": money.MsgPositive() + backoffice.MsgOptionalAmount}},
		{"ErrWhen", func(in *backoffice.PromoInput) { in.StartsAt = "next week" }, shop.PromoCode{}, shop.FieldErrors{"starts_at": backoffice.MsgPromoWhen}},
		{"ErrEndsFirst", func(in *backoffice.PromoInput) { in.EndsAt = in.StartsAt }, shop.PromoCode{}, shop.FieldErrors{"ends_at": backoffice.MsgPromoEndsFirst}},
		{"ErrUsageCap", func(in *backoffice.PromoInput) { in.UsageCap = "0" }, shop.PromoCode{}, shop.FieldErrors{"usage_cap": backoffice.MsgUsageCap}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := ok
			if tt.edit != nil {
				tt.edit(&in)
			}
			got, errs := backoffice.ParsePromo(in, ny)
			if !reflect.DeepEqual(errs, tt.errs) {
				t.Fatalf("errors %v, want %v", errs, tt.errs)
			}
			if tt.errs == nil && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

// What a datetime-local field shows is read back as the same time.
func TestWhenInput_RoundTrips(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 7, 4, 13, 30, 0, 0, time.UTC)
	s := backoffice.WhenInput(at, ny)
	if s != "2026-07-04T09:30" {
		t.Fatalf("WhenInput = %q, want 2026-07-04T09:30 (EDT)", s)
	}
	c, errs := backoffice.ParsePromo(backoffice.PromoInput{Code: "JULY", Kind: shop.PromoFreeShipping, StartsAt: s}, ny)
	if errs != nil || !c.StartsAt.Equal(at) {
		t.Errorf("read back as %v (%v), want %v", c.StartsAt, errs, at)
	}
}

func TestPromoState(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		code shop.PromoCode
		want string
	}{
		{"Active", shop.PromoCode{Kind: shop.PromoFixed, Value: 500, MinSubtotal: 5000, UsageCap: 2, Used: 1}, backoffice.PromoActive},
		{"Paused", shop.PromoCode{Kind: shop.PromoFixed, Value: 500, Paused: true, EndsAt: now}, backoffice.PromoPaused},
		{"Scheduled", shop.PromoCode{Kind: shop.PromoPercent, Value: 1000, StartsAt: now.Add(time.Minute)}, backoffice.PromoScheduled},
		{"Ended", shop.PromoCode{Kind: shop.PromoPercent, Value: 1000, EndsAt: now}, backoffice.PromoEnded},
		{"UsedUp", shop.PromoCode{Kind: shop.PromoFreeShipping, UsageCap: 3, Used: 3}, backoffice.PromoUsedUp},
		{"Unusable", shop.PromoCode{Kind: "bogus"}, backoffice.PromoUnusable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := backoffice.PromoState(tt.code, now); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
