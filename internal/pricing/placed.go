package pricing

import (
	"strconv"

	"github.com/nocturne/storefront/internal/shop"
)

// LegacyTaxRate is the rate of orders placed before they kept tax lines:
// 10 % of the subtotal, the rule checkout had then.
const LegacyTaxRate = 1000

// PlacedQuote is the quote o was placed with, rebuilt from what the order
// keeps (its lines, discount, shipping, tax lines and whether prices held
// the tax), so a refund of some of its items gets its share of the
// discount and the tax by the same rule that priced it. The lines' keys are
// their positions in o.Lines ("0", "1", …). Settings changed since do not
// matter: the order's own figures are the input.
func PlacedQuote(o shop.Order) Quote {
	lines := make([]Line, len(o.Lines))
	for i, l := range o.Lines {
		lines[i] = Line{Key: strconv.Itoa(i), Price: l.Price, Quantity: l.Quantity}
	}
	const here = "placed"
	in := Input{
		Lines:    lines,
		Country:  here,
		Zones:    []shop.ShippingZone{{ID: here, Countries: []string{here}}},
		Methods:  []shop.ShippingMethod{{ID: here, Name: o.ShippingMethod, Price: o.Shipping, CutoffHour: -1, ZoneIDs: []string{here}, Enabled: true}},
		Settings: shop.PricingSettings{PricesIncludeTax: o.TaxIncluded},
	}
	if o.Discount > 0 {
		// The discount as it was taken: an amount, shared out as before.
		in.Code = &shop.PromoCode{Code: o.PromoCode, Kind: shop.PromoFixed, Value: int64(o.Discount)}
	}
	switch {
	case len(o.TaxLines) > 0:
		in.Rates = []shop.TaxRate{{Name: o.TaxLines[0].Name, Rate: o.TaxLines[0].Rate, PPM: o.TaxLines[0].PPM}}
	case o.Tax > 0:
		in.Rates = []shop.TaxRate{{Name: "Tax", Rate: LegacyTaxRate}}
	}
	q := Price(in)
	if o.Shipping > 0 && !sameTax(q, o) {
		// Whether shipping was taxed is not kept: it was when that is what
		// gives the order's tax lines (their base holds the shipping).
		in.Settings.TaxShipping = true
		if taxed := Price(in); sameTax(taxed, o) {
			q = taxed
		}
	}
	return q
}

// sameTax reports whether q taxed as o was: the same tax and, when o keeps
// its tax lines, the same base.
func sameTax(q Quote, o shop.Order) bool {
	if q.Tax != o.Tax {
		return false
	}
	if len(o.TaxLines) == 0 {
		return true
	}
	return len(q.TaxLines) > 0 && q.TaxLines[0].Base == o.TaxLines[0].Base
}
