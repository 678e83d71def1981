package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// AddToOutbox keeps an e-mail in the outbox, waiting for its first
// attempt (when an SMTP server is configured).
func (s *Store) AddToOutbox(ctx context.Context, m shop.Email) error {
	now := s.Now().Unix()
	_, err := s.Exec(ctx, `INSERT INTO outbox (recipient, subject, body, secret, created_at, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?)`,
		m.To, m.Subject, m.Body, m.Secret, now, now)
	if err != nil {
		return fmt.Errorf("insert outbox: %w", err)
	}
	return nil
}

// Outbox lists kept e-mails, newest first, whatever their state.
func (s *Store) Outbox(ctx context.Context) ([]shop.Email, error) {
	rows, err := s.Query(ctx, `SELECT recipient, subject, body, secret FROM outbox ORDER BY id DESC`)
	return Collect(s, rows, err, "list outbox", func(rows *sql.Rows) (m shop.Email, err error) {
		err = rows.Scan(&m.To, &m.Subject, &m.Body, &m.Secret)
		return m, err
	})
}

const queuedMailColumns = `id, recipient, subject, body, secret, state, attempts, next_attempt_at, last_error, created_at, sent_at`

func scanQueuedMail(row interface{ Scan(...any) error }) (shop.QueuedMail, error) {
	var m shop.QueuedMail
	var state string
	var next, created int64
	var sent sql.NullInt64
	err := row.Scan(&m.ID, &m.To, &m.Subject, &m.Body, &m.Secret, &state, &m.Attempts, &next, &m.LastError, &created, &sent)
	m.State = shop.MailState(state)
	m.NextAttemptAt, m.CreatedAt = time.Unix(next, 0), time.Unix(created, 0)
	if sent.Valid {
		m.SentAt = time.Unix(sent.Int64, 0)
	}
	return m, err
}

// ClaimMail takes the oldest due mail. The read only names a candidate; the
// conditional update is the claim: of two senders that read the same row,
// the second finds its next attempt moved past now and tries the next one.
func (s *Store) ClaimMail(ctx context.Context, now, leaseUntil time.Time) (*shop.QueuedMail, error) {
	for range 5 {
		var id int64
		err := s.QueryRow(ctx, `SELECT id FROM outbox WHERE state = ? AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT 1`,
			string(shop.MailWaiting), now.Unix()).Scan(&id)
		if err == sql.ErrNoRows {
			return nil, nil
		} else if err != nil {
			return nil, s.FormatError(err, "find due mail", nil)
		}
		res, err := s.Exec(ctx, `UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?
			WHERE id = ? AND state = ? AND next_attempt_at <= ?`, leaseUntil.Unix(), id, string(shop.MailWaiting), now.Unix())
		if err != nil {
			return nil, s.FormatError(err, fmt.Sprintf("claim mail %d", id), nil)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			continue // another sender took it
		}
		m, err := scanQueuedMail(s.QueryRow(ctx, `SELECT `+queuedMailColumns+` FROM outbox WHERE id = ?`, id))
		if err != nil {
			return nil, fmt.Errorf("read claimed mail %d: %w", id, err)
		}
		return &m, nil
	}
	return nil, nil // lost every race: the other senders are draining it
}

// MailSent marks a mail delivered.
func (s *Store) MailSent(ctx context.Context, id int64, at time.Time) error {
	if _, err := s.Exec(ctx, `UPDATE outbox SET state = ?, sent_at = ?, last_error = '' WHERE id = ?`,
		string(shop.MailSent), at.Unix(), id); err != nil {
		return s.FormatError(err, fmt.Sprintf("mark mail %d sent", id), nil)
	}
	return nil
}

// RescheduleMail records a failed attempt of a mail not yet sent.
func (s *Store) RescheduleMail(ctx context.Context, id int64, state shop.MailState, next time.Time, lastErr string) error {
	if _, err := s.Exec(ctx, `UPDATE outbox SET state = ?, next_attempt_at = ?, last_error = ? WHERE id = ? AND state <> ?`,
		string(state), next.Unix(), lastErr, id, string(shop.MailSent)); err != nil {
		return s.FormatError(err, fmt.Sprintf("reschedule mail %d", id), nil)
	}
	return nil
}

// UndeliveredMail lists the mails not sent yet, failed ones included.
func (s *Store) UndeliveredMail(ctx context.Context) ([]shop.QueuedMail, error) {
	rows, err := s.Query(ctx, `SELECT `+queuedMailColumns+` FROM outbox WHERE state <> ? ORDER BY created_at, id`, string(shop.MailSent))
	return Collect(s, rows, err, "list undelivered mail", func(rows *sql.Rows) (shop.QueuedMail, error) { return scanQueuedMail(rows) })
}

// RetryMail makes an undelivered mail due now, a failed one waiting again.
func (s *Store) RetryMail(ctx context.Context, id int64) (bool, error) {
	res, err := s.Exec(ctx, `UPDATE outbox SET state = ?, next_attempt_at = ? WHERE id = ? AND state <> ?`,
		string(shop.MailWaiting), s.Now().Unix(), id, string(shop.MailSent))
	if err != nil {
		return false, s.FormatError(err, fmt.Sprintf("retry mail %d", id), nil)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}
