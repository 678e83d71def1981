package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

const orphanColumns = `id, method, order_id, payment_intent, amount_cents, currency, email, state, note, updated_by, created_at, updated_at`

func scanOrphan(row interface{ Scan(...any) error }) (*shop.OrphanPayment, error) {
	var p shop.OrphanPayment
	var created, updated int64
	if err := row.Scan(&p.ID, &p.Method, &p.OrderID, &p.PaymentIntent, &p.Amount, &p.Currency, &p.Email, &p.State,
		&p.Note, &p.UpdatedBy, &created, &updated); err != nil {
		return nil, err
	}
	p.CreatedAt, p.UpdatedAt = time.Unix(created, 0).UTC(), time.Unix(updated, 0).UTC()
	return &p, nil
}

// RecordOrphan keeps a payment without an order once, open.
func (s *Store) RecordOrphan(ctx context.Context, p shop.OrphanPayment) (bool, error) {
	at := p.CreatedAt
	if at.IsZero() {
		at = s.Now()
	}
	res, err := s.Exec(ctx, `INSERT INTO orphan_payments (`+orphanColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, '', '', ?, ?) ON CONFLICT (id) DO NOTHING`,
		p.ID, p.Method, p.OrderID, p.PaymentIntent, p.Amount, p.Currency, p.Email, string(shop.OrphanOpen), at.Unix(), at.Unix())
	if err != nil {
		return false, s.FormatError(err, "record payment without an order", nil)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// Orphans lists payments without an order in states, oldest first.
func (s *Store) Orphans(ctx context.Context, states ...shop.OrphanState) ([]shop.OrphanPayment, error) {
	in, args := stateIn("state", states)
	rows, err := s.Query(ctx, `SELECT `+orphanColumns+` FROM orphan_payments WHERE `+in+` ORDER BY created_at, id`, args...)
	if err != nil {
		return nil, fmt.Errorf("payments without an order: %w", err)
	}
	defer rows.Close()
	var out []shop.OrphanPayment
	for rows.Next() {
		p, err := scanOrphan(rows)
		if err != nil {
			return nil, fmt.Errorf("payments without an order: %w", err)
		}
		out = append(out, *p)
	}
	return out, rows.Err()
}

// Orphan is one payment without an order.
func (s *Store) Orphan(ctx context.Context, id string) (*shop.OrphanPayment, error) {
	p, err := scanOrphan(s.QueryRow(ctx, `SELECT `+orphanColumns+` FROM orphan_payments WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, shop.Errorf(shop.ENOTFOUND, shop.MsgOrphanNotFound)
	} else if err != nil {
		return nil, fmt.Errorf("payment without an order %s: %w", id, err)
	}
	return p, nil
}

// MoveOrphan moves a payment from a state the table lets reach to, in one
// conditional update.
func (s *Store) MoveOrphan(ctx context.Context, id string, to shop.OrphanState, note, actor string, at time.Time) error {
	from, fromArgs := stateIn("state", shop.OrphanMoves.From(to))
	args := append([]any{string(to), note, note, actor, at.Unix(), id}, fromArgs...)
	res, err := s.Exec(ctx, `UPDATE orphan_payments SET state = ?, note = CASE WHEN ? <> '' THEN ? ELSE note END,
		updated_by = ?, updated_at = ? WHERE id = ? AND `+from, args...)
	if err != nil {
		return s.FormatError(err, "move payment without an order", nil)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return nil
	}
	p, err := s.Orphan(ctx, id)
	if err != nil {
		return err
	}
	return shop.Errorf(shop.ECONFLICT, shop.MsgOrphanMoved, p.State)
}
