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

// MarkPaid moves an order awaiting payment to paid, only while it still
// is awaiting payment (the states shop.PaymentMoves moves to paid) and not
// cancelled (one conditional UPDATE, so two staff members, or a webhook
// and the sweep, mark it once), and records the event.
func (s *Store) MarkPaid(ctx context.Context, orderID, actor string, at time.Time) (*shop.Order, error) {
	err := s.InTx(ctx, func(tx Tx) error {
		from, fromArgs := stateIn("payment_status", shop.PaymentMoves.From(shop.PaymentPaid))
		res, err := tx.Exec(ctx, `UPDATE orders SET payment_status = ?, paid_at = ?
			WHERE id = ? AND status NOT IN (?, ?) AND `+from,
			append([]any{string(shop.PaymentPaid), at.Unix(), orderID, string(shop.StatusCancelled), string(shop.StatusPending)}, fromArgs...)...)
		if err != nil {
			return s.FormatError(err, "mark paid", nil)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			var status shop.OrderStatus
			var payment shop.PaymentState
			err := tx.QueryRow(ctx, `SELECT status, payment_status FROM orders WHERE id = ?`, orderID).Scan(&status, &payment)
			if errors.Is(err, sql.ErrNoRows) || status == shop.StatusPending {
				return shop.Errorf(shop.ENOTFOUND, shop.MsgOrderNotFound)
			} else if err != nil {
				return s.FormatError(err, "mark paid", nil)
			}
			label := shop.PaymentLabel(payment)
			if status == shop.StatusCancelled {
				label = string(shop.StatusCancelled)
			}
			return shop.Errorf(shop.ECONFLICT, shop.MsgNotAwaitingPayment, label)
		}
		return addOrderEvent(ctx, tx, orderID, string(shop.PaymentPaid), "Payment received", actor, at)
	})
	if err != nil {
		return nil, err
	}
	return s.Order(ctx, orderID)
}

// UnpaidSince lists placed orders of a provider still awaiting payment
// that were placed before before.
func (s *Store) UnpaidSince(ctx context.Context, provider string, before time.Time) ([]shop.Order, error) {
	rows, err := s.Query(ctx, `SELECT `+orderColumns+` FROM orders
		WHERE payment_status = ? AND payment_provider = ? AND status = ? AND created_at < ? ORDER BY created_at, id`,
		shop.PaymentAwaiting, provider, shop.StatusProcessing, before.Unix())
	return Collect(s, rows, err, "unpaid orders", func(rows *sql.Rows) (shop.Order, error) {
		o, err := scanOrder(rows)
		if err != nil {
			return shop.Order{}, err
		}
		return *o, nil
	})
}

// UnpaidBy counts a provider's placed orders still awaiting payment of
// one account or session, or for one e-mail address. Orders keep their
// e-mail as shop.NormalizeEmail wrote it, so an equality finds every case
// of the address.
func (s *Store) UnpaidBy(ctx context.Context, provider, userID, email string) (int, error) {
	var n int
	err := s.QueryRow(ctx, `SELECT COUNT(*) FROM orders
		WHERE payment_status = ? AND payment_provider = ? AND status = ?
		AND ((user_id = ? AND user_id <> '') OR (email = ? AND email <> ''))`,
		shop.PaymentAwaiting, provider, shop.StatusProcessing, userID, shop.NormalizeEmail(email)).Scan(&n)
	if err != nil {
		return 0, s.FormatError(err, "unpaid orders by", nil)
	}
	return n, nil
}

// RecordPaymentEvent stores a provider event's id once.
func (s *Store) RecordPaymentEvent(ctx context.Context, id, orderID, kind string, at time.Time) (bool, error) {
	res, err := s.Exec(ctx, `INSERT INTO payment_events (id, order_id, type, received_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (id) DO NOTHING`, id, orderID, kind, at.Unix())
	if err != nil {
		return false, s.FormatError(err, "record payment event", nil)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// SetPaymentRef records a pending order's payment reference.
func (s *Store) SetPaymentRef(ctx context.Context, orderID, ref string) error {
	_, err := s.Exec(ctx, `UPDATE orders SET payment_ref = ? WHERE id = ?`, ref, orderID)
	return s.FormatError(err, "set payment reference", nil)
}

// SetPaymentIntent records what an order was paid with.
func (s *Store) SetPaymentIntent(ctx context.Context, orderID, intent string) error {
	_, err := s.Exec(ctx, `UPDATE orders SET payment_intent = ? WHERE id = ?`, intent, orderID)
	return s.FormatError(err, "set payment intent", nil)
}

// OrderByPaymentIntent finds the order paid with intent.
func (s *Store) OrderByPaymentIntent(ctx context.Context, intent string) (*shop.Order, error) {
	if intent == "" {
		return nil, shop.Errorf(shop.ENOTFOUND, shop.MsgOrderNotFound)
	}
	return scanOrder(s.QueryRow(ctx, `SELECT `+orderColumns+` FROM orders WHERE payment_intent = ?`, intent))
}

// refundTo is the condition and arguments of a refund that raises the
// refunded amount to to: the payment may move to refunded when to reaches
// the total, to partially refunded when it does not (shop.PaymentMoves).
func refundTo(to shop.Cents) (string, []any) {
	full, fullArgs := stateIn("payment_status", shop.PaymentMoves.From(shop.PaymentRefunded))
	part, partArgs := stateIn("payment_status", shop.PaymentMoves.From(shop.PaymentPartiallyRefunded))
	args := append(append([]any{to}, fullArgs...), to)
	return "((? >= total_cents AND " + full + ") OR (? < total_cents AND " + part + "))", append(args, partArgs...)
}

// RecordRefund raises an order's refunded amount, only upwards and only up
// to its total, in one conditional UPDATE.
func (s *Store) RecordRefund(ctx context.Context, orderID string, refunded shop.Cents, actor string, at time.Time) (bool, error) {
	changed := false
	err := s.InTx(ctx, func(tx Tx) error {
		move, moveArgs := refundTo(refunded)
		res, err := tx.Exec(ctx, `UPDATE orders SET refunded_cents = ?,
			payment_status = CASE WHEN ? >= total_cents THEN ? ELSE ? END
			WHERE id = ? AND refunded_cents < ? AND ? <= total_cents AND `+move,
			append([]any{refunded, refunded, string(shop.PaymentRefunded), string(shop.PaymentPartiallyRefunded),
				orderID, refunded, refunded}, moveArgs...)...)
		if err != nil {
			return s.FormatError(err, "record refund", nil)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return nil
		}
		changed = true
		return s.refundEvent(ctx, tx, orderID, "Refunded "+refunded.String()+" in all", actor, at)
	})
	return changed, err
}

// ClaimRefund raises the refunded amount from was by amount in one
// conditional UPDATE, marks its return refunded, and records the events.
func (s *Store) ClaimRefund(ctx context.Context, c shop.RefundClaim) error {
	orderID, was, amount, note, actor, at := c.OrderID, c.Was, c.Amount, c.Note, c.Actor, c.At
	return s.InTx(ctx, func(tx Tx) error {
		to := was + amount
		move, moveArgs := refundTo(to)
		res, err := tx.Exec(ctx, `UPDATE orders SET refunded_cents = ?,
			payment_status = CASE WHEN ? >= total_cents THEN ? ELSE ? END
			WHERE id = ? AND refunded_cents = ? AND ? <= total_cents AND `+move,
			append([]any{to, to, string(shop.PaymentRefunded), string(shop.PaymentPartiallyRefunded), orderID, was, to}, moveArgs...)...)
		if err != nil {
			return s.FormatError(err, "claim refund", nil)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			var refunded, total shop.Cents
			var payment shop.PaymentState
			err := tx.QueryRow(ctx, `SELECT refunded_cents, total_cents, payment_status FROM orders WHERE id = ?`, orderID).Scan(&refunded, &total, &payment)
			switch {
			case err != nil:
				return rowError(err, "claim refund", shop.MsgOrderNotFound)
			case refunded != was:
				return shop.Errorf(shop.ECONFLICT, shop.MsgRefundMoved, refunded)
			case !payment.Taken():
				return shop.Errorf(shop.EINVALID, shop.MsgNotAwaitingPayment, shop.PaymentLabel(payment))
			}
			return shop.Errorf(shop.EINVALID, shop.MsgRefundTooMuch, total-refunded).WithField("amount")
		}
		if err := s.refundEvent(ctx, tx, orderID, note, actor, at); err != nil {
			return err
		}
		if c.Intent.Key != "" {
			in := c.Intent
			in.OrderID, in.ReturnID, in.Was, in.Amount = c.OrderID, c.ReturnID, c.Was, c.Amount
			if err := addRefundIntent(ctx, tx, in, at); err != nil {
				return err
			}
		}
		if c.ReturnID == "" {
			return nil
		}
		return refundReturn(ctx, tx, c)
	})
}

// refundReturn marks c's return refunded in c's transaction, only from a
// state the table lets reach refunded; otherwise the whole claim fails.
func refundReturn(ctx context.Context, tx Tx, c shop.RefundClaim) error {
	from, fromArgs := stateIn("state", shop.ReturnMoves.From(shop.ReturnRefunded))
	res, err := tx.Exec(ctx, `UPDATE return_requests SET state = ?, refunded_cents = refunded_cents + ?, updated_by = ?, updated_at = ?
		WHERE id = ? AND order_id = ? AND `+from,
		append([]any{string(shop.ReturnRefunded), c.Amount, c.Actor, c.At.Unix(), c.ReturnID, c.OrderID}, fromArgs...)...)
	if err != nil {
		return fmt.Errorf("refund return %s: %w", c.ReturnID, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		var state shop.ReturnState
		if err := tx.QueryRow(ctx, `SELECT state FROM return_requests WHERE id = ? AND order_id = ?`, c.ReturnID, c.OrderID).Scan(&state); err != nil {
			return rowError(err, "refund return "+c.ReturnID, shop.MsgReturnNotFound)
		}
		return shop.Errorf(shop.ECONFLICT, shop.MsgReturnMoved, strings.ToLower(shop.ReturnStateLabel(state)))
	}
	return addOrderEvent(ctx, tx, c.OrderID, shop.ReturnEvent(shop.ReturnRefunded), c.ReturnID+": "+c.Amount.String()+" refunded", c.Actor, c.At)
}

// UndoRefund lowers the refunded amount back to was, only if nothing moved
// it since the claim (and its intent, if any, is still open), and puts its
// return back to received. Both go
// backwards, outside the tables: they take back a claim the provider
// refused, as if it had never been made.
func (s *Store) UndoRefund(ctx context.Context, c shop.RefundClaim) error {
	return s.InTx(ctx, func(tx Tx) error {
		if open, err := undoRefundIntent(ctx, tx, c); err != nil || !open {
			return err
		}
		res, err := tx.Exec(ctx, `UPDATE orders SET refunded_cents = ?,
			payment_status = CASE WHEN ? = 0 THEN ? ELSE ? END
			WHERE id = ? AND refunded_cents = ?`,
			c.Was, c.Was, string(shop.PaymentPaid), string(shop.PaymentPartiallyRefunded), c.OrderID, c.Was+c.Amount)
		if err != nil {
			return s.FormatError(err, "undo refund", nil)
		}
		if n, _ := res.RowsAffected(); n != 1 || c.ReturnID == "" {
			return nil
		}
		_, err = tx.Exec(ctx, `UPDATE return_requests SET state = ?, refunded_cents = refunded_cents - ?
			WHERE id = ? AND order_id = ? AND state = ?`,
			string(shop.ReturnReceived), c.Amount, c.ReturnID, c.OrderID, string(shop.ReturnRefunded))
		return s.FormatError(err, "undo refund of return "+c.ReturnID, nil)
	})
}

// refundEvent records a refund in the order's timeline under the payment
// state it left the order in.
func (s *Store) refundEvent(ctx context.Context, tx Tx, orderID, note, actor string, at time.Time) error {
	var status string
	if err := tx.QueryRow(ctx, `SELECT payment_status FROM orders WHERE id = ?`, orderID).Scan(&status); err != nil {
		return s.FormatError(err, "refund event", nil)
	}
	return addOrderEvent(ctx, tx, orderID, status, note, actor, at)
}

// addOrderEvent records one step of an order's timeline (a status it
// reached, or a payment's step) in tx.
func addOrderEvent(ctx context.Context, tx Tx, orderID, status, note, actor string, at time.Time) error {
	if _, err := tx.Exec(ctx, `INSERT INTO order_events (order_id, status, note, actor, created_at) VALUES (?, ?, ?, ?, ?)`,
		orderID, status, note, actor, at.Unix()); err != nil {
		return fmt.Errorf("order event: %w", err)
	}
	return nil
}
