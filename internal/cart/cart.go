// Package cart owns the shopping cart's rules: what a quantity may be, how
// many of an item a line may hold, whether the shop has that many in
// stock, and the words a shopper reads about each. Handlers parse the
// request and show the outcome; the store keeps each change atomic.
package cart

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/nocturne/storefront/internal/shop"
)

// Texts of the cart.
const (
	MsgAdded   = "Added to cart"
	MsgUpdated = "Cart updated"
	MsgRemoved = "Removed from cart"
	MsgCleared = "Your cart is empty now"
)

// MsgBadQuantity refuses a quantity that is not a whole number within the
// cap.
var MsgBadQuantity = fmt.Sprintf("Please enter a whole number from 1 to %d.", shop.MaxCartQuantity)

// Catalog finds the product a shopper asks for.
type Catalog interface {
	Product(ctx context.Context, id string) (*shop.Product, error)
}

// Variants finds the variants a product with options is sold as.
type Variants interface {
	Choices(ctx context.Context, productID string) (shop.Choices, error)
}

// Service applies the cart's rules to a store.
type Service struct {
	Carts   shop.CartStore
	Catalog Catalog
	// Variants are the products' options and variants; nil when no
	// product has options.
	Variants Variants
	// Stock answers live stock; nil means no stock checks.
	Stock shop.StockStore
}

// ParseQuantity reads a quantity field: a whole number; empty means def.
func ParseQuantity(s string, def int) (int, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return def, true
	}
	n, err := strconv.Atoi(s)
	if err != nil || len(s) > 6 {
		return 0, false
	}
	return n, true
}

// Add puts quantity (as typed; empty means 1) of a product's variant in
// owner's cart and returns the owner. A product without options is sold as
// its default variant (variantID may be empty); one with options needs a
// variant chosen, enabled and in stock. A visitor without a cart has owner
// "": newOwner makes one, and is called only once the add is allowed, so a
// refused add leaves nothing behind. The price is never the shopper's: the
// cart joins the catalogue.
func (s *Service) Add(ctx context.Context, owner string, newOwner func() (string, error), productID, variantID, quantity string) (string, error) {
	qty, ok := ParseQuantity(quantity, 1)
	switch {
	case !ok || qty < 1:
		return owner, &shop.Error{Code: shop.EINVALID, Message: MsgBadQuantity}
	case qty > shop.MaxCartQuantity:
		return owner, shop.ErrQuantityCap()
	}
	p, err := s.Catalog.Product(ctx, productID)
	if shop.ErrorCode(err) == shop.ENOTFOUND {
		return owner, shop.Errorf(shop.ENOTFOUND, shop.MsgUnknownProduct)
	} else if err != nil {
		return owner, err
	}
	id, label, err := s.variant(ctx, p, variantID)
	if err != nil {
		return owner, err
	}
	if err := s.checkStock(ctx, owner, id, label, qty, 0); err != nil {
		return owner, err
	}
	if owner == "" {
		if owner, err = newOwner(); err != nil {
			return "", err
		}
	}
	return owner, s.Carts.AddToCart(ctx, owner, id, qty)
}

// variant resolves what an add to the cart of p buys: its default variant
// (the product's id) when it has no options, else the chosen variant of
// its own, which must be sold. It returns the variant's id and how
// messages name it.
func (s *Service) variant(ctx context.Context, p *shop.Product, variantID string) (string, string, error) {
	if !p.HasOptions() || s.Variants == nil {
		if variantID != "" && variantID != p.ID {
			return "", "", shop.Errorf(shop.ENOTFOUND, shop.MsgUnknownProduct)
		}
		return p.ID, p.Title, nil
	}
	c, err := s.Variants.Choices(ctx, p.ID)
	if err != nil {
		return "", "", err
	}
	if variantID == "" {
		names := make([]string, len(c.Options))
		for i, o := range c.Options {
			names[i] = strings.ToLower(o.Name)
		}
		return "", "", shop.Errorf(shop.EINVALID, shop.MsgChooseOptions, joinAnd(names))
	}
	v, ok := c.Variant(variantID)
	if !ok || !v.Enabled {
		return "", "", shop.Errorf(shop.EINVALID, shop.MsgUnavailableCombination)
	}
	return v.ID, shop.OrderLine{Name: p.Title, Variation: shop.Variation(c.Options, v.Values)}.Label(), nil
}

// joinAnd lists words as a sentence does: "size and colour", "a, b and c".
func joinAnd(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// Set makes quantity (as typed) the quantity of the cart line of variantID
// in owner's cart; zero or less removes the line. It returns the message
// to show.
func (s *Service) Set(ctx context.Context, owner, variantID, quantity string) (string, error) {
	qty, ok := ParseQuantity(quantity, -1)
	switch {
	case owner == "":
		return "", shop.Errorf(shop.ENOTFOUND, shop.MsgNotInCart)
	case !ok || strings.TrimSpace(quantity) == "" || qty > shop.MaxCartQuantity:
		return "", &shop.Error{Code: shop.EINVALID, Message: MsgBadQuantity}
	}
	msg := MsgUpdated
	if qty <= 0 {
		msg = MsgRemoved
	} else if s.Stock != nil {
		cart, err := s.Carts.Cart(ctx, owner)
		if err != nil {
			return "", err
		}
		for _, l := range cart.Lines {
			if l.VariantID == variantID {
				if err := s.checkStock(ctx, owner, variantID, l.Label(), 0, qty); err != nil {
					return "", err
				}
			}
		}
	}
	return msg, s.Carts.SetCartQuantity(ctx, owner, variantID, qty)
}

// Remove takes the line of variantID out of owner's cart.
func (s *Service) Remove(ctx context.Context, owner, variantID string) error {
	if owner == "" {
		return nil
	}
	return s.Carts.RemoveFromCart(ctx, owner, variantID)
}

// Clear empties owner's cart.
func (s *Service) Clear(ctx context.Context, owner string) error {
	if owner == "" {
		return nil
	}
	return s.Carts.ClearCart(ctx, owner)
}

// checkStock refuses a cart change that would ask for more of a variant
// (named label in the message) than the shop holds, read live from the
// store: adding add to the quantity in the cart, or setting it to set.
// Stock is only taken when an order is placed, so this is advice that the
// order's claim enforces.
func (s *Service) checkStock(ctx context.Context, owner, variantID, label string, add, set int) error {
	if s.Stock == nil {
		return nil
	}
	n, err := s.Stock.Stock(ctx, variantID)
	if err != nil {
		return err
	}
	want := set
	if add > 0 {
		want = add
		if owner != "" {
			cart, err := s.Carts.Cart(ctx, owner)
			if err != nil {
				return err
			}
			for _, l := range cart.Lines {
				if l.VariantID == variantID {
					want += l.Quantity
				}
			}
		}
	}
	if want > n {
		return shop.StockError(label, n)
	}
	return nil
}
