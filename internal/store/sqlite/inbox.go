package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

var _ shop.InboxStore = (*DB)(nil)

const inboxColumns = `id, name, email, subject, message, created_at, handled_at, handled_by`

func scanMessage(row interface{ Scan(...any) error }) (*shop.ContactMessage, error) {
	var m shop.ContactMessage
	var created, handled int64
	if err := row.Scan(&m.ID, &m.Name, &m.Email, &m.Subject, &m.Message, &created, &handled, &m.HandledBy); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
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
	if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM contact_messages`+where).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count inbox: %w", err)
	}
	rows, err := db.Query(ctx, `SELECT `+inboxColumns+` FROM contact_messages`+where+` ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
		shop.InboxPageSize, (max(page, 1)-1)*shop.InboxPageSize)
	if err != nil {
		return nil, 0, fmt.Errorf("inbox: %w", err)
	}
	defer rows.Close()
	var out []shop.ContactMessage
	for rows.Next() {
		m, err := scanMessage(rows)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, *m)
	}
	return out, total, rows.Err()
}

// ContactMessage returns one message.
func (db *DB) ContactMessage(ctx context.Context, id int64) (*shop.ContactMessage, error) {
	return scanMessage(db.QueryRow(ctx, `SELECT `+inboxColumns+` FROM contact_messages WHERE id = ?`, id))
}

// MarkHandled marks a message handled once.
func (db *DB) MarkHandled(ctx context.Context, id int64, actor string, at time.Time) (bool, error) {
	res, err := db.Exec(ctx, `UPDATE contact_messages SET handled_at = ?, handled_by = ? WHERE id = ? AND handled_at = 0`, at.Unix(), actor, id)
	if err != nil {
		return false, fmt.Errorf("mark handled: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return true, nil
	}
	if _, err := db.ContactMessage(ctx, id); err != nil {
		return false, err
	}
	return false, nil
}
