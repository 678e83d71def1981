package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// Returns: a request counts its items against its order lines with a
// conditional update of order_lines.returned, so what may still be
// returned is never read first and written back; every move of a request
// is a conditional update of its state. See docs/decisions/0015-returns.md.

const returnColumns = `r.id, r.order_id, o.email, r.state, r.reason, r.comment, r.staff_message, r.refunded_cents,
	r.requested_by, r.updated_by, r.created_at, r.updated_at`

func scanReturn(row interface{ Scan(...any) error }) (shop.ReturnRequest, error) {
	var r shop.ReturnRequest
	var created, updated int64
	err := row.Scan(&r.ID, &r.OrderID, &r.Email, &r.State, &r.Reason, &r.Comment, &r.StaffMessage, &r.Refunded,
		&r.RequestedBy, &r.UpdatedBy, &created, &updated)
	r.CreatedAt, r.UpdatedAt = time.Unix(created, 0).UTC(), time.Unix(updated, 0).UTC()
	return r, err
}

// returnLineColumns are a return line's columns (as l) with its order
// line's name and variation (as ol), for its label.
const returnLineColumns = `l.return_id, l.position, l.variant_id, l.quantity, l.restock, ol.name, ol.variation`

const returnLinesFrom = ` FROM return_lines l JOIN order_lines ol ON ol.order_id = l.order_id AND ol.position = l.position`

type returnLineRow struct {
	returnID string
	line     shop.ReturnLine
}

func scanReturnLine(rows *sql.Rows) (returnLineRow, error) {
	var r returnLineRow
	var name, variation string
	err := rows.Scan(&r.returnID, &r.line.Line, &r.line.VariantID, &r.line.Quantity, &r.line.Restock, &name, &variation)
	r.line.Label = shop.OrderLine{Name: name, Variation: variation}.Label()
	return r, err
}

// withLines fills in the lines of rs from rows of returnLineColumns.
func withLines(rs []shop.ReturnRequest, lines []returnLineRow) []shop.ReturnRequest {
	at := make(map[string]int, len(rs))
	for i, r := range rs {
		at[r.ID] = i
	}
	for _, l := range lines {
		if i, ok := at[l.returnID]; ok {
			rs[i].Lines = append(rs[i].Lines, l.line)
		}
	}
	return rs
}

// CreateReturn stores a return request, counting each line against what
// is left of its order line.
func (s *Store) CreateReturn(ctx context.Context, r *shop.ReturnRequest) error {
	if len(r.Lines) == 0 {
		return shop.Errorf(shop.EINVALID, "A return needs at least one item.")
	}
	if r.ID == "" {
		r.ID = "RET-" + strings.ToUpper(shop.RandomHex(4))
	}
	if r.CreatedAt.IsZero() {
		r.CreatedAt = s.Now()
	}
	r.CreatedAt = r.CreatedAt.UTC().Truncate(time.Second)
	r.UpdatedAt, r.State = r.CreatedAt, shop.ReturnRequested
	at := r.CreatedAt.Unix()
	return s.InTx(ctx, func(tx Tx) error {
		// Only a delivered order takes a request: checked in the insert
		// itself, so a status read earlier cannot let another through.
		res, err := tx.Exec(ctx, `INSERT INTO return_requests (id, order_id, state, reason, comment, requested_by, created_at, updated_at)
			SELECT ?, id, ?, ?, ?, ?, ?, ? FROM orders WHERE id = ? AND status = ?`,
			r.ID, shop.ReturnRequested, r.Reason, r.Comment, r.RequestedBy, at, at, r.OrderID, shop.StatusDelivered)
		if err != nil {
			return s.FormatError(err, "create return", Messages{shop.EINVALID: "Choose why the items go back."})
		}
		if n, _ := res.RowsAffected(); n != 1 {
			var status shop.OrderStatus
			err := tx.QueryRow(ctx, `SELECT status FROM orders WHERE id = ?`, r.OrderID).Scan(&status)
			if errors.Is(err, sql.ErrNoRows) || status == shop.StatusPending {
				return shop.Errorf(shop.ENOTFOUND, shop.MsgOrderNotFound)
			} else if err != nil {
				return fmt.Errorf("create return: order status: %w", err)
			}
			return shop.Errorf(shop.ECONFLICT, shop.MsgReturnNotDelivered)
		}
		var labels []string
		for _, l := range r.Lines {
			if l.Quantity < 1 {
				return shop.Errorf(shop.EINVALID, "Return at least one of an item.").WithField(fmt.Sprintf("qty-%d", l.Line))
			}
			// The count and the check in one statement: requests racing for
			// the last items cannot both pass it.
			res, err := tx.Exec(ctx, `UPDATE order_lines SET returned = returned + ?
				WHERE order_id = ? AND position = ? AND quantity - returned >= ?`, l.Quantity, r.OrderID, l.Line, l.Quantity)
			if err != nil {
				return fmt.Errorf("create return: count line %d: %w", l.Line, err)
			}
			if n, _ := res.RowsAffected(); n != 1 {
				return tooFewLeft(ctx, tx, r.OrderID, l.Line)
			}
			var name, variation, variant string
			if err := tx.QueryRow(ctx, `SELECT name, variation, variant_id FROM order_lines WHERE order_id = ? AND position = ?`,
				r.OrderID, l.Line).Scan(&name, &variation, &variant); err != nil {
				return fmt.Errorf("create return: line %d: %w", l.Line, err)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO return_lines (return_id, order_id, position, variant_id, quantity, restock)
				VALUES (?, ?, ?, ?, ?, FALSE)`, r.ID, r.OrderID, l.Line, variant, l.Quantity); err != nil {
				return s.FormatError(err, "create return: line", Messages{shop.ECONFLICT: "An item is listed twice."})
			}
			labels = append(labels, fmt.Sprintf("%d × %s", l.Quantity, shop.OrderLine{Name: name, Variation: variation}.Label()))
		}
		return addOrderEvent(ctx, tx, r.OrderID, shop.ReturnEvent(shop.ReturnRequested), r.ID+": "+strings.Join(labels, ", "),
			shop.ActorShopper, r.CreatedAt)
	})
}

// tooFewLeft is the error of a line whose count refused a request: how
// many are left, next to the line's field.
func tooFewLeft(ctx context.Context, tx Tx, orderID string, line int) error {
	var left int
	err := tx.QueryRow(ctx, `SELECT quantity - returned FROM order_lines WHERE order_id = ? AND position = ?`, orderID, line).Scan(&left)
	if err != nil {
		return rowError(err, "create return: what is left", "This order has no such item.")
	}
	field := fmt.Sprintf("qty-%d", line)
	if left <= 0 {
		return shop.Errorf(shop.EINVALID, shop.MsgReturnNoneLeft).WithField(field)
	}
	return shop.Errorf(shop.EINVALID, shop.MsgReturnTooMany, left).WithField(field)
}

// ReturnRequest reads one request with its lines.
func (s *Store) ReturnRequest(ctx context.Context, id string) (*shop.ReturnRequest, error) {
	r, err := scanReturn(s.QueryRow(ctx, `SELECT `+returnColumns+` FROM return_requests r JOIN orders o ON o.id = r.order_id WHERE r.id = ?`, id))
	if err != nil {
		return nil, rowError(err, "return "+id, shop.MsgReturnNotFound)
	}
	rows, err := s.Query(ctx, `SELECT `+returnLineColumns+returnLinesFrom+` WHERE l.return_id = ? ORDER BY l.position`, id)
	lines, err := Collect(s, rows, err, "return lines", scanReturnLine)
	if err != nil {
		return nil, err
	}
	return &withLines([]shop.ReturnRequest{r}, lines)[0], nil
}

// OrderReturns lists an order's requests, oldest first.
func (s *Store) OrderReturns(ctx context.Context, orderID string) ([]shop.ReturnRequest, error) {
	rows, err := s.Query(ctx, `SELECT `+returnColumns+` FROM return_requests r JOIN orders o ON o.id = r.order_id
		WHERE r.order_id = ? ORDER BY r.created_at, r.id`, orderID)
	rs, err := Collect(s, rows, err, "order returns", func(rows *sql.Rows) (shop.ReturnRequest, error) { return scanReturn(rows) })
	if err != nil || len(rs) == 0 {
		return rs, err
	}
	rows, err = s.Query(ctx, `SELECT `+returnLineColumns+returnLinesFrom+` WHERE l.order_id = ? ORDER BY l.position`, orderID)
	lines, err := Collect(s, rows, err, "order return lines", scanReturnLine)
	if err != nil {
		return nil, err
	}
	return withLines(rs, lines), nil
}

// ReturnRequests lists a page of every order's requests, newest first.
func (s *Store) ReturnRequests(ctx context.Context, q shop.ReturnQuery) ([]shop.ReturnRequest, int, error) {
	where, args := "", []any{}
	if q.State != "" {
		where, args = ` WHERE r.state = ?`, append(args, q.State)
	}
	var total int
	if err := s.QueryRow(ctx, `SELECT COUNT(*) FROM return_requests r`+where, args...).Scan(&total); err != nil {
		return nil, 0, s.FormatError(err, "count returns", nil)
	}
	rows, err := s.Query(ctx, `SELECT `+returnColumns+` FROM return_requests r JOIN orders o ON o.id = r.order_id`+where+`
		ORDER BY r.created_at DESC, r.id DESC LIMIT ? OFFSET ?`, append(args, shop.ReturnsPageSize, (max(q.Page, 1)-1)*shop.ReturnsPageSize)...)
	rs, err := Collect(s, rows, err, "returns", func(rows *sql.Rows) (shop.ReturnRequest, error) { return scanReturn(rows) })
	if err != nil || len(rs) == 0 {
		return rs, total, err
	}
	ids := make([]any, len(rs))
	for i, r := range rs {
		ids[i] = r.ID
	}
	// Unprepared: the page's length makes the statement's text.
	lrows, err := s.db.QueryContext(ctx, s.Rebind(`SELECT `+returnLineColumns+returnLinesFrom+`
		WHERE l.return_id IN (?`+strings.Repeat(", ?", len(ids)-1)+`) ORDER BY l.position`), ids...)
	lines, err := Collect(s, lrows, err, "return lines", scanReturnLine)
	if err != nil {
		return nil, 0, err
	}
	return withLines(rs, lines), total, nil
}

// MoveReturn moves a request from one of m.From to m.To with a
// conditional update, so two staff members acting at once cannot both
// move it. Only moves of shop.ReturnMoves are made.
func (s *Store) MoveReturn(ctx context.Context, m shop.ReturnMove) (*shop.ReturnRequest, error) {
	if m.At.IsZero() {
		m.At = s.Now()
	}
	if len(m.From) == 0 {
		return nil, shop.Errorf(shop.EINVALID, shop.MsgReturnNoSuchMove)
	}
	for _, f := range m.From {
		if !shop.ReturnMoves.CanMove(f, m.To) {
			return nil, shop.Errorf(shop.EINVALID, shop.MsgReturnNoSuchMove)
		}
	}
	at := m.At.Unix()
	err := s.InTx(ctx, func(tx Tx) error {
		from, fromArgs := stateIn("state", m.From)
		args := append([]any{string(m.To), m.Message, m.Message, m.Refunded, m.Actor, at, m.ID}, fromArgs...)
		res, err := tx.Exec(ctx, `UPDATE return_requests SET state = ?,
			staff_message = CASE WHEN ? <> '' THEN ? ELSE staff_message END,
			refunded_cents = refunded_cents + ?, updated_by = ?, updated_at = ?
			WHERE id = ? AND `+from, args...)
		if err != nil {
			return s.FormatError(err, "move return "+m.ID, Messages{shop.EINVALID: shop.MsgReturnNoSuchMove})
		}
		var orderID string
		var state shop.ReturnState
		if err := tx.QueryRow(ctx, `SELECT order_id, state FROM return_requests WHERE id = ?`, m.ID).Scan(&orderID, &state); err != nil {
			return rowError(err, "move return "+m.ID, shop.MsgReturnNotFound)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return shop.Errorf(shop.ECONFLICT, shop.MsgReturnMoved, strings.ToLower(shop.ReturnStateLabel(state)))
		}
		switch m.To {
		case shop.ReturnRejected:
			// The items may be asked for again.
			if _, err := tx.Exec(ctx, `UPDATE order_lines SET returned = returned - (
					SELECT l.quantity FROM return_lines l WHERE l.return_id = ? AND l.position = order_lines.position)
				WHERE order_id = ? AND position IN (SELECT position FROM return_lines WHERE return_id = ?)`, m.ID, orderID, m.ID); err != nil {
				return fmt.Errorf("reject return %s: %w", m.ID, err)
			}
		case shop.ReturnReceived:
			for _, line := range m.Restock {
				res, err := tx.Exec(ctx, `UPDATE return_lines SET restock = TRUE WHERE return_id = ? AND position = ?`, m.ID, line)
				if err != nil {
					return fmt.Errorf("receive return %s: %w", m.ID, err)
				}
				if n, _ := res.RowsAffected(); n != 1 {
					return shop.Errorf(shop.EINVALID, "This return has no such item.")
				}
			}
			// A change of the stock there is now, never a value read
			// earlier: sales meanwhile stay counted.
			if _, err := tx.Exec(ctx, `UPDATE variants SET stock = stock + (
					SELECT SUM(l.quantity) FROM return_lines l WHERE l.return_id = ? AND l.restock AND l.variant_id = variants.id),
					stock_changed_at = ?
				WHERE id IN (SELECT variant_id FROM return_lines WHERE return_id = ? AND restock)`, m.ID, at, m.ID); err != nil {
				return fmt.Errorf("restock return %s: %w", m.ID, err)
			}
		}
		note := m.ID
		switch {
		case m.To == shop.ReturnRefunded:
			note += ": " + m.Refunded.String() + " refunded"
		case m.Message != "":
			note += ": " + m.Message
		}
		return addOrderEvent(ctx, tx, orderID, shop.ReturnEvent(m.To), note, m.Actor, m.At)
	})
	if err != nil {
		return nil, err
	}
	return s.ReturnRequest(ctx, m.ID)
}
