package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// MsgRefundIntentNotFound: no refund intent has the key.
const MsgRefundIntentNotFound = "This refund was not found."

const refundIntentColumns = `intent_key, order_id, return_id, was_cents, amount_cents, method, by_hand, actor, reason, state, lease_until, created_at`

func scanRefundIntent(row interface{ Scan(...any) error }) (shop.RefundIntent, error) {
	var in shop.RefundIntent
	var lease, created int64
	err := row.Scan(&in.Key, &in.OrderID, &in.ReturnID, &in.Was, &in.Amount, &in.Method, &in.ByHand, &in.Actor, &in.Reason,
		&in.State, &lease, &created)
	in.LeaseUntil, in.CreatedAt = time.Unix(lease, 0).UTC(), time.Unix(created, 0).UTC()
	return in, err
}

// addRefundIntent records in, open, in the transaction that counts its
// refund.
func addRefundIntent(ctx context.Context, tx Tx, in shop.RefundIntent, at time.Time) error {
	if _, err := tx.Exec(ctx, `INSERT INTO refund_intents (intent_key, order_id, return_id, was_cents, amount_cents, method, by_hand,
		actor, reason, state, lease_until, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		in.Key, in.OrderID, in.ReturnID, in.Was, in.Amount, in.Method, in.ByHand, in.Actor, in.Reason,
		string(shop.RefundOpen), in.LeaseUntil.Unix(), at.Unix(), at.Unix()); err != nil {
		return fmt.Errorf("record refund intent %s: %w", in.Key, err)
	}
	return nil
}

// FinishRefund marks the intent sent, and writes its audit entry and mail,
// in one transaction: the three stand or fall together.
func (s *Store) FinishRefund(ctx context.Context, d shop.RefundDone) (bool, error) {
	done := false
	err := s.InTx(ctx, func(tx Tx) error {
		res, err := tx.Exec(ctx, `UPDATE refund_intents SET state = ?, updated_at = ? WHERE intent_key = ? AND state = ?`,
			string(shop.RefundSent), d.At.Unix(), d.Key, string(shop.RefundOpen))
		if err != nil {
			return s.FormatError(err, "finish refund "+d.Key, nil)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return nil
		}
		done = true
		e := d.Audit
		if _, err := tx.Exec(ctx, `INSERT INTO audit_log (actor, action, subject, before, after, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
			e.Actor, e.Action, e.Subject, e.Before, e.After, d.At.Unix()); err != nil {
			return fmt.Errorf("audit refund %s: %w", d.Key, err)
		}
		if d.Mail == nil {
			return nil
		}
		if _, err := tx.Exec(ctx, `INSERT INTO outbox (recipient, subject, body, created_at) VALUES (?, ?, ?, ?)`,
			d.Mail.To, d.Mail.Subject, d.Mail.Body, d.At.Unix()); err != nil {
			return fmt.Errorf("mail refund %s: %w", d.Key, err)
		}
		return nil
	})
	if err != nil {
		done = false
	}
	return done, err
}

// StaleRefunds lists open provider refunds whose lease ended.
func (s *Store) StaleRefunds(ctx context.Context, now time.Time) ([]shop.RefundIntent, error) {
	rows, err := s.Query(ctx, `SELECT `+refundIntentColumns+` FROM refund_intents
		WHERE state = ? AND NOT by_hand AND lease_until < ? ORDER BY created_at, intent_key`, string(shop.RefundOpen), now.Unix())
	return Collect(s, rows, err, "list stale refunds", func(rows *sql.Rows) (shop.RefundIntent, error) { return scanRefundIntent(rows) })
}

// TakeRefund extends a stale intent's lease in one conditional UPDATE, so
// of two sweepers reading the same list only one takes it.
func (s *Store) TakeRefund(ctx context.Context, key string, now, until time.Time) (bool, error) {
	res, err := s.Exec(ctx, `UPDATE refund_intents SET lease_until = ?, updated_at = ?
		WHERE intent_key = ? AND state = ? AND NOT by_hand AND lease_until < ?`,
		until.Unix(), now.Unix(), key, string(shop.RefundOpen), now.Unix())
	if err != nil {
		return false, s.FormatError(err, "take refund "+key, nil)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// RefundsByHand lists the open refunds staff still have to send.
func (s *Store) RefundsByHand(ctx context.Context) ([]shop.RefundIntent, error) {
	rows, err := s.Query(ctx, `SELECT `+refundIntentColumns+` FROM refund_intents
		WHERE state = ? AND by_hand ORDER BY created_at, intent_key`, string(shop.RefundOpen))
	return Collect(s, rows, err, "list refunds by hand", func(rows *sql.Rows) (shop.RefundIntent, error) { return scanRefundIntent(rows) })
}

// RefundIntent reads one intent.
func (s *Store) RefundIntent(ctx context.Context, key string) (*shop.RefundIntent, error) {
	in, err := scanRefundIntent(s.QueryRow(ctx, `SELECT `+refundIntentColumns+` FROM refund_intents WHERE intent_key = ?`, key))
	if err != nil {
		return nil, rowError(err, "refund intent "+key, MsgRefundIntentNotFound)
	}
	return &in, nil
}

// undoRefundIntent marks c's intent undone, and reports whether it was
// open: only then may its refund be taken back.
func undoRefundIntent(ctx context.Context, tx Tx, c shop.RefundClaim) (bool, error) {
	if c.Intent.Key == "" {
		return true, nil
	}
	res, err := tx.Exec(ctx, `UPDATE refund_intents SET state = ?, updated_at = ? WHERE intent_key = ? AND state = ?`,
		string(shop.RefundUndone), c.At.Unix(), c.Intent.Key, string(shop.RefundOpen))
	if err != nil {
		return false, fmt.Errorf("undo refund intent %s: %w", c.Intent.Key, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}
