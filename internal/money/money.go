// Package money owns turning an amount a person typed, or a catalogue sent,
// into the shop's integer minor units. It is the only parser of money: the
// product editor, the catalogue imports and the price filter all go through
// it, so "19.99" means the same everywhere and no float is ever on the way.
package money

import (
	"fmt"
	"strings"

	"github.com/bojanz/currency"

	"github.com/nocturne/storefront/internal/shop"
)

// Currency is the shop's currency (ISO 4217). Orders are kept in it and
// prices are typed in it.
const Currency = "USD"

// MaxAmount is the largest price the shop accepts: 1,000,000.00.
const MaxAmount shop.Cents = 100_000_000

// Messages shown next to a price field. They speak of dollars because
// Currency is US dollars.
const (
	MsgSyntax   = "Enter a price in dollars, such as 19.99."
	MsgDecimals = "Use at most %d decimal places."
	MsgPositive = "Enter a price of more than $0.00."
	MsgTooLarge = "Enter a price of at most $1,000,000.00."
)

// digits is how many minor digits Currency has, from the currency data.
var digits = func() int {
	d, ok := currency.GetDigits(Currency)
	if !ok {
		panic("money: unknown currency " + Currency)
	}
	return int(d)
}()

// Digits is how many decimal places a price in the shop's currency has.
func Digits() int { return digits }

// Parse reads a price such as "19.99", "$1,299" or "1299.5" as cents. It
// accepts only plain decimal notation: exponents ("5e2"), NaN, infinities,
// more decimals than the currency has ("1.005", "0.001"), zero, negatives
// and amounts over MaxAmount are refused with an EINVALID error whose
// message belongs next to the field. Nothing is ever rounded.
func Parse(s string) (shop.Cents, error) {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "$")
	s = strings.ReplaceAll(s, ",", "")
	s = strings.TrimSpace(s)
	if rest, neg := strings.CutPrefix(s, "-"); neg {
		if _, _, ok := decimal(rest); ok {
			return 0, shop.Errorf(shop.EINVALID, MsgPositive)
		}
	}
	whole, frac, ok := decimal(s)
	if !ok {
		return 0, shop.Errorf(shop.EINVALID, MsgSyntax)
	}
	if len(frac) > digits {
		return 0, shop.Errorf(shop.EINVALID, MsgDecimals, digits)
	}
	// A long run of digits is over the maximum whatever it says; cutting
	// it here keeps the number within int64 below.
	if len(strings.TrimLeft(whole, "0")) > 12 {
		return 0, shop.Errorf(shop.EINVALID, MsgTooLarge)
	}
	if whole == "" {
		whole = "0"
	}
	amount, err := currency.NewAmount(whole+"."+frac+strings.Repeat("0", digits-len(frac)), Currency)
	if err != nil {
		return 0, shop.Errorf(shop.EINVALID, MsgSyntax)
	}
	minor, err := amount.Int64()
	if err != nil {
		return 0, shop.Errorf(shop.EINVALID, MsgTooLarge)
	}
	switch c := shop.Cents(minor); {
	case c <= 0:
		return 0, shop.Errorf(shop.EINVALID, MsgPositive)
	case c > MaxAmount:
		return 0, shop.Errorf(shop.EINVALID, MsgTooLarge)
	default:
		return c, nil
	}
}

// Text is c as a person types it back into a price field: "19.99", "1299",
// never a thousands separator or a currency sign, so Parse(Text(c)) == c.
func Text(c shop.Cents) string {
	unit := int64(1)
	for range digits {
		unit *= 10
	}
	if int64(c)%unit == 0 || digits == 0 {
		return fmt.Sprint(int64(c) / unit)
	}
	return fmt.Sprintf("%d.%0*d", int64(c)/unit, digits, int64(c)%unit)
}

// decimal splits plain decimal notation ("12", "12.5", ".5") into its
// whole and fractional digits.
func decimal(s string) (whole, frac string, ok bool) {
	whole, frac, _ = strings.Cut(s, ".")
	return whole, frac, whole+frac != "" && allDigits(whole) && allDigits(frac)
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
