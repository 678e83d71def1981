package config

import (
	"math"
	"strings"
	"time"
)

// Backups are the scheduled backups of a SQLite shop.
type Backups struct {
	// Dir receives a backup every Interval (BACKUP_DIR); empty takes none.
	Dir string
	// Interval is how often a backup is taken (BACKUP_INTERVAL).
	Interval time.Duration
	// Keep is how many of the newest backups are kept (BACKUP_KEEP); older
	// ones are deleted.
	Keep int
}

// Defaults of the scheduled backups: a day's backups for a week.
const (
	DefaultBackupInterval = 24 * time.Hour
	DefaultBackupKeep     = 7
)

// loadBackups reads the backup schedule. A PostgreSQL shop is backed up by
// the database's own tools, so BACKUP_DIR there is refused rather than
// silently ignored.
func loadBackups(e *env, cfg *Config) {
	cfg.Backups.Dir = strings.TrimSpace(e.get("BACKUP_DIR"))
	cfg.Backups.Interval = e.duration("BACKUP_INTERVAL", DefaultBackupInterval, time.Hour, math.MaxInt64,
		"BACKUP_INTERVAL must be a duration of at least 1h such as 24h or 6h")
	cfg.Backups.Keep = e.number("BACKUP_KEEP", DefaultBackupKeep, 1, 1000, "BACKUP_KEEP must be a whole number from 1 to 1000")
	if cfg.Backups.Dir != "" && cfg.Postgres() {
		e.fail("BACKUP_DIR is for SQLite shops; back up PostgreSQL with pg_dump (see docs/operations.md#backups)")
	}
	if cfg.Backups.Dir != "" && cfg.SQLitePath() == ":memory:" {
		e.fail("BACKUP_DIR needs a database file; DATABASE_URL names an in-memory database")
	}
}
