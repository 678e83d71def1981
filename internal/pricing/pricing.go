// Package pricing owns what an order costs: its subtotal, the discount of a
// promo code, shipping by the chosen method, tax at the address's rate and
// the total, and from those what a refund gives back and when a parcel
// arrives. It is the one pricing function: the cart, checkout, orders,
// mails, help pages, payment amounts and refunds all read Price, so no two
// of them can disagree by a cent. It is pure: everything it needs comes in
// through Input, and it reads no database, clock or setting of its own.
//
// Rounding (see decision 0012): amounts are integer minor units and every
// product is worked out exactly, in 128 bits. An order rounds each amount
// once, for the whole order: a percent discount, and the tax of each rate on
// the order's taxable base, are rounded half up (a half goes to the larger
// amount) to the minor unit. Those order amounts are then shared out over
// the lines (and shipping) by the largest remainder, so the parts always
// add up to the whole and a line's share is never rounded on its own. A
// partial refund rounds each line's share down, so refunds never add up to
// more than was paid; refunding everything returns exactly Total.
package pricing

import (
	"cmp"
	"math/bits"
	"slices"
	"strings"

	"github.com/nocturne/storefront/internal/shop"
)

// basis is 100 % in basis points, the unit of percent codes.
const basis = 10000

// million is 100 % in millionths, the unit tax is worked out in
// (shop.TaxRate.Exact).
const million = 1_000_000

// Line is one cart or order line to price. Key names it in the quote and in
// refunds (a variant id), so it is unique within an Input.
type Line struct {
	Key      string
	Price    shop.Cents
	Quantity int
}

// Input is everything a price depends on. The caller looks the settings up;
// Price only computes.
type Input struct {
	Lines []Line
	// Country and State are the delivery address, named as the checkout
	// names them ("United States", "CA").
	Country, State string
	Zones          []shop.ShippingZone
	Methods        []shop.ShippingMethod
	// MethodID is the shipping method chosen; "" (or a method not offered
	// at the address) means the first offered, by Position: Standard.
	MethodID string
	// Code is the promo code to apply, nil for none. It must have passed
	// CheckCode: Price applies it as it is.
	Code     *shop.PromoCode
	Rates    []shop.TaxRate
	Settings shop.PricingSettings
}

// LineQuote is one line's part of a quote. Discount and Tax are its shares
// of the order's discount and tax; they add up to the order's exactly.
type LineQuote struct {
	Key      string
	Price    shop.Cents
	Quantity int
	Total    shop.Cents // Price × Quantity, before the discount
	Discount shop.Cents
	Tax      shop.Cents // the tax in Total − Discount, or added to it
}

// MethodOption is a shipping method offered at the address and what it
// would cost this order, after its free-from threshold and a free-shipping
// code.
type MethodOption struct {
	Method shop.ShippingMethod
	Price  shop.Cents
}

// Quote is what an order costs. When TaxIncluded the prices hold the tax
// and Total = Subtotal − Discount + Shipping; otherwise Total = Subtotal −
// Discount + Shipping + Tax.
type Quote struct {
	Lines    []LineQuote
	Subtotal shop.Cents
	// Discount is what the code took off the subtotal; a free-shipping
	// code's saving is ShippingDiscount instead.
	Discount shop.Cents
	// Shipping is what the chosen method costs this order;
	// ShippingDiscount is what a free-shipping code took off it.
	Shipping         shop.Cents
	ShippingDiscount shop.Cents
	Tax              shop.Cents
	// ShippingTax is the part of Tax on shipping: the lines' taxes and it
	// add up to Tax.
	ShippingTax shop.Cents
	Total       shop.Cents
	TaxIncluded bool
	// TaxLines break Tax down by rate. A line's Base is always the amount
	// before tax (with tax included, the taxed amount less its tax), so
	// Amount is Base × Rate, rounded.
	TaxLines []shop.TaxLine
	// Method is the shipping method chosen and Methods those offered at
	// the address, by Position. NoMethod says nothing ships there: the
	// address is in no zone or its zone has no enabled method.
	Method   shop.ShippingMethod
	Methods  []MethodOption
	NoMethod bool
	// FreeShippingFor names the methods offered at the address that a
	// free-shipping code makes free (FreeCovers), so a summary can say why
	// the method chosen still costs what it does.
	FreeShippingFor []string
}

// Subtotal is the sum of the lines' prices, which a promo code's minimum
// is checked against before the code is applied.
func Subtotal(lines []Line) shop.Cents {
	var s shop.Cents
	for _, l := range lines {
		s += lineTotal(l)
	}
	return s
}

// lineTotal ignores a negative price or quantity rather than let it pay the
// shopper: validation is the cart's, but a total must never go negative.
func lineTotal(l Line) shop.Cents {
	return max(l.Price, 0) * shop.Cents(max(l.Quantity, 0))
}

// Price computes what an order of in.Lines costs, delivered to the address
// by the chosen method with in.Code applied.
func Price(in Input) Quote {
	q := Quote{TaxIncluded: in.Settings.PricesIncludeTax, Lines: make([]LineQuote, len(in.Lines))}
	for i, l := range in.Lines {
		t := lineTotal(l)
		q.Lines[i] = LineQuote{Key: l.Key, Price: l.Price, Quantity: l.Quantity, Total: t}
		q.Subtotal += t
	}

	q.Discount = discount(in.Code, q.Subtotal)
	lineTotals := make([]int64, len(q.Lines))
	for i, l := range q.Lines {
		lineTotals[i] = int64(l.Total)
	}
	for i, d := range allocate(int64(q.Discount), lineTotals) {
		q.Lines[i].Discount = shop.Cents(d)
	}
	net := q.Subtotal - q.Discount

	zone := offered(in.Zones, in.Methods, in.Country, in.State)
	for _, m := range zone {
		q.Methods = append(q.Methods, MethodOption{Method: m, Price: q.ShippingFor(m, zone, in.Code)})
		if FreeCovers(in.Code, m, zone) {
			q.FreeShippingFor = append(q.FreeShippingFor, m.Name)
		}
	}
	if len(q.Methods) == 0 {
		q.NoMethod = true
	} else {
		chosen := q.Methods[0]
		for _, o := range q.Methods {
			if o.Method.ID == in.MethodID {
				chosen = o
				break
			}
		}
		q.Method, q.Shipping = chosen.Method, chosen.Price
		q.ShippingDiscount = shipping(chosen.Method, q.Subtotal, net) - chosen.Price
	}

	if rate, ok := taxRate(in.Rates, in.Country, in.State); ok && rate.Exact() > 0 {
		// The lines' nets, then shipping when it is taxed: the weights the
		// tax is shared out by.
		parts := make([]int64, len(q.Lines), len(q.Lines)+1)
		for i, l := range q.Lines {
			parts[i] = int64(l.Total - l.Discount)
		}
		base := int64(net)
		if in.Settings.TaxShipping {
			parts = append(parts, int64(q.Shipping))
			base += int64(q.Shipping)
		}
		r := int64(rate.Exact())
		var tax int64
		if q.TaxIncluded {
			tax = roundHalfUp(base, r, million+r)
		} else {
			tax = roundHalfUp(base, r, million)
		}
		shares := allocate(tax, parts)
		for i := range q.Lines {
			q.Lines[i].Tax = shop.Cents(shares[i])
		}
		if in.Settings.TaxShipping {
			q.ShippingTax = shop.Cents(shares[len(q.Lines)])
		}
		q.Tax = shop.Cents(tax)
		taxBase := shop.Cents(base)
		if q.TaxIncluded {
			taxBase -= q.Tax
		}
		q.TaxLines = []shop.TaxLine{{Name: rate.Name, Rate: shop.BasisPoints(int(r)), PPM: int(r), Base: taxBase, Amount: q.Tax}}
	}

	q.Total = net + q.Shipping
	if !q.TaxIncluded {
		q.Total += q.Tax
	}
	q.Total = max(q.Total, 0)
	return q
}

// discount is what code takes off subtotal: never less than nothing, never
// more than the subtotal.
func discount(code *shop.PromoCode, subtotal shop.Cents) shop.Cents {
	if code == nil || subtotal <= 0 {
		return 0
	}
	switch code.Kind {
	case shop.PromoPercent:
		return shop.Cents(roundHalfUp(int64(subtotal), min(max(code.Value, 0), basis), basis))
	case shop.PromoFixed:
		return min(shop.Cents(max(code.Value, 0)), subtotal)
	}
	return 0
}

// ShippingFor is what method m, one of zone's methods (by Position),
// costs an order of q's lines with code applied (nil for none): what a
// shipping step shows beside each method, in any zone, without pricing
// the order again.
func (q Quote) ShippingFor(m shop.ShippingMethod, zone []shop.ShippingMethod, code *shop.PromoCode) shop.Cents {
	if FreeCovers(code, m, zone) {
		return 0
	}
	return shipping(m, q.Subtotal, q.Subtotal-q.Discount)
}

// shipping is what m costs before any free-shipping code: nothing for an
// empty cart or from m's free-from threshold (on the discounted subtotal,
// so a code cannot buy free shipping it then takes away).
func shipping(m shop.ShippingMethod, subtotal, net shop.Cents) shop.Cents {
	if subtotal <= 0 || (m.FreeFrom > 0 && net >= m.FreeFrom) {
		return 0
	}
	return max(m.Price, 0)
}

// offered lists the enabled methods of the address's zone by Position: the
// first zone, by Position, that holds the country and, when it lists
// states, the state.
func offered(zones []shop.ShippingZone, methods []shop.ShippingMethod, country, state string) []shop.ShippingMethod {
	zones = slices.Clone(zones)
	slices.SortStableFunc(zones, func(a, b shop.ShippingZone) int { return cmp.Compare(a.Position, b.Position) })
	i := slices.IndexFunc(zones, func(z shop.ShippingZone) bool {
		return containsFold(z.Countries, country) && (len(z.States) == 0 || containsFold(z.States, state))
	})
	if i < 0 {
		return nil
	}
	var out []shop.ShippingMethod
	for _, m := range methods {
		if m.Enabled && slices.Contains(m.ZoneIDs, zones[i].ID) {
			out = append(out, m)
		}
	}
	slices.SortStableFunc(out, func(a, b shop.ShippingMethod) int { return cmp.Compare(a.Position, b.Position) })
	return out
}

// taxRate finds the address's rate: its state's, else its country's, else
// the default (Country ""). States are compared as codes (shop.SameState),
// so neither a rate kept as "California" nor an address typed so misses
// "CA". ok is false when none applies.
func taxRate(rates []shop.TaxRate, country, state string) (shop.TaxRate, bool) {
	var best shop.TaxRate
	rank := 0 // 1 default, 2 country, 3 state; the first of a rank wins
	for _, r := range rates {
		k := 0
		switch {
		case r.Country == "":
			k = 1
		case !strings.EqualFold(r.Country, country):
		case r.State == "":
			k = 2
		case state != "" && shop.SameState(country, r.State, state):
			k = 3
		}
		if k > rank {
			best, rank = r, k
		}
	}
	return best, rank > 0
}

func containsFold(list []string, s string) bool {
	return slices.ContainsFunc(list, func(x string) bool { return strings.EqualFold(x, s) })
}

// mulDiv returns a×b÷c and its remainder for a, b ≥ 0 and c > 0. The
// product is kept in 128 bits, so a large order times a rate cannot
// overflow on the way; the quotient itself must fit in 64 bits.
func mulDiv(a, b, c int64) (quo, rem int64) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	q, r := bits.Div64(hi, lo, uint64(c))
	return int64(q), int64(r)
}

// roundHalfUp is a×b÷c rounded to the nearest unit, a half upwards.
func roundHalfUp(a, b, c int64) int64 {
	q, r := mulDiv(max(a, 0), max(b, 0), c)
	if r >= c-r {
		q++
	}
	return q
}

// allocate shares amount (≥ 0) out in proportion to weights (≥ 0) by the
// largest remainder: each part is rounded down, and the units left over go
// to the parts with the largest fractions, ties to the earlier part. The
// parts add up to amount exactly. With no weight at all nothing is shared
// (the callers never have an amount then).
func allocate(amount int64, weights []int64) []int64 {
	parts := make([]int64, len(weights))
	var total int64
	for _, w := range weights {
		total += max(w, 0)
	}
	if amount <= 0 || total <= 0 {
		return parts
	}
	rems := make([]int64, len(weights))
	left := amount
	for i, w := range weights {
		parts[i], rems[i] = mulDiv(amount, max(w, 0), total)
		left -= parts[i]
	}
	order := make([]int, len(weights))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(rems[b], rems[a]) })
	for _, i := range order[:left] {
		parts[i]++
	}
	return parts
}
