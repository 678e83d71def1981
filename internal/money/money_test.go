package money_test

import (
	"testing"

	"github.com/nocturne/storefront/internal/money"
	"github.com/nocturne/storefront/internal/shop"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want shop.Cents
		msg  string // the field message when refused
	}{
		{in: "19.99", want: 1999},
		{in: "$1,299", want: 129900},
		{in: " 1299.5 ", want: 129950},
		{in: ".5", want: 50},
		{in: "0.01", want: 1},
		{in: "1000000", want: 100_000_000},
		{in: "1000000.00", want: 100_000_000},
		{in: "007.10", want: 710},
		// Rounding would have made these $0.00 or changed them silently.
		{in: "0.001", msg: "Use at most 2 decimal places."},
		{in: "0.004", msg: "Use at most 2 decimal places."},
		{in: "1.005", msg: "Use at most 2 decimal places."},
		{in: "1e-9", msg: money.MsgSyntax},
		{in: "5e2", msg: money.MsgSyntax},
		{in: "5E2", msg: money.MsgSyntax},
		{in: "NaN", msg: money.MsgSyntax},
		{in: "nan", msg: money.MsgSyntax},
		{in: "Inf", msg: money.MsgSyntax},
		{in: "+Inf", msg: money.MsgSyntax},
		{in: "-Infinity", msg: money.MsgSyntax},
		{in: "0x10", msg: money.MsgSyntax},
		{in: "1_000", msg: money.MsgSyntax},
		{in: "+5", msg: money.MsgSyntax},
		{in: "", msg: money.MsgSyntax},
		{in: ".", msg: money.MsgSyntax},
		{in: "1.2.3", msg: money.MsgSyntax},
		{in: "twelve", msg: money.MsgSyntax},
		{in: "0", msg: money.MsgPositive},
		{in: "0.00", msg: money.MsgPositive},
		{in: "-1", msg: money.MsgPositive},
		{in: "-0.5", msg: money.MsgPositive},
		{in: "1000000.01", msg: money.MsgTooLarge},
		{in: "99999999999999999999999", msg: money.MsgTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := money.Parse(tt.in)
			if tt.msg == "" {
				if err != nil || got != tt.want {
					t.Fatalf("Parse(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
				}
				return
			}
			if shop.ErrorCode(err) != shop.EINVALID || shop.ErrorMessage(err) != tt.msg {
				t.Fatalf("Parse(%q) = %d, %v; want the message %q", tt.in, got, err, tt.msg)
			}
		})
	}
}

func TestText_RoundTrips(t *testing.T) {
	for _, c := range []shop.Cents{1, 10, 99, 100, 1999, 129900, 129950, money.MaxAmount} {
		got, err := money.Parse(money.Text(c))
		if err != nil || got != c {
			t.Errorf("Parse(Text(%d)) = %d, %v (text %q)", c, got, err, money.Text(c))
		}
	}
	if got := money.Text(129950); got != "1299.50" {
		t.Errorf("Text(129950) = %q, want 1299.50", got)
	}
}
