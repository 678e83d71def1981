package postgres

import (
	"context"
	"fmt"

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
