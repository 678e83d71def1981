package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/nocturne/storefront/internal/shop"
)

// Carts and wishlists are the shared store's (package sqlstore).
var (
	_ shop.CartStore     = (*DB)(nil)
	_ shop.WishlistStore = (*DB)(nil)
)

// unknownProduct is what a cart or wishlist change for a product that is
// not (or no longer) in the catalogue breaks: the foreign key.
var unknownProduct = Messages{shop.ENOTFOUND: shop.MsgUnknownProduct}

func mergeCart(ctx context.Context, tx *sql.Tx, from, to string) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO cart_items (owner, product_id, quantity, added_at)
		SELECT ?, product_id, quantity, added_at FROM cart_items WHERE owner = ? AND true
		ON CONFLICT (owner, product_id) DO UPDATE SET quantity = MIN(?, quantity + excluded.quantity)`,
		to, from, shop.MaxCartQuantity); err != nil {
		return fmt.Errorf("merge cart: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM cart_items WHERE owner = ?`, from); err != nil {
		return fmt.Errorf("merge cart: %w", err)
	}
	return nil
}
