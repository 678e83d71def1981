package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

var _ shop.OrderStore = (*DB)(nil)

const orderColumns = `id, user_id, email, status, subtotal_cents, shipping_cents, tax_cents, total_cents,
	ship_name, ship_street, ship_city, ship_state, ship_zip, ship_country, ship_phone, payment_method,
	COALESCE(tracking_number, ''), idempotency_key, created_at`

func scanOrder(row interface{ Scan(...any) error }) (*shop.Order, error) {
	var o shop.Order
	var created int64
	a := &o.ShipTo
	err := row.Scan(&o.ID, &o.UserID, &o.Email, &o.Status, &o.Subtotal, &o.Shipping, &o.Tax, &o.Total,
		&a.Name, &a.Street, &a.City, &a.State, &a.ZipCode, &a.Country, &a.Phone, &o.PaymentMethod,
		&o.TrackingNumber, &o.IdempotencyKey, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, shop.Errorf(shop.ENOTFOUND, "Order not found.")
	} else if err != nil {
		return nil, fmt.Errorf("scan order: %w", err)
	}
	o.CreatedAt = time.Unix(created, 0).UTC()
	return &o, nil
}

func insertOrder(ctx context.Context, tx interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}, o *shop.Order) error {
	a := o.ShipTo
	var tracking any
	if o.TrackingNumber != "" {
		tracking = o.TrackingNumber
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO orders (`+strings.Replace(orderColumns, "COALESCE(tracking_number, '')", "tracking_number", 1)+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		o.ID, o.UserID, o.Email, o.Status, o.Subtotal, o.Shipping, o.Tax, o.Total,
		a.Name, a.Street, a.City, a.State, a.ZipCode, a.Country, a.Phone, o.PaymentMethod, tracking, o.IdempotencyKey, o.CreatedAt.Unix())
	return err
}

// ClaimOrder inserts a pending order; its unique idempotency key makes a
// second Place Order of the same checkout find the first.
func (db *DB) ClaimOrder(ctx context.Context, o *shop.Order) (*shop.Order, bool, error) {
	o.Status = shop.StatusPending
	if o.CreatedAt.IsZero() {
		o.CreatedAt = db.now().UTC().Truncate(time.Second)
	}
	err := insertOrder(ctx, db.db, o)
	if err != nil && strings.Contains(err.Error(), "UNIQUE constraint failed: orders.idempotency_key") {
		existing, err := scanOrder(db.queryRow(ctx, `SELECT `+orderColumns+` FROM orders WHERE idempotency_key = ?`, o.IdempotencyKey))
		if err != nil {
			return nil, false, err
		}
		return existing, false, nil
	} else if err != nil {
		return nil, false, fmt.Errorf("claim order: %w", err)
	}
	return o, true, nil
}

// CompleteOrder turns a claim into an order and empties the cart.
func (db *DB) CompleteOrder(ctx context.Context, orderID, cartOwner string, lines []shop.OrderLine) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE orders SET status = ? WHERE id = ? AND status = ?`, shop.StatusProcessing, orderID, shop.StatusPending)
		if err != nil {
			return fmt.Errorf("complete order: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return shop.Errorf(shop.ECONFLICT, "This order was already placed.")
		}
		for i, l := range lines {
			if _, err := tx.ExecContext(ctx, `INSERT INTO order_lines (order_id, position, product_id, name, price_cents, quantity, image)
				VALUES (?, ?, ?, ?, ?, ?, ?)`, orderID, i, l.ProductID, l.Name, l.Price, l.Quantity, l.Image); err != nil {
				return fmt.Errorf("order line: %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM cart_items WHERE owner = ?`, cartOwner); err != nil {
			return fmt.Errorf("empty cart: %w", err)
		}
		return nil
	})
}

// ReleaseOrder removes a pending claim.
func (db *DB) ReleaseOrder(ctx context.Context, orderID string) error {
	if _, err := db.exec(ctx, `DELETE FROM orders WHERE id = ? AND status = ?`, orderID, shop.StatusPending); err != nil {
		return fmt.Errorf("release order: %w", err)
	}
	return nil
}

// OrderByKey returns the order placed under an idempotency key.
func (db *DB) OrderByKey(ctx context.Context, key string) (*shop.Order, error) {
	return scanOrder(db.queryRow(ctx, `SELECT `+orderColumns+` FROM orders WHERE idempotency_key = ?`, key))
}

// Order returns an order with its lines.
func (db *DB) Order(ctx context.Context, id string) (*shop.Order, error) {
	o, err := scanOrder(db.queryRow(ctx, `SELECT `+orderColumns+` FROM orders WHERE id = ?`, id))
	if err != nil {
		return nil, err
	}
	rows, err := db.query(ctx, `SELECT product_id, name, price_cents, quantity, image FROM order_lines WHERE order_id = ? ORDER BY position`, id)
	if err != nil {
		return nil, fmt.Errorf("order lines: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var l shop.OrderLine
		if err := rows.Scan(&l.ProductID, &l.Name, &l.Price, &l.Quantity, &l.Image); err != nil {
			return nil, fmt.Errorf("order line: %w", err)
		}
		o.Lines = append(o.Lines, l)
	}
	return o, rows.Err()
}

// Orders lists one page of a user's orders (pending ones never show) and
// counts them all.
func (db *DB) Orders(ctx context.Context, q shop.OrderQuery) ([]shop.Order, int, error) {
	where := ` WHERE user_id = ? AND status != 'pending'`
	args := []any{q.UserID}
	if q.Status != "" {
		where += ` AND status = ?`
		args = append(args, q.Status)
	}
	var total int
	if err := db.queryRow(ctx, `SELECT COUNT(*) FROM orders`+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count orders: %w", err)
	}
	dir := "ASC"
	if q.Desc {
		dir = "DESC"
	}
	col := "created_at"
	switch q.Sort {
	case "total":
		col = "total_cents"
	case "status":
		col = "status"
	}
	page := max(q.Page, 1)
	rows, err := db.query(ctx, `SELECT `+orderColumns+`, (SELECT COALESCE(SUM(quantity), 0) FROM order_lines l WHERE l.order_id = orders.id)
		FROM orders`+where+` ORDER BY `+col+` `+dir+`, created_at `+dir+`, id `+dir+` LIMIT ? OFFSET ?`,
		append(args, shop.OrdersPageSize, (page-1)*shop.OrdersPageSize)...)
	if err != nil {
		return nil, 0, fmt.Errorf("list orders: %w", err)
	}
	defer rows.Close()
	var out []shop.Order
	for rows.Next() {
		var items int
		o, err := scanOrder(scannerWith{rows, &items})
		if err != nil {
			return nil, 0, err
		}
		// The list shows item counts only; one placeholder line carries it.
		o.Lines = []shop.OrderLine{{Quantity: items}}
		out = append(out, *o)
	}
	return out, total, rows.Err()
}

// scannerWith appends extra destinations to a row's Scan.
type scannerWith struct {
	rows  *sql.Rows
	extra *int
}

func (s scannerWith) Scan(dest ...any) error { return s.rows.Scan(append(dest, s.extra)...) }

// CountOrders counts a user's placed orders.
func (db *DB) CountOrders(ctx context.Context, userID string) (int, error) {
	var n int
	err := db.queryRow(ctx, `SELECT COUNT(*) FROM orders WHERE user_id = ? AND status != 'pending'`, userID).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count orders: %w", err)
	}
	return n, nil
}

// SaveCard keeps a card's brand, last four and expiry for the next checkout.
func (db *DB) SaveCard(ctx context.Context, userID string, c shop.SavedCard) error {
	_, err := db.exec(ctx, `INSERT INTO saved_cards (user_id, brand, last4, exp_month, exp_year, name) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET brand = excluded.brand, last4 = excluded.last4, exp_month = excluded.exp_month,
		exp_year = excluded.exp_year, name = excluded.name`, userID, c.Brand, c.Last4, c.ExpMonth, c.ExpYear, c.Name)
	if err != nil {
		return fmt.Errorf("save card: %w", err)
	}
	return nil
}

// SavedCard returns the user's saved card, or nil.
func (db *DB) SavedCard(ctx context.Context, userID string) (*shop.SavedCard, error) {
	var c shop.SavedCard
	err := db.queryRow(ctx, `SELECT brand, last4, exp_month, exp_year, name FROM saved_cards WHERE user_id = ?`, userID).
		Scan(&c.Brand, &c.Last4, &c.ExpMonth, &c.ExpYear, &c.Name)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("saved card: %w", err)
	}
	return &c, nil
}

// InsertOrder stores a complete order with its lines.
func (db *DB) InsertOrder(ctx context.Context, o *shop.Order) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		if err := insertOrder(ctx, tx, o); err != nil {
			return fmt.Errorf("insert order: %w", err)
		}
		for i, l := range o.Lines {
			if _, err := tx.ExecContext(ctx, `INSERT INTO order_lines (order_id, position, product_id, name, price_cents, quantity, image)
				VALUES (?, ?, ?, ?, ?, ?, ?)`, o.ID, i, l.ProductID, l.Name, l.Price, l.Quantity, l.Image); err != nil {
				return fmt.Errorf("insert order line: %w", err)
			}
		}
		return nil
	})
}
