package pages

import (
	"fmt"
	"strings"

	"github.com/nocturne/storefront/internal/pricing"
	"github.com/nocturne/storefront/internal/shop"
)

// ShippingFacts are the shipping settings the help pages, the landing page
// and the product cards speak of: the methods at home (the default
// country's, Standard first) and the zones abroad.
type ShippingFacts struct {
	Home   []shop.ShippingMethod
	Abroad []pricing.ZoneMethods
}

// NewShippingFacts reads the facts from the shop's rules.
func NewShippingFacts(r pricing.Rules) ShippingFacts {
	f := ShippingFacts{Home: r.Offered(shop.DefaultCountry, "")}
	for _, zm := range r.ByZone() {
		if !containsCountry(zm.Zone.Countries, shop.DefaultCountry) {
			f.Abroad = append(f.Abroad, zm)
		}
	}
	return f
}

func containsCountry(list []string, c string) bool {
	for _, x := range list {
		if strings.EqualFold(x, c) {
			return true
		}
	}
	return false
}

// Note is a product card's shipping line: "Free shipping over $50".
func (f ShippingFacts) Note() string {
	if len(f.Home) == 0 {
		return ""
	}
	m := f.Home[0]
	switch {
	case m.FreeFrom > 0:
		return "Free shipping over " + m.FreeFrom.Whole()
	case m.Price == 0:
		return "Free shipping"
	}
	return m.Name + " shipping " + m.Price.String()
}

// Delivery is the landing page's promise: "Standard delivery in 3–5
// business days, free on orders of $50 or more."
func (f ShippingFacts) Delivery() string {
	if len(f.Home) == 0 {
		return "Delivered to your door, tracked all the way."
	}
	m := f.Home[0]
	s := m.Name + " delivery in " + pricing.Estimate(m)
	if m.FreeFrom > 0 {
		s += ", free on orders of " + m.FreeFrom.Whole() + " or more"
	}
	return s + "."
}

// Terms states a method's cost: "$10.00 on orders under $50; free on
// orders of $50 or more".
func Terms(m shop.ShippingMethod) string {
	if m.FreeFrom > 0 {
		return m.Price.String() + " on orders under " + m.FreeFrom.Whole() + "; free on orders of " + m.FreeFrom.Whole() + " or more"
	}
	if m.Price == 0 {
		return "Free"
	}
	return m.Price.String()
}

// faqShipping answers the FAQ's three shipping questions from the facts.
func (f ShippingFacts) faqShipping() (howLong, howMuch, abroad string) {
	var long, much []string
	for _, m := range f.Home {
		long = append(long, m.Name+" arrives in "+pricing.Estimate(m))
		much = append(much, m.Name+" costs "+Terms(m))
	}
	howLong = strings.Join(long, "; ") + "."
	howMuch = strings.Join(much, "; ") + "."
	if len(f.Home) == 0 {
		howLong, howMuch = "Delivery times are shown at checkout.", "Shipping costs are shown at checkout."
	}
	if len(f.Abroad) == 0 {
		return howLong, howMuch, "Not yet: we ship to " + shop.DefaultCountry + " only."
	}
	var parts []string
	for _, zm := range f.Abroad {
		for _, m := range zm.Methods {
			parts = append(parts, fmt.Sprintf("to %s, %s arrives in %s and costs %s", strings.Join(zm.Zone.Countries, ", "),
				m.Name, pricing.Estimate(m), Terms(m)))
		}
	}
	return howLong, howMuch, "Yes: " + strings.Join(parts, "; ") + "."
}
