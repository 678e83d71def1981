package sqlite

import (
	"context"
	"fmt"
	"time"
)

// SetWarmMinProducts sets how many products a word must be in for
// WarmSearch to score it in advance; tests lower it on small catalogues.
func (db *DB) SetWarmMinProducts(n int) { db.search.warmMinProducts = n }

// JournalMode reports SQLite's journal mode ("wal" for file databases).
func (db *DB) JournalMode(ctx context.Context) (string, error) {
	var mode string
	if err := db.SQL().QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return "", fmt.Errorf("read journal mode: %w", err)
	}
	return mode, nil
}

// SetFileClock sets the clock that paces the commit hook's look at the
// database path.
func (db *DB) SetFileClock(now func() time.Time) {
	db.guard.mu.Lock()
	defer db.guard.mu.Unlock()
	db.guard.now = now
}
