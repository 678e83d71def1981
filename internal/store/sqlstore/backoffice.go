package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// The back office: staff roles and the audit log, fulfilment, the inbox,
// the product editor and the dashboard. Every change that races another
// (two staff members, a sale) is a conditional update.

// SourceStaff is the source of products created in the back office: no
// import owns them, so none removes them.
const SourceStaff = "staff"

// GrantStaff gives an account a back-office role.
func (s *Store) GrantStaff(ctx context.Context, email, role string) (*shop.Staff, error) {
	st := &shop.Staff{Email: shop.NormalizeEmail(email), Role: role, CreatedAt: s.Now().UTC().Truncate(time.Second)}
	var verified bool
	err := s.QueryRow(ctx, `SELECT id, email_verified FROM users WHERE email = ? AND NOT is_guest`, st.Email).Scan(&st.UserID, &verified)
	if err != nil {
		return nil, rowError(err, "grant staff", shop.MsgNoStaffAccount, st.Email)
	}
	// An address is never unverified again once verified, so reading it
	// before the write cannot let an unverified account through.
	if !verified {
		return nil, shop.Errorf(shop.EINVALID, shop.MsgStaffUnverified, st.Email)
	}
	if _, err := s.Exec(ctx, `INSERT INTO staff (user_id, role, created_at) VALUES (?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET role = excluded.role`, st.UserID, role, st.CreatedAt.Unix()); err != nil {
		return nil, s.FormatError(err, "grant staff", Messages{shop.EINVALID: "Unknown role."})
	}
	return st, nil
}

// RevokeStaff removes an account's role.
func (s *Store) RevokeStaff(ctx context.Context, email string) (bool, error) {
	res, err := s.Exec(ctx, `DELETE FROM staff WHERE user_id IN (SELECT id FROM users WHERE email = ?)`, shop.NormalizeEmail(email))
	if err != nil {
		return false, fmt.Errorf("revoke staff: %w", err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// StaffRole returns the user's role, "" when not staff.
func (s *Store) StaffRole(ctx context.Context, userID string) (string, error) {
	var role string
	err := s.QueryRow(ctx, `SELECT role FROM staff WHERE user_id = ?`, userID).Scan(&role)
	if err != nil && !errors.Is(err, sql.ErrNoRows) { // no row: not staff
		return "", fmt.Errorf("staff role: %w", err)
	}
	return role, nil
}

// ListStaff lists staff members by e-mail, byte by byte. The few rows are
// sorted here: PostgreSQL's ORDER BY follows the database's locale, and
// the collation that would not ("C") is no SQLite name.
func (s *Store) ListStaff(ctx context.Context) ([]shop.Staff, error) {
	rows, err := s.Query(ctx, `SELECT s.user_id, u.email, s.role, s.created_at FROM staff s JOIN users u ON u.id = s.user_id`)
	out, err := Collect(s, rows, err, "list staff", func(rows *sql.Rows) (st shop.Staff, err error) {
		var created int64
		err = rows.Scan(&st.UserID, &st.Email, &st.Role, &created)
		st.CreatedAt = time.Unix(created, 0).UTC()
		return st, err
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b shop.Staff) int { return strings.Compare(a.Email, b.Email) })
	return out, nil
}

// RecordAudit appends an entry to the audit log.
func (s *Store) RecordAudit(ctx context.Context, e shop.AuditEntry) error {
	if e.CreatedAt.IsZero() {
		e.CreatedAt = s.Now()
	}
	if _, err := s.Exec(ctx, `INSERT INTO audit_log (actor, action, subject, before, after, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
		e.Actor, e.Action, e.Subject, e.Before, e.After, e.CreatedAt.Unix()); err != nil {
		return fmt.Errorf("record audit: %w", err)
	}
	return nil
}

// AuditLog returns a page of the audit log, newest first.
func (s *Store) AuditLog(ctx context.Context, page int) ([]shop.AuditEntry, int, error) {
	var total int
	if err := s.QueryRow(ctx, `SELECT COUNT(*) FROM audit_log`).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count audit log: %w", err)
	}
	rows, err := s.Query(ctx, `SELECT id, actor, action, subject, before, after, created_at FROM audit_log ORDER BY id DESC LIMIT ? OFFSET ?`,
		shop.AuditPageSize, (max(page, 1)-1)*shop.AuditPageSize)
	out, err := Collect(s, rows, err, "audit log", func(rows *sql.Rows) (e shop.AuditEntry, err error) {
		var created int64
		err = rows.Scan(&e.ID, &e.Actor, &e.Action, &e.Subject, &e.Before, &e.After, &created)
		e.CreatedAt = time.Unix(created, 0).UTC()
		return e, err
	})
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// backofficeLike escapes s for LIKE with ESCAPE '\' (written out, as
// SQLite has no default escape character).
func backofficeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// AdminOrders lists a page of every shopper's placed orders, newest first.
// The search matches an order number's start in any case, or an e-mail.
func (s *Store) AdminOrders(ctx context.Context, q shop.AdminOrderQuery) ([]shop.Order, int, error) {
	conds := []string{"status <> 'pending'"}
	var args []any
	if q.Status != "" {
		conds = append(conds, "status = ?")
		args = append(args, q.Status)
	}
	if q.Payment != "" {
		conds = append(conds, "payment_status = ?")
		args = append(args, q.Payment)
	}
	if !q.From.IsZero() {
		conds = append(conds, "created_at >= ?")
		args = append(args, q.From.Unix())
	}
	if !q.To.IsZero() {
		conds = append(conds, "created_at < ?")
		args = append(args, q.To.Unix())
	}
	if search := strings.TrimSpace(q.Search); search != "" {
		conds = append(conds, "(id "+s.d.ILike+" ? ESCAPE '\\' OR email = ?)")
		args = append(args, backofficeLike(search)+"%", shop.NormalizeEmail(search))
	}
	where := " WHERE " + strings.Join(conds, " AND ")
	// Unprepared: the filters make many query texts, each used rarely.
	var total int
	if err := s.db.QueryRowContext(ctx, s.Rebind(`SELECT COUNT(*) FROM orders`+where), args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count orders: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, s.Rebind(`SELECT `+orderSummaryColumns+`
		FROM orders`+where+` ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`),
		append(args, shop.AdminOrdersPageSize, (max(q.Page, 1)-1)*shop.AdminOrdersPageSize)...)
	out, err := Collect(s, rows, err, "list orders", scanOrderSummary)
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// OrderEvents returns an order's timeline, oldest first.
func (s *Store) OrderEvents(ctx context.Context, orderID string) ([]shop.OrderEvent, error) {
	rows, err := s.Query(ctx, `SELECT status, note, actor, created_at FROM order_events WHERE order_id = ? ORDER BY id`, orderID)
	return Collect(s, rows, err, "order events", func(rows *sql.Rows) (e shop.OrderEvent, err error) {
		var at int64
		err = rows.Scan(&e.Status, &e.Note, &e.Actor, &at)
		e.At = time.Unix(at, 0).UTC()
		return e, err
	})
}

// TransitionOrder moves an order between statuses with a conditional
// UPDATE (… WHERE status = from), so two staff members acting at once
// cannot both move it. Only a move of shop.OrderMoves is made, and the
// payment states each move reads or writes come from shop.PaymentMoves.
func (s *Store) TransitionOrder(ctx context.Context, t shop.Transition) (*shop.Order, error) {
	if t.At.IsZero() {
		t.At = s.Now()
	}
	// A pending order moves on only by CompleteOrder, which takes what it
	// bought out of its cart.
	if !shop.OrderMoves.CanMove(t.From, t.To) || t.From == shop.StatusPending {
		return nil, shop.Errorf(shop.EINVALID, shop.MsgNoSuchOrderMove, t.From, t.To)
	}
	unpaid := 0
	if t.Unpaid {
		unpaid = 1
	}
	err := s.InTx(ctx, func(tx Tx) error {
		var res sql.Result
		var err error
		var was shop.Cents // the refunded amount a cancel started from
		switch t.To {
		case shop.StatusShipped:
			// Only a paid order ships; checked in the same statement, so a
			// payment state read earlier cannot let an unpaid one through.
			taken, takenArgs := stateIn("payment_status", shop.PaymentMoves.From(shop.PaymentRefunded))
			res, err = tx.Exec(ctx, `UPDATE orders SET status = ?, carrier = ?, tracking_number = ?
				WHERE id = ? AND status = ? AND `+taken,
				append([]any{string(t.To), t.Carrier, t.Tracking, t.OrderID, string(t.From)}, takenArgs...)...)
		case shop.StatusCancelled:
			res, was, err = cancelOrder(ctx, tx, t, unpaid)
		default:
			res, err = tx.Exec(ctx, `UPDATE orders SET status = ? WHERE id = ? AND status = ?`, string(t.To), t.OrderID, string(t.From))
		}
		if err != nil {
			return fmt.Errorf("move order %s to %s: %w", t.OrderID, t.To, err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return whyNotMoved(ctx, tx, t)
		}
		if t.To == shop.StatusCancelled {
			if err := returnStock(ctx, tx, t.OrderID, t.At); err != nil {
				return err
			}
			if err := releasePromo(ctx, tx, t.OrderID); err != nil {
				return err
			}
			if err := cancelRefundIntent(ctx, tx, t, was); err != nil {
				return err
			}
		}
		note := t.Reason
		if t.To == shop.StatusShipped {
			note = t.Carrier + " " + t.Tracking
		}
		return addOrderEvent(ctx, tx, t.OrderID, string(t.To), note, t.Actor, t.At)
	})
	if err != nil {
		return nil, err
	}
	return s.Order(ctx, t.OrderID)
}

// cancelOrder cancels t's order in one conditional update. A paid order is
// refunded in full; one never paid is failed. Unpaid cancels only an order
// whose payment may still fail. With a refund intent to record, the update
// also holds only while the refunded amount is the one read here, so the
// intent's amount is exactly what the cancel refunded.
func cancelOrder(ctx context.Context, tx Tx, t shop.Transition, unpaid int) (sql.Result, shop.Cents, error) {
	toRefunded, refundedArgs := stateIn("payment_status", shop.PaymentMoves.From(shop.PaymentRefunded))
	toFailed, failedArgs := stateIn("payment_status", shop.PaymentMoves.From(shop.PaymentFailed))
	args := []any{string(t.To), t.Reason}
	args = append(args, refundedArgs...)
	args = append(args, refundedArgs...)
	args = append(args, string(shop.PaymentRefunded))
	args = append(args, failedArgs...)
	args = append(args, string(shop.PaymentFailed), t.OrderID, string(t.From), unpaid)
	args = append(args, failedArgs...)
	was := int64(-1)
	if t.Refund.Key != "" {
		if err := tx.QueryRow(ctx, `SELECT refunded_cents FROM orders WHERE id = ?`, t.OrderID).Scan(&was); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, 0, fmt.Errorf("refunded amount: %w", err)
		}
	}
	args = append(args, was, was)
	res, err := tx.Exec(ctx, `UPDATE orders SET status = ?, cancel_reason = ?,
		refunded_cents = CASE WHEN `+toRefunded+` THEN total_cents ELSE refunded_cents END,
		payment_status = CASE WHEN `+toRefunded+` THEN ? WHEN `+toFailed+` THEN ? ELSE payment_status END
		WHERE id = ? AND status = ? AND (? = 0 OR `+toFailed+`) AND (? < 0 OR refunded_cents = ?)`, args...)
	return res, shop.Cents(was), err
}

// cancelRefundIntent records, in the cancel's transaction, the intent of
// the refund the cancel just counted: what was left of a paid order.
func cancelRefundIntent(ctx context.Context, tx Tx, t shop.Transition, was shop.Cents) error {
	if t.Refund.Key == "" {
		return nil
	}
	var total shop.Cents
	var payment shop.PaymentState
	if err := tx.QueryRow(ctx, `SELECT total_cents, payment_status FROM orders WHERE id = ?`, t.OrderID).Scan(&total, &payment); err != nil {
		return fmt.Errorf("cancel's refund: %w", err)
	}
	if payment != shop.PaymentRefunded || total <= was {
		return nil
	}
	in := t.Refund
	in.OrderID, in.ReturnID, in.Was, in.Amount = t.OrderID, "", was, total-was
	return addRefundIntent(ctx, tx, in, t.At)
}

// whyNotMoved says why t's conditional update moved nothing: the order is
// gone (or still pending), an unpaid order can't ship, its payment is no
// longer awaited, or someone moved it meanwhile.
func whyNotMoved(ctx context.Context, tx Tx, t shop.Transition) error {
	var status shop.OrderStatus
	var payment shop.PaymentState
	err := tx.QueryRow(ctx, `SELECT status, payment_status FROM orders WHERE id = ?`, t.OrderID).Scan(&status, &payment)
	if errors.Is(err, sql.ErrNoRows) || status == shop.StatusPending {
		return shop.Errorf(shop.ENOTFOUND, shop.MsgOrderNotFound)
	} else if err != nil {
		return fmt.Errorf("order status: %w", err)
	}
	switch {
	case status == t.From && t.To == shop.StatusShipped:
		return shop.Errorf(shop.ECONFLICT, shop.MsgShipUnpaid)
	case status == t.From && t.Unpaid:
		return shop.Errorf(shop.ECONFLICT, shop.MsgNotAwaitingPayment, shop.PaymentLabel(payment))
	}
	return shop.Errorf(shop.ECONFLICT, shop.MsgOrderMoved, status)
}

const inboxColumns = `id, name, email, subject, message, created_at, handled_at, handled_by`

func scanInboxMessage(row interface{ Scan(...any) error }) (*shop.ContactMessage, error) {
	var m shop.ContactMessage
	var created, handled int64
	if err := row.Scan(&m.ID, &m.Name, &m.Email, &m.Subject, &m.Message, &created, &handled, &m.HandledBy); err != nil {
		return nil, rowError(err, "scan contact message", shop.MsgMessageNotFound)
	}
	m.CreatedAt = time.Unix(created, 0).UTC()
	if handled > 0 {
		m.HandledAt = time.Unix(handled, 0).UTC()
	}
	return &m, nil
}

// Inbox lists a page of contact messages, newest first.
func (s *Store) Inbox(ctx context.Context, unhandledOnly bool, page int) ([]shop.ContactMessage, int, error) {
	where := ""
	if unhandledOnly {
		where = " WHERE handled_at = 0"
	}
	var total int
	if err := s.QueryRow(ctx, `SELECT COUNT(*) FROM contact_messages`+where).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count inbox: %w", err)
	}
	rows, err := s.Query(ctx, `SELECT `+inboxColumns+` FROM contact_messages`+where+` ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
		shop.InboxPageSize, (max(page, 1)-1)*shop.InboxPageSize)
	out, err := Collect(s, rows, err, "inbox", func(rows *sql.Rows) (shop.ContactMessage, error) {
		m, err := scanInboxMessage(rows)
		if err != nil {
			return shop.ContactMessage{}, err
		}
		return *m, nil
	})
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// ContactMessage returns one message.
func (s *Store) ContactMessage(ctx context.Context, id int64) (*shop.ContactMessage, error) {
	return scanInboxMessage(s.QueryRow(ctx, `SELECT `+inboxColumns+` FROM contact_messages WHERE id = ?`, id))
}

// MarkHandled marks a message handled once.
func (s *Store) MarkHandled(ctx context.Context, id int64, actor string, at time.Time) (bool, error) {
	res, err := s.Exec(ctx, `UPDATE contact_messages SET handled_at = ?, handled_by = ? WHERE id = ? AND handled_at = 0`, at.Unix(), actor, id)
	if err != nil {
		return false, fmt.Errorf("mark handled: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return true, nil
	}
	if _, err := s.ContactMessage(ctx, id); err != nil {
		return false, err
	}
	return false, nil
}

// AdminProducts lists a page of all products, hidden ones included. The
// search matches anywhere in the id or title, in any case.
func (s *Store) AdminProducts(ctx context.Context, query string, page int) ([]shop.Product, int, error) {
	where, args := "", []any{}
	if q := strings.TrimSpace(query); q != "" {
		where = ` WHERE p.id ` + s.d.ILike + ` ? ESCAPE '\' OR p.title ` + s.d.ILike + ` ? ESCAPE '\'`
		like := "%" + backofficeLike(q) + "%"
		args = append(args, like, like)
	}
	var total int
	if err := s.QueryRow(ctx, `SELECT COUNT(*) FROM products p`+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count products: %w", err)
	}
	out, err := s.Products(ctx, "admin products", `SELECT `+ProductColumns+` FROM products p`+where+` ORDER BY p.id LIMIT ? OFFSET ?`,
		append(args, shop.AdminProductsPageSize, (max(page, 1)-1)*shop.AdminProductsPageSize)...)
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// AdminProduct returns a product, hidden or not.
func (s *Store) AdminProduct(ctx context.Context, id string) (*shop.Product, error) {
	p, err := ScanProduct(s.QueryRow(ctx, `SELECT `+ProductColumns+` FROM products p WHERE p.id = ?`, id))
	if err != nil {
		return nil, rowError(err, "product "+id, shop.MsgProductNotFound)
	}
	return &p, nil
}

// SaveProduct creates or updates a product as staff edited it. It takes
// the catalogue's lock, as an import does, so the two never interleave.
func (s *Store) SaveProduct(ctx context.Context, e shop.ProductEdit) error {
	p := e.Product
	return s.InTx(ctx, func(tx Tx) error {
		if err := tx.Lock(ctx, "catalog"); err != nil {
			return err
		}
		now := s.Now().Unix()
		if e.New {
			res, err := tx.Exec(ctx, `INSERT INTO products (id, title, description, category, price_cents, original_price_cents,
				image, featured, hidden, source, staff_edited, updated_at, returnable)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, TRUE, ?, ?) ON CONFLICT (id) DO NOTHING`,
				p.ID, p.Title, p.Description, p.Category, p.Price, p.Original, p.Image, p.Featured, p.Hidden, SourceStaff, now, !p.FinalSale)
			if err != nil {
				return s.FormatError(err, "create product", Messages{shop.EINVALID: "Stock and price cannot be negative."})
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return shop.Errorf(shop.ECONFLICT, shop.MsgProductExists, p.ID)
			}
			// A new product is sold as its default variant.
			if _, err := tx.Exec(ctx, `INSERT INTO variants (id, product_id, position, stock, stock_changed_at) VALUES (?, ?, 1, ?, ?)`,
				p.ID, p.ID, p.Stock, now); err != nil {
				return s.FormatError(err, "create product", Messages{shop.EINVALID: "Stock and price cannot be negative.",
					shop.ECONFLICT: fmt.Sprintf(shop.MsgIDTakenByVariant, p.ID)})
			}
		} else {
			if p.Stock != e.StockWas {
				// A change checked against what is there: a sale since the
				// editor was loaded makes this match nothing.
				// The product's form edits its default variant's stock.
				res, err := tx.Exec(ctx, `UPDATE variants SET stock = stock + ?, stock_changed_at = ?
					WHERE id = ? AND stock = ?`, p.Stock-e.StockWas, now, p.ID, e.StockWas)
				if err != nil {
					return s.FormatError(err, "update stock", Messages{shop.EINVALID: "Stock cannot be negative."})
				}
				if n, _ := res.RowsAffected(); n == 0 {
					return stockMoved(ctx, tx, p.ID)
				}
			}
			// The editor shows an imported description as its text: once
			// that text is changed the HTML no longer says the same, and
			// what staff typed is shown, as typed.
			res, err := tx.Exec(ctx, `UPDATE products SET title = ?, description = ?, category = ?, price_cents = ?,
				original_price_cents = ?, image = ?, featured = ?, hidden = ?,
				description_html = CASE WHEN description = ? THEN description_html ELSE '' END,
				staff_edited = TRUE, updated_at = ?, returnable = ? WHERE id = ?`,
				p.Title, p.Description, p.Category, p.Price, p.Original, p.Image, p.Featured, p.Hidden, p.Description, now, !p.FinalSale, p.ID)
			if err != nil {
				return s.FormatError(err, "update product", Messages{shop.EINVALID: "Price cannot be negative."})
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return shop.Errorf(shop.ENOTFOUND, shop.MsgProductNotFound)
			}
		}
		if err := coverIsPhotoOne(ctx, tx, p.ID, p.Image, p.Title); err != nil {
			return fmt.Errorf("save product: %w", err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO categories (name) VALUES (?) ON CONFLICT (name) DO NOTHING`, p.Category); err != nil {
			return fmt.Errorf("save product: category: %w", err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM categories WHERE NOT EXISTS (SELECT 1 FROM products p WHERE p.category = categories.name)`); err != nil {
			return fmt.Errorf("save product: prune categories: %w", err)
		}
		if _, err := tx.Exec(ctx, `UPDATE catalog_version SET version = version + 1 WHERE id = 1`); err != nil {
			return fmt.Errorf("save product: bump catalogue version: %w", err)
		}
		return nil
	})
}

// stockMoved explains a stock change that matched nothing: the product is
// gone, or its stock is no longer what the editor showed.
func stockMoved(ctx context.Context, tx Tx, id string) error {
	var n int
	err := tx.QueryRow(ctx, `SELECT stock FROM variants WHERE id = ?`, id).Scan(&n)
	if err != nil {
		return rowError(err, "stock of "+id, shop.MsgProductNotFound)
	}
	return shop.Errorf(shop.ECONFLICT, shop.MsgStockMoved, n).WithField("stock")
}

// Dashboard sums today's and the last days' orders and lists what needs
// attention. Day bounds are computed here, in Go, and passed in: the two
// databases share no date arithmetic.
func (s *Store) Dashboard(ctx context.Context, dayStart time.Time, days int) (shop.Dashboard, error) {
	var d shop.Dashboard
	const sums = `SELECT COUNT(*), COALESCE(SUM(CASE WHEN status <> 'cancelled' THEN total_cents END), 0)
		FROM orders WHERE status <> 'pending' AND created_at >= ? AND created_at < ?`
	if err := s.QueryRow(ctx, sums, dayStart.Unix(), int64(1)<<62).Scan(&d.OrdersToday, &d.RevenueToday); err != nil {
		return d, fmt.Errorf("dashboard today: %w", err)
	}
	if err := s.QueryRow(ctx, `SELECT COUNT(*) FROM orders WHERE status = 'processing'`).Scan(&d.AwaitingShip); err != nil {
		return d, fmt.Errorf("dashboard awaiting: %w", err)
	}
	if err := s.QueryRow(ctx, `SELECT COUNT(*) FROM contact_messages WHERE handled_at = 0`).Scan(&d.Unhandled); err != nil {
		return d, fmt.Errorf("dashboard messages: %w", err)
	}
	var err error
	if d.LowStock, err = s.Products(ctx, "dashboard low stock",
		// A product is low when one of its variants is: a size sold out
		// is worth a look even when the others are plentiful.
		`SELECT `+ProductColumns+` FROM products p WHERE NOT p.hidden
			AND EXISTS (SELECT 1 FROM variants v WHERE v.product_id = p.id AND v.enabled AND v.stock <= ?)
			ORDER BY (SELECT MIN(v.stock) FROM variants v WHERE v.product_id = p.id AND v.enabled), p.id LIMIT 20`, shop.LowStockLevel); err != nil {
		return d, err
	}
	for i := days - 1; i >= 0; i-- {
		from := dayStart.AddDate(0, 0, -i)
		t := shop.DayTotal{Day: from}
		if err := s.QueryRow(ctx, sums, from.Unix(), from.AddDate(0, 0, 1).Unix()).Scan(&t.Orders, &t.Revenue); err != nil {
			return d, fmt.Errorf("dashboard day: %w", err)
		}
		d.Days = append(d.Days, t)
	}
	return d, nil
}
