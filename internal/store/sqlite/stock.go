package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

var _ shop.StockStore = (*DB)(nil)

// Stock reads a product's stock from the table.
func (db *DB) Stock(ctx context.Context, productID string) (int, error) {
	var n int
	err := db.QueryRow(ctx, `SELECT stock FROM products WHERE id = ? AND hidden = 0`, productID).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, shop.Errorf(shop.ENOTFOUND, shop.MsgUnknownProduct)
	} else if err != nil {
		return 0, fmt.Errorf("stock of %s: %w", productID, err)
	}
	return n, nil
}

// StockChanges returns the stock of the products whose stock changed at or
// after since.
func (db *DB) StockChanges(ctx context.Context, since time.Time) (map[string]int, error) {
	rows, err := db.Query(ctx, `SELECT id, stock FROM products WHERE stock_changed_at >= ?`, since.Unix())
	if err != nil {
		return nil, fmt.Errorf("stock changes: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var id string
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return nil, fmt.Errorf("scan stock: %w", err)
		}
		out[id] = n
	}
	return out, rows.Err()
}

// takeStock takes an order's lines out of stock inside tx: one conditional
// UPDATE per line, so of two transactions racing for the last item the
// second finds the condition false, whatever either read before. A line
// that cannot be served fails the whole claim with the shopper's message.
func takeStock(ctx context.Context, tx *sql.Tx, lines []shop.OrderLine, now time.Time) error {
	for _, l := range lines {
		res, err := tx.ExecContext(ctx, `UPDATE products SET stock = stock - ?, stock_changed_at = ?
			WHERE id = ? AND hidden = 0 AND stock >= ?`, l.Quantity, now.Unix(), l.ProductID, l.Quantity)
		if err != nil {
			return fmt.Errorf("take stock of %s: %w", l.ProductID, err)
		}
		if n, _ := res.RowsAffected(); n == 1 {
			continue
		}
		var left int
		if err := tx.QueryRowContext(ctx, `SELECT stock FROM products WHERE id = ? AND hidden = 0`, l.ProductID).Scan(&left); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("stock of %s: %w", l.ProductID, err)
		}
		return shop.StockError(l.Name, left)
	}
	return nil
}

// returnStock puts an order's lines back into stock inside tx (a released
// claim, a cancelled order). Products deleted since are skipped.
func returnStock(ctx context.Context, tx *sql.Tx, orderID string, now time.Time) error {
	if _, err := tx.ExecContext(ctx, `UPDATE products SET stock = stock + (
			SELECT SUM(l.quantity) FROM order_lines l WHERE l.order_id = ? AND l.product_id = products.id),
			stock_changed_at = ?
		WHERE id IN (SELECT product_id FROM order_lines WHERE order_id = ?)`, orderID, now.Unix(), orderID); err != nil {
		return fmt.Errorf("return stock of %s: %w", orderID, err)
	}
	return nil
}
