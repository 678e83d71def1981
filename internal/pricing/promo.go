package pricing

import (
	"slices"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// CheckCode reports whether c may be applied at now to an order of
// subtotal, or the EINVALID that says why not, in the order a shopper can
// do least about first: a paused code reads as unknown (staff stopped it,
// and there is nothing to wait for), then its dates, its usage cap, and
// last the minimum, which more items would meet. Whether this customer used
// the code before is the store's to check when the order is placed, and a
// code that does not exist the caller's.
func CheckCode(c shop.PromoCode, subtotal shop.Cents, now time.Time) error {
	switch {
	case c.Paused || !knownKind(c.Kind):
		return shop.Errorf(shop.EINVALID, shop.MsgPromoUnknown)
	case !c.StartsAt.IsZero() && now.Before(c.StartsAt):
		return shop.Errorf(shop.EINVALID, shop.MsgPromoNotYet)
	case !c.EndsAt.IsZero() && !now.Before(c.EndsAt):
		return shop.Errorf(shop.EINVALID, shop.MsgPromoExpired)
	case c.UsageCap > 0 && c.Used >= c.UsageCap:
		return shop.Errorf(shop.EINVALID, shop.MsgPromoUsedUp)
	case subtotal < c.MinSubtotal:
		return shop.Errorf(shop.EINVALID, shop.MsgPromoMinimum, c.MinSubtotal.String())
	}
	return nil
}

// FreeCovers reports whether code is a free-shipping code that makes m,
// one of zone's methods (by Position), free: one of the methods staff
// chose for it, or when they chose none the zone's cheapest that costs
// anything (by price, the first by Position of equals; a free pick-up
// needs no code). A code that paid for any method would pay for Next Day
// and for parcels abroad, which no merchant means by "free shipping".
func FreeCovers(code *shop.PromoCode, m shop.ShippingMethod, zone []shop.ShippingMethod) bool {
	if code == nil || code.Kind != shop.PromoFreeShipping {
		return false
	}
	if len(code.FreeMethods) > 0 {
		return slices.Contains(code.FreeMethods, m.ID)
	}
	cheapest := -1
	for i, z := range zone {
		if z.Price > 0 && (cheapest < 0 || z.Price < zone[cheapest].Price) {
			cheapest = i
		}
	}
	return cheapest >= 0 && zone[cheapest].ID == m.ID
}

// knownKind refuses a code Price would not know how to apply, rather than
// accept it and take nothing off.
func knownKind(kind string) bool {
	return kind == shop.PromoPercent || kind == shop.PromoFixed || kind == shop.PromoFreeShipping
}
