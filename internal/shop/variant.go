package shop

import (
	"context"
	"slices"
	"strings"
)

// MaxOptions is how many options (Size, Colour, Material) a product may
// have, as in Shopify's product format.
const MaxOptions = 3

// Option is one of a product's options with its values, in the order
// shoppers see them.
type Option struct {
	Name   string
	Values []OptionValue
}

// OptionValue is one value of an option; a colour may carry a swatch
// colour (#rrggbb).
type OptionValue struct {
	Value  string
	Swatch string
}

// Variant is one combination of a product's option values that is sold,
// with its own stock and, when set, its own price. A product without
// options has one default variant whose ID is the product's.
type Variant struct {
	ID        string
	ProductID string
	SKU       string
	// Values holds one value per option of the product, in the options'
	// order.
	Values []string
	// Price and Original are the variant's own when it sets them, the
	// product's otherwise (the store resolves them).
	Price    Cents
	Original Cents
	Stock    int
	Image    string
	Enabled  bool
}

// Choices are a product's options and its variants, in order, as its page
// and the back office show them.
type Choices struct {
	Options  []Option
	Variants []Variant
}

// Variant returns the variant with id.
func (c Choices) Variant(id string) (Variant, bool) {
	for _, v := range c.Variants {
		if v.ID == id {
			return v, true
		}
	}
	return Variant{}, false
}

// Match returns the variant with exactly values, one per option.
func (c Choices) Match(values []string) (Variant, bool) {
	for _, v := range c.Variants {
		if slices.Equal(v.Values, values) {
			return v, true
		}
	}
	return Variant{}, false
}

// Select returns the variant a product page shows: the one with id when
// the product sells it, else the first that can be bought, else the first.
func (c Choices) Select(id string) Variant {
	if v, ok := c.Variant(id); ok && v.Enabled {
		return v
	}
	for _, v := range c.Variants {
		if v.Buyable() {
			return v
		}
	}
	for _, v := range c.Variants {
		if v.Enabled {
			return v
		}
	}
	if len(c.Variants) > 0 {
		return c.Variants[0]
	}
	return Variant{}
}

// Switch is what choosing value for option i leads to from sel: the
// variant with sel's other values and value (exact), or else the first
// enabled variant with value, buyable ones first (ok false when no variant
// has value at all). A combination that is not exact, or not buyable, is
// shown crossed out.
func (c Choices) Switch(sel Variant, i int, value string) (v Variant, exact, ok bool) {
	want := slices.Clone(sel.Values)
	if i < len(want) {
		want[i] = value
	}
	if v, found := c.Match(want); found && v.Enabled {
		return v, true, true
	}
	var fallback Variant
	for _, v := range c.Variants {
		if !v.Enabled || i >= len(v.Values) || v.Values[i] != value {
			continue
		}
		if v.Buyable() {
			return v, false, true
		}
		if !ok {
			fallback, ok = v, true
		}
	}
	return fallback, false, ok
}

// VariantStore keeps products' options and variants.
type VariantStore interface {
	// AllChoices returns the options and variants of every product with
	// options, by product id.
	AllChoices(ctx context.Context) (map[string]Choices, error)
	// VariantStock returns the stock of a product's variants in Choices'
	// order, none for a disabled one.
	VariantStock(ctx context.Context, productID string) ([]int, error)
	// Choices returns a product's options and variants, in order.
	Choices(ctx context.Context, productID string) (Choices, error)
	// SetChoices replaces them: variants are kept by id, a new one starts
	// with its Stock and a kept one keeps the stock it has.
	SetChoices(ctx context.Context, productID string, c Choices) error
}

// Buyable reports whether the variant can be added to a cart now.
func (v Variant) Buyable() bool { return v.Enabled && v.Stock > 0 }

// Variation names a combination of option values for the cart, the order
// and the mail: "Size: M / Colour: Black". A product without options has
// none.
func Variation(options []Option, values []string) string {
	var parts []string
	for i, o := range options {
		if i < len(values) && values[i] != "" {
			parts = append(parts, o.Name+": "+values[i])
		}
	}
	return strings.Join(parts, " / ")
}

// VariationOf is Variation from option names alone, as stored beside a
// cart line.
func VariationOf(names, values []string) string {
	options := make([]Option, len(names))
	for i, n := range names {
		options[i].Name = n
	}
	return Variation(options, values)
}

// MsgChooseOptions asks for a complete choice before adding a product
// with options to the cart.
const MsgChooseOptions = "Please choose %s before adding this to your cart."

// MsgUnavailableCombination refuses a combination the product doesn't
// sell, or doesn't have in stock.
const MsgUnavailableCombination = "Sorry, that combination isn't available. Please choose another."
