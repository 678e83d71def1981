package pricing

import "github.com/nocturne/storefront/internal/shop"

// Refund is what giving back part of an order returns.
type Refund struct {
	// Amount is the money that goes back: the lines' prices less their
	// discount, their tax when it was added, and shipping if refunded.
	Amount shop.Cents
	// Discount is the part of the order's discount the returned items had,
	// which is not paid back.
	Discount shop.Cents
	// Tax is the tax within Amount.
	Tax shop.Cents
	// Shipping is the shipping price within Amount, as Quote.Shipping
	// states it.
	Shipping shop.Cents
}

// Refund is what returning lines (a line's Key to the number of its items
// returned) gives back, with shipping when shipping is true. Each line gives
// back its share of what was paid for it, by the items returned: its share
// of the discount stays kept and its share of the tax goes back. A share is
// rounded down, so refunds of parts of an order never add up to more than
// its Total; returning every item and shipping gives back exactly Total.
// Keys the quote does not hold are ignored, and a line never gives back
// more items than it had.
func (q Quote) Refund(lines map[string]int, shipping bool) Refund {
	var r Refund
	for _, l := range q.Lines {
		n := min(max(lines[l.Key], 0), l.Quantity)
		if n <= 0 {
			continue
		}
		price, net, tax := l.Total, l.Total-l.Discount, l.Tax
		if n < l.Quantity {
			k, all := int64(n), int64(l.Quantity)
			price = l.Price * shop.Cents(n)
			netShare, _ := mulDiv(int64(net), k, all)
			taxShare, _ := mulDiv(int64(tax), k, all)
			net, tax = shop.Cents(netShare), shop.Cents(taxShare)
		}
		r.Discount += price - net
		r.Amount += net
		r.Tax += tax
		if !q.TaxIncluded {
			r.Amount += tax
		}
	}
	if shipping {
		r.Shipping = q.Shipping
		r.Amount += q.Shipping
		r.Tax += q.ShippingTax
		if !q.TaxIncluded {
			r.Amount += q.ShippingTax
		}
	}
	r.Amount = min(r.Amount, q.Total)
	return r
}
