package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

var (
	_ shop.CartStore     = (*DB)(nil)
	_ shop.WishlistStore = (*DB)(nil)
)

// unknownProduct is what a cart or wishlist change for a product that is
// not (or no longer) in the catalogue breaks: the foreign key.
var unknownProduct = Messages{shop.ENOTFOUND: shop.MsgUnknownProduct}

// Cart returns the owner's cart, oldest line first, priced from the catalogue.
func (db *DB) Cart(ctx context.Context, owner string) (shop.Cart, error) {
	return cartIn(ctx, db.Query, owner)
}

// cartIn reads a cart with query: the database's prepared statements, or a
// transaction's QueryContext when the cart must be the one it then changes.
func cartIn(ctx context.Context, query func(context.Context, string, ...any) (*sql.Rows, error), owner string) (shop.Cart, error) {
	rows, err := query(ctx, `SELECT `+productColumns+`, c.quantity, c.added_at
		FROM cart_items c JOIN products p ON p.id = c.product_id WHERE c.owner = ? ORDER BY c.added_at, p.id`, owner)
	if err != nil {
		return shop.Cart{}, fmt.Errorf("load cart: %w", err)
	}
	defer rows.Close()
	var cart shop.Cart
	for rows.Next() {
		var l shop.CartLine
		var added int64
		var err error
		if l.Product, err = scanProduct(rows, &l.Quantity, &added); err != nil {
			return shop.Cart{}, fmt.Errorf("scan cart line: %w", err)
		}
		l.AddedAt = time.Unix(added, 0).UTC()
		cart.Lines = append(cart.Lines, l)
	}
	return cart, rows.Err()
}

// CartCount is the number of items in the owner's cart.
func (db *DB) CartCount(ctx context.Context, owner string) (int, error) {
	var n int
	if err := db.QueryRow(ctx, `SELECT COALESCE(SUM(quantity), 0) FROM cart_items WHERE owner = ?`, owner).Scan(&n); err != nil {
		return 0, fmt.Errorf("count cart: %w", err)
	}
	return n, nil
}

// AddToCart adds in one statement: the database does the arithmetic, so
// two concurrent adds cannot both read the old quantity.
func (db *DB) AddToCart(ctx context.Context, owner, productID string, quantity int) error {
	if quantity < 1 || quantity > shop.MaxCartQuantity {
		return shop.ErrQuantityCap()
	}
	res, err := db.Exec(ctx, `INSERT INTO cart_items (owner, product_id, quantity, added_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (owner, product_id) DO UPDATE SET quantity = quantity + excluded.quantity
		WHERE quantity + excluded.quantity <= ?`, owner, productID, quantity, db.Now().Unix(), shop.MaxCartQuantity)
	if err != nil {
		return FormatError(err, "add to cart", unknownProduct)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return shop.ErrQuantityCap()
	}
	return nil
}

// SetCartQuantity sets a line's quantity; 0 or less removes the line.
func (db *DB) SetCartQuantity(ctx context.Context, owner, productID string, quantity int) error {
	if quantity <= 0 {
		return db.RemoveFromCart(ctx, owner, productID)
	}
	if quantity > shop.MaxCartQuantity {
		return shop.ErrQuantityCap()
	}
	res, err := db.Exec(ctx, `UPDATE cart_items SET quantity = ? WHERE owner = ? AND product_id = ?`, quantity, owner, productID)
	if err != nil {
		return fmt.Errorf("set cart quantity: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return shop.Errorf(shop.ENOTFOUND, shop.MsgNotInCart)
	}
	return nil
}

// RemoveFromCart removes a line; removing a line that is not there is fine.
func (db *DB) RemoveFromCart(ctx context.Context, owner, productID string) error {
	if _, err := db.Exec(ctx, `DELETE FROM cart_items WHERE owner = ? AND product_id = ?`, owner, productID); err != nil {
		return fmt.Errorf("remove from cart: %w", err)
	}
	return nil
}

// ClearCart empties the cart.
func (db *DB) ClearCart(ctx context.Context, owner string) error {
	if _, err := db.Exec(ctx, `DELETE FROM cart_items WHERE owner = ?`, owner); err != nil {
		return fmt.Errorf("clear cart: %w", err)
	}
	return nil
}

// MergeCart moves the lines of from into to.
func (db *DB) MergeCart(ctx context.Context, from, to string) error {
	if from == to {
		return nil
	}
	return db.inTx(ctx, func(tx *sql.Tx) error { return mergeCart(ctx, tx, from, to) })
}

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

// Wishlist lists the user's wishlist, newest first.
func (db *DB) Wishlist(ctx context.Context, userID string) ([]shop.WishlistItem, error) {
	rows, err := db.Query(ctx, `SELECT `+productColumns+`, w.added_at
		FROM wishlist_items w JOIN products p ON p.id = w.product_id WHERE w.user_id = ? ORDER BY w.added_at DESC, p.id`, userID)
	if err != nil {
		return nil, fmt.Errorf("load wishlist: %w", err)
	}
	defer rows.Close()
	var out []shop.WishlistItem
	for rows.Next() {
		var it shop.WishlistItem
		var added int64
		var err error
		if it.Product, err = scanProduct(rows, &added); err != nil {
			return nil, fmt.Errorf("scan wishlist: %w", err)
		}
		it.AddedAt = time.Unix(added, 0).UTC()
		out = append(out, it)
	}
	return out, rows.Err()
}

// WishlistIDs returns the set of product ids on the user's wishlist.
func (db *DB) WishlistIDs(ctx context.Context, userID string) (map[string]bool, error) {
	rows, err := db.Query(ctx, `SELECT product_id FROM wishlist_items WHERE user_id = ?`, userID)
	if err != nil {
		return nil, fmt.Errorf("wishlist ids: %w", err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("wishlist ids: %w", err)
		}
		out[id] = true
	}
	return out, rows.Err()
}

// AddToWishlist adds a product; one already there stays as it was.
func (db *DB) AddToWishlist(ctx context.Context, userID, productID string) error {
	_, err := db.Exec(ctx, `INSERT INTO wishlist_items (user_id, product_id, added_at) VALUES (?, ?, ?)
		ON CONFLICT DO NOTHING`, userID, productID, db.Now().Unix())
	return FormatError(err, "add to wishlist", unknownProduct)
}

// RemoveFromWishlist removes a product from the wishlist.
func (db *DB) RemoveFromWishlist(ctx context.Context, userID, productID string) error {
	if _, err := db.Exec(ctx, `DELETE FROM wishlist_items WHERE user_id = ? AND product_id = ?`, userID, productID); err != nil {
		return fmt.Errorf("remove from wishlist: %w", err)
	}
	return nil
}

// ToggleWishlist flips a product's membership in one transaction.
func (db *DB) ToggleWishlist(ctx context.Context, userID, productID string) (bool, error) {
	var on bool
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM wishlist_items WHERE user_id = ? AND product_id = ?`, userID, productID)
		if err != nil {
			return fmt.Errorf("toggle wishlist: %w", err)
		}
		if n, _ := res.RowsAffected(); n > 0 {
			return nil
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO wishlist_items (user_id, product_id, added_at) VALUES (?, ?, ?)`,
			userID, productID, db.Now().Unix())
		if err != nil {
			return FormatError(err, "toggle wishlist", unknownProduct)
		}
		on = true
		return nil
	})
	return on, err
}

// MoveToCart puts a wishlist product in the cart and takes it off the
// wishlist, both or neither.
func (db *DB) MoveToCart(ctx context.Context, userID, productID string) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM wishlist_items WHERE user_id = ? AND product_id = ?`, userID, productID)
		if err != nil {
			return fmt.Errorf("move to cart: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return shop.Errorf(shop.ENOTFOUND, shop.MsgNotOnWishlist)
		}
		res, err = tx.ExecContext(ctx, `INSERT INTO cart_items (owner, product_id, quantity, added_at) VALUES (?, ?, 1, ?)
			ON CONFLICT (owner, product_id) DO UPDATE SET quantity = quantity + 1 WHERE quantity + 1 <= ?`,
			userID, productID, db.Now().Unix(), shop.MaxCartQuantity)
		if err != nil {
			return FormatError(err, "move to cart", unknownProduct)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return shop.ErrQuantityCap()
		}
		return nil
	})
}
