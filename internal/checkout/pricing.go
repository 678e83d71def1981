package checkout

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nocturne/storefront/internal/pricing"
	"github.com/nocturne/storefront/internal/shop"
)

// Prices looks up the shop's pricing settings and a shopper's promo code,
// and prices carts with them through pricing.Price: the cart page, every
// checkout step and Place Order ask it, so what a shopper is shown is what
// the order is charged.
type Prices struct {
	Settings shop.PricingStore
	Promos   shop.PromoStore
	Now      func() time.Time
	// Location is the shop's time zone, for cut-offs and delivery dates.
	Location *time.Location
	// Version is the catalogue version served. A change of the settings
	// bumps it in the store, and every instance's catalogue follows, so
	// the settings read are kept for as long as it stays the same; nil
	// reads them for every price.
	Version func() int64

	kept atomic.Pointer[keptRules]
}

// keptRules are the settings as read at a catalogue version.
type keptRules struct {
	version int64
	rules   pricing.Rules
}

// Choice is what a shopper chose that changes the price: where it goes, how,
// and the code typed. Customer is who would use the code: the account id,
// else the e-mail.
type Choice struct {
	Country, State string
	MethodID       string
	Code           string
	Customer       string
}

// Priced is a cart's price for a choice.
type Priced struct {
	pricing.Quote
	// Estimated says the address is not known yet: shipping and tax are
	// the default country's, by its first method.
	Estimated bool
	// Code is the code applied, nil when none was typed or it was refused;
	// CodeErr says why a code typed was refused.
	Code    *shop.PromoCode
	CodeErr error
	Rules   pricing.Rules
}

// Rules reads the shop's pricing settings.
func (p *Prices) Rules(ctx context.Context) (pricing.Rules, error) {
	if p.Version == nil {
		return pricing.LoadRules(ctx, p.Settings)
	}
	// The version is read first: settings changed while they are read
	// come with a newer version, which reads them again.
	v := p.Version()
	if k := p.kept.Load(); k != nil && k.version == v {
		return k.rules, nil
	}
	r, err := pricing.LoadRules(ctx, p.Settings)
	if err != nil {
		return r, err
	}
	p.kept.Store(&keptRules{version: v, rules: r})
	return r, nil
}

// Lines are a cart's lines as pricing reads them, keyed by variant.
func Lines(cart shop.Cart) []pricing.Line {
	out := make([]pricing.Line, 0, len(cart.Lines))
	for _, l := range cart.Lines {
		out = append(out, pricing.Line{Key: l.VariantID, Price: l.Product.Price, Quantity: l.Quantity})
	}
	return out
}

// Price prices cart for ch. A code that cannot be used is left out of the
// price and its reason returned in CodeErr; only a failing store is an
// error.
func (p *Prices) Price(ctx context.Context, cart shop.Cart, ch Choice) (Priced, error) {
	rules, err := p.Rules(ctx)
	if err != nil {
		return Priced{}, err
	}
	out := Priced{Rules: rules, Estimated: ch.Country == ""}
	if out.Estimated {
		ch.Country, ch.State, ch.MethodID = shop.DefaultCountry, "", ""
	}
	lines := Lines(cart)
	if code := strings.TrimSpace(ch.Code); code != "" {
		c, cerr := p.checkCode(ctx, code, pricing.Subtotal(lines), ch.Customer)
		switch {
		case cerr == nil:
			out.Code = &c
		case shop.ErrorCode(cerr) == shop.EINVALID:
			out.CodeErr = cerr
		default:
			return Priced{}, cerr
		}
	}
	out.Quote = pricing.Price(rules.Input(lines, ch.Country, ch.State, ch.MethodID, out.Code))
	return out, nil
}

// checkCode finds the code typed and checks it may be used now on this
// subtotal by this customer.
func (p *Prices) checkCode(ctx context.Context, code string, subtotal shop.Cents, customer string) (shop.PromoCode, error) {
	c, err := p.lookUpCode(ctx, code, customer)
	if err != nil {
		return shop.PromoCode{}, err
	}
	if err := pricing.CheckCode(*c, subtotal, p.Now()); err != nil {
		return shop.PromoCode{}, err
	}
	return *c, nil
}

// lookUpCode finds the code typed (nil for none) and refuses it when it
// does not exist or this customer used it already; the checks that depend
// on the order are CheckCode's.
func (p *Prices) lookUpCode(ctx context.Context, code, customer string) (*shop.PromoCode, error) {
	code = strings.TrimSpace(code)
	if code == "" {
		return nil, nil
	}
	c, err := p.Promos.PromoCode(ctx, code)
	if shop.ErrorCode(err) == shop.ENOTFOUND {
		return nil, shop.Errorf(shop.EINVALID, shop.MsgPromoUnknown)
	} else if err != nil {
		return nil, fmt.Errorf("promo code: %w", err)
	}
	if c.OncePerCustomer && customer != "" {
		used, err := p.Promos.PromoUsedBy(ctx, c.Code, customer)
		if err != nil {
			return nil, fmt.Errorf("promo code: %w", err)
		}
		if used {
			return nil, shop.Errorf(shop.EINVALID, shop.MsgPromoAlreadyUsed)
		}
	}
	return &c, nil
}

// Customer is who uses a code: the account, else the e-mail given
// (shop.PromoCustomer, which the store counts by too).
func Customer(userID, email string) string { return shop.PromoCustomer(userID, email) }
