package shop

// Business constants of the shop (spec §9). Help pages and, later, the cart
// and checkout read them from here so the texts and the arithmetic agree.
const (
	FlatShippingFee       Cents = 1000 // cart and checkout
	FreeShippingThreshold Cents = 5000 // standard shipping is free above this
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
