package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// KV is a fiber.Storage on the kv table: sessions live in the database,
// so every instance sees every session.
type KV struct{ db *DB }

// KV returns the fiber.Storage view of db.
func (db *DB) KV() *KV { return &KV{db: db} }

// Get returns the value for key, or nil when it is missing or expired.
func (s *KV) Get(key string) ([]byte, error) {
	var v []byte
	err := s.db.pool.QueryRow(context.Background(), `SELECT value FROM kv WHERE key = $1 AND (expires_at = 0 OR expires_at > $2)`,
		key, s.db.Now().Unix()).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("kv get: %w", err)
	}
	return v, nil
}

// Set stores val under key; exp 0 means no expiry.
func (s *KV) Set(key string, val []byte, exp time.Duration) error {
	if key == "" || len(val) == 0 {
		return nil
	}
	var expires int64
	if exp > 0 {
		expires = s.db.Now().Add(exp).Unix()
	}
	_, err := s.db.pool.Exec(context.Background(), `INSERT INTO kv (key, value, expires_at) VALUES ($1, $2, $3)
		ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at`, key, val, expires)
	if err != nil {
		return fmt.Errorf("kv set: %w", err)
	}
	return nil
}

// Delete removes key.
func (s *KV) Delete(key string) error {
	if _, err := s.db.pool.Exec(context.Background(), `DELETE FROM kv WHERE key = $1`, key); err != nil {
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
	tag, err := s.db.pool.Exec(ctx, `DELETE FROM kv WHERE expires_at > 0 AND expires_at <= $1`, s.db.Now().Unix())
	if err != nil {
		return 0, fmt.Errorf("kv delete expired: %w", err)
	}
	return tag.RowsAffected(), nil
}
