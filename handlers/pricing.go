package handlers

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/internal/checkout"
	"github.com/nocturne/storefront/internal/config"
	"github.com/nocturne/storefront/internal/pricing"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// Pricer prices carts from the shop's settings: package checkout's Prices.
type Pricer interface {
	Price(ctx context.Context, cart shop.Cart, ch checkout.Choice) (checkout.Priced, error)
	Rules(ctx context.Context) (pricing.Rules, error)
}

// sessionCode is the session's promo code, typed in the cart or at Review;
// it stays until removed or the order is placed.
const sessionCode = "promo"

// promoCode is the promo code the shopper applied, "" for none.
func promoCode(c *fiber.Ctx, s Sessions) string {
	v, err := s.Get(c, sessionCode)
	if err != nil {
		return ""
	}
	code, _ := v.(string)
	return code
}

// maxCodeLength bounds a promo code typed; longer is no code of ours.
const maxCodeLength = 64

// typedCode is the promo code field as posted, trimmed and bounded.
func typedCode(c *fiber.Ctx) string {
	code := strings.TrimSpace(c.FormValue("code"))
	if len(code) > maxCodeLength {
		code = code[:maxCodeLength]
	}
	return code
}

// customerOf is who would use a promo code: the account, or for a guest
// the e-mail given at checkout ("" before it is known).
func customerOf(u *shop.User, email string) string {
	if u == nil {
		return ""
	}
	if c := checkout.Customer(u.ID, email); c != "" {
		return c
	}
	return ""
}

// totalsView is a priced cart as the summaries state it.
func totalsView(p checkout.Priced) pages.Totals {
	t := pages.Totals{Subtotal: p.Subtotal, Discount: p.Discount, Shipping: p.Shipping, Tax: p.Tax, Total: p.Total,
		Method: p.Method.Name, TaxIncluded: p.TaxIncluded, Estimated: p.Estimated, FreeFrom: p.Method.FreeFrom,
		Net: p.Subtotal - p.Discount}
	if p.Code != nil {
		t.Code = strings.ToUpper(p.Code.Code)
		if p.Code.Kind == shop.PromoFreeShipping && !p.NoMethod {
			t.FreeShipping = slices.Contains(p.FreeShippingFor, p.Method.Name)
			if !t.FreeShipping {
				t.ShippingNote = freeShippingNote(p.FreeShippingFor, p.Method.Name)
			}
		}
	}
	t.TaxLabel = pages.TaxLabel(p.TaxLines, p.TaxIncluded, p.Estimated)
	return t
}

// Why a free-shipping code left the method chosen its price.
const (
	MsgFreeShippingAppliesTo = "Free shipping applies to %s"
	MsgFreeShippingNotFor    = "Free shipping doesn't apply to %s"
)

// freeShippingNote says which of the address's methods a free-shipping
// code makes free, when the one chosen is not among them: "Free shipping
// applies to Standard", or that it applies to none of them.
func freeShippingNote(free []string, chosen string) string {
	switch len(free) {
	case 0:
		return fmt.Sprintf(MsgFreeShippingNotFor, chosen)
	case 1:
		return fmt.Sprintf(MsgFreeShippingAppliesTo, free[0])
	}
	return fmt.Sprintf(MsgFreeShippingAppliesTo, strings.Join(free[:len(free)-1], ", ")+" and "+free[len(free)-1])
}

// codeForm is the promo code field of a priced cart: the code applied, or
// the one kept in the session with why it no longer applies.
func codeForm(action string, p checkout.Priced, kept string) pages.CodeForm {
	f := pages.CodeForm{Action: action}
	switch {
	case p.Code != nil:
		f.Applied = strings.ToUpper(p.Code.Code)
	case p.CodeErr != nil:
		f.Value, f.Error = kept, shop.ErrorMessage(p.CodeErr)
	}
	return f
}

// zoneChoices are the shipping step's methods by zone, each priced for the
// cart with the code applied and dated from now in the shop's time zone.
func zoneChoices(p checkout.Priced, now time.Time, loc *time.Location) []pages.ZoneChoice {
	var out []pages.ZoneChoice
	for _, zm := range p.Rules.ByZone() {
		z := pages.ZoneChoice{Name: zoneLabel(zm.Zone), Methods: make([]pages.MethodChoice, 0, len(zm.Methods))}
		for _, m := range zm.Methods {
			from, to := pricing.Delivery(m, now, loc)
			price := p.ShippingFor(m, zm.Methods, p.Code)
			z.Methods = append(z.Methods, pages.MethodChoice{ID: m.ID, Name: m.Name, Price: price,
				Label: pages.MethodLabel(m.Name, price), When: when(pricing.Estimate(m), from, to)})
		}
		out = append(out, z)
	}
	return out
}

// when states a method's time and its delivery window in one string:
// "3–5 business days; arrives Tue, Dec 1 – Thu, Dec 3" (or "arrives Tue,
// Dec 1" for one day). It is built in one buffer: the shipping step writes
// one for each method offered.
func when(estimate string, from, to time.Time) string {
	const layout = "Mon, Jan 2"
	b := make([]byte, 0, len(estimate)+40)
	b = append(b, estimate...)
	b = append(b, "; arrives "...)
	b = from.AppendFormat(b, layout)
	if !from.Equal(to) {
		b = append(b, " – "...)
		b = to.AppendFormat(b, layout)
	}
	return string(b)
}

// MsgChooseShipping asks for a shipping method that delivers to the
// address given.
const MsgChooseShipping = "Please choose a shipping method that delivers to %s."

func defaultLocation() *time.Location {
	loc, err := time.LoadLocation(config.DefaultTimezone)
	if err != nil {
		return time.UTC // no zone data at all; main embeds it, so only in odd builds
	}
	return loc
}

// zoneLabel names a zone with where it delivers: "International: Canada,
// United Kingdom", or only "United States" when that is its name.
func zoneLabel(z shop.ShippingZone) string {
	where := strings.Join(z.Countries, ", ")
	if len(z.States) > 0 {
		where += " (" + strings.Join(z.States, ", ") + ")"
	}
	if where == "" || strings.EqualFold(where, z.Name) {
		return z.Name
	}
	if z.Name == "" {
		return where
	}
	return z.Name + ": " + where
}
