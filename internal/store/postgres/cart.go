package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nocturne/storefront/internal/shop"
)

var (
	_ shop.CartStore     = (*DB)(nil)
	_ shop.WishlistStore = (*DB)(nil)
)

// querier is a pool or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Cart returns the owner's cart, oldest line first, priced from the catalogue.
func (db *DB) Cart(ctx context.Context, owner string) (shop.Cart, error) {
	return cartIn(ctx, db.pool, owner)
}

func cartIn(ctx context.Context, q querier, owner string) (shop.Cart, error) {
	rows, err := q.Query(ctx, `SELECT `+productColumns+`, c.quantity, c.added_at
		FROM cart_items c JOIN products p ON p.id = c.product_id WHERE c.owner = $1 ORDER BY c.added_at, p.id`, owner)
	if err != nil {
		return shop.Cart{}, fmt.Errorf("load cart: %w", err)
	}
	lines, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (shop.CartLine, error) {
		var l shop.CartLine
		var added int64
		var err error
		l.Product, err = scanProduct(row, &l.Quantity, &added)
		l.AddedAt = time.Unix(added, 0).UTC()
		return l, err
	})
	if err != nil {
		return shop.Cart{}, fmt.Errorf("load cart: %w", err)
	}
	return shop.Cart{Lines: lines}, nil
}

// CartCount is the number of items in the owner's cart.
func (db *DB) CartCount(ctx context.Context, owner string) (int, error) {
	var n int
	if err := db.pool.QueryRow(ctx, `SELECT COALESCE(SUM(quantity), 0) FROM cart_items WHERE owner = $1`, owner).Scan(&n); err != nil {
		return 0, fmt.Errorf("count cart: %w", err)
	}
	return n, nil
}

// AddToCart adds in one statement: the database does the arithmetic, so
// concurrent adds (from any instance) cannot both read the old quantity.
func (db *DB) AddToCart(ctx context.Context, owner, productID string, quantity int) error {
	if quantity < 1 || quantity > shop.MaxCartQuantity {
		return shop.ErrQuantityCap()
	}
	tag, err := db.pool.Exec(ctx, `INSERT INTO cart_items AS c (owner, product_id, quantity, added_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (owner, product_id) DO UPDATE SET quantity = c.quantity + EXCLUDED.quantity
		WHERE c.quantity + EXCLUDED.quantity <= $5`, owner, productID, quantity, db.Now().Unix(), shop.MaxCartQuantity)
	if err != nil {
		return FormatError(err, "add to cart", unknownProduct)
	}
	if tag.RowsAffected() == 0 {
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
	tag, err := db.pool.Exec(ctx, `UPDATE cart_items SET quantity = $1 WHERE owner = $2 AND product_id = $3`, quantity, owner, productID)
	if err != nil {
		return FormatError(err, "set cart quantity", nil)
	}
	if tag.RowsAffected() == 0 {
		return shop.Errorf(shop.ENOTFOUND, shop.MsgNotInCart)
	}
	return nil
}

// RemoveFromCart removes a line; removing a line that is not there is fine.
func (db *DB) RemoveFromCart(ctx context.Context, owner, productID string) error {
	if _, err := db.pool.Exec(ctx, `DELETE FROM cart_items WHERE owner = $1 AND product_id = $2`, owner, productID); err != nil {
		return fmt.Errorf("remove from cart: %w", err)
	}
	return nil
}

// ClearCart empties the cart.
func (db *DB) ClearCart(ctx context.Context, owner string) error {
	if _, err := db.pool.Exec(ctx, `DELETE FROM cart_items WHERE owner = $1`, owner); err != nil {
		return fmt.Errorf("clear cart: %w", err)
	}
	return nil
}

// MergeCart moves the lines of from into to.
func (db *DB) MergeCart(ctx context.Context, from, to string) error {
	if from == to {
		return nil
	}
	return db.inTx(ctx, func(tx pgx.Tx) error { return mergeCart(ctx, tx, from, to) })
}

func mergeCart(ctx context.Context, tx pgx.Tx, from, to string) error {
	if _, err := tx.Exec(ctx, `INSERT INTO cart_items AS c (owner, product_id, quantity, added_at)
		SELECT $1, product_id, quantity, added_at FROM cart_items WHERE owner = $2
		ON CONFLICT (owner, product_id) DO UPDATE SET quantity = LEAST($3, c.quantity + EXCLUDED.quantity)`,
		to, from, shop.MaxCartQuantity); err != nil {
		return fmt.Errorf("merge cart: %w", err)
	}
	if _, err := tx.Exec(ctx, `DELETE FROM cart_items WHERE owner = $1`, from); err != nil {
		return fmt.Errorf("merge cart: %w", err)
	}
	return nil
}

// Wishlist lists the user's wishlist, newest first.
func (db *DB) Wishlist(ctx context.Context, userID string) ([]shop.WishlistItem, error) {
	rows, err := db.pool.Query(ctx, `SELECT `+productColumns+`, w.added_at
		FROM wishlist_items w JOIN products p ON p.id = w.product_id WHERE w.user_id = $1 ORDER BY w.added_at DESC, p.id`, userID)
	if err != nil {
		return nil, fmt.Errorf("load wishlist: %w", err)
	}
	items, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (shop.WishlistItem, error) {
		var it shop.WishlistItem
		var added int64
		var err error
		it.Product, err = scanProduct(row, &added)
		it.AddedAt = time.Unix(added, 0).UTC()
		return it, err
	})
	if err != nil {
		return nil, fmt.Errorf("load wishlist: %w", err)
	}
	return items, nil
}

// WishlistIDs returns the set of product ids on the user's wishlist.
func (db *DB) WishlistIDs(ctx context.Context, userID string) (map[string]bool, error) {
	rows, err := db.pool.Query(ctx, `SELECT product_id FROM wishlist_items WHERE user_id = $1`, userID)
	if err != nil {
		return nil, fmt.Errorf("wishlist ids: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("wishlist ids: %w", err)
	}
	out := make(map[string]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}

// AddToWishlist adds a product; one already there stays as it was.
func (db *DB) AddToWishlist(ctx context.Context, userID, productID string) error {
	if _, err := db.pool.Exec(ctx, `INSERT INTO wishlist_items (user_id, product_id, added_at) VALUES ($1, $2, $3)
		ON CONFLICT DO NOTHING`, userID, productID, db.Now().Unix()); err != nil {
		return FormatError(err, "add to wishlist", unknownProduct)
	}
	return nil
}

// RemoveFromWishlist removes a product from the wishlist.
func (db *DB) RemoveFromWishlist(ctx context.Context, userID, productID string) error {
	if _, err := db.pool.Exec(ctx, `DELETE FROM wishlist_items WHERE user_id = $1 AND product_id = $2`, userID, productID); err != nil {
		return fmt.Errorf("remove from wishlist: %w", err)
	}
	return nil
}

// lockKey takes a transaction-level advisory lock on a name (hashed to
// 64 bits: a collision only serialises two unrelated transactions), so
// transactions on the same thing (one wishlist line, one cart's checkout)
// run one after the other across every instance, as SQLite's single
// writer makes them.
func lockKey(ctx context.Context, tx pgx.Tx, name string) error {
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, name); err != nil {
		return fmt.Errorf("lock %s: %w", name, err)
	}
	return nil
}

// ToggleWishlist flips a product's membership; toggles of one line are
// serialised, so two at once leave it as it was.
func (db *DB) ToggleWishlist(ctx context.Context, userID, productID string) (bool, error) {
	var on bool
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		on = false
		if err := lockKey(ctx, tx, "wishlist:"+userID+"/"+productID); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `DELETE FROM wishlist_items WHERE user_id = $1 AND product_id = $2`, userID, productID)
		if err != nil {
			return fmt.Errorf("toggle wishlist: %w", err)
		}
		if tag.RowsAffected() > 0 {
			return nil
		}
		if _, err := tx.Exec(ctx, `INSERT INTO wishlist_items (user_id, product_id, added_at) VALUES ($1, $2, $3)`,
			userID, productID, db.Now().Unix()); err != nil {
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
	return db.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM wishlist_items WHERE user_id = $1 AND product_id = $2`, userID, productID)
		if err != nil {
			return fmt.Errorf("move to cart: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return shop.Errorf(shop.ENOTFOUND, shop.MsgNotOnWishlist)
		}
		tag, err = tx.Exec(ctx, `INSERT INTO cart_items AS c (owner, product_id, quantity, added_at) VALUES ($1, $2, 1, $3)
			ON CONFLICT (owner, product_id) DO UPDATE SET quantity = c.quantity + 1 WHERE c.quantity + 1 <= $4`,
			userID, productID, db.Now().Unix(), shop.MaxCartQuantity)
		if err != nil {
			return FormatError(err, "move to cart", unknownProduct)
		}
		if tag.RowsAffected() == 0 {
			return shop.ErrQuantityCap()
		}
		return nil
	})
}
