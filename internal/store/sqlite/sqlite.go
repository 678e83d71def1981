// Package sqlite implements every store interface of package shop on SQLite
// through modernc.org/sqlite, a pure-Go driver, so a fresh clone needs no C
// toolchain and no database server.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/pressly/goose/v3"
	"modernc.org/sqlite"

	"github.com/nocturne/storefront/internal/store/sqlstore"
)

// dialect is SQLite's part of the shared store: ? placeholders, MIN of
// two values, LIKE that ignores ASCII case, and no locks (a transaction
// that writes begins IMMEDIATE, so writers already run one at a time).
var dialect = sqlstore.Dialect{ErrorCode: errorCode, Unavailable: Unavailable, Least: "MIN", ILike: "LIKE", True: "1"}

//go:embed migrations/*.sql
var migrations embed.FS

// maxConns bounds the open connections: enough for readers on every core
// (WAL lets them run beside the one writer), few enough to keep each
// connection's prepared statements warm.
const maxConns = 8

// DB makes every store of package shop: they are written once, in package
// sqlstore, and promoted through the embedded *sqlstore.Store; this package
// adds what its database does its own way.
var _ sqlstore.Stores = (*DB)(nil)

// DB is the SQLite-backed store.
type DB struct {
	*sqlstore.Store
	stem *stemmer
	// search is what Search keeps between searches (search.go).
	search *searchIndex
	// guard is the database's path and the file it named at open (nil in
	// memory): a file deleted or replaced under the running shop shows on
	// /healthz, and every write is refused, instead of taking writes
	// nobody will read.
	guard *fileGuard
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
	connector, err := sqlite.NewConnector(dsn)
	if err != nil {
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	guard := &fileGuard{path: path, now: time.Now}
	sqldb := sql.OpenDB(guardedConnector{Connector: connector, guard: guard})
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
	db := &DB{Store: sqlstore.New(sqldb, dialect, time.Now), stem: stem, search: newSearchIndex()}
	if err := db.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	if !memory {
		if err := guard.arm(); err != nil {
			db.Close()
			return nil, err
		}
		db.guard = guard
	}
	return db, nil
}

func (db *DB) migrate(ctx context.Context) error {
	return sqlstore.Migrate(ctx, db.SQL(), goose.DialectSQLite3, migrations)
}

// Status reports the schema version of the database at path and the
// migrations Open would apply to it, applying none. A path with no
// database is an error, not a new empty file: a mistyped DATA_DIR should
// not look like a shop that was never started.
func Status(ctx context.Context, path string) (sqlstore.SchemaStatus, error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return sqlstore.SchemaStatus{}, fmt.Errorf("no database at %s (the shop creates it at its first start)", path)
	} else if err != nil {
		return sqlstore.SchemaStatus{}, err
	}
	sqldb, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		return sqlstore.SchemaStatus{}, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	defer sqldb.Close()
	return sqlstore.Status(ctx, sqldb, goose.DialectSQLite3, migrations)
}

// Ping checks that the database answers a query, from the file its path
// still names.
func (db *DB) Ping(ctx context.Context) error {
	if err := db.sameFile(); err != nil {
		return err
	}
	var one int
	if err := db.SQL().QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
		return fmt.Errorf("ping sqlite: %w", err)
	}
	return nil
}

// sameFile checks, now, that the database path still names the file
// opened (see fileGuard); once it does not, every commit is refused too.
func (db *DB) sameFile() error {
	if db.guard == nil {
		return nil
	}
	return db.guard.check(true)
}

// Heartbeat commits at as the heartbeat row's time. Its pad changes size
// on every beat, so the beat writes fresh pages: on a full disk (or at
// SQLite's max_page_count) it fails as a shopper's write would, on a
// read-only file too. Only the health monitor calls it.
func (db *DB) Heartbeat(ctx context.Context, at time.Time) error {
	if err := db.sameFile(); err != nil {
		return err
	}
	_, err := db.Exec(ctx, `UPDATE heartbeat SET beat_at = ?,
		pad = zeroblob(CASE WHEN length(pad) = 12288 THEN 12289 ELSE 12288 END) WHERE id = 1`, at.UnixMilli())
	return db.FormatError(err, "heartbeat", nil)
}

// SetMaxPages sets SQLite's max_page_count on every connection: the
// database cannot grow past n pages (0: SQLite's default). Tests use it
// for a full disk they can undo; it returns the page count now.
func (db *DB) SetMaxPages(ctx context.Context, n int64) (int64, error) {
	if n <= 0 {
		n = 1073741823 // SQLite's default
	}
	all := db.SQL().Stats().MaxOpenConnections
	conns := make([]*sql.Conn, 0, all)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	var pages int64
	// Holding every connection at once reaches each of the pool's.
	for range all {
		c, err := db.SQL().Conn(ctx)
		if err != nil {
			return 0, fmt.Errorf("max pages: %w", err)
		}
		conns = append(conns, c)
		if _, err := c.ExecContext(ctx, fmt.Sprintf("PRAGMA max_page_count = %d", n)); err != nil {
			return 0, fmt.Errorf("max pages: %w", err)
		}
		if err := c.QueryRowContext(ctx, "PRAGMA page_count").Scan(&pages); err != nil {
			return 0, fmt.Errorf("max pages: %w", err)
		}
	}
	return pages, nil
}

// Close closes the database.
func (db *DB) Close() error {
	db.stem.Close()
	db.Store.Close()
	return db.SQL().Close()
}
