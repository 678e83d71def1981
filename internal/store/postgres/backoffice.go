package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nocturne/storefront/internal/shop"
)

// The back office (issue 17) on PostgreSQL: the same rules as the SQLite
// store's stock.go, staff.go, fulfilment.go, inbox.go, products_admin.go
// and dashboard.go, with the same conditional updates for races.

var (
	_ shop.StockStore        = (*DB)(nil)
	_ shop.StaffStore        = (*DB)(nil)
	_ shop.AuditStore        = (*DB)(nil)
	_ shop.FulfilmentStore   = (*DB)(nil)
	_ shop.InboxStore        = (*DB)(nil)
	_ shop.ProductAdminStore = (*DB)(nil)
	_ shop.DashboardStore    = (*DB)(nil)
)

// SourceStaff is the source of products created in the back office.
const SourceStaff = "staff"

// Stock reads a product's stock from the table.
func (db *DB) Stock(ctx context.Context, productID string) (int, error) {
	var n int
	err := db.pool.QueryRow(ctx, `SELECT stock FROM products WHERE id = $1 AND NOT hidden`, productID).Scan(&n)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, shop.Errorf(shop.ENOTFOUND, shop.MsgUnknownProduct)
	} else if err != nil {
		return 0, fmt.Errorf("stock of %s: %w", productID, err)
	}
	return n, nil
}

// StockChanges returns the stock of the products whose stock changed at or
// after since.
func (db *DB) StockChanges(ctx context.Context, since time.Time) (map[string]int, error) {
	rows, err := db.pool.Query(ctx, `SELECT id, stock FROM products WHERE stock_changed_at >= $1`, since.Unix())
	if err != nil {
		return nil, fmt.Errorf("stock changes: %w", err)
	}
	out := map[string]int{}
	_, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (struct{}, error) {
		var id string
		var n int
		err := row.Scan(&id, &n)
		out[id] = n
		return struct{}{}, err
	})
	if err != nil {
		return nil, fmt.Errorf("stock changes: %w", err)
	}
	return out, nil
}

// takeStock takes an order's lines out of stock inside tx: one conditional
// UPDATE per line (the row lock makes a racing transaction re-check the
// condition), so two shoppers cannot both get the last item.
func takeStock(ctx context.Context, tx pgx.Tx, lines []shop.OrderLine, now time.Time) error {
	for _, l := range lines {
		tag, err := tx.Exec(ctx, `UPDATE products SET stock = stock - $1, stock_changed_at = $2
			WHERE id = $3 AND NOT hidden AND stock >= $1`, l.Quantity, now.Unix(), l.ProductID)
		if err != nil {
			return fmt.Errorf("take stock of %s: %w", l.ProductID, err)
		}
		if tag.RowsAffected() == 1 {
			continue
		}
		var left int
		if err := tx.QueryRow(ctx, `SELECT stock FROM products WHERE id = $1 AND NOT hidden`, l.ProductID).Scan(&left); err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("stock of %s: %w", l.ProductID, err)
		}
		return shop.StockError(l.Name, left)
	}
	return nil
}

// returnStock puts an order's lines back into stock inside tx.
func returnStock(ctx context.Context, tx pgx.Tx, orderID string, now time.Time) error {
	if _, err := tx.Exec(ctx, `UPDATE products p SET stock = p.stock + l.quantity, stock_changed_at = $2
		FROM (SELECT product_id, SUM(quantity) AS quantity FROM order_lines WHERE order_id = $1 GROUP BY product_id) l
		WHERE p.id = l.product_id`, orderID, now.Unix()); err != nil {
		return fmt.Errorf("return stock of %s: %w", orderID, err)
	}
	return nil
}

// GrantStaff gives an account a back-office role.
func (db *DB) GrantStaff(ctx context.Context, email, role string) (*shop.Staff, error) {
	st := &shop.Staff{Email: shop.NormalizeEmail(email), Role: role, CreatedAt: db.Now().UTC().Truncate(time.Second)}
	var verified bool
	err := db.pool.QueryRow(ctx, `SELECT id, email_verified FROM users WHERE email = $1 AND NOT is_guest`, st.Email).Scan(&st.UserID, &verified)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, shop.Errorf(shop.ENOTFOUND, shop.MsgNoStaffAccount, st.Email)
	} else if err != nil {
		return nil, fmt.Errorf("grant staff: %w", err)
	}
	// As on SQLite: a verified address never becomes unverified.
	if !verified {
		return nil, shop.Errorf(shop.EINVALID, shop.MsgStaffUnverified, st.Email)
	}
	if _, err := db.pool.Exec(ctx, `INSERT INTO staff (user_id, role, created_at) VALUES ($1, $2, $3)
		ON CONFLICT (user_id) DO UPDATE SET role = EXCLUDED.role`, st.UserID, role, st.CreatedAt.Unix()); err != nil {
		return nil, FormatError(err, "grant staff", Messages{shop.EINVALID: "Unknown role."})
	}
	return st, nil
}

// RevokeStaff removes an account's role.
func (db *DB) RevokeStaff(ctx context.Context, email string) (bool, error) {
	tag, err := db.pool.Exec(ctx, `DELETE FROM staff WHERE user_id IN (SELECT id FROM users WHERE email = $1)`, shop.NormalizeEmail(email))
	if err != nil {
		return false, fmt.Errorf("revoke staff: %w", err)
	}
	return tag.RowsAffected() > 0, nil
}

// StaffRole returns the user's role, "" when not staff.
func (db *DB) StaffRole(ctx context.Context, userID string) (string, error) {
	var role string
	err := db.pool.QueryRow(ctx, `SELECT role FROM staff WHERE user_id = $1`, userID).Scan(&role)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	} else if err != nil {
		return "", fmt.Errorf("staff role: %w", err)
	}
	return role, nil
}

// ListStaff lists staff members by e-mail.
func (db *DB) ListStaff(ctx context.Context) ([]shop.Staff, error) {
	rows, err := db.pool.Query(ctx, `SELECT s.user_id, u.email, s.role, s.created_at FROM staff s JOIN users u ON u.id = s.user_id ORDER BY u.email COLLATE "C"`)
	if err != nil {
		return nil, fmt.Errorf("list staff: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (shop.Staff, error) {
		var s shop.Staff
		var created int64
		err := row.Scan(&s.UserID, &s.Email, &s.Role, &created)
		s.CreatedAt = time.Unix(created, 0).UTC()
		return s, err
	})
	if err != nil {
		return nil, fmt.Errorf("list staff: %w", err)
	}
	return out, nil
}

// RecordAudit appends an entry to the audit log.
func (db *DB) RecordAudit(ctx context.Context, e shop.AuditEntry) error {
	if e.CreatedAt.IsZero() {
		e.CreatedAt = db.Now()
	}
	if _, err := db.pool.Exec(ctx, `INSERT INTO audit_log (actor, action, subject, before, after, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
		e.Actor, e.Action, e.Subject, e.Before, e.After, e.CreatedAt.Unix()); err != nil {
		return fmt.Errorf("record audit: %w", err)
	}
	return nil
}

// AuditLog returns a page of the audit log, newest first.
func (db *DB) AuditLog(ctx context.Context, page int) ([]shop.AuditEntry, int, error) {
	var total int
	if err := db.pool.QueryRow(ctx, `SELECT COUNT(*) FROM audit_log`).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count audit log: %w", err)
	}
	rows, err := db.pool.Query(ctx, `SELECT id, actor, action, subject, before, after, created_at FROM audit_log ORDER BY id DESC LIMIT $1 OFFSET $2`,
		shop.AuditPageSize, (max(page, 1)-1)*shop.AuditPageSize)
	if err != nil {
		return nil, 0, fmt.Errorf("audit log: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (shop.AuditEntry, error) {
		var e shop.AuditEntry
		var created int64
		err := row.Scan(&e.ID, &e.Actor, &e.Action, &e.Subject, &e.Before, &e.After, &created)
		e.CreatedAt = time.Unix(created, 0).UTC()
		return e, err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("audit log: %w", err)
	}
	return out, total, nil
}

// likeEscape escapes s for LIKE (backslash is PostgreSQL's default escape).
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// AdminOrders lists a page of every shopper's placed orders, newest first.
func (db *DB) AdminOrders(ctx context.Context, q shop.AdminOrderQuery) ([]shop.Order, int, error) {
	conds := []string{"status <> 'pending'"}
	var args []any
	// add appends a condition whose ? placeholders take vals, in order.
	add := func(cond string, vals ...any) {
		for _, v := range vals {
			args = append(args, v)
			cond = strings.Replace(cond, "?", fmt.Sprintf("$%d", len(args)), 1)
		}
		conds = append(conds, cond)
	}
	if q.Status != "" {
		add("status = ?", q.Status)
	}
	if !q.From.IsZero() {
		add("created_at >= ?", q.From.Unix())
	}
	if !q.To.IsZero() {
		add("created_at < ?", q.To.Unix())
	}
	if s := strings.TrimSpace(q.Search); s != "" {
		add("(id ILIKE ? OR email = ?)", likeEscape(s)+"%", shop.NormalizeEmail(s))
	}
	where := " WHERE " + strings.Join(conds, " AND ")
	var total int
	if err := db.pool.QueryRow(ctx, `SELECT COUNT(*) FROM orders`+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count orders: %w", err)
	}
	n := len(args)
	rows, err := db.pool.Query(ctx, `SELECT `+orderSummaryColumns+`
		FROM orders`+where+fmt.Sprintf(` ORDER BY created_at DESC, id DESC LIMIT $%d OFFSET $%d`, n+1, n+2),
		append(args, shop.AdminOrdersPageSize, (max(q.Page, 1)-1)*shop.AdminOrdersPageSize)...)
	if err != nil {
		return nil, 0, fmt.Errorf("list orders: %w", err)
	}
	out, err := collectOrderSummaries(rows)
	return out, total, err
}

// OrderEvents returns an order's timeline, oldest first.
func (db *DB) OrderEvents(ctx context.Context, orderID string) ([]shop.OrderEvent, error) {
	rows, err := db.pool.Query(ctx, `SELECT status, note, actor, created_at FROM order_events WHERE order_id = $1 ORDER BY id`, orderID)
	if err != nil {
		return nil, fmt.Errorf("order events: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (shop.OrderEvent, error) {
		var e shop.OrderEvent
		var at int64
		err := row.Scan(&e.Status, &e.Note, &e.Actor, &at)
		e.At = time.Unix(at, 0).UTC()
		return e, err
	})
	if err != nil {
		return nil, fmt.Errorf("order events: %w", err)
	}
	return out, nil
}

// TransitionOrder moves an order between statuses with a conditional
// UPDATE (… WHERE status = from), so two staff members acting at once
// cannot both move it.
func (db *DB) TransitionOrder(ctx context.Context, t shop.Transition) (*shop.Order, error) {
	if t.At.IsZero() {
		t.At = db.Now()
	}
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		var q string
		args := []any{t.To, t.OrderID, t.From}
		switch t.To {
		case shop.StatusShipped:
			q = `UPDATE orders SET status = $1, carrier = $4, tracking_number = $5 WHERE id = $2 AND status = $3`
			args = append(args, t.Carrier, t.Tracking)
		case shop.StatusCancelled:
			q = `UPDATE orders SET status = $1, cancel_reason = $4 WHERE id = $2 AND status = $3`
			args = append(args, t.Reason)
		default:
			q = `UPDATE orders SET status = $1 WHERE id = $2 AND status = $3`
		}
		tag, err := tx.Exec(ctx, q, args...)
		if err != nil {
			return fmt.Errorf("move order %s to %s: %w", t.OrderID, t.To, err)
		}
		if tag.RowsAffected() != 1 {
			var status string
			err := tx.QueryRow(ctx, `SELECT status FROM orders WHERE id = $1`, t.OrderID).Scan(&status)
			if errors.Is(err, pgx.ErrNoRows) || status == shop.StatusPending {
				return shop.Errorf(shop.ENOTFOUND, shop.MsgOrderNotFound)
			} else if err != nil {
				return fmt.Errorf("order status: %w", err)
			}
			return shop.Errorf(shop.ECONFLICT, shop.MsgOrderMoved, status)
		}
		if t.To == shop.StatusCancelled {
			if err := returnStock(ctx, tx, t.OrderID, t.At); err != nil {
				return err
			}
		}
		note := t.Reason
		if t.To == shop.StatusShipped {
			note = t.Carrier + " " + t.Tracking
		}
		if _, err := tx.Exec(ctx, `INSERT INTO order_events (order_id, status, note, actor, created_at) VALUES ($1, $2, $3, $4, $5)`,
			t.OrderID, t.To, note, t.Actor, t.At.Unix()); err != nil {
			return fmt.Errorf("order event: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return db.Order(ctx, t.OrderID)
}

const inboxColumns = `id, name, email, subject, message, created_at, handled_at, handled_by`

func scanMessage(row pgx.Row) (*shop.ContactMessage, error) {
	var m shop.ContactMessage
	var created, handled int64
	if err := row.Scan(&m.ID, &m.Name, &m.Email, &m.Subject, &m.Message, &created, &handled, &m.HandledBy); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return nil, shop.Errorf(shop.ENOTFOUND, shop.MsgMessageNotFound)
		}
		return nil, fmt.Errorf("scan contact message: %w", err)
	}
	m.CreatedAt = time.Unix(created, 0).UTC()
	if handled > 0 {
		m.HandledAt = time.Unix(handled, 0).UTC()
	}
	return &m, nil
}

// Inbox lists a page of contact messages, newest first.
func (db *DB) Inbox(ctx context.Context, unhandledOnly bool, page int) ([]shop.ContactMessage, int, error) {
	where := ""
	if unhandledOnly {
		where = " WHERE handled_at = 0"
	}
	var total int
	if err := db.pool.QueryRow(ctx, `SELECT COUNT(*) FROM contact_messages`+where).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count inbox: %w", err)
	}
	rows, err := db.pool.Query(ctx, `SELECT `+inboxColumns+` FROM contact_messages`+where+` ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $2`,
		shop.InboxPageSize, (max(page, 1)-1)*shop.InboxPageSize)
	if err != nil {
		return nil, 0, fmt.Errorf("inbox: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (shop.ContactMessage, error) {
		m, err := scanMessage(row)
		if err != nil {
			return shop.ContactMessage{}, err
		}
		return *m, nil
	})
	if err != nil {
		return nil, 0, fmt.Errorf("inbox: %w", err)
	}
	return out, total, nil
}

// ContactMessage returns one message.
func (db *DB) ContactMessage(ctx context.Context, id int64) (*shop.ContactMessage, error) {
	return scanMessage(db.pool.QueryRow(ctx, `SELECT `+inboxColumns+` FROM contact_messages WHERE id = $1`, id))
}

// MarkHandled marks a message handled once.
func (db *DB) MarkHandled(ctx context.Context, id int64, actor string, at time.Time) (bool, error) {
	tag, err := db.pool.Exec(ctx, `UPDATE contact_messages SET handled_at = $1, handled_by = $2 WHERE id = $3 AND handled_at = 0`, at.Unix(), actor, id)
	if err != nil {
		return false, fmt.Errorf("mark handled: %w", err)
	}
	if tag.RowsAffected() == 1 {
		return true, nil
	}
	if _, err := db.ContactMessage(ctx, id); err != nil {
		return false, err
	}
	return false, nil
}

// AdminProducts lists a page of all products, hidden ones included.
func (db *DB) AdminProducts(ctx context.Context, query string, page int) ([]shop.Product, int, error) {
	where, args := "", []any{}
	if q := strings.TrimSpace(query); q != "" {
		where = ` WHERE p.id ILIKE $1 OR p.title ILIKE $1` // SQLite's LIKE ignores ASCII case too
		args = append(args, "%"+likeEscape(q)+"%")
	}
	var total int
	if err := db.pool.QueryRow(ctx, `SELECT COUNT(*) FROM products p`+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count products: %w", err)
	}
	n := len(args)
	out, err := db.products(ctx, "admin products", `SELECT `+productColumns+` FROM products p`+where+
		fmt.Sprintf(` ORDER BY p.id LIMIT $%d OFFSET $%d`, n+1, n+2),
		append(args, shop.AdminProductsPageSize, (max(page, 1)-1)*shop.AdminProductsPageSize)...)
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// AdminProduct returns a product, hidden or not.
func (db *DB) AdminProduct(ctx context.Context, id string) (*shop.Product, error) {
	p, err := scanProduct(db.pool.QueryRow(ctx, `SELECT `+productColumns+` FROM products p WHERE p.id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, shop.Errorf(shop.ENOTFOUND, shop.MsgProductNotFound)
	} else if err != nil {
		return nil, fmt.Errorf("product %s: %w", id, err)
	}
	return &p, nil
}

// SaveProduct creates or updates a product as staff edited it.
func (db *DB) SaveProduct(ctx context.Context, e shop.ProductEdit) error {
	p := e.Product
	return db.inTx(ctx, func(tx pgx.Tx) error {
		if err := lockKey(ctx, tx, "catalog"); err != nil {
			return err
		}
		now := db.Now().Unix()
		if e.New {
			tag, err := tx.Exec(ctx, `INSERT INTO products (id, title, description, category, price_cents, original_price_cents,
				image, featured, hidden, stock, stock_changed_at, source, staff_edited, updated_at)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, true, $11) ON CONFLICT (id) DO NOTHING`,
				p.ID, p.Title, p.Description, p.Category, p.Price, p.Original, p.Image, p.Featured, p.Hidden, p.Stock, now, SourceStaff)
			if err != nil {
				return FormatError(err, "create product", Messages{shop.EINVALID: "Stock and price cannot be negative."})
			}
			if tag.RowsAffected() == 0 {
				return shop.Errorf(shop.ECONFLICT, shop.MsgProductExists, p.ID)
			}
		} else {
			if p.Stock != e.StockWas {
				// A change checked against what is there: a sale since the
				// editor was loaded makes this match nothing.
				tag, err := tx.Exec(ctx, `UPDATE products SET stock = stock + $1, stock_changed_at = $2
					WHERE id = $3 AND stock = $4`, p.Stock-e.StockWas, now, p.ID, e.StockWas)
				if err != nil {
					return FormatError(err, "update stock", Messages{shop.EINVALID: "Stock cannot be negative."})
				}
				if tag.RowsAffected() == 0 {
					return stockMoved(ctx, tx, p.ID)
				}
			}
			tag, err := tx.Exec(ctx, `UPDATE products SET title = $1, description = $2, category = $3, price_cents = $4,
				original_price_cents = $5, image = $6, featured = $7, hidden = $8,
				staff_edited = true, updated_at = $9 WHERE id = $10`,
				p.Title, p.Description, p.Category, p.Price, p.Original, p.Image, p.Featured, p.Hidden, now, p.ID)
			if err != nil {
				return FormatError(err, "update product", Messages{shop.EINVALID: "Price cannot be negative."})
			}
			if tag.RowsAffected() == 0 {
				return shop.Errorf(shop.ENOTFOUND, shop.MsgProductNotFound)
			}
		}
		if _, err := tx.Exec(ctx, `INSERT INTO categories (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`, p.Category); err != nil {
			return fmt.Errorf("save product: category: %w", err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM categories c WHERE NOT EXISTS (SELECT 1 FROM products p WHERE p.category = c.name)`); err != nil {
			return fmt.Errorf("save product: prune categories: %w", err)
		}
		if _, err := tx.Exec(ctx, `UPDATE catalog_version SET version = version + 1 WHERE id = 1`); err != nil {
			return fmt.Errorf("save product: bump catalogue version: %w", err)
		}
		return nil
	})
}

// Dashboard sums today's and the last days' orders and lists what needs
// attention.
func (db *DB) Dashboard(ctx context.Context, dayStart time.Time, days int) (shop.Dashboard, error) {
	var d shop.Dashboard
	sums := `SELECT COUNT(*), COALESCE(SUM(CASE WHEN status <> 'cancelled' THEN total_cents END), 0)
		FROM orders WHERE status <> 'pending' AND created_at >= $1 AND created_at < $2`
	if err := db.pool.QueryRow(ctx, sums, dayStart.Unix(), int64(1)<<62).Scan(&d.OrdersToday, &d.RevenueToday); err != nil {
		return d, fmt.Errorf("dashboard today: %w", err)
	}
	if err := db.pool.QueryRow(ctx, `SELECT COUNT(*) FROM orders WHERE status = 'processing'`).Scan(&d.AwaitingShip); err != nil {
		return d, fmt.Errorf("dashboard awaiting: %w", err)
	}
	if err := db.pool.QueryRow(ctx, `SELECT COUNT(*) FROM contact_messages WHERE handled_at = 0`).Scan(&d.Unhandled); err != nil {
		return d, fmt.Errorf("dashboard messages: %w", err)
	}
	low, err := db.products(ctx, "dashboard low stock", `SELECT `+productColumns+` FROM products p
		WHERE p.stock <= $1 AND NOT p.hidden ORDER BY p.stock, p.id LIMIT 20`, shop.LowStockLevel)
	if err != nil {
		return d, err
	}
	d.LowStock = low
	for i := days - 1; i >= 0; i-- {
		from := dayStart.AddDate(0, 0, -i)
		t := shop.DayTotal{Day: from}
		if err := db.pool.QueryRow(ctx, sums, from.Unix(), from.AddDate(0, 0, 1).Unix()).Scan(&t.Orders, &t.Revenue); err != nil {
			return d, fmt.Errorf("dashboard day: %w", err)
		}
		d.Days = append(d.Days, t)
	}
	return d, nil
}

// stockMoved explains a stock change that matched nothing: the product is
// gone, or its stock is no longer what the editor showed.
func stockMoved(ctx context.Context, tx pgx.Tx, id string) error {
	var n int
	err := tx.QueryRow(ctx, `SELECT stock FROM products WHERE id = $1`, id).Scan(&n)
	if errors.Is(err, pgx.ErrNoRows) {
		return shop.Errorf(shop.ENOTFOUND, shop.MsgProductNotFound)
	} else if err != nil {
		return fmt.Errorf("stock of %s: %w", id, err)
	}
	return shop.Errorf(shop.ECONFLICT, shop.MsgStockMoved, n).WithField("stock")
}
