package pricing

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/nocturne/storefront/internal/shop"
)

// Rules are the shop's pricing settings as the store holds them: what
// Price needs besides the order itself.
type Rules struct {
	Zones    []shop.ShippingZone
	Methods  []shop.ShippingMethod
	Rates    []shop.TaxRate
	Settings shop.PricingSettings
}

// LoadRules reads the rules from the store that keeps them; pricing itself
// still reads nothing: the caller passes the store in.
func LoadRules(ctx context.Context, s shop.PricingStore) (Rules, error) {
	var r Rules
	var err error
	if r.Zones, err = s.ShippingZones(ctx); err != nil {
		return r, fmt.Errorf("shipping zones: %w", err)
	}
	if r.Methods, err = s.ShippingMethods(ctx); err != nil {
		return r, fmt.Errorf("shipping methods: %w", err)
	}
	if r.Rates, err = s.TaxRates(ctx); err != nil {
		return r, fmt.Errorf("tax rates: %w", err)
	}
	if r.Settings, err = s.PricingSettings(ctx); err != nil {
		return r, fmt.Errorf("pricing settings: %w", err)
	}
	return r, nil
}

// Input is the Input of pricing lines for an address under these rules.
func (r Rules) Input(lines []Line, country, state, methodID string, code *shop.PromoCode) Input {
	return Input{Lines: lines, Country: country, State: state, Zones: r.Zones, Methods: r.Methods,
		MethodID: methodID, Code: code, Rates: r.Rates, Settings: r.Settings}
}

// ZoneMethods are the shipping methods of one zone, as a shipping step or
// the shipping help page lists them.
type ZoneMethods struct {
	Zone    shop.ShippingZone
	Methods []shop.ShippingMethod
}

// ByZone lists each zone, by Position, with its enabled methods, by
// Position; a zone without any is left out.
func (r Rules) ByZone() []ZoneMethods {
	zones := slices.Clone(r.Zones)
	slices.SortStableFunc(zones, func(a, b shop.ShippingZone) int { return cmp.Compare(a.Position, b.Position) })
	var out []ZoneMethods
	for _, z := range zones {
		var ms []shop.ShippingMethod
		for _, m := range r.Methods {
			if m.Enabled && slices.Contains(m.ZoneIDs, z.ID) {
				ms = append(ms, m)
			}
		}
		slices.SortStableFunc(ms, func(a, b shop.ShippingMethod) int { return cmp.Compare(a.Position, b.Position) })
		if len(ms) > 0 {
			out = append(out, ZoneMethods{Zone: z, Methods: ms})
		}
	}
	return out
}

// RateText states a rate in basis points as a percentage: 1000 is "10%",
// 825 "8.25%".
func RateText(bp int) string { return TaxRateText(bp * 100) }

// TaxRateText states a rate in millionths as a percentage, exactly and
// without trailing zeros: 100000 is "10%", 88750 "8.875%".
func TaxRateText(ppm int) string {
	whole, frac := ppm/10000, ppm%10000
	if frac == 0 {
		return strconv.Itoa(whole) + "%"
	}
	return fmt.Sprintf("%d.%s%%", whole, strings.TrimRight(fmt.Sprintf("%04d", frac), "0"))
}

// Offered are the enabled methods of the zone an address in country and
// state belongs to, by Position: the first is what the cart estimates.
func (r Rules) Offered(country, state string) []shop.ShippingMethod {
	return offered(r.Zones, r.Methods, country, state)
}
