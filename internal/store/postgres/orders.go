package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nocturne/storefront/internal/shop"
)

var (
	_ shop.OrderStore  = (*DB)(nil)
	_ shop.ChargeStore = (*DB)(nil)
)

const orderColumns = `id, user_id, email, status, subtotal_cents, shipping_cents, tax_cents, total_cents,
	ship_name, ship_street, ship_city, ship_state, ship_zip, ship_country, ship_phone, payment_method,
	COALESCE(tracking_number, ''), idempotency_key, created_at, cart_owner, charge_key, lease_until, carrier, cancel_reason`

func scanOrder(row pgx.Row, extra ...any) (*shop.Order, error) {
	var o shop.Order
	var created, lease int64
	a := &o.ShipTo
	err := row.Scan(append([]any{&o.ID, &o.UserID, &o.Email, &o.Status, &o.Subtotal, &o.Shipping, &o.Tax, &o.Total,
		&a.Name, &a.Street, &a.City, &a.State, &a.ZipCode, &a.Country, &a.Phone, &o.PaymentMethod,
		&o.TrackingNumber, &o.IdempotencyKey, &created, &o.CartOwner, &o.ChargeKey, &lease, &o.Carrier, &o.CancelReason}, extra...)...)
	if errors.Is(err, pgx.ErrNoRows) {
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

func insertOrder(ctx context.Context, tx pgx.Tx, o *shop.Order) error {
	a := o.ShipTo
	var lease int64
	if !o.LeaseUntil.IsZero() {
		lease = o.LeaseUntil.Unix()
	}
	_, err := tx.Exec(ctx, `INSERT INTO orders (id, user_id, email, status, subtotal_cents, shipping_cents, tax_cents, total_cents,
		ship_name, ship_street, ship_city, ship_state, ship_zip, ship_country, ship_phone, payment_method,
		tracking_number, idempotency_key, created_at, cart_owner, charge_key, lease_until, carrier, cancel_reason)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24)`,
		o.ID, o.UserID, o.Email, o.Status, o.Subtotal, o.Shipping, o.Tax, o.Total,
		a.Name, a.Street, a.City, a.State, a.ZipCode, a.Country, a.Phone, o.PaymentMethod, nullable(o.TrackingNumber),
		o.IdempotencyKey, o.CreatedAt.Unix(), o.CartOwner, o.ChargeKey, lease, o.Carrier, o.CancelReason)
	if err != nil {
		return FormatError(err, "insert order", Messages{shop.ECONFLICT: shop.MsgOrderExists})
	}
	for i, l := range o.Lines {
		if _, err := tx.Exec(ctx, `INSERT INTO order_lines (order_id, position, product_id, name, price_cents, quantity, image)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, o.ID, i, l.ProductID, l.Name, l.Price, l.Quantity, l.Image); err != nil {
			return fmt.Errorf("order line: %w", err)
		}
	}
	return nil
}

// ClaimCart turns owner's cart into a pending order in one transaction.
// Claims of one cart take its advisory lock first, so two Place Orders at
// once (on one instance or two) run one after the other: the second sees
// the first's order (ClaimExists) or its pending claim (ClaimBusy).
func (db *DB) ClaimCart(ctx context.Context, owner, key string, build func(shop.Cart, int) (*shop.Order, error)) (*shop.Order, shop.Claim, error) {
	var out *shop.Order
	var result shop.Claim
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		out, result = nil, shop.Claimed
		if err := lockKey(ctx, tx, "cart:"+owner); err != nil {
			return err
		}
		existing, err := scanOrder(tx.QueryRow(ctx, `SELECT `+orderColumns+` FROM orders WHERE idempotency_key = $1`, key))
		if err == nil {
			out, result = existing, shop.ClaimExists
			return nil
		} else if shop.ErrorCode(err) != shop.ENOTFOUND {
			return err
		}
		busy, err := scanOrder(tx.QueryRow(ctx, `SELECT `+orderColumns+` FROM orders WHERE cart_owner = $1 AND status = $2`, owner, shop.StatusPending))
		if err == nil {
			out, result = busy, shop.ClaimBusy
			return nil
		} else if shop.ErrorCode(err) != shop.ENOTFOUND {
			return err
		}
		cart, err := cartIn(ctx, tx, owner)
		if err != nil {
			return err
		}
		var placed int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM orders WHERE cart_owner = $1 AND status <> $2`, owner, shop.StatusPending).Scan(&placed); err != nil {
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
		// Stock is taken with the claim, in its transaction (issue 17).
		if err := takeStock(ctx, tx, o.Lines, db.Now()); err != nil {
			return err
		}
		if err := insertOrder(ctx, tx, o); err != nil {
			return fmt.Errorf("claim order: %w", err)
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
	if err := db.pool.QueryRow(ctx, `SELECT COUNT(*) FROM orders WHERE cart_owner = $1 AND status <> $2`, owner, shop.StatusPending).Scan(&n); err != nil {
		return 0, fmt.Errorf("count cart orders: %w", err)
	}
	return n, nil
}

// CompleteOrder marks a pending order processing and removes what it
// bought from its cart, in one transaction.
func (db *DB) CompleteOrder(ctx context.Context, orderID string) error {
	return db.inTx(ctx, func(tx pgx.Tx) error {
		var owner string
		err := tx.QueryRow(ctx, `UPDATE orders SET status = $1, lease_until = 0 WHERE id = $2 AND status = $3 RETURNING cart_owner`,
			shop.StatusProcessing, orderID, shop.StatusPending).Scan(&owner)
		if errors.Is(err, pgx.ErrNoRows) {
			return shop.Errorf(shop.ECONFLICT, shop.MsgOrderPlaced)
		} else if err != nil {
			return fmt.Errorf("complete order: %w", err)
		}
		if owner == "" {
			return nil
		}
		if _, err := tx.Exec(ctx, `DELETE FROM cart_items c USING order_lines l
			WHERE c.owner = $1 AND l.order_id = $2 AND l.product_id = c.product_id AND l.quantity >= c.quantity`, owner, orderID); err != nil {
			return fmt.Errorf("empty cart: %w", err)
		}
		if _, err := tx.Exec(ctx, `UPDATE cart_items c SET quantity = c.quantity - l.quantity FROM order_lines l
			WHERE c.owner = $1 AND l.order_id = $2 AND l.product_id = c.product_id`, owner, orderID); err != nil {
			return fmt.Errorf("empty cart: %w", err)
		}
		return nil
	})
}

// ReleaseOrder removes a pending claim (its lines go with it) and puts
// what it took back into stock, in one transaction.
func (db *DB) ReleaseOrder(ctx context.Context, orderID string) error {
	return db.inTx(ctx, func(tx pgx.Tx) error {
		var id string
		err := tx.QueryRow(ctx, `SELECT id FROM orders WHERE id = $1 AND status = $2 FOR UPDATE`, orderID, shop.StatusPending).Scan(&id)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		} else if err != nil {
			return fmt.Errorf("release order: %w", err)
		}
		if err := returnStock(ctx, tx, orderID, db.Now()); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM orders WHERE id = $1 AND status = $2`, orderID, shop.StatusPending); err != nil {
			return fmt.Errorf("release order: %w", err)
		}
		return nil
	})
}

// ExpiredClaims lists pending orders whose lease has ended.
func (db *DB) ExpiredClaims(ctx context.Context, now time.Time) ([]shop.Order, error) {
	return db.orders(ctx, "expired claims", `SELECT `+orderColumns+` FROM orders WHERE status = $1 AND lease_until < $2 ORDER BY created_at`,
		shop.StatusPending, now.Unix())
}

func (db *DB) orders(ctx context.Context, what, q string, args ...any) ([]shop.Order, error) {
	rows, err := db.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (shop.Order, error) {
		o, err := scanOrder(row)
		if err != nil {
			return shop.Order{}, err
		}
		return *o, nil
	})
}

// TakeLease moves a pending order's lease from old to until, only if
// nobody moved it since it was read.
func (db *DB) TakeLease(ctx context.Context, orderID string, old, until time.Time) (bool, error) {
	var oldUnix int64
	if !old.IsZero() {
		oldUnix = old.Unix()
	}
	tag, err := db.pool.Exec(ctx, `UPDATE orders SET lease_until = $1 WHERE id = $2 AND status = $3 AND lease_until = $4`,
		until.Unix(), orderID, shop.StatusPending, oldUnix)
	if err != nil {
		return false, fmt.Errorf("take lease: %w", err)
	}
	return tag.RowsAffected() == 1, nil
}

// RecordCharge stores a gateway charge unless its key has one.
func (db *DB) RecordCharge(ctx context.Context, c shop.Charge) (shop.Charge, error) {
	if c.CreatedAt.IsZero() {
		c.CreatedAt = db.Now().UTC().Truncate(time.Second)
	}
	if _, err := db.pool.Exec(ctx, `INSERT INTO gateway_charges (idempotency_key, amount_cents, outcome, created_at)
		VALUES ($1, $2, $3, $4) ON CONFLICT (idempotency_key) DO NOTHING`, c.Key, c.Amount, c.Outcome, c.CreatedAt.Unix()); err != nil {
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
	err := db.pool.QueryRow(ctx, `SELECT idempotency_key, amount_cents, outcome, created_at FROM gateway_charges WHERE idempotency_key = $1`, key).
		Scan(&c.Key, &c.Amount, &c.Outcome, &created)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, shop.Errorf(shop.ENOTFOUND, shop.MsgNoCharge)
	} else if err != nil {
		return nil, fmt.Errorf("charge by key: %w", err)
	}
	c.CreatedAt = time.Unix(created, 0).UTC()
	return &c, nil
}

// OrderByKey returns the order placed under an idempotency key.
func (db *DB) OrderByKey(ctx context.Context, key string) (*shop.Order, error) {
	return scanOrder(db.pool.QueryRow(ctx, `SELECT `+orderColumns+` FROM orders WHERE idempotency_key = $1`, key))
}

// Order returns an order with its lines.
func (db *DB) Order(ctx context.Context, id string) (*shop.Order, error) {
	o, err := scanOrder(db.pool.QueryRow(ctx, `SELECT `+orderColumns+` FROM orders WHERE id = $1`, id))
	if err != nil {
		return nil, err
	}
	rows, err := db.pool.Query(ctx, `SELECT product_id, name, price_cents, quantity, image FROM order_lines WHERE order_id = $1 ORDER BY position`, id)
	if err != nil {
		return nil, fmt.Errorf("order lines: %w", err)
	}
	o.Lines, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (shop.OrderLine, error) {
		var l shop.OrderLine
		err := row.Scan(&l.ProductID, &l.Name, &l.Price, &l.Quantity, &l.Image)
		return l, err
	})
	if err != nil {
		return nil, fmt.Errorf("order lines: %w", err)
	}
	return o, nil
}

// Orders lists one page of a user's orders (pending ones never show) and
// counts them all.
func (db *DB) Orders(ctx context.Context, q shop.OrderQuery) ([]shop.Order, int, error) {
	where := ` WHERE user_id = $1 AND status <> 'pending'`
	args := []any{q.UserID}
	if q.Status != "" {
		where += ` AND status = $2`
		args = append(args, q.Status)
	}
	var total int
	if err := db.pool.QueryRow(ctx, `SELECT COUNT(*) FROM orders`+where, args...).Scan(&total); err != nil {
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
	n := len(args)
	rows, err := db.pool.Query(ctx, fmt.Sprintf(`SELECT `+orderSummaryColumns+`
		FROM orders`+where+` ORDER BY `+col+` `+dir+`, created_at `+dir+`, id `+dir+` LIMIT $%d OFFSET $%d`, n+1, n+2),
		append(args, shop.OrdersPageSize, (page-1)*shop.OrdersPageSize)...)
	if err != nil {
		return nil, 0, fmt.Errorf("list orders: %w", err)
	}
	out, err := collectOrderSummaries(rows)
	return out, total, err
}

// orderSummaryColumns are an order's columns and its item count, for lists.
const orderSummaryColumns = orderColumns + `, (SELECT COALESCE(SUM(quantity), 0) FROM order_lines l WHERE l.order_id = orders.id)`

// collectOrderSummaries reads rows of orderSummaryColumns. A list shows
// item counts only; one placeholder line carries the count.
func collectOrderSummaries(rows pgx.Rows) ([]shop.Order, error) {
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (shop.Order, error) {
		var items int
		o, err := scanOrder(row, &items)
		if err != nil {
			return shop.Order{}, err
		}
		o.Lines = []shop.OrderLine{{Quantity: items}}
		return *o, nil
	})
	if err != nil {
		return nil, fmt.Errorf("list orders: %w", err)
	}
	return out, nil
}

// CountOrders counts a user's placed orders.
func (db *DB) CountOrders(ctx context.Context, userID string) (int, error) {
	var n int
	if err := db.pool.QueryRow(ctx, `SELECT COUNT(*) FROM orders WHERE user_id = $1 AND status <> 'pending'`, userID).Scan(&n); err != nil {
		return 0, fmt.Errorf("count orders: %w", err)
	}
	return n, nil
}

// SaveCard keeps a card's brand, last four and expiry for the next checkout.
func (db *DB) SaveCard(ctx context.Context, userID string, c shop.SavedCard) error {
	if _, err := db.pool.Exec(ctx, `INSERT INTO saved_cards (user_id, brand, last4, exp_month, exp_year, name) VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (user_id) DO UPDATE SET brand = EXCLUDED.brand, last4 = EXCLUDED.last4, exp_month = EXCLUDED.exp_month,
		exp_year = EXCLUDED.exp_year, name = EXCLUDED.name`, userID, c.Brand, c.Last4, c.ExpMonth, c.ExpYear, c.Name); err != nil {
		return FormatError(err, "save card", nil)
	}
	return nil
}

// SavedCard returns the user's saved card, or nil.
func (db *DB) SavedCard(ctx context.Context, userID string) (*shop.SavedCard, error) {
	var c shop.SavedCard
	err := db.pool.QueryRow(ctx, `SELECT brand, last4, exp_month, exp_year, name FROM saved_cards WHERE user_id = $1`, userID).
		Scan(&c.Brand, &c.Last4, &c.ExpMonth, &c.ExpYear, &c.Name)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("saved card: %w", err)
	}
	return &c, nil
}

// InsertOrder stores a complete order with its lines.
func (db *DB) InsertOrder(ctx context.Context, o *shop.Order) error {
	return db.inTx(ctx, func(tx pgx.Tx) error { return insertOrder(ctx, tx, o) })
}
