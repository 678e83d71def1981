package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

var _ shop.OrderStore = (*DB)(nil)

// orderColumns are read in scanOrder's order; orderInsertColumns are the
// same columns as INSERT names them (no NULL handling).
const (
	orderColumns = `id, user_id, email, status, subtotal_cents, shipping_cents, tax_cents, total_cents,
	ship_name, ship_street, ship_city, ship_state, ship_zip, ship_country, ship_phone, payment_method,
	COALESCE(tracking_number, ''), idempotency_key, created_at, cart_owner, charge_key, lease_until, carrier, cancel_reason`
	orderInsertColumns = `id, user_id, email, status, subtotal_cents, shipping_cents, tax_cents, total_cents,
	ship_name, ship_street, ship_city, ship_state, ship_zip, ship_country, ship_phone, payment_method,
	tracking_number, idempotency_key, created_at, cart_owner, charge_key, lease_until, carrier, cancel_reason`
)

func scanOrder(row interface{ Scan(...any) error }) (*shop.Order, error) {
	var o shop.Order
	var created, lease int64
	a := &o.ShipTo
	err := row.Scan(&o.ID, &o.UserID, &o.Email, &o.Status, &o.Subtotal, &o.Shipping, &o.Tax, &o.Total,
		&a.Name, &a.Street, &a.City, &a.State, &a.ZipCode, &a.Country, &a.Phone, &o.PaymentMethod,
		&o.TrackingNumber, &o.IdempotencyKey, &created, &o.CartOwner, &o.ChargeKey, &lease, &o.Carrier, &o.CancelReason)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, shop.Errorf(shop.ENOTFOUND, shop.MsgOrderNotFound)
	} else if err != nil {
		return nil, fmt.Errorf("scan order: %w", err)
	}
	o.CreatedAt = time.Unix(created, 0).UTC()
	if lease > 0 {
		o.LeaseUntil = time.Unix(lease, 0).UTC()
	}
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
	var lease int64
	if !o.LeaseUntil.IsZero() {
		lease = o.LeaseUntil.Unix()
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO orders (`+orderInsertColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		o.ID, o.UserID, o.Email, o.Status, o.Subtotal, o.Shipping, o.Tax, o.Total,
		a.Name, a.Street, a.City, a.State, a.ZipCode, a.Country, a.Phone, o.PaymentMethod, tracking, o.IdempotencyKey, o.CreatedAt.Unix(),
		o.CartOwner, o.ChargeKey, lease, o.Carrier, o.CancelReason)
	if err != nil {
		return FormatError(err, "insert order", Messages{shop.ECONFLICT: shop.MsgOrderExists})
	}
	for i, l := range o.Lines {
		if _, err := tx.ExecContext(ctx, `INSERT INTO order_lines (order_id, position, product_id, name, price_cents, quantity, image)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, o.ID, i, l.ProductID, l.Name, l.Price, l.Quantity, l.Image); err != nil {
			return fmt.Errorf("order line: %w", err)
		}
	}
	return nil
}

// ClaimCart turns owner's cart into a pending order in one IMMEDIATE
// transaction, so the cart lines that are charged are the ones read here
// and no second claim of the same cart can interleave.
func (db *DB) ClaimCart(ctx context.Context, owner, key string, build func(shop.Cart, int) (*shop.Order, error)) (*shop.Order, shop.Claim, error) {
	var out *shop.Order
	result := shop.Claimed
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		existing, err := scanOrder(tx.QueryRowContext(ctx, `SELECT `+orderColumns+` FROM orders WHERE idempotency_key = ?`, key))
		if err == nil {
			out, result = existing, shop.ClaimExists
			return nil
		} else if shop.ErrorCode(err) != shop.ENOTFOUND {
			return err
		}
		busy, err := scanOrder(tx.QueryRowContext(ctx, `SELECT `+orderColumns+` FROM orders WHERE cart_owner = ? AND status = ?`, owner, shop.StatusPending))
		if err == nil {
			out, result = busy, shop.ClaimBusy
			return nil
		} else if shop.ErrorCode(err) != shop.ENOTFOUND {
			return err
		}
		cart, err := cartIn(ctx, tx.QueryContext, owner)
		if err != nil {
			return err
		}
		var placed int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM orders WHERE cart_owner = ? AND status != ?`, owner, shop.StatusPending).Scan(&placed); err != nil {
			return fmt.Errorf("count cart orders: %w", err)
		}
		o, err := build(cart, placed)
		if err != nil {
			return err
		}
		o.Status, o.CartOwner, o.IdempotencyKey = shop.StatusPending, owner, key
		if o.CreatedAt.IsZero() {
			o.CreatedAt = db.Now().UTC().Truncate(time.Second)
		}
		if err := insertOrder(ctx, tx, o); err != nil {
			return fmt.Errorf("claim order: %w", err)
		}
		// Stock is taken with the claim, in its transaction (issue 17).
		if err := takeStock(ctx, tx, o.Lines, db.Now()); err != nil {
			return err
		}
		out = o
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	return out, result, nil
}

// PlacedFromCart counts the orders placed from owner's cart.
func (db *DB) PlacedFromCart(ctx context.Context, owner string) (int, error) {
	var n int
	if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM orders WHERE cart_owner = ? AND status != ?`, owner, shop.StatusPending).Scan(&n); err != nil {
		return 0, fmt.Errorf("count cart orders: %w", err)
	}
	return n, nil
}

// CompleteOrder marks a pending order processing and removes what it
// bought from its cart: a line's quantity goes down by the ordered
// quantity, so items added during the payment stay.
func (db *DB) CompleteOrder(ctx context.Context, orderID string) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		var owner string
		err := tx.QueryRowContext(ctx, `UPDATE orders SET status = ?, lease_until = 0 WHERE id = ? AND status = ? RETURNING cart_owner`,
			shop.StatusProcessing, orderID, shop.StatusPending).Scan(&owner)
		if errors.Is(err, sql.ErrNoRows) {
			return shop.Errorf(shop.ECONFLICT, shop.MsgOrderPlaced)
		} else if err != nil {
			return fmt.Errorf("complete order: %w", err)
		}
		if owner == "" {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM cart_items WHERE owner = ? AND product_id IN (
			SELECT l.product_id FROM order_lines l WHERE l.order_id = ? AND l.quantity >= cart_items.quantity)`, owner, orderID); err != nil {
			return fmt.Errorf("empty cart: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE cart_items SET quantity = quantity - (
			SELECT l.quantity FROM order_lines l WHERE l.order_id = ? AND l.product_id = cart_items.product_id)
			WHERE owner = ? AND product_id IN (SELECT product_id FROM order_lines WHERE order_id = ?)`, orderID, owner, orderID); err != nil {
			return fmt.Errorf("empty cart: %w", err)
		}
		return nil
	})
}

// ReleaseOrder removes a pending claim (its lines go with it) and puts
// what it took back into stock.
func (db *DB) ReleaseOrder(ctx context.Context, orderID string) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		var id string
		err := tx.QueryRowContext(ctx, `SELECT id FROM orders WHERE id = ? AND status = ?`, orderID, shop.StatusPending).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		} else if err != nil {
			return fmt.Errorf("release order: %w", err)
		}
		if err := returnStock(ctx, tx, orderID, db.Now()); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM orders WHERE id = ? AND status = ?`, orderID, shop.StatusPending); err != nil {
			return fmt.Errorf("release order: %w", err)
		}
		return nil
	})
}

// ExpiredClaims lists pending orders whose lease has ended.
func (db *DB) ExpiredClaims(ctx context.Context, now time.Time) ([]shop.Order, error) {
	rows, err := db.Query(ctx, `SELECT `+orderColumns+` FROM orders WHERE status = ? AND lease_until < ? ORDER BY created_at`,
		shop.StatusPending, now.Unix())
	if err != nil {
		return nil, fmt.Errorf("expired claims: %w", err)
	}
	defer rows.Close()
	var out []shop.Order
	for rows.Next() {
		o, err := scanOrder(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *o)
	}
	return out, rows.Err()
}

// TakeLease moves a pending order's lease from old to until, only if
// nobody moved it since it was read.
func (db *DB) TakeLease(ctx context.Context, orderID string, old, until time.Time) (bool, error) {
	var oldUnix int64
	if !old.IsZero() {
		oldUnix = old.Unix()
	}
	res, err := db.Exec(ctx, `UPDATE orders SET lease_until = ? WHERE id = ? AND status = ? AND lease_until = ?`,
		until.Unix(), orderID, shop.StatusPending, oldUnix)
	if err != nil {
		return false, fmt.Errorf("take lease: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// RecordCharge stores a gateway charge unless its key has one.
func (db *DB) RecordCharge(ctx context.Context, c shop.Charge) (shop.Charge, error) {
	if c.CreatedAt.IsZero() {
		c.CreatedAt = db.Now().UTC().Truncate(time.Second)
	}
	if _, err := db.Exec(ctx, `INSERT INTO gateway_charges (idempotency_key, amount_cents, outcome, created_at)
		VALUES (?, ?, ?, ?) ON CONFLICT (idempotency_key) DO NOTHING`, c.Key, c.Amount, c.Outcome, c.CreatedAt.Unix()); err != nil {
		return shop.Charge{}, fmt.Errorf("record charge: %w", err)
	}
	stored, err := db.ChargeByKey(ctx, c.Key)
	if err != nil {
		return shop.Charge{}, err
	}
	return *stored, nil
}

// ChargeByKey returns the gateway's record of a charge.
func (db *DB) ChargeByKey(ctx context.Context, key string) (*shop.Charge, error) {
	var c shop.Charge
	var created int64
	err := db.QueryRow(ctx, `SELECT idempotency_key, amount_cents, outcome, created_at FROM gateway_charges WHERE idempotency_key = ?`, key).
		Scan(&c.Key, &c.Amount, &c.Outcome, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, shop.Errorf(shop.ENOTFOUND, shop.MsgNoCharge)
	} else if err != nil {
		return nil, fmt.Errorf("charge by key: %w", err)
	}
	c.CreatedAt = time.Unix(created, 0).UTC()
	return &c, nil
}

// OrderByKey returns the order placed under an idempotency key.
func (db *DB) OrderByKey(ctx context.Context, key string) (*shop.Order, error) {
	return scanOrder(db.QueryRow(ctx, `SELECT `+orderColumns+` FROM orders WHERE idempotency_key = ?`, key))
}

// Order returns an order with its lines.
func (db *DB) Order(ctx context.Context, id string) (*shop.Order, error) {
	o, err := scanOrder(db.QueryRow(ctx, `SELECT `+orderColumns+` FROM orders WHERE id = ?`, id))
	if err != nil {
		return nil, err
	}
	rows, err := db.Query(ctx, `SELECT product_id, name, price_cents, quantity, image FROM order_lines WHERE order_id = ? ORDER BY position`, id)
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
	if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM orders`+where, args...).Scan(&total); err != nil {
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
	rows, err := db.Query(ctx, `SELECT `+orderSummaryColumns+`
		FROM orders`+where+` ORDER BY `+col+` `+dir+`, created_at `+dir+`, id `+dir+` LIMIT ? OFFSET ?`,
		append(args, shop.OrdersPageSize, (page-1)*shop.OrdersPageSize)...)
	if err != nil {
		return nil, 0, fmt.Errorf("list orders: %w", err)
	}
	out, err := scanOrderSummaries(rows)
	return out, total, err
}

// orderSummaryColumns are an order's columns and its item count, for lists.
const orderSummaryColumns = orderColumns + `, (SELECT COALESCE(SUM(quantity), 0) FROM order_lines l WHERE l.order_id = orders.id)`

// scanOrderSummaries reads rows of orderSummaryColumns and closes them.
// A list shows item counts only; one placeholder line carries the count.
func scanOrderSummaries(rows *sql.Rows) ([]shop.Order, error) {
	defer rows.Close()
	var out []shop.Order
	for rows.Next() {
		var items int
		o, err := scanOrder(scannerWith{rows, &items})
		if err != nil {
			return nil, err
		}
		o.Lines = []shop.OrderLine{{Quantity: items}}
		out = append(out, *o)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read orders: %w", err)
	}
	return out, nil
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
	err := db.QueryRow(ctx, `SELECT COUNT(*) FROM orders WHERE user_id = ? AND status != 'pending'`, userID).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count orders: %w", err)
	}
	return n, nil
}

// SaveCard keeps a card's brand, last four and expiry for the next checkout.
func (db *DB) SaveCard(ctx context.Context, userID string, c shop.SavedCard) error {
	_, err := db.Exec(ctx, `INSERT INTO saved_cards (user_id, brand, last4, exp_month, exp_year, name) VALUES (?, ?, ?, ?, ?, ?)
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
	err := db.QueryRow(ctx, `SELECT brand, last4, exp_month, exp_year, name FROM saved_cards WHERE user_id = ?`, userID).
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
		return nil
	})
}
