package sqlite

import (
	"context"
	"fmt"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

var _ shop.ContactStore = (*DB)(nil)

// CreateContactMessage stores m and sets its ID and CreatedAt.
func (db *DB) CreateContactMessage(ctx context.Context, m *shop.ContactMessage) error {
	m.CreatedAt = db.Now().UTC().Truncate(time.Second)
	res, err := db.Exec(ctx,
		`INSERT INTO contact_messages (name, email, subject, message, created_at) VALUES (?, ?, ?, ?, ?)`,
		m.Name, m.Email, m.Subject, m.Message, m.CreatedAt.Unix())
	if err != nil {
		return fmt.Errorf("insert contact message: %w", err)
	}
	if m.ID, err = res.LastInsertId(); err != nil {
		return fmt.Errorf("insert contact message: %w", err)
	}
	return nil
}

// ContactMessages lists stored messages, newest first; the support team's
// tooling and the tests read them.
func (db *DB) ContactMessages(ctx context.Context) ([]shop.ContactMessage, error) {
	rows, err := db.Query(ctx,
		`SELECT id, name, email, subject, message, created_at FROM contact_messages ORDER BY id DESC`)
	if err != nil {
		return nil, fmt.Errorf("list contact messages: %w", err)
	}
	defer rows.Close()
	var out []shop.ContactMessage
	for rows.Next() {
		var m shop.ContactMessage
		var created int64
		if err := rows.Scan(&m.ID, &m.Name, &m.Email, &m.Subject, &m.Message, &created); err != nil {
			return nil, fmt.Errorf("scan contact message: %w", err)
		}
		m.CreatedAt = time.Unix(created, 0).UTC()
		out = append(out, m)
	}
	return out, rows.Err()
}
