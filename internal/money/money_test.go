package money_test

import (
	"fmt"
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
		{in: "1e-9", msg: money.MsgSyntax()},
		{in: "5e2", msg: money.MsgSyntax()},
		{in: "5E2", msg: money.MsgSyntax()},
		{in: "NaN", msg: money.MsgSyntax()},
		{in: "nan", msg: money.MsgSyntax()},
		{in: "Inf", msg: money.MsgSyntax()},
		{in: "+Inf", msg: money.MsgSyntax()},
		{in: "-Infinity", msg: money.MsgSyntax()},
		{in: "0x10", msg: money.MsgSyntax()},
		{in: "1_000", msg: money.MsgSyntax()},
		{in: "+5", msg: money.MsgSyntax()},
		{in: "", msg: money.MsgSyntax()},
		{in: ".", msg: money.MsgSyntax()},
		{in: "1.2.3", msg: money.MsgSyntax()},
		{in: "twelve", msg: money.MsgSyntax()},
		{in: "0", msg: money.MsgPositive()},
		{in: "0.00", msg: money.MsgPositive()},
		{in: "-1", msg: money.MsgPositive()},
		{in: "-0.5", msg: money.MsgPositive()},
		{in: "1000000.01", msg: money.MsgTooLarge()},
		{in: "99999999999999999999999", msg: money.MsgTooLarge()},
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

// useCurrency makes code, written for locale, the shop's currency until the
// test ends. Tests that call it must not be parallel.
func useCurrency(t *testing.T, code, locale string) {
	t.Helper()
	c, err := shop.NewCurrency(code, locale)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(shop.SetCurrency(c))
}

// Prices are read with the shop's currency's digits and symbol, and its
// messages speak of that currency; in US dollars they are the texts the
// shop always had.
func TestParse_PerCurrency(t *testing.T) {
	tests := []struct {
		code, locale, in string
		want             shop.Cents
		msg              string
	}{
		{code: "USD", locale: "en-US", in: "$19.99", want: 1999},
		{code: "USD", locale: "en-US", in: "19.999", msg: "Use at most 2 decimal places."},
		{code: "USD", locale: "en-US", in: "abc", msg: "Enter a price in dollars, such as 19.99."},
		{code: "USD", locale: "en-US", in: "0", msg: "Enter a price of more than $0.00."},
		{code: "USD", locale: "en-US", in: "1000000.01", msg: "Enter a price of at most $1,000,000.00."},
		{code: "JPY", locale: "en-US", in: "1235", want: 1235},
		{code: "JPY", locale: "en-US", in: "¥1,235", want: 1235},
		{code: "JPY", locale: "en-US", in: "1235.", want: 1235},
		{code: "JPY", locale: "en-US", in: "109.95", msg: "Use no decimal places."},
		{code: "JPY", locale: "en-US", in: "1.0", msg: "Use no decimal places."},
		{code: "JPY", locale: "en-US", in: "$12", msg: "Enter a price such as 1999."},
		{code: "JPY", locale: "en-US", in: "0", msg: "Enter a price of more than ¥0."},
		{code: "JPY", locale: "en-US", in: "100000001", msg: "Enter a price of at most ¥100,000,000."},
		{code: "KWD", locale: "en-US", in: "1.005", want: 1005},
		{code: "KWD", locale: "en-US", in: "12", want: 12000},
		{code: "KWD", locale: "en-US", in: "KWD 12.5", want: 12500},
		{code: "KWD", locale: "en-US", in: "0.0005", msg: "Use at most 3 decimal places."},
		{code: "KWD", locale: "en-US", in: "x", msg: "Enter a price such as 19.990."},
		{code: "KWD", locale: "en-US", in: "100000.001", msg: "Enter a price of at most KWD\u00a0100,000.000."},
		{code: "EUR", locale: "de-DE", in: "19.99 €", want: 1999},
		{code: "EUR", locale: "de-DE", in: "1299", want: 129900},
		// A comma is the decimal separator in German: "19,99" is not
		// read as 1999 euros, and "1,299" is not guessed at either.
		{code: "EUR", locale: "de-DE", in: "19,99", msg: "Enter a price such as 19.99."},
		{code: "EUR", locale: "de-DE", in: "1,299", msg: "Enter a price such as 19.99."},
		{code: "EUR", locale: "de-DE", in: "-1", msg: "Enter a price of more than 0,00\u00a0€."},
		{code: "EUR", locale: "en-IE", in: "€1,299.50", want: 129950},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/%s/%s", tt.code, tt.locale, tt.in), func(t *testing.T) {
			useCurrency(t, tt.code, tt.locale)
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

// ParseRounded rounds half up to the currency's minor units what Parse
// would refuse for its decimals; everything else it refuses alike.
func TestParseRounded(t *testing.T) {
	tests := []struct {
		code, in string
		want     shop.Cents
		msg      string
	}{
		{code: "USD", in: "109.95", want: 10995},
		{code: "USD", in: "1.005", want: 101},
		{code: "USD", in: "1.0049", want: 100},
		{code: "JPY", in: "109.95", want: 110},
		{code: "JPY", in: "109.5", want: 110},
		{code: "JPY", in: "109.49", want: 109},
		{code: "JPY", in: "229.0", want: 229},
		{code: "KWD", in: "109.95", want: 109950},
		{code: "KWD", in: "0.0005", want: 1},
		{code: "JPY", in: "0.4", msg: "Enter a price of more than ¥0."},
		{code: "JPY", in: "5e2", msg: "Enter a price such as 1999."},
	}
	for _, tt := range tests {
		t.Run(tt.code+"/"+tt.in, func(t *testing.T) {
			useCurrency(t, tt.code, "en-US")
			got, err := money.ParseRounded(tt.in)
			if tt.msg == "" {
				if err != nil || got != tt.want {
					t.Fatalf("ParseRounded(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
				}
				return
			}
			if shop.ErrorMessage(err) != tt.msg {
				t.Fatalf("ParseRounded(%q) = %d, %v; want the message %q", tt.in, got, err, tt.msg)
			}
		})
	}
}

// Text writes what Parse reads back, with the currency's digits.
func TestText_PerCurrency(t *testing.T) {
	tests := []struct {
		code    string
		in      shop.Cents
		want    string
		example string // Example(1999)
	}{
		{"USD", 129950, "1299.50", "19.99"},
		{"USD", 129900, "1299", "19.99"},
		{"JPY", 1235, "1235", "1999"},
		{"KWD", 1005, "1.005", "19.990"},
		{"KWD", 12500, "12.500", "19.990"},
		{"KWD", 12000, "12", "19.990"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/%d", tt.code, tt.in), func(t *testing.T) {
			useCurrency(t, tt.code, "en-US")
			if got := money.Text(tt.in); got != tt.want {
				t.Errorf("Text(%d) = %q, want %q", tt.in, got, tt.want)
			}
			if got, err := money.Parse(money.Text(tt.in)); err != nil || got != tt.in {
				t.Errorf("Parse(Text(%d)) = %d, %v", tt.in, got, err)
			}
			if got := money.Example(1999); got != tt.example {
				t.Errorf("Example(1999) = %q, want %q", got, tt.example)
			}
		})
	}
}

// Decimal writes every minor digit of the currency it is given (the
// shop's when none), and a minus sign for a negative amount.
func TestDecimal(t *testing.T) {
	useCurrency(t, "USD", "en-US")
	tests := []struct {
		in   shop.Cents
		code string
		want string
	}{
		{1250, "", "12.50"},
		{-300, "", "-3.00"},
		{0, "", "0.00"},
		{5, "usd", "0.05"},
		{-5, "USD", "-0.05"},
		{129900, "usd", "1299.00"},
		{money.MaxAmount * 10, "", "10000000.00"},
		{1235, "jpy", "1235"},
		{-1235, "JPY", "-1235"},
		{1005, "kwd", "1.005"},
		{-12000, "kwd", "-12.000"},
		{1250, "xx", "12.50"}, // not a currency: the shop's
	}
	for _, tc := range tests {
		if got := money.Decimal(tc.in, tc.code); got != tc.want {
			t.Errorf("Decimal(%d, %q) = %q, want %q", tc.in, tc.code, got, tc.want)
		}
	}
	useCurrency(t, "JPY", "ja-JP")
	if got := money.Decimal(1235, ""); got != "1235" {
		t.Errorf("Decimal(1235) in a yen shop = %q, want 1235", got)
	}
}
