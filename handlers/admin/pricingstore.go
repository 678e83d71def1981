package admin

import (
	"context"

	"github.com/nocturne/storefront/internal/shop"
)

// reloadingPricing is the pricing store of the shipping and tax pages: each
// change bumps the catalogue version in the store, which every instance
// follows within its watch interval; this one reloads at once, so the
// staff member who saved sees the change on the next page.
type reloadingPricing struct {
	shop.PricingStore
	catalog Catalog
}

func (s reloadingPricing) reload(ctx context.Context, err error) error {
	if err != nil || s.catalog == nil {
		return err
	}
	return s.catalog.Reload(ctx)
}

func (s reloadingPricing) SaveShippingZone(ctx context.Context, z shop.ShippingZone) (shop.ShippingZone, error) {
	z, err := s.PricingStore.SaveShippingZone(ctx, z)
	return z, s.reload(ctx, err)
}

func (s reloadingPricing) DeleteShippingZone(ctx context.Context, id string) error {
	return s.reload(ctx, s.PricingStore.DeleteShippingZone(ctx, id))
}

func (s reloadingPricing) SaveShippingMethod(ctx context.Context, m shop.ShippingMethod) (shop.ShippingMethod, error) {
	m, err := s.PricingStore.SaveShippingMethod(ctx, m)
	return m, s.reload(ctx, err)
}

func (s reloadingPricing) DeleteShippingMethod(ctx context.Context, id string) error {
	return s.reload(ctx, s.PricingStore.DeleteShippingMethod(ctx, id))
}

func (s reloadingPricing) SaveTaxRate(ctx context.Context, r shop.TaxRate) (shop.TaxRate, error) {
	r, err := s.PricingStore.SaveTaxRate(ctx, r)
	return r, s.reload(ctx, err)
}

func (s reloadingPricing) DeleteTaxRate(ctx context.Context, id string) error {
	return s.reload(ctx, s.PricingStore.DeleteTaxRate(ctx, id))
}

func (s reloadingPricing) SavePricingSettings(ctx context.Context, p shop.PricingSettings) error {
	return s.reload(ctx, s.PricingStore.SavePricingSettings(ctx, p))
}
