package shop

import (
	"context"
	"strings"
	"time"
)

// A shipping zone is where a set of shipping methods deliver: countries,
// named as the checkout names them ("United States"), and optionally some
// of their states. An address belongs to the first zone, by Position, that
// holds its country and, when the zone lists states, its state.
type ShippingZone struct {
	ID        string
	Name      string
	Countries []string
	States    []string // empty: the whole of each country
	Position  int
}

// A shipping method is one way an order travels: its price, when it is
// free, the business days it takes and the hour by which an order must be
// placed to leave that day (in the shop's time zone).
type ShippingMethod struct {
	ID       string
	Name     string
	Price    Cents
	FreeFrom Cents // 0: never free; otherwise free from this subtotal (after discounts)
	MinDays  int   // business days, counted from the day the order leaves
	MaxDays  int
	// CutoffHour is the hour (0–23, shop time) before which an order leaves
	// the same business day; -1 when the method has no cut-off and orders
	// leave the next business day.
	CutoffHour int
	ZoneIDs    []string
	Position   int
	Enabled    bool
}

// A tax rate applies to addresses in Country and, when State is set, only
// in that state (its code, see StateCode); a state's rate wins over its
// country's. The rate is PPM, in millionths, so 8.875 % (88750) is exact;
// Rate is the same rate in basis points (1000 is 10 %), rounded half up,
// which releases before PPM read. Exact says which of the two holds.
type TaxRate struct {
	ID      string
	Name    string // "Tax", "VAT", "Sales tax"
	Country string // "" applies where no other rate does
	State   string
	Rate    int // basis points
	PPM     int // millionths; 0 where only Rate was written
}

// Exact is the rate in millionths: 100000 is 10 %.
func (r TaxRate) Exact() int { return exactRate(r.Rate, r.PPM) }

// BasisPoints rounds a rate in millionths half up to basis points, as Rate
// keeps it beside PPM.
func BasisPoints(ppm int) int { return (ppm + 50) / 100 }

// exactRate is the rate in millionths of a row that keeps bp and ppm. PPM
// counts only where Rate is it rounded: a rate written before PPM existed,
// or changed since by a release that writes only Rate, has a PPM of 0 or
// one that no longer agrees, and then Rate is the rate.
func exactRate(bp, ppm int) int {
	if ppm > 0 && BasisPoints(ppm) == bp {
		return ppm
	}
	return bp * 100
}

// PricingSettings are the shop-wide switches of the pricing rules.
type PricingSettings struct {
	// PricesIncludeTax says catalogue prices hold tax (VAT style): totals
	// state the tax part instead of adding it.
	PricesIncludeTax bool
	// TaxShipping says shipping is taxed at the address's rate.
	TaxShipping bool
}

// Promo code kinds.
const (
	PromoPercent      = "percent"       // Value is basis points off the subtotal
	PromoFixed        = "fixed"         // Value is minor units off the subtotal
	PromoFreeShipping = "free_shipping" // the methods of FreeMethods ship free
)

// A promo code is a discount a shopper types in the cart or at Review.
type PromoCode struct {
	Code            string // as typed by staff; matched without regard to case
	Kind            string
	Value           int64 // see the kinds
	MinSubtotal     Cents
	StartsAt        time.Time // zero: from now
	EndsAt          time.Time // zero: never ends
	UsageCap        int       // 0: unlimited
	OncePerCustomer bool
	Paused          bool
	Used            int // orders placed with it and not cancelled or expired
	CreatedAt       time.Time
	// FreeMethods are the ids of the shipping methods a free-shipping
	// code makes free; none means the cheapest method of the address's
	// zone, so a code never pays for a faster or farther parcel unless
	// staff chose so. The other methods keep their price.
	FreeMethods []string
}

// A tax line is what an order was taxed at one rate: it is stored with the
// order so a later change of rates never rewrites a past order.
type TaxLine struct {
	Name   string
	Rate   int // basis points, rounded half up from PPM
	PPM    int // millionths; 0 on lines written before it was kept
	Base   Cents
	Amount Cents
}

// Exact is the line's rate in millionths, as TaxRate.Exact reads it.
func (l TaxLine) Exact() int { return exactRate(l.Rate, l.PPM) }

// PricingStore keeps the shop's shipping, tax and promo settings. They live
// in the database so every instance prices alike.
type PricingStore interface {
	ShippingZones(ctx context.Context) ([]ShippingZone, error)
	ShippingMethods(ctx context.Context) ([]ShippingMethod, error)
	TaxRates(ctx context.Context) ([]TaxRate, error)
	PricingSettings(ctx context.Context) (PricingSettings, error)
	SaveShippingZone(ctx context.Context, z ShippingZone) (ShippingZone, error)
	DeleteShippingZone(ctx context.Context, id string) error
	SaveShippingMethod(ctx context.Context, m ShippingMethod) (ShippingMethod, error)
	DeleteShippingMethod(ctx context.Context, id string) error
	SaveTaxRate(ctx context.Context, r TaxRate) (TaxRate, error)
	DeleteTaxRate(ctx context.Context, id string) error
	SavePricingSettings(ctx context.Context, s PricingSettings) error
}

// PromoStore keeps promo codes and their usage. A code's use is counted in
// the transaction that places the order (see Order.PromoCode) and given
// back when that order is cancelled or its payment expires.
type PromoStore interface {
	PromoCode(ctx context.Context, code string) (PromoCode, error) // ENOTFOUND
	PromoCodes(ctx context.Context) ([]PromoCode, error)
	SavePromoCode(ctx context.Context, c PromoCode) (PromoCode, error) // EINVALID for a duplicate code
	SetPromoPaused(ctx context.Context, code string, paused bool) error
	// PromoUsedBy reports whether the customer (PromoCustomer: an
	// account id, or a guest's e-mail) has an order that holds the code.
	PromoUsedBy(ctx context.Context, code, customer string) (bool, error)
}

// PromoCustomer is who a once-per-customer code counts against: the
// account that orders, or for a guest, whose id lasts only a session, the
// e-mail address, so a new session or another case of the same address
// cannot use the code again. Only case and surrounding spaces are folded:
// a +tag or a dot is another mailbox at most providers (decision 0022).
func PromoCustomer(userID, email string) string {
	if userID != "" && !strings.HasPrefix(userID, GuestIDPrefix) {
		return userID
	}
	return NormalizeEmail(email)
}

// Why a promo code is refused, stated next to the code field. The store
// returns the last two when the order that would use the code is placed,
// since only then is the count certain.
const (
	MsgPromoUnknown     = "That code isn't valid."
	MsgPromoExpired     = "That code has expired."
	MsgPromoNotYet      = "That code isn't valid yet."
	MsgPromoMinimum     = "That code needs a subtotal of at least %s."
	MsgPromoAlreadyUsed = "You have already used that code."
	MsgPromoUsedUp      = "That code has been used up."
)
