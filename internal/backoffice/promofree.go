package backoffice

import (
	"slices"

	"github.com/nocturne/storefront/internal/shop"
)

// MsgFreeMethodGone refuses a free-shipping code whose ticked methods
// include one deleted meanwhile.
const MsgFreeMethodGone = "One of the shipping methods chosen no longer exists: choose again."

// parseFreeMethods keeps the methods ticked for a free-shipping code, in
// the order of known (the methods that exist); other kinds cover none.
// None ticked is the cheapest method of the shopper's zone
// (pricing.FreeCovers).
func parseFreeMethods(kind string, ticked, known []string, errs shop.FieldErrors) []string {
	if kind != shop.PromoFreeShipping || len(ticked) == 0 {
		return nil
	}
	var out []string
	for _, id := range known {
		if slices.Contains(ticked, id) && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	if len(out) != len(ticked) {
		errs["free_methods"] = MsgFreeMethodGone
	}
	return out
}
