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

var _ shop.FulfilmentStore = (*DB)(nil)

// AdminOrders lists a page of every shopper's placed orders, newest first.
func (db *DB) AdminOrders(ctx context.Context, q shop.AdminOrderQuery) ([]shop.Order, int, error) {
	conds := []string{"status != 'pending'"}
	var args []any
	if q.Status != "" {
		conds = append(conds, "status = ?")
		args = append(args, q.Status)
	}
	if !q.From.IsZero() {
		conds = append(conds, "created_at >= ?")
		args = append(args, q.From.Unix())
	}
	if !q.To.IsZero() {
		conds = append(conds, "created_at < ?")
		args = append(args, q.To.Unix())
	}
	if s := strings.TrimSpace(q.Search); s != "" {
		conds = append(conds, "(id LIKE ? ESCAPE '\\' OR email = ?)")
		args = append(args, likePrefix(strings.ToUpper(s)), shop.NormalizeEmail(s))
	}
	where := " WHERE " + strings.Join(conds, " AND ")
	var total int
	if err := db.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM orders`+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count orders: %w", err)
	}
	rows, err := db.SQL().QueryContext(ctx, `SELECT `+orderSummaryColumns+`
		FROM orders`+where+` ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
		append(args, shop.AdminOrdersPageSize, (max(q.Page, 1)-1)*shop.AdminOrdersPageSize)...)
	if err != nil {
		return nil, 0, fmt.Errorf("list orders: %w", err)
	}
	out, err := scanOrderSummaries(rows)
	return out, total, err
}

// likePrefix escapes s for LIKE and matches it as a prefix.
func likePrefix(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s) + "%"
}

// OrderEvents returns an order's timeline, oldest first.
func (db *DB) OrderEvents(ctx context.Context, orderID string) ([]shop.OrderEvent, error) {
	rows, err := db.Query(ctx, `SELECT status, note, actor, created_at FROM order_events WHERE order_id = ? ORDER BY id`, orderID)
	if err != nil {
		return nil, fmt.Errorf("order events: %w", err)
	}
	defer rows.Close()
	var out []shop.OrderEvent
	for rows.Next() {
		var e shop.OrderEvent
		var at int64
		if err := rows.Scan(&e.Status, &e.Note, &e.Actor, &at); err != nil {
			return nil, fmt.Errorf("scan order event: %w", err)
		}
		e.At = time.Unix(at, 0).UTC()
		out = append(out, e)
	}
	return out, rows.Err()
}

// TransitionOrder moves an order between statuses with a conditional
// UPDATE (… WHERE status = from), so two staff members acting at once
// cannot both move it.
func (db *DB) TransitionOrder(ctx context.Context, t shop.Transition) (*shop.Order, error) {
	if t.At.IsZero() {
		t.At = db.Now()
	}
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		var res sql.Result
		var err error
		switch t.To {
		case shop.StatusShipped:
			res, err = tx.ExecContext(ctx, `UPDATE orders SET status = ?, carrier = ?, tracking_number = ? WHERE id = ? AND status = ?`,
				t.To, t.Carrier, t.Tracking, t.OrderID, t.From)
		case shop.StatusCancelled:
			res, err = tx.ExecContext(ctx, `UPDATE orders SET status = ?, cancel_reason = ? WHERE id = ? AND status = ?`,
				t.To, t.Reason, t.OrderID, t.From)
		default:
			res, err = tx.ExecContext(ctx, `UPDATE orders SET status = ? WHERE id = ? AND status = ?`, t.To, t.OrderID, t.From)
		}
		if err != nil {
			return fmt.Errorf("move order %s to %s: %w", t.OrderID, t.To, err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			var status string
			err := tx.QueryRowContext(ctx, `SELECT status FROM orders WHERE id = ?`, t.OrderID).Scan(&status)
			if errors.Is(err, sql.ErrNoRows) || status == shop.StatusPending {
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
		if _, err := tx.ExecContext(ctx, `INSERT INTO order_events (order_id, status, note, actor, created_at) VALUES (?, ?, ?, ?, ?)`,
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
