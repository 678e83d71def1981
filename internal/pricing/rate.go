package pricing

import (
	"strings"

	"github.com/nocturne/storefront/internal/shop"
)

// Messages shown next to a percentage field.
const (
	MsgRateSyntax   = "Enter a percentage such as 8.25."
	MsgRateDecimals = "Use at most 2 decimal places."
	MsgRateRange    = "Enter a percentage from 0 to 100."
	// MsgTaxRateDecimals refuses a tax rate finer than PPM holds.
	MsgTaxRateDecimals = "Use at most 4 decimal places."
)

// ParseRate reads a percentage staff typed, such as "8.25", "20" or
// "12.5 %", as basis points (825, 2000, 1250): the unit of percent codes.
// Like money.Parse it reads the digits themselves, never through a float,
// so "8.25" is 825 and not 824.99…; more than two decimals, exponents,
// signs and anything over 100 are refused with an EINVALID whose message
// belongs next to the field. Nothing is rounded. Zero is accepted: a
// caller that needs more says so.
func ParseRate(s string) (int, error) { return parsePercent(s, 2, MsgRateDecimals) }

// ParseTaxRate reads a tax rate staff typed, such as "8.875", as millionths
// (88750), the unit of shop.TaxRate.PPM, by ParseRate's rules but with up
// to four decimals: local sales taxes such as New York City's 8.875 % have
// three.
func ParseTaxRate(s string) (int, error) { return parsePercent(s, 4, MsgTaxRateDecimals) }

// parsePercent reads a percentage with at most decimals decimals as an
// integer in units of 10^-decimals percent.
func parsePercent(s string, decimals int, msgDecimals string) (int, error) {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "%"))
	whole, frac, ok := decimal(s)
	switch {
	case !ok:
		if rest, neg := strings.CutPrefix(s, "-"); neg {
			if _, _, ok := decimal(rest); ok {
				return 0, shop.Errorf(shop.EINVALID, MsgRateRange)
			}
		}
		return 0, shop.Errorf(shop.EINVALID, MsgRateSyntax)
	case len(frac) > decimals:
		return 0, &shop.Error{Code: shop.EINVALID, Message: msgDecimals}
	}
	// Past three significant digits the whole part is over 100 whatever
	// it says; cutting it here keeps the sum below within an int.
	whole = strings.TrimLeft(whole, "0")
	if len(whole) > 3 {
		return 0, shop.Errorf(shop.EINVALID, MsgRateRange)
	}
	n, hundred := 0, 100
	for _, d := range whole + frac + strings.Repeat("0", decimals-len(frac)) {
		n = n*10 + int(d-'0')
	}
	for range decimals {
		hundred *= 10
	}
	if n > hundred {
		return 0, shop.Errorf(shop.EINVALID, MsgRateRange)
	}
	return n, nil
}

// RateInput is a rate in basis points as staff type it back into a
// percentage field: 825 is "8.25", 2000 "20", so ParseRate(RateInput(bp))
// == bp.
func RateInput(bp int) string { return strings.TrimSuffix(RateText(bp), "%") }

// TaxRateInput is a rate in millionths as staff type it back into the tax
// rate field: 88750 is "8.875", so ParseTaxRate(TaxRateInput(ppm)) == ppm.
func TaxRateInput(ppm int) string { return strings.TrimSuffix(TaxRateText(ppm), "%") }

// decimal splits plain decimal notation ("12", "12.5", ".5") into its
// whole and fractional digits.
func decimal(s string) (whole, frac string, ok bool) {
	whole, frac, _ = strings.Cut(s, ".")
	return whole, frac, whole+frac != "" && digitsOnly(whole) && digitsOnly(frac)
}

func digitsOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
