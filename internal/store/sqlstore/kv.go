package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// KV is the kv table as a key-value store with expiry: sessions and the
// rate limiter keep their state in the database, so they survive restarts
// and every instance sees every session. The context-taking methods serve
// sessions (a request's context); Get, Set, Delete, Reset and Close make
// it a fiber.Storage for the rate limiter.
type KV struct{ s *Store }

// KV returns the kv table's store.
func (s *Store) KV() *KV { return &KV{s: s} }

// GetWithContext returns the value for key, or nil when it is missing or
// expired.
func (kv *KV) GetWithContext(ctx context.Context, key string) ([]byte, error) {
	var v []byte
	err := kv.s.QueryRow(ctx, `SELECT value FROM kv WHERE key = ? AND (expires_at = 0 OR expires_at > ?)`,
		key, kv.s.Now().Unix()).Scan(&v)
	if err != nil && !errors.Is(err, sql.ErrNoRows) { // no row: missing
		return nil, kv.s.FormatError(err, "kv get", nil)
	}
	return v, nil
}

// SetWithContext stores val under key; exp 0 means no expiry.
func (kv *KV) SetWithContext(ctx context.Context, key string, val []byte, exp time.Duration) error {
	if key == "" || len(val) == 0 {
		return nil
	}
	var expires int64
	if exp > 0 {
		expires = kv.s.Now().Add(exp).Unix()
	}
	_, err := kv.s.Exec(ctx, `INSERT INTO kv (key, value, expires_at) VALUES (?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
		key, val, expires)
	return kv.s.FormatError(err, "kv set", nil)
}

// DeleteWithContext removes key.
func (kv *KV) DeleteWithContext(ctx context.Context, key string) error {
	_, err := kv.s.Exec(ctx, `DELETE FROM kv WHERE key = ?`, key)
	return kv.s.FormatError(err, "kv delete", nil)
}

// DeleteExpired removes expired entries and reports how many went.
func (kv *KV) DeleteExpired(ctx context.Context) (int64, error) {
	res, err := kv.s.Exec(ctx, `DELETE FROM kv WHERE expires_at > 0 AND expires_at <= ?`, kv.s.Now().Unix())
	if err != nil {
		return 0, kv.s.FormatError(err, "kv delete expired", nil)
	}
	return res.RowsAffected()
}

// Get is GetWithContext for fiber.Storage, which passes no context.
func (kv *KV) Get(key string) ([]byte, error) { return kv.GetWithContext(context.Background(), key) }

// Set is SetWithContext for fiber.Storage.
func (kv *KV) Set(key string, val []byte, exp time.Duration) error {
	return kv.SetWithContext(context.Background(), key, val, exp)
}

// Delete is DeleteWithContext for fiber.Storage.
func (kv *KV) Delete(key string) error { return kv.DeleteWithContext(context.Background(), key) }

// Reset removes every key.
func (kv *KV) Reset() error {
	_, err := kv.s.Exec(context.Background(), `DELETE FROM kv`)
	return kv.s.FormatError(err, "kv reset", nil)
}

// Close is a no-op: the backend owns the database.
func (kv *KV) Close() error { return nil }
