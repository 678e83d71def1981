package shop

import (
	"context"
	"fmt"
	"time"
)

// MsgQuantityCap refuses a cart line above MaxCartQuantity.
var MsgQuantityCap = fmt.Sprintf("You can have at most %d of an item in your cart.", MaxCartQuantity)

// ErrQuantityCap is the EINVALID that refuses a cart line above
// MaxCartQuantity.
func ErrQuantityCap() error { return &Error{Code: EINVALID, Message: MsgQuantityCap} }

// Messages of the cart and wishlist rules, written once: every store and
// handler returns these.
const (
	// MsgUnknownProduct answers a cart or wishlist change for a product
	// the catalogue no longer has.
	MsgUnknownProduct = "That product is no longer available."
	// MsgNotInCart answers a change to a cart line that is not there.
	MsgNotInCart = "That item is not in your cart."
	// MsgNotOnWishlist answers moving a product that is not on the
	// wishlist.
	MsgNotOnWishlist = "That product is not on your wishlist."
	// MsgProductNotFound answers a product id the catalogue does not hold.
	MsgProductNotFound = "Failed to load product details. Please try again later."
)

// CartLine is one variant of a product in a cart, priced from the
// catalogue: Product carries the variant's price, stock and photo.
type CartLine struct {
	Product   Product
	VariantID string
	Quantity  int
	// Variation names the variant ("Size: M / Colour: Black"); empty for a
	// product without options.
	Variation string
	AddedAt   time.Time
}

// Total is the line's price.
func (l CartLine) Total() Cents { return l.Product.Price * Cents(l.Quantity) }

// Label names the line with its variant, as its order line will.
func (l CartLine) Label() string {
	return OrderLine{Name: l.Product.Title, Variation: l.Variation}.Label()
}

// Cart is a shopper's cart with its derived sums (the spec's entities).
type Cart struct {
	Lines []CartLine
}

// ItemCount is the number of items (sum of quantities): the badge.
func (c Cart) ItemCount() int {
	n := 0
	for _, l := range c.Lines {
		n += l.Quantity
	}
	return n
}

// Subtotal is the sum of the lines.
func (c Cart) Subtotal() Cents {
	var s Cents
	for _, l := range c.Lines {
		s += l.Total()
	}
	return s
}

// CartStore keeps carts. Every change is one statement or one transaction,
// so concurrent requests on one cart never lose an update.
type CartStore interface {
	Cart(ctx context.Context, owner string) (Cart, error)
	CartCount(ctx context.Context, owner string) (int, error)
	// AddToCart adds quantity to the line (creating it); a line that would
	// exceed MaxCartQuantity is left as it is and an EINVALID returned.
	AddToCart(ctx context.Context, owner, productID string, quantity int) error
	// SetCartQuantity sets a line's quantity; 0 or less removes it.
	SetCartQuantity(ctx context.Context, owner, productID string, quantity int) error
	RemoveFromCart(ctx context.Context, owner, productID string) error
	ClearCart(ctx context.Context, owner string) error
	// MergeCart moves one cart into another (quantities added, capped at
	// MaxCartQuantity a line), as when a visitor signs in.
	MergeCart(ctx context.Context, from, to string) error
}

// WishlistItem is a product on a wishlist.
type WishlistItem struct {
	Product Product
	AddedAt time.Time
}

// WishlistStore keeps wishlists of signed-in users.
type WishlistStore interface {
	Wishlist(ctx context.Context, userID string) ([]WishlistItem, error)
	WishlistIDs(ctx context.Context, userID string) (map[string]bool, error)
	// ToggleWishlist adds or removes a product and reports whether it is on
	// the wishlist afterwards.
	ToggleWishlist(ctx context.Context, userID, productID string) (bool, error)
	AddToWishlist(ctx context.Context, userID, productID string) error
	RemoveFromWishlist(ctx context.Context, userID, productID string) error
	// MoveToCart adds the product to the user's cart and takes it off the
	// wishlist in one transaction.
	MoveToCart(ctx context.Context, userID, productID string) error
}
