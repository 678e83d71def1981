package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nocturne/storefront/internal/shop"
)

// KV is a fiber.Storage on the kv table: sessions live in the database,
// so every instance sees every session.
type KV struct{ db *DB }

// KV returns the fiber.Storage view of db.
func (db *DB) KV() *KV { return &KV{db: db} }

// Get returns the value for key, or nil when it is missing or expired.
func (s *KV) Get(key string) ([]byte, error) { return s.GetWithContext(context.Background(), key) }

// GetWithContext is Get within ctx (a request's, for its session).
func (s *KV) GetWithContext(ctx context.Context, key string) ([]byte, error) {
	var v []byte
	err := s.db.pool.QueryRow(ctx, `SELECT value FROM kv WHERE key = $1 AND (expires_at = 0 OR expires_at > $2)`,
		key, s.db.now().Unix()).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("kv get: %w", err)
	}
	return v, nil
}

// Set stores val under key; exp 0 means no expiry.
func (s *KV) Set(key string, val []byte, exp time.Duration) error {
	return s.SetWithContext(context.Background(), key, val, exp)
}

// SetWithContext is Set within ctx.
func (s *KV) SetWithContext(ctx context.Context, key string, val []byte, exp time.Duration) error {
	if key == "" || len(val) == 0 {
		return nil
	}
	var expires int64
	if exp > 0 {
		expires = s.db.now().Add(exp).Unix()
	}
	_, err := s.db.pool.Exec(ctx, `INSERT INTO kv (key, value, expires_at) VALUES ($1, $2, $3)
		ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at`, key, val, expires)
	if err != nil {
		return fmt.Errorf("kv set: %w", err)
	}
	return nil
}

// Delete removes key.
func (s *KV) Delete(key string) error { return s.DeleteWithContext(context.Background(), key) }

// DeleteWithContext is Delete within ctx.
func (s *KV) DeleteWithContext(ctx context.Context, key string) error {
	if _, err := s.db.pool.Exec(ctx, `DELETE FROM kv WHERE key = $1`, key); err != nil {
		return fmt.Errorf("kv delete: %w", err)
	}
	return nil
}

// Reset removes every key.
func (s *KV) Reset() error {
	if _, err := s.db.pool.Exec(context.Background(), `DELETE FROM kv`); err != nil {
		return fmt.Errorf("kv reset: %w", err)
	}
	return nil
}

// Close is a no-op: the DB owns the pool.
func (s *KV) Close() error { return nil }

// DeleteExpired removes expired entries and reports how many went.
func (s *KV) DeleteExpired(ctx context.Context) (int64, error) {
	tag, err := s.db.pool.Exec(ctx, `DELETE FROM kv WHERE expires_at > 0 AND expires_at <= $1`, s.db.now().Unix())
	if err != nil {
		return 0, fmt.Errorf("kv delete expired: %w", err)
	}
	return tag.RowsAffected(), nil
}

var _ shop.ThrottleStore = (*DB)(nil)

// Hit counts one hit in one statement, so concurrent hits from several
// instances are all counted; a hit after the window ended starts a new one.
func (db *DB) Hit(ctx context.Context, key string, window time.Duration) (int, time.Time, error) {
	now := db.now().Unix()
	end := db.now().Add(window).Unix()
	var hits int
	var resets int64
	err := db.pool.QueryRow(ctx, `INSERT INTO throttle AS t (key, hits, window_end) VALUES ($1, 1, $2)
		ON CONFLICT (key) DO UPDATE SET
			hits = CASE WHEN t.window_end <= $3 THEN 1 ELSE t.hits + 1 END,
			window_end = CASE WHEN t.window_end <= $3 THEN EXCLUDED.window_end ELSE t.window_end END
		RETURNING hits, window_end`, key, end, now).Scan(&hits, &resets)
	if err != nil {
		return 0, time.Time{}, fmt.Errorf("throttle hit: %w", err)
	}
	return hits, time.Unix(resets, 0), nil
}

// Hits reads a key's count in its current window.
func (db *DB) Hits(ctx context.Context, key string) (int, time.Time, error) {
	var hits int
	var resets int64
	err := db.pool.QueryRow(ctx, `SELECT hits, window_end FROM throttle WHERE key = $1 AND window_end > $2`, key, db.now().Unix()).
		Scan(&hits, &resets)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, time.Time{}, nil
	} else if err != nil {
		return 0, time.Time{}, fmt.Errorf("throttle hits: %w", err)
	}
	return hits, time.Unix(resets, 0), nil
}

// ClearHits forgets a key.
func (db *DB) ClearHits(ctx context.Context, key string) error {
	if _, err := db.pool.Exec(ctx, `DELETE FROM throttle WHERE key = $1`, key); err != nil {
		return fmt.Errorf("throttle clear: %w", err)
	}
	return nil
}

// DeleteExpiredThrottles removes counters whose window ended.
func (db *DB) DeleteExpiredThrottles(ctx context.Context) (int64, error) {
	tag, err := db.pool.Exec(ctx, `DELETE FROM throttle WHERE window_end <= $1`, db.now().Unix())
	if err != nil {
		return 0, fmt.Errorf("throttle sweep: %w", err)
	}
	return tag.RowsAffected(), nil
}

var _ shop.ContactStore = (*DB)(nil)

// CreateContactMessage stores m and sets its ID and CreatedAt.
func (db *DB) CreateContactMessage(ctx context.Context, m *shop.ContactMessage) error {
	m.CreatedAt = db.now().UTC().Truncate(time.Second)
	err := db.pool.QueryRow(ctx,
		`INSERT INTO contact_messages (name, email, subject, message, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
		m.Name, m.Email, m.Subject, m.Message, m.CreatedAt.Unix()).Scan(&m.ID)
	if err != nil {
		return fmt.Errorf("insert contact message: %w", err)
	}
	return nil
}

// ContactMessages lists stored messages, newest first.
func (db *DB) ContactMessages(ctx context.Context) ([]shop.ContactMessage, error) {
	rows, err := db.pool.Query(ctx, `SELECT id, name, email, subject, message, created_at FROM contact_messages ORDER BY id DESC`)
	if err != nil {
		return nil, fmt.Errorf("list contact messages: %w", err)
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (shop.ContactMessage, error) {
		var m shop.ContactMessage
		var created int64
		err := row.Scan(&m.ID, &m.Name, &m.Email, &m.Subject, &m.Message, &created)
		m.CreatedAt = time.Unix(created, 0).UTC()
		return m, err
	})
}
