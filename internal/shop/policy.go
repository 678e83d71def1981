package shop

// Business constants of the shop (the spec's business constants and limits). Help pages and, later, the cart
// and checkout read them from here so the texts and the arithmetic agree.
const (
	FlatShippingFee       Cents = 1000 // standard shipping below FreeShippingThreshold
	FreeShippingThreshold Cents = 5000 // standard shipping is free from this subtotal
	ExpressShippingFee    Cents = 999
	NextDayShippingFee    Cents = 1999
	TaxPercent                  = 10
	DiscountPercent             = 20
	CataloguePageSize           = 12
	OrdersPageSize              = 10
	MaxCartQuantity             = 10
	MinPasswordLength           = 6
	ReturnWindowDays            = 30
	DefaultCountry              = "United States"
	SupportHours                = "Mon-Fri 8am-6pm"
)

// StandardShipping is what standard shipping costs on a subtotal: the flat
// fee below FreeShippingThreshold, nothing from it on, and nothing for an
// empty cart. It is the one shipping rule: the cart, the checkout, orders,
// the confirmation e-mail and the help pages all read it, so the spec's
// flat $10 and its "free over $50" policy text can never disagree.
func StandardShipping(subtotal Cents) Cents {
	if subtotal <= 0 || subtotal >= FreeShippingThreshold {
		return 0
	}
	return FlatShippingFee
}

// FreeShippingUntil is how much more a subtotal needs to ship free; 0 when
// it already does.
func FreeShippingUntil(subtotal Cents) Cents {
	return max(0, FreeShippingThreshold-subtotal)
}

// ShippingPromise is the shipping line of product cards and the product page.
func ShippingPromise() string {
	return "Free shipping over " + FreeShippingThreshold.Whole()
}

// StandardShippingTerms is the standard shipping cost as the help pages and
// the cart state it: "$10.00 below $50, free from $50".
func StandardShippingTerms() string {
	return FlatShippingFee.String() + " on orders under " + FreeShippingThreshold.Whole() +
		"; free on orders of " + FreeShippingThreshold.Whole() + " or more"
}
