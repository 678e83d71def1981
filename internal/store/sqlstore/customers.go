package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"math"
	"strings"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// Customers, their notes and the accountant's exports. Which customer an
// order belongs to is said once, in placedOrders, and every list, page
// and export reads it from there.

// ownedOrders is the FROM clause that says whose an order o is, as
// orderOwner names it: the account that placed it (a), else the account
// whose e-mail the order was placed with (m: a guest checkout by an
// account holder), else the order's e-mail (a guest). A guest is keyed
// by the address in lower case, as accounts keep theirs: an address
// typed in another case is the same person, and the key is the one an
// address typed by staff normalises to. Customers, a person's data and
// erasure all read it from here.
const (
	ownedOrders = `orders o
	LEFT JOIN users a ON a.id = o.user_id AND NOT a.is_guest
	LEFT JOIN users m ON a.id IS NULL AND m.email = LOWER(o.email) AND NOT m.is_guest`
	orderOwner = `COALESCE(a.id, m.id, LOWER(o.email))`
)

// placedOrders is a common table expression of every placed order (not
// pending ones) created in a range, with the customer it belongs to
// (ckey, see ownedOrders); account_id is NULL for a guest's.
// spent is what the order paid less its refunds (0 when it was never
// paid). Its arguments: placedArgs.
const placedOrders = `placed AS (
	SELECT o.id, o.created_at, o.email, o.ship_name, o.user_id,
		COALESCE(a.id, m.id) AS account_id,
		` + orderOwner + ` AS ckey,
		CASE WHEN o.payment_status IN (?, ?, ?) THEN o.total_cents - o.refunded_cents ELSE 0 END AS spent
	FROM ` + ownedOrders + `
	WHERE o.status <> 'pending' AND o.created_at >= ? AND o.created_at < ?)`

// placedArgs are placedOrders' arguments for r; a zero range is all time.
func placedArgs(r shop.ExportRange) []any {
	from, to := int64(0), int64(math.MaxInt64)
	if !r.From.IsZero() {
		from = r.From.Unix()
	}
	if !r.To.IsZero() {
		to = r.To.Unix()
	}
	// Money was taken from an order in any of these states; a refunded
	// one's refunds take it back.
	return []any{shop.PaymentPaid, shop.PaymentPartiallyRefunded, shop.PaymentRefunded, from, to}
}

// customersWith is the statement head every customer query shares:
// placed, each customer's totals, the name on their newest order, and
// people: every account, and every guest e-mail with an order.
const customersWith = `WITH ` + placedOrders + `,
totals AS (
	SELECT ckey, MIN(account_id) AS account_id, COUNT(*) AS orders, SUM(spent) AS spent, MAX(created_at) AS last_order
	FROM placed GROUP BY ckey),
latest AS (
	SELECT ckey, ship_name FROM (
		SELECT ckey, ship_name, ROW_NUMBER() OVER (PARTITION BY ckey ORDER BY created_at DESC, id DESC) AS n FROM placed) r
	WHERE n = 1),
people AS (
	SELECT u.id AS ckey, u.display_name AS name, COALESCE(u.email, '') AS email, FALSE AS guest FROM users u WHERE NOT u.is_guest
	UNION ALL
	SELECT ckey, '', ckey, TRUE FROM totals WHERE account_id IS NULL)
`

// customerColumns are read by scanCustomer.
const customerColumns = `c.ckey, COALESCE(NULLIF(c.name, ''), l.ship_name, ''), c.email, c.guest,
	COALESCE(t.orders, 0), COALESCE(t.spent, 0), COALESCE(t.last_order, 0)`

func scanCustomer(rows interface{ Scan(...any) error }) (shop.Customer, error) {
	var c shop.Customer
	var last int64
	if err := rows.Scan(&c.Key, &c.Name, &c.Email, &c.Guest, &c.Orders, &c.Spent, &last); err != nil {
		return c, err
	}
	if last > 0 {
		c.LastOrder = time.Unix(last, 0).UTC()
	}
	return c, nil
}

// customerSearch is the condition of a search for q and its arguments.
func (s *Store) customerSearch(q string) (string, []any) {
	q = strings.TrimSpace(q)
	if q == "" {
		return "TRUE", nil
	}
	like := "%" + backofficeLike(q) + "%"
	ilike := " " + s.d.ILike + ` ? ESCAPE '\'`
	return `(c.name` + ilike + ` OR c.email` + ilike + ` OR c.ckey IN (
		SELECT ckey FROM placed WHERE ship_name` + ilike + ` OR email` + ilike + `))`, []any{like, like, like, like}
}

// Customers lists a page of customers, newest order first.
func (s *Store) Customers(ctx context.Context, q shop.CustomerQuery) ([]shop.Customer, int, error) {
	cond, args := s.customerSearch(q.Search)
	args = append(placedArgs(shop.ExportRange{}), args...)
	// Unprepared: a search and a list are two texts, each used rarely.
	var total int
	if err := s.db.QueryRowContext(ctx, s.Rebind(customersWith+`SELECT COUNT(*) FROM people c WHERE `+cond), args...).Scan(&total); err != nil {
		return nil, 0, s.FormatError(err, "count customers", nil)
	}
	rows, err := s.db.QueryContext(ctx, s.Rebind(customersWith+`SELECT `+customerColumns+`
		FROM people c LEFT JOIN totals t ON t.ckey = c.ckey LEFT JOIN latest l ON l.ckey = c.ckey
		WHERE `+cond+` ORDER BY COALESCE(t.last_order, 0) DESC, c.ckey`+s.d.Bytewise+` LIMIT ? OFFSET ?`),
		append(args, shop.CustomersPageSize, (max(q.Page, 1)-1)*shop.CustomersPageSize)...)
	out, err := Collect(s, rows, err, "list customers", func(rows *sql.Rows) (shop.Customer, error) { return scanCustomer(rows) })
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// Customer returns one customer; an e-mail that is an account's address
// is that account. A guest's address is looked up in lower case and as
// given: SQLite's LOWER changes only ASCII letters and Go's every letter,
// so an address with a capital Ü is found by the key the list links to.
func (s *Store) Customer(ctx context.Context, key string) (*shop.Customer, error) {
	exact := key
	if shop.GuestKey(key) {
		key = shop.NormalizeEmail(key)
		var id string
		err := s.QueryRow(ctx, `SELECT id FROM users WHERE email = ? AND NOT is_guest`, key).Scan(&id)
		switch {
		case err == nil:
			key, exact = id, id
		case !errors.Is(err, sql.ErrNoRows):
			return nil, s.FormatError(err, "customer account", nil)
		}
	}
	c, err := scanCustomer(s.QueryRow(ctx, customersWith+`SELECT `+customerColumns+`
		FROM people c LEFT JOIN totals t ON t.ckey = c.ckey LEFT JOIN latest l ON l.ckey = c.ckey
		WHERE c.ckey IN (?, ?) ORDER BY CASE WHEN c.ckey = ? THEN 0 ELSE 1 END LIMIT 1`,
		append(placedArgs(shop.ExportRange{}), key, exact, key)...))
	if err != nil {
		return nil, rowError(err, "customer", shop.MsgCustomerNotFound)
	}
	return &c, nil
}

// CustomerOrders lists a customer's newest placed orders.
func (s *Store) CustomerOrders(ctx context.Context, key string) ([]shop.CustomerOrder, error) {
	rows, err := s.Query(ctx, `WITH `+placedOrders+` SELECT `+orderSummaryColumns+`, user_id <> ?
		FROM orders WHERE id IN (SELECT id FROM placed WHERE ckey = ?) ORDER BY created_at DESC, id DESC LIMIT ?`,
		append(placedArgs(shop.ExportRange{}), key, key, shop.CustomerPageShows)...)
	guest := shop.GuestKey(key)
	return Collect(s, rows, err, "customer orders", func(rows *sql.Rows) (shop.CustomerOrder, error) {
		var items int
		var other bool
		o, err := scanOrder(rows, &items, &other)
		if err != nil {
			return shop.CustomerOrder{}, err
		}
		o.Lines = []shop.OrderLine{{Quantity: items}}
		// A guest's orders are all guest orders; the mark tells an
		// account's guest checkouts from its own.
		return shop.CustomerOrder{Order: *o, GuestOrder: other && !guest}, nil
	})
}

// CustomerMessages lists the newest contact messages from an address.
func (s *Store) CustomerMessages(ctx context.Context, email string) ([]shop.ContactMessage, error) {
	email = shop.NormalizeEmail(email)
	if email == "" {
		return nil, nil
	}
	rows, err := s.Query(ctx, `SELECT `+inboxColumns+` FROM contact_messages WHERE LOWER(email) = ?
		ORDER BY created_at DESC, id DESC LIMIT ?`, email, shop.CustomerPageShows)
	return Collect(s, rows, err, "customer messages", func(rows *sql.Rows) (shop.ContactMessage, error) {
		m, err := scanInboxMessage(rows)
		if err != nil {
			return shop.ContactMessage{}, err
		}
		return *m, nil
	})
}

// CustomerNote returns the note on key, or the one kept under email
// (the account's address, from when it was a guest's).
func (s *Store) CustomerNote(ctx context.Context, key, email string) (shop.CustomerNote, error) {
	n := shop.CustomerNote{Key: key}
	email = shop.NormalizeEmail(email)
	if email == "" {
		email = key
	}
	var at int64
	err := s.QueryRow(ctx, `SELECT note, updated_by, updated_at FROM customer_notes WHERE customer_key IN (?, ?)
		ORDER BY CASE WHEN customer_key = ? THEN 0 ELSE 1 END LIMIT 1`, key, email, key).Scan(&n.Text, &n.By, &at)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return n, nil
	case err != nil:
		return n, s.FormatError(err, "customer note", nil)
	}
	n.At = time.Unix(at, 0).UTC()
	return n, nil
}

// SaveCustomerNote replaces (or, with no text, deletes) the note on
// n.Key. An account's note also takes the place of the one its address
// had as a guest's, so a note cleared on the account does not come back
// from there.
func (s *Store) SaveCustomerNote(ctx context.Context, n shop.CustomerNote) error {
	if n.At.IsZero() {
		n.At = s.Now()
	}
	return s.InTx(ctx, func(tx Tx) error {
		if email := shop.NormalizeEmail(n.Email); email != "" && email != n.Key {
			if _, err := tx.Exec(ctx, `DELETE FROM customer_notes WHERE customer_key = ?`, email); err != nil {
				return s.FormatError(err, "customer note", nil)
			}
		}
		if n.Text == "" {
			_, err := tx.Exec(ctx, `DELETE FROM customer_notes WHERE customer_key = ?`, n.Key)
			return s.FormatError(err, "customer note", nil)
		}
		_, err := tx.Exec(ctx, `INSERT INTO customer_notes (customer_key, note, updated_by, updated_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (customer_key) DO UPDATE SET note = excluded.note, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
			n.Key, n.Text, n.By, n.At.Unix())
		return s.FormatError(err, "customer note", Messages{shop.EINVALID: shop.MsgCustomerNotFound})
	})
}

// each reads every row of a query with scan and hands it to fn, closing
// the rows; rows and err are what the query returned. Unlike Collect it
// keeps no row: an export of any size is read in constant memory. An
// error of fn is returned as it is.
func each[T any](s *Store, rows *sql.Rows, err error, what string, scan func(*sql.Rows) (T, error), fn func(T) error) error {
	if err != nil {
		return s.FormatError(err, what, nil)
	}
	defer rows.Close()
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return s.FormatError(err, what, nil)
		}
		if err := fn(v); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return s.FormatError(err, what, nil)
	}
	return nil
}

// ExportOrders reads the placed orders of r, oldest first.
func (s *Store) ExportOrders(ctx context.Context, r shop.ExportRange, fn func(*shop.Order) error) error {
	args := placedArgs(r)
	rows, err := s.Query(ctx, `SELECT `+orderColumns+` FROM orders
		WHERE status <> 'pending' AND created_at >= ? AND created_at < ? ORDER BY created_at, id`, args[3:]...)
	return each(s, rows, err, "export orders", func(rows *sql.Rows) (*shop.Order, error) { return scanOrder(rows) }, fn)
}

// ExportOrderLines reads the lines of the placed orders of r, oldest
// order first, each order's lines in their order.
func (s *Store) ExportOrderLines(ctx context.Context, r shop.ExportRange, fn func(shop.ExportLine) error) error {
	args := placedArgs(r)
	rows, err := s.Query(ctx, `SELECT o.id, o.created_at, o.currency,
			l.product_id, l.variant_id, l.variation, l.name, l.price_cents, l.quantity
		FROM orders o JOIN order_lines l ON l.order_id = o.id
		WHERE o.status <> 'pending' AND o.created_at >= ? AND o.created_at < ? ORDER BY o.created_at, o.id, l.position`, args[3:]...)
	return each(s, rows, err, "export order lines", func(rows *sql.Rows) (shop.ExportLine, error) {
		var l shop.ExportLine
		var created int64
		err := rows.Scan(&l.OrderID, &created, &l.Currency, &l.ProductID, &l.VariantID, &l.Variation, &l.Name, &l.Price, &l.Quantity)
		l.CreatedAt = time.Unix(created, 0).UTC()
		return l, err
	}, fn)
}

// ExportCustomers reads the customers with a placed order in r, by key,
// with their figures within r.
func (s *Store) ExportCustomers(ctx context.Context, r shop.ExportRange, fn func(shop.Customer) error) error {
	rows, err := s.Query(ctx, customersWith+`SELECT `+customerColumns+`
		FROM people c JOIN totals t ON t.ckey = c.ckey LEFT JOIN latest l ON l.ckey = c.ckey
		ORDER BY c.ckey`+s.d.Bytewise, placedArgs(r)...)
	return each(s, rows, err, "export customers", func(rows *sql.Rows) (shop.Customer, error) { return scanCustomer(rows) }, fn)
}
