package pricing

import (
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

// knownKind refuses a code Price would not know how to apply, rather than
// accept it and take nothing off.
func knownKind(kind string) bool {
	return kind == shop.PromoPercent || kind == shop.PromoFixed || kind == shop.PromoFreeShipping
}
