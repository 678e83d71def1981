// Package sqlite implements every store interface of package shop on SQLite
// through modernc.org/sqlite, a pure-Go driver, so a fresh clone needs no C
// toolchain and no database server.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/pressly/goose/v3"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

//go:embed migrations/*.sql
var migrations embed.FS

// maxConns bounds the open connections: enough for readers on every core
// (WAL lets them run beside the one writer), few enough to keep each
// connection's prepared statements warm.
const maxConns = 8

// DB is the SQLite-backed store.
type DB struct {
	db    *sql.DB
	stmts stmts
	now   func() time.Time
	stem  *stemmer
	// search is what Search keeps between searches (search.go).
	search *searchIndex
}

// Open opens (creating if needed) the database at path, or an in-memory one
// for ":memory:", and applies every pending migration.
func Open(ctx context.Context, path string) (*DB, error) {
	memory := path == ":memory:"
	if !memory {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, fmt.Errorf("create database directory: %w", err)
		}
	}
	q := url.Values{}
	// WAL lets readers run while one writer writes; the busy timeout makes
	// concurrent writers wait instead of failing; IMMEDIATE transactions take
	// the write lock up front so a read-then-write never deadlocks.
	q.Add("_pragma", "busy_timeout(5000)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(NORMAL)")
	if !memory {
		q.Add("_pragma", "journal_mode(WAL)")
	}
	q.Set("_txlock", "immediate")
	dsn := "file:" + path + "?" + q.Encode()
	if memory {
		dsn = "file::memory:?" + q.Encode()
	}
	sqldb, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	if memory {
		// Every connection to ":memory:" is a different database.
		sqldb.SetMaxOpenConns(1)
	} else {
		// Keep the connections open: database/sql's default keeps two
		// idle, so under load connections were closed and reopened, and
		// each new one parsed the schema and every prepared statement
		// again (a sixth of a signed-in page's CPU).
		sqldb.SetMaxOpenConns(maxConns)
		sqldb.SetMaxIdleConns(maxConns)
	}
	stem, err := newStemmer(ctx)
	if err != nil {
		sqldb.Close()
		return nil, err
	}
	db := &DB{db: sqldb, now: time.Now, stem: stem, search: newSearchIndex()}
	if err := db.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

func (db *DB) migrate(ctx context.Context) error {
	sub, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, db.db, sub)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("apply migrations: %w", err)
	}
	return nil
}

// SetClock replaces the clock; tests use it to control expiry.
func (db *DB) SetClock(now func() time.Time) { db.now = now }

// Ping checks that the database answers a query.
func (db *DB) Ping(ctx context.Context) error {
	var one int
	if err := db.db.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
		return fmt.Errorf("ping sqlite: %w", err)
	}
	return nil
}

// ProbeWrite checks that the database accepts a write: it takes the write
// lock and updates a row inside a transaction that is rolled back, so a
// read-only file, a full disk or a lost lock shows without changing a row.
func (db *DB) ProbeWrite(ctx context.Context) error {
	tx, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("write probe: begin: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE catalog_version SET version = version + 1 WHERE id = 1`); err != nil {
		return fmt.Errorf("write probe: %w", err)
	}
	return nil
}

// Close closes the database.
func (db *DB) Close() error {
	db.stem.Close()
	db.stmts.close()
	return db.db.Close()
}

// JournalMode reports SQLite's journal mode ("wal" for file databases).
func (db *DB) JournalMode(ctx context.Context) (string, error) {
	var mode string
	if err := db.db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return "", fmt.Errorf("read journal mode: %w", err)
	}
	return mode, nil
}
