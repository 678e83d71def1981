package sqlstore

import (
	"context"
	"database/sql"
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
	return Collect(s, rows, err, "list contact messages", func(rows *sql.Rows) (m shop.ContactMessage, err error) {
		var created int64
		err = rows.Scan(&m.ID, &m.Name, &m.Email, &m.Subject, &m.Message, &created)
		m.CreatedAt = time.Unix(created, 0).UTC()
		return m, err
	})
}
