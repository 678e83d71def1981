package pricing_test

import (
	"errors"
	"testing"

	"github.com/nocturne/storefront/internal/pricing"
	"github.com/nocturne/storefront/internal/shop"
)

func TestParseRate(t *testing.T) {
	tests := []struct {
		in   string
		want int
		msg  string // the field message when refused
	}{
		{in: "8.25", want: 825},
		{in: "20", want: 2000},
		{in: "12.5", want: 1250},
		{in: " 7.5 % ", want: 750},
		{in: "7.5%", want: 750},
		{in: "0", want: 0},
		{in: "0.01", want: 1},
		{in: ".5", want: 50},
		{in: "5.", want: 500},
		{in: "100", want: 10000},
		{in: "100.00", want: 10000},
		{in: "007.25", want: 725},
		// A float would have made this 28.999999…, and rounding 0.001 to 0.
		{in: "0.29", want: 29},
		{in: "0.001", msg: pricing.MsgRateDecimals},
		{in: "8.255", msg: pricing.MsgRateDecimals},
		{in: "100.01", msg: pricing.MsgRateRange},
		{in: "101", msg: pricing.MsgRateRange},
		{in: "99999999999999999999", msg: pricing.MsgRateRange},
		{in: "-5", msg: pricing.MsgRateRange},
		{in: "", msg: pricing.MsgRateSyntax},
		{in: "%", msg: pricing.MsgRateSyntax},
		{in: ".", msg: pricing.MsgRateSyntax},
		{in: "8,25", msg: pricing.MsgRateSyntax},
		{in: "1e2", msg: pricing.MsgRateSyntax},
		{in: "+5", msg: pricing.MsgRateSyntax},
		{in: "NaN", msg: pricing.MsgRateSyntax},
		{in: "ten", msg: pricing.MsgRateSyntax},
		{in: "٣", msg: pricing.MsgRateSyntax}, // a digit, but not an ASCII one
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := pricing.ParseRate(tt.in)
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

// What the form shows is read back as the same rate.
func TestRateInput_RoundTrips(t *testing.T) {
	for _, bp := range []int{0, 1, 10, 99, 100, 825, 1000, 1250, 2000, 9999, 10000} {
		s := pricing.RateInput(bp)
		if got, err := pricing.ParseRate(s); err != nil || got != bp {
			t.Errorf("ParseRate(RateInput(%d) = %q) = %d, %v", bp, s, got, err)
		}
	}
}
