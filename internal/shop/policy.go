package shop

// Business constants of the shop (the spec's business constants and limits). Help pages and, later, the cart
// and checkout read them from here so the texts and the arithmetic agree.
const (
	DiscountPercent   = 20
	CataloguePageSize = 12
	OrdersPageSize    = 10
	MaxCartQuantity   = 10
	MinPasswordLength = 6
	ReturnWindowDays  = 30
	DefaultCountry    = "United States"
	SupportHours      = "Mon-Fri 8am-6pm"
)
