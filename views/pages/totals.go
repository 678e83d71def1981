package pages

import (
	"strings"

	"github.com/nocturne/storefront/internal/pricing"
	"github.com/nocturne/storefront/internal/shop"
)

// Totals are an order summary's sums as the one pricing function computed
// them, with the words the summary needs to state them.
type Totals struct {
	Subtotal, Discount, Shipping, Tax, Total shop.Cents
	// Code is the promo code applied ("" none); FreeShipping says it is a
	// free-shipping code, whose saving is in Shipping. ShippingNote says
	// why a free-shipping code left the method chosen its price: "Free
	// shipping applies to Standard".
	Code         string
	FreeShipping bool
	ShippingNote string
	// Method names the shipping method priced ("Standard").
	Method string
	// TaxLabel states the tax: "Tax (10%)", or "Includes VAT (20%)" when
	// TaxIncluded (the prices hold it and Total does not add it).
	TaxLabel    string
	TaxIncluded bool
	// Estimated says the address is not known yet: shipping and tax are
	// the default country's.
	Estimated bool
	// FreeFrom is the subtotal from which Method ships free, 0 when it
	// never does; Net is the subtotal after the discount, which it is
	// measured against.
	FreeFrom, Net shop.Cents
}

// CodeForm is the promo code field of the cart and the review: the code
// applied, or the code typed with why it was refused.
type CodeForm struct {
	Action  string // where the form posts
	Applied string
	Value   string
	Error   string
}

// MethodChoice is a shipping method the shipping step offers.
type MethodChoice struct {
	ID, Name string
	Price    shop.Cents
	// Label names it with its price: "Standard · $10.00", "Express · Free".
	Label string
	// When is how long it takes and when it would arrive: "3–5 business
	// days; arrives Tue, Dec 1 – Thu, Dec 3".
	When string
}

// ZoneChoice is a zone's shipping methods on the shipping step.
type ZoneChoice struct {
	Name    string
	Methods []MethodChoice
}

// TaxLabel names the tax row: "Tax (10%)", "Includes VAT (20%)",
// "Estimated tax (10%)".
func TaxLabel(lines []shop.TaxLine, included, estimated bool) string {
	name, rate := "Tax", ""
	if len(lines) > 0 {
		name, rate = lines[0].Name, " ("+pricing.TaxRateText(lines[0].Exact())+")"
	}
	switch {
	case included:
		return "Includes " + name + rate
	case estimated:
		return "Estimated " + strings.ToLower(name) + rate
	}
	return name + rate
}

// OrderTotals are a placed order's sums as its page states them: what it
// was charged, in the words of the rates it was placed under.
func OrderTotals(o shop.Order) Totals {
	return Totals{Subtotal: o.Subtotal, Discount: o.Discount, Shipping: o.Shipping, Tax: o.Tax, Total: o.Total,
		Code: o.PromoCode, Method: o.ShippingMethod, TaxIncluded: o.TaxIncluded,
		TaxLabel: TaxLabel(o.TaxLines, o.TaxIncluded, false)}
}

// MethodLabel names a method with its price, as the shipping step offers
// it: "Standard · $10.00", "Express · Free".
func MethodLabel(name string, price shop.Cents) string { return name + " · " + shippingText(price) }
