package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Hit counts one hit in one statement, so concurrent hits from several
// instances are all counted; a hit after the window ended starts a new one.
// The old row's columns are named by the table (throttle.hits): PostgreSQL
// finds a bare name ambiguous next to excluded's.
func (s *Store) Hit(ctx context.Context, key string, window time.Duration) (int, time.Time, error) {
	now := s.Now().Unix()
	end := s.Now().Add(window).Unix()
	var hits int
	var resets int64
	err := s.QueryRow(ctx, `INSERT INTO throttle (key, hits, window_end) VALUES (?, 1, ?)
		ON CONFLICT (key) DO UPDATE SET
			hits = CASE WHEN throttle.window_end <= ? THEN 1 ELSE throttle.hits + 1 END,
			window_end = CASE WHEN throttle.window_end <= ? THEN excluded.window_end ELSE throttle.window_end END
		RETURNING hits, window_end`, key, end, now, now).Scan(&hits, &resets)
	if err != nil {
		return 0, time.Time{}, fmt.Errorf("throttle hit: %w", err)
	}
	return hits, time.Unix(resets, 0), nil
}

// Hits reads a key's count in its current window.
func (s *Store) Hits(ctx context.Context, key string) (int, time.Time, error) {
	var hits int
	var resets int64
	err := s.QueryRow(ctx, `SELECT hits, window_end FROM throttle WHERE key = ? AND window_end > ?`, key, s.Now().Unix()).
		Scan(&hits, &resets)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, time.Time{}, nil
	} else if err != nil {
		return 0, time.Time{}, fmt.Errorf("throttle hits: %w", err)
	}
	return hits, time.Unix(resets, 0), nil
}

// ClearHits forgets a key.
func (s *Store) ClearHits(ctx context.Context, key string) error {
	if _, err := s.Exec(ctx, `DELETE FROM throttle WHERE key = ?`, key); err != nil {
		return fmt.Errorf("throttle clear: %w", err)
	}
	return nil
}

// DeleteExpiredThrottles removes counters whose window ended.
func (s *Store) DeleteExpiredThrottles(ctx context.Context) (int64, error) {
	res, err := s.Exec(ctx, `DELETE FROM throttle WHERE window_end <= ?`, s.Now().Unix())
	if err != nil {
		return 0, fmt.Errorf("throttle sweep: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("throttle sweep: %w", err)
	}
	return n, nil
}
