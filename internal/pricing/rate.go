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
)

// ParseRate reads a percentage staff typed, such as "8.25", "20" or
// "12.5 %", as basis points (825, 2000, 1250): the unit of tax rates and
// percent codes. Like money.Parse it reads the digits themselves, never
// through a float, so "8.25" is 825 and not 824.99…; more than two
// decimals, exponents, signs and anything over 100 are refused with an
// EINVALID whose message belongs next to the field. Nothing is rounded.
// Zero is accepted: a tax rate may be 0 %; a caller that needs more says so.
func ParseRate(s string) (int, error) {
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
	case len(frac) > 2:
		return 0, shop.Errorf(shop.EINVALID, MsgRateDecimals)
	}
	// Past three significant digits the whole part is over 100 whatever
	// it says; cutting it here keeps the sum below within an int.
	whole = strings.TrimLeft(whole, "0")
	if len(whole) > 3 {
		return 0, shop.Errorf(shop.EINVALID, MsgRateRange)
	}
	bp := 0
	for _, d := range whole + frac + strings.Repeat("0", 2-len(frac)) {
		bp = bp*10 + int(d-'0')
	}
	if bp > basis {
		return 0, shop.Errorf(shop.EINVALID, MsgRateRange)
	}
	return bp, nil
}

// RateInput is a rate in basis points as staff type it back into a
// percentage field: 825 is "8.25", 2000 "20", so ParseRate(RateInput(bp))
// == bp.
func RateInput(bp int) string { return strings.TrimSuffix(RateText(bp), "%") }

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
