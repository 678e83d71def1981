package sqlstore

import (
	"context"
	"fmt"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// CreateContactMessage stores m and sets its ID and CreatedAt. The ID
// comes back through RETURNING: pgx's database/sql adapter has no
// LastInsertId.
func (s *Store) CreateContactMessage(ctx context.Context, m *shop.ContactMessage) error {
	m.CreatedAt = s.Now().UTC().Truncate(time.Second)
	err := s.QueryRow(ctx,
		`INSERT INTO contact_messages (name, email, subject, message, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id`,
		m.Name, m.Email, m.Subject, m.Message, m.CreatedAt.Unix()).Scan(&m.ID)
	if err != nil {
		return fmt.Errorf("insert contact message: %w", err)
	}
	return nil
}

// ContactMessages lists stored messages, newest first; the support team's
// tooling and the tests read them.
func (s *Store) ContactMessages(ctx context.Context) ([]shop.ContactMessage, error) {
	rows, err := s.Query(ctx,
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
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list contact messages: %w", err)
	}
	return out, nil
}
