// Package money owns turning an amount a person typed, or a catalogue sent,
// into the shop's integer minor units. It is the only parser of money: the
// product editor, the catalogue imports and the price filter all go through
// it, so "19.99" means the same everywhere and no float is ever on the way.
// Amounts are read in the shop's currency (shop.CurrentCurrency): as many
// decimals as it has minor digits, none for yen, three for dinars.
package money

import (
	"fmt"
	"strings"

	"github.com/bojanz/currency"

	"github.com/nocturne/storefront/internal/shop"
)

// MaxAmount is the largest price the shop accepts, in minor units:
// 1,000,000.00 in a currency with cents, ¥100,000,000 in yen. It keeps
// every total far inside an int64, and within the eight digits Stripe
// takes for an amount.
const MaxAmount shop.Cents = 100_000_000

// The messages shown next to a price field, in the shop's currency. In US
// dollars they are the shop's first texts, word for word; other
// currencies are not named, since their names depend on the language.

// MsgSyntax asks for a price written plainly: "Enter a price in dollars,
// such as 19.99.", or "Enter a price such as 1999." in yen.
func MsgSyntax() string {
	if shop.CurrentCurrency().Code() == "USD" {
		return "Enter a price in dollars, such as 19.99."
	}
	return "Enter a price such as " + Example(1999) + "."
}

// MsgDecimals asks for no more decimals than the currency has: "Use at
// most 2 decimal places."
func MsgDecimals() string {
	switch d := Digits(); d {
	case 0:
		return "Use no decimal places."
	case 1:
		return "Use at most 1 decimal place."
	default:
		return fmt.Sprintf("Use at most %d decimal places.", d)
	}
}

// MsgPositive asks for more than nothing: "Enter a price of more than
// $0.00."
func MsgPositive() string { return "Enter a price of more than " + shop.Cents(0).String() + "." }

// MsgTooLarge names the largest price: "Enter a price of at most
// $1,000,000.00."
func MsgTooLarge() string { return "Enter a price of at most " + MaxAmount.String() + "." }

// Digits is how many decimal places a price in the shop's currency has.
func Digits() int { return shop.CurrentCurrency().Digits() }

// Example writes an amount given in hundredths the way a price in the
// shop's currency is typed, for hints: Example(1999) is "19.99" in
// dollars, "19.990" in dinars, and "1999" in yen, which has no fraction to
// show.
func Example(hundredths shop.Cents) string {
	cur := shop.CurrentCurrency()
	if cur.Digits() == 0 {
		return Text(hundredths)
	}
	return Text(hundredths * cur.Unit() / 100)
}

// Parse reads a price such as "19.99", "$1,299" or "1299.5" as minor
// units of the shop's currency. It accepts only plain decimal notation,
// with a point before the decimals, optionally the currency's symbol
// before or after, and commas between thousands where the locale does not
// write decimals after a comma (there "19,99" is refused rather than read
// as 1999). Exponents ("5e2"), NaN, infinities, more decimals than the
// currency has ("1.005" in dollars, "109.95" in yen), zero, negatives and
// amounts over MaxAmount are refused with an EINVALID error whose message
// belongs next to the field. Nothing is ever rounded.
func Parse(s string) (shop.Cents, error) { return parse(s, false) }

// ParseRounded reads s like Parse, but rounds decimals the currency does
// not have to its minor units, half up: "109.95" is ¥110 in yen. Only the
// built-in demo catalogue uses it, whose prices were written in dollars
// and are read as numbers in whatever currency the shop has; an import
// or a person's price is never rounded.
func ParseRounded(s string) (shop.Cents, error) { return parse(s, true) }

func parse(s string, round bool) (shop.Cents, error) {
	cur := shop.CurrentCurrency()
	digits := cur.Digits()
	s = strings.TrimSpace(s)
	if sym := cur.Symbol(); sym != "" {
		s = strings.TrimSuffix(strings.TrimPrefix(s, sym), sym)
	}
	if strings.Contains(s, ",") && cur.DecimalSeparator() == "," {
		return 0, shop.Errorf(shop.EINVALID, "%s", MsgSyntax())
	}
	s = strings.ReplaceAll(s, ",", "")
	s = strings.TrimSpace(s)
	if rest, neg := strings.CutPrefix(s, "-"); neg {
		if _, _, ok := decimal(rest); ok {
			return 0, shop.Errorf(shop.EINVALID, "%s", MsgPositive())
		}
	}
	whole, frac, ok := decimal(s)
	if !ok {
		return 0, shop.Errorf(shop.EINVALID, "%s", MsgSyntax())
	}
	if len(frac) > digits && !round {
		return 0, shop.Errorf(shop.EINVALID, "%s", MsgDecimals())
	}
	// A long run of digits is over the maximum whatever it says; cutting
	// it here keeps the number within int64 below.
	if len(strings.TrimLeft(whole, "0")) > 12 {
		return 0, shop.Errorf(shop.EINVALID, "%s", MsgTooLarge())
	}
	if whole == "" {
		whole = "0"
	}
	number := whole
	if frac != "" {
		number += "." + frac
	}
	amount, err := currency.NewAmount(number, cur.Code())
	if err != nil {
		return 0, shop.Errorf(shop.EINVALID, "%s", MsgSyntax())
	}
	// Int64 rounds half up to the currency's digits, which changes
	// nothing unless round allowed more decimals.
	minor, err := amount.Int64()
	if err != nil {
		return 0, shop.Errorf(shop.EINVALID, "%s", MsgTooLarge())
	}
	switch c := shop.Cents(minor); {
	case c <= 0:
		return 0, shop.Errorf(shop.EINVALID, "%s", MsgPositive())
	case c > MaxAmount:
		return 0, shop.Errorf(shop.EINVALID, "%s", MsgTooLarge())
	default:
		return c, nil
	}
}

// Text is c as a person types it back into a price field: "19.99", "1299",
// never a thousands separator or a currency sign, so Parse(Text(c)) == c.
func Text(c shop.Cents) string {
	cur := shop.CurrentCurrency()
	unit := int64(cur.Unit())
	if int64(c)%unit == 0 {
		return fmt.Sprint(int64(c) / unit)
	}
	return fmt.Sprintf("%d.%0*d", int64(c)/unit, cur.Digits(), int64(c)%unit)
}

// Decimal is c as a number for a spreadsheet or an accountant: major
// units of the currency with ISO 4217 code (any case; the shop's when
// empty or unknown) with every minor digit, a point before them, a minus
// sign when negative, and nothing else: "12.50", "-3.00", "1235" in yen,
// "1.005" in dinars. Text, by contrast, drops a fraction of zeros.
func Decimal(c shop.Cents, code string) string {
	digits := Digits()
	if d, ok := currency.GetDigits(strings.ToUpper(code)); ok && code != "" {
		digits = int(d)
	}
	sign, n := "", int64(c)
	if n < 0 {
		sign, n = "-", -n
	}
	unit := int64(1)
	for range digits {
		unit *= 10
	}
	if digits == 0 {
		return sign + fmt.Sprint(n)
	}
	return fmt.Sprintf("%s%d.%0*d", sign, n/unit, digits, n%unit)
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
