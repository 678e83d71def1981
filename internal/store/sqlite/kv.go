package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// KV is a fiber.Storage on the kv table, so Fiber's CSRF (and later session)
// middleware keep their state in our database instead of process memory:
// tokens survive restarts and work across several server processes.
type KV struct{ db *DB }

// KV returns the fiber.Storage view of db.
func (db *DB) KV() *KV { return &KV{db: db} }

// Get returns the value for key, or nil when it is missing or expired.
func (s *KV) Get(key string) ([]byte, error) { return s.GetWithContext(context.Background(), key) }

// GetWithContext is Get within ctx (a request's, for its session).
func (s *KV) GetWithContext(ctx context.Context, key string) ([]byte, error) {
	var v []byte
	err := s.db.queryRow(ctx, `SELECT value FROM kv WHERE key = ? AND (expires_at = 0 OR expires_at > ?)`,
		key, s.db.now().Unix()).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
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
	_, err := s.db.exec(ctx, `INSERT INTO kv (key, value, expires_at) VALUES (?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
		key, val, expires)
	if err != nil {
		return fmt.Errorf("kv set: %w", err)
	}
	return nil
}

// Delete removes key.
func (s *KV) Delete(key string) error { return s.DeleteWithContext(context.Background(), key) }

// DeleteWithContext is Delete within ctx.
func (s *KV) DeleteWithContext(ctx context.Context, key string) error {
	if _, err := s.db.exec(ctx, `DELETE FROM kv WHERE key = ?`, key); err != nil {
		return fmt.Errorf("kv delete: %w", err)
	}
	return nil
}

// Reset removes every key.
func (s *KV) Reset() error {
	if _, err := s.db.exec(context.Background(), `DELETE FROM kv`); err != nil {
		return fmt.Errorf("kv reset: %w", err)
	}
	return nil
}

// Close is a no-op: the DB owns the connection.
func (s *KV) Close() error { return nil }

// DeleteExpired removes expired entries and reports how many went.
func (s *KV) DeleteExpired(ctx context.Context) (int64, error) {
	res, err := s.db.exec(ctx, `DELETE FROM kv WHERE expires_at > 0 AND expires_at <= ?`, s.db.now().Unix())
	if err != nil {
		return 0, fmt.Errorf("kv delete expired: %w", err)
	}
	return res.RowsAffected()
}
