package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// orderColumns are read in scanOrder's order; orderInsertColumns are the
// same columns as INSERT names them (no NULL handling).
const (
	orderColumns = `id, user_id, email, status, subtotal_cents, shipping_cents, tax_cents, total_cents,
	ship_name, ship_street, ship_city, ship_state, ship_zip, ship_country, ship_phone, payment_method,
	COALESCE(tracking_number, ''), idempotency_key, created_at, cart_owner, charge_key, lease_until, carrier, cancel_reason,
	currency, payment_provider, payment_status, payment_ref, payment_intent, paid_at, refunded_cents,
	promo_code, discount_cents, shipping_method, tax_included`
	orderInsertColumns = `id, user_id, email, status, subtotal_cents, shipping_cents, tax_cents, total_cents,
	ship_name, ship_street, ship_city, ship_state, ship_zip, ship_country, ship_phone, payment_method,
	tracking_number, idempotency_key, created_at, cart_owner, charge_key, lease_until, carrier, cancel_reason,
	currency, payment_provider, payment_status, payment_ref, payment_intent, paid_at, refunded_cents,
	promo_code, discount_cents, shipping_method, tax_included`
)

// scanOrder scans orderColumns, then into extra any columns after them.
func scanOrder(row interface{ Scan(...any) error }, extra ...any) (*shop.Order, error) {
	var o shop.Order
	var created, lease, paid int64
	a := &o.ShipTo
	err := row.Scan(append([]any{&o.ID, &o.UserID, &o.Email, &o.Status, &o.Subtotal, &o.Shipping, &o.Tax, &o.Total,
		&a.Name, &a.Street, &a.City, &a.State, &a.ZipCode, &a.Country, &a.Phone, &o.PaymentMethod,
		&o.TrackingNumber, &o.IdempotencyKey, &created, &o.CartOwner, &o.ChargeKey, &lease, &o.Carrier, &o.CancelReason,
		&o.Currency, &o.PaymentProvider, &o.PaymentStatus, &o.PaymentRef, &o.PaymentIntent, &paid, &o.Refunded,
		&o.PromoCode, &o.Discount, &o.ShippingMethod, &o.TaxIncluded}, extra...)...)
	if err != nil {
		return nil, rowError(err, "scan order", shop.MsgOrderNotFound)
	}
	o.CreatedAt = time.Unix(created, 0).UTC()
	if lease > 0 {
		o.LeaseUntil = time.Unix(lease, 0).UTC()
	}
	if paid > 0 {
		o.PaidAt = time.Unix(paid, 0).UTC()
	}
	return &o, nil
}

func (s *Store) insertOrder(ctx context.Context, tx Tx, o *shop.Order) error {
	a := o.ShipTo
	var tracking any // NULL: no tracking number yet
	if o.TrackingNumber != "" {
		tracking = o.TrackingNumber
	}
	var lease, paid int64
	if !o.LeaseUntil.IsZero() {
		lease = o.LeaseUntil.Unix()
	}
	if !o.PaidAt.IsZero() {
		paid = o.PaidAt.Unix()
	}
	// An order that does not say otherwise was paid by the demo card, in
	// the shop's currency.
	if o.Currency == "" {
		o.Currency = shop.OrderCurrency()
	}
	if o.PaymentProvider == "" {
		o.PaymentProvider = shop.UnnamedProvider
	}
	if o.PaymentStatus == "" {
		o.PaymentStatus = shop.PaymentPaid
	}
	_, err := tx.Exec(ctx, `INSERT INTO orders (`+orderInsertColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		o.ID, o.UserID, o.Email, o.Status, o.Subtotal, o.Shipping, o.Tax, o.Total,
		a.Name, a.Street, a.City, a.State, a.ZipCode, a.Country, a.Phone, o.PaymentMethod, tracking, o.IdempotencyKey, o.CreatedAt.Unix(),
		o.CartOwner, o.ChargeKey, lease, o.Carrier, o.CancelReason,
		o.Currency, o.PaymentProvider, o.PaymentStatus, o.PaymentRef, o.PaymentIntent, paid, o.Refunded,
		o.PromoCode, o.Discount, o.ShippingMethod, o.TaxIncluded)
	if err != nil {
		return s.FormatError(err, "insert order", Messages{shop.ECONFLICT: shop.MsgOrderExists})
	}
	for i, l := range o.TaxLines {
		if _, err := tx.Exec(ctx, `INSERT INTO order_tax_lines (order_id, position, name, rate, rate_ppm, base_cents, amount_cents)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, o.ID, i, l.Name, l.Rate, l.PPM, l.Base, l.Amount); err != nil {
			return fmt.Errorf("order tax line: %w", err)
		}
	}
	for i, l := range o.Lines {
		if _, err := tx.Exec(ctx, `INSERT INTO order_lines (order_id, position, product_id, variant_id, variation, name, price_cents, quantity, image)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, o.ID, i, l.ProductID, variantOf(l), l.Variation, l.Name, l.Price, l.Quantity, l.Image); err != nil {
			return fmt.Errorf("order line: %w", err)
		}
	}
	return nil
}

// ClaimCart turns owner's cart into a pending order in one transaction.
// Claims of one cart run one after the other (SQLite's IMMEDIATE write
// transactions, PostgreSQL's lock on the cart), so the lines charged are
// the ones read here and a second Place Order sees the first's order
// (ClaimExists) or its pending claim (ClaimBusy). The order's promo
// code, if any, is counted in the same transaction (redeemPromo).
func (s *Store) ClaimCart(ctx context.Context, owner, key string, build func(shop.Cart, int) (*shop.Order, error)) (*shop.Order, shop.Claim, error) {
	var out *shop.Order
	var result shop.Claim
	err := s.InTx(ctx, func(tx Tx) error {
		out, result = nil, shop.Claimed
		if err := tx.Lock(ctx, "cart:"+owner); err != nil {
			return err
		}
		existing, err := scanOrder(tx.QueryRow(ctx, `SELECT `+orderColumns+` FROM orders WHERE idempotency_key = ?`, key))
		if err == nil {
			out, result = existing, shop.ClaimExists
			return nil
		} else if shop.ErrorCode(err) != shop.ENOTFOUND {
			return err
		}
		busy, err := scanOrder(tx.QueryRow(ctx, `SELECT `+orderColumns+` FROM orders WHERE cart_owner = ? AND status = ?`, owner, shop.StatusPending))
		if err == nil {
			out, result = busy, shop.ClaimBusy
			return nil
		} else if shop.ErrorCode(err) != shop.ENOTFOUND {
			return err
		}
		cart, err := s.cartIn(ctx, tx.Query, owner)
		if err != nil {
			return err
		}
		var placed int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM orders WHERE cart_owner = ? AND status <> ?`, owner, shop.StatusPending).Scan(&placed); err != nil {
			return fmt.Errorf("count cart orders: %w", err)
		}
		o, err := build(cart, placed)
		if err != nil {
			return err
		}
		o.Status, o.CartOwner, o.IdempotencyKey = shop.StatusPending, owner, key
		o.PaymentStatus, o.PaidAt = shop.PaymentAwaiting, time.Time{}
		if o.CreatedAt.IsZero() {
			o.CreatedAt = s.Now().UTC().Truncate(time.Second)
		}
		// Stock is taken with the claim, in its transaction: a claim
		// that cannot be served leaves neither order nor stock change.
		if err := takeStock(ctx, tx, o.Lines, s.Now()); err != nil {
			return err
		}
		if err := s.insertOrder(ctx, tx, o); err != nil {
			return fmt.Errorf("claim order: %w", err)
		}
		if o.PromoCode != "" {
			if err := s.redeemPromo(ctx, tx, o); err != nil {
				return err
			}
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
func (s *Store) PlacedFromCart(ctx context.Context, owner string) (int, error) {
	var n int
	if err := s.QueryRow(ctx, `SELECT COUNT(*) FROM orders WHERE cart_owner = ? AND status <> ?`, owner, shop.StatusPending).Scan(&n); err != nil {
		return 0, fmt.Errorf("count cart orders: %w", err)
	}
	return n, nil
}

// CompleteOrder marks a pending order processing (the move of
// shop.OrderMoves into processing; and paid, when paid)
// and removes what it bought from its cart: a line's quantity goes down by the ordered
// quantity, so items added during the payment stay.
func (s *Store) CompleteOrder(ctx context.Context, orderID string, paid bool) error {
	return s.InTx(ctx, func(tx Tx) error {
		var owner string
		status, paidAt := shop.PaymentAwaiting, int64(0)
		if paid {
			status, paidAt = shop.PaymentPaid, s.Now().Unix()
		}
		from, fromArgs := stateIn("status", shop.OrderMoves.From(shop.StatusProcessing))
		err := tx.QueryRow(ctx, `UPDATE orders SET status = ?, lease_until = 0, payment_status = ?, paid_at = ?
			WHERE id = ? AND `+from+` RETURNING cart_owner`,
			append([]any{string(shop.StatusProcessing), string(status), paidAt, orderID}, fromArgs...)...).Scan(&owner)
		if errors.Is(err, sql.ErrNoRows) {
			return shop.Errorf(shop.ECONFLICT, shop.MsgOrderPlaced)
		} else if err != nil {
			return fmt.Errorf("complete order: %w", err)
		}
		if owner == "" {
			return nil
		}
		// Correlated subqueries rather than DELETE … USING / UPDATE …
		// FROM, which SQLite lacks; SUM keeps a product ordered on two
		// lines one number.
		if _, err := tx.Exec(ctx, `DELETE FROM cart_items WHERE owner = ? AND quantity <= (
			SELECT COALESCE(SUM(l.quantity), 0) FROM order_lines l WHERE l.order_id = ? AND l.variant_id = cart_items.variant_id)`,
			owner, orderID); err != nil {
			return fmt.Errorf("empty cart: %w", err)
		}
		if _, err := tx.Exec(ctx, `UPDATE cart_items SET quantity = quantity - (
			SELECT SUM(l.quantity) FROM order_lines l WHERE l.order_id = ? AND l.variant_id = cart_items.variant_id)
			WHERE owner = ? AND variant_id IN (SELECT variant_id FROM order_lines WHERE order_id = ?)`, orderID, owner, orderID); err != nil {
			return fmt.Errorf("empty cart: %w", err)
		}
		return nil
	})
}

// ReleaseOrder removes a pending claim (its lines go with it), puts what
// it took back into stock and gives back its promo code's use.
func (s *Store) ReleaseOrder(ctx context.Context, orderID string) error {
	return s.InTx(ctx, func(tx Tx) error {
		// An update that changes nothing, to hold the order's row: a
		// release or completion racing this one (another instance, on
		// PostgreSQL) waits, then finds the order no longer pending, so
		// stock is returned once.
		res, err := tx.Exec(ctx, `UPDATE orders SET status = status WHERE id = ? AND status = ?`, orderID, shop.StatusPending)
		if err != nil {
			return fmt.Errorf("release order: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		if err := returnStock(ctx, tx, orderID, s.Now()); err != nil {
			return err
		}
		if err := releasePromo(ctx, tx, orderID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM orders WHERE id = ? AND status = ?`, orderID, shop.StatusPending); err != nil {
			return fmt.Errorf("release order: %w", err)
		}
		return nil
	})
}

// ExpiredClaims lists pending orders whose lease has ended.
func (s *Store) ExpiredClaims(ctx context.Context, now time.Time) ([]shop.Order, error) {
	rows, err := s.Query(ctx, `SELECT `+orderColumns+` FROM orders WHERE status = ? AND lease_until < ? ORDER BY created_at`,
		shop.StatusPending, now.Unix())
	return Collect(s, rows, err, "expired claims", func(rows *sql.Rows) (shop.Order, error) {
		o, err := scanOrder(rows)
		if err != nil {
			return shop.Order{}, err
		}
		return *o, nil
	})
}

// TakeLease moves a pending order's lease from old to until, only if
// nobody moved it since it was read.
func (s *Store) TakeLease(ctx context.Context, orderID string, old, until time.Time) (bool, error) {
	var oldUnix int64
	if !old.IsZero() {
		oldUnix = old.Unix()
	}
	res, err := s.Exec(ctx, `UPDATE orders SET lease_until = ? WHERE id = ? AND status = ? AND lease_until = ?`,
		until.Unix(), orderID, shop.StatusPending, oldUnix)
	if err != nil {
		return false, fmt.Errorf("take lease: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// RecordCharge stores a gateway charge unless its key has one.
func (s *Store) RecordCharge(ctx context.Context, c shop.Charge) (shop.Charge, error) {
	if c.CreatedAt.IsZero() {
		c.CreatedAt = s.Now().UTC().Truncate(time.Second)
	}
	if _, err := s.Exec(ctx, `INSERT INTO gateway_charges (idempotency_key, amount_cents, outcome, created_at)
		VALUES (?, ?, ?, ?) ON CONFLICT (idempotency_key) DO NOTHING`, c.Key, c.Amount, c.Outcome, c.CreatedAt.Unix()); err != nil {
		return shop.Charge{}, fmt.Errorf("record charge: %w", err)
	}
	stored, err := s.ChargeByKey(ctx, c.Key)
	if err != nil {
		return shop.Charge{}, err
	}
	return *stored, nil
}

// ChargeByKey returns the gateway's record of a charge.
func (s *Store) ChargeByKey(ctx context.Context, key string) (*shop.Charge, error) {
	var c shop.Charge
	var created int64
	err := s.QueryRow(ctx, `SELECT idempotency_key, amount_cents, outcome, created_at FROM gateway_charges WHERE idempotency_key = ?`, key).
		Scan(&c.Key, &c.Amount, &c.Outcome, &created)
	if err != nil {
		return nil, rowError(err, "charge by key", shop.MsgNoCharge)
	}
	c.CreatedAt = time.Unix(created, 0).UTC()
	return &c, nil
}

// OrderByKey returns the order placed under an idempotency key.
func (s *Store) OrderByKey(ctx context.Context, key string) (*shop.Order, error) {
	return scanOrder(s.QueryRow(ctx, `SELECT `+orderColumns+` FROM orders WHERE idempotency_key = ?`, key))
}

// Order returns an order with its lines and tax lines.
func (s *Store) Order(ctx context.Context, id string) (*shop.Order, error) {
	o, err := scanOrder(s.QueryRow(ctx, `SELECT `+orderColumns+` FROM orders WHERE id = ?`, id))
	if err != nil {
		return nil, err
	}
	rows, err := s.Query(ctx, `SELECT product_id, variant_id, variation, name, price_cents, quantity, image FROM order_lines WHERE order_id = ? ORDER BY position`, id)
	o.Lines, err = Collect(s, rows, err, "order lines", func(rows *sql.Rows) (l shop.OrderLine, err error) {
		err = rows.Scan(&l.ProductID, &l.VariantID, &l.Variation, &l.Name, &l.Price, &l.Quantity, &l.Image)
		return l, err
	})
	if err != nil {
		return nil, err
	}
	rows, err = s.Query(ctx, `SELECT name, rate, rate_ppm, base_cents, amount_cents FROM order_tax_lines WHERE order_id = ? ORDER BY position`, id)
	o.TaxLines, err = Collect(s, rows, err, "order tax lines", func(rows *sql.Rows) (l shop.TaxLine, err error) {
		err = rows.Scan(&l.Name, &l.Rate, &l.PPM, &l.Base, &l.Amount)
		return l, err
	})
	if err != nil {
		return nil, err
	}
	return o, nil
}

// Orders lists one page of a user's orders (pending ones never show) and
// counts them all.
func (s *Store) Orders(ctx context.Context, q shop.OrderQuery) ([]shop.Order, int, error) {
	where := ` WHERE user_id = ? AND status <> 'pending'`
	args := []any{q.UserID}
	if q.Status != "" {
		where += ` AND status = ?`
		args = append(args, q.Status)
	}
	var total int
	if err := s.QueryRow(ctx, `SELECT COUNT(*) FROM orders`+where, args...).Scan(&total); err != nil {
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
	rows, err := s.Query(ctx, `SELECT `+orderSummaryColumns+`
		FROM orders`+where+` ORDER BY `+col+` `+dir+`, created_at `+dir+`, id `+dir+` LIMIT ? OFFSET ?`,
		append(args, shop.OrdersPageSize, (page-1)*shop.OrdersPageSize)...)
	out, err := Collect(s, rows, err, "list orders", scanOrderSummary)
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// orderSummaryColumns are an order's columns and its item count, for lists.
const orderSummaryColumns = orderColumns + `, (SELECT COALESCE(SUM(quantity), 0) FROM order_lines l WHERE l.order_id = orders.id)`

// scanOrderSummary scans a row of orderSummaryColumns. A list shows item
// counts only; one placeholder line carries the count.
func scanOrderSummary(rows *sql.Rows) (shop.Order, error) {
	var items int
	o, err := scanOrder(rows, &items)
	if err != nil {
		return shop.Order{}, err
	}
	o.Lines = []shop.OrderLine{{Quantity: items}}
	return *o, nil
}

// CountOrders counts a user's placed orders.
func (s *Store) CountOrders(ctx context.Context, userID string) (int, error) {
	var n int
	if err := s.QueryRow(ctx, `SELECT COUNT(*) FROM orders WHERE user_id = ? AND status <> 'pending'`, userID).Scan(&n); err != nil {
		return 0, fmt.Errorf("count orders: %w", err)
	}
	return n, nil
}

// SaveCard keeps a card's brand, last four and expiry for the next checkout.
func (s *Store) SaveCard(ctx context.Context, userID string, c shop.SavedCard) error {
	if _, err := s.Exec(ctx, `INSERT INTO saved_cards (user_id, brand, last4, exp_month, exp_year, name) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET brand = excluded.brand, last4 = excluded.last4, exp_month = excluded.exp_month,
		exp_year = excluded.exp_year, name = excluded.name`, userID, c.Brand, c.Last4, c.ExpMonth, c.ExpYear, c.Name); err != nil {
		return s.FormatError(err, "save card", nil)
	}
	return nil
}

// SavedCard returns the user's saved card, or nil.
func (s *Store) SavedCard(ctx context.Context, userID string) (*shop.SavedCard, error) {
	var c shop.SavedCard
	err := s.QueryRow(ctx, `SELECT brand, last4, exp_month, exp_year, name FROM saved_cards WHERE user_id = ?`, userID).
		Scan(&c.Brand, &c.Last4, &c.ExpMonth, &c.ExpYear, &c.Name)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("saved card: %w", err)
	}
	return &c, nil
}

// InsertOrder stores a complete order with its lines.
func (s *Store) InsertOrder(ctx context.Context, o *shop.Order) error {
	return s.InTx(ctx, func(tx Tx) error { return s.insertOrder(ctx, tx, o) })
}

// Stock reads a variant's stock from the table: none when the variant is
// no longer sold.
func (s *Store) Stock(ctx context.Context, variantID string) (int, error) {
	var n int
	err := s.QueryRow(ctx, `SELECT CASE WHEN v.enabled THEN v.stock ELSE 0 END FROM variants v JOIN products p ON p.id = v.product_id
		WHERE v.id = ? AND NOT p.hidden`, variantID).Scan(&n)
	if err != nil {
		return 0, rowError(err, "stock of "+variantID, shop.MsgUnknownProduct)
	}
	return n, nil
}

// StockChanges returns the stock of the products one of whose variants'
// stock changed at or after since.
func (s *Store) StockChanges(ctx context.Context, since time.Time) (map[string]int, error) {
	rows, err := s.Query(ctx, `SELECT v.product_id, COALESCE(SUM(CASE WHEN v.enabled THEN v.stock ELSE 0 END), 0) FROM variants v
		WHERE v.product_id IN (SELECT product_id FROM variants WHERE stock_changed_at >= ?) GROUP BY v.product_id`, since.Unix())
	if err != nil {
		return nil, s.FormatError(err, "stock changes", nil)
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
	if err := rows.Err(); err != nil {
		return nil, s.FormatError(err, "stock changes", nil)
	}
	return out, nil
}

// variantOf is the variant an order line sold: a line stored without one
// sold its product's default variant, which has the product's id.
func variantOf(l shop.OrderLine) string {
	if l.VariantID != "" {
		return l.VariantID
	}
	return l.ProductID
}

// takeStock takes an order's lines out of stock inside tx: one conditional
// UPDATE per line, on the variant sold, so of two transactions racing for
// the last item the second finds the condition false (PostgreSQL re-checks
// it once the first's row lock is released), whatever either read before.
// A line that cannot be served fails the whole claim with the shopper's
// message.
func takeStock(ctx context.Context, tx Tx, lines []shop.OrderLine, now time.Time) error {
	for _, l := range lines {
		id := variantOf(l)
		res, err := tx.Exec(ctx, `UPDATE variants SET stock = stock - ?, stock_changed_at = ?
			WHERE id = ? AND enabled AND stock >= ? AND product_id IN (SELECT p.id FROM products p WHERE NOT p.hidden)`,
			l.Quantity, now.Unix(), id, l.Quantity)
		if err != nil {
			return fmt.Errorf("take stock of %s: %w", id, err)
		}
		if n, _ := res.RowsAffected(); n == 1 {
			continue
		}
		var left int
		if err := tx.QueryRow(ctx, `SELECT CASE WHEN v.enabled AND NOT p.hidden THEN v.stock ELSE 0 END
			FROM variants v JOIN products p ON p.id = v.product_id WHERE v.id = ?`, id).Scan(&left); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("stock of %s: %w", id, err)
		}
		return shop.StockError(l.Label(), left)
	}
	return nil
}

// returnStock puts an order's lines back into stock inside tx (a released
// claim, a cancelled order). Variants deleted since are skipped.
func returnStock(ctx context.Context, tx Tx, orderID string, now time.Time) error {
	if _, err := tx.Exec(ctx, `UPDATE variants SET stock = stock + (
			SELECT SUM(l.quantity) FROM order_lines l WHERE l.order_id = ? AND l.variant_id = variants.id),
			stock_changed_at = ?
		WHERE id IN (SELECT variant_id FROM order_lines WHERE order_id = ?)`, orderID, now.Unix(), orderID); err != nil {
		return fmt.Errorf("return stock of %s: %w", orderID, err)
	}
	return nil
}
