package storetest

import (
	"context"
	"slices"
	"testing"

	"github.com/nocturne/storefront/internal/shop"
)

// A free-shipping code keeps the shipping methods staff chose for it, and
// a change chooses anew; a code without a choice reads back with none
// (the cheapest method of the address's zone).
func promoFreeMethods(t *testing.T, s PricingStore) {
	ctx := context.Background()
	scoped, err := s.SavePromoCode(ctx, shop.PromoCode{Code: "FastFree", Kind: shop.PromoFreeShipping, FreeMethods: []string{"express", "next-day"}})
	must(t, err)
	_, err = s.SavePromoCode(ctx, shop.PromoCode{Code: "ShipFree", Kind: shop.PromoFreeShipping})
	must(t, err)
	if got, err := s.PromoCode(ctx, "fastfree"); err != nil || !slices.Equal(got.FreeMethods, []string{"express", "next-day"}) {
		t.Errorf("methods kept %q (%v), want express and next-day", got.FreeMethods, err)
	}
	if got, err := s.PromoCode(ctx, "SHIPFREE"); err != nil || got.FreeMethods != nil {
		t.Errorf("methods of a code without a choice %q (%v), want none", got.FreeMethods, err)
	}
	scoped.FreeMethods = []string{"international"}
	changed, err := s.SavePromoCode(ctx, scoped)
	must(t, err)
	if !slices.Equal(changed.FreeMethods, []string{"international"}) {
		t.Errorf("methods after a change %q, want international", changed.FreeMethods)
	}
	scoped.FreeMethods = nil
	changed, err = s.SavePromoCode(ctx, scoped)
	must(t, err)
	if changed.FreeMethods != nil {
		t.Errorf("methods after choosing none %q, want none", changed.FreeMethods)
	}
}
