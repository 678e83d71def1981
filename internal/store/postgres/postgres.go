// Package postgres implements every store interface of package shop on
// PostgreSQL through jackc/pgx (a connection pool, statements prepared and
// cached per connection), so several Nocturne instances can share one
// database and act as one shop.
package postgres

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"github.com/nocturne/storefront/internal/store/sqlstore"
)

// dialect is PostgreSQL's part of the shared store: $n placeholders,
// LEAST, ILIKE, transactions retried on serialization failures and
// deadlocks, and transaction-level advisory locks where rows that do not
// exist yet must be claimed one writer at a time.
var dialect = sqlstore.Dialect{Numbered: true, Unprepared: true, ErrorCode: errorCode, Unavailable: Unavailable, Retry: retryable, Lock: lockSQL, Least: "LEAST", ILike: "ILIKE", True: "TRUE", Bytewise: ` COLLATE "C"`}

// lockSQL takes the transaction-level advisory lock named key.
func lockSQL(ctx context.Context, tx *sql.Tx, key string) error {
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, key); err != nil {
		return fmt.Errorf("lock %s: %w", key, err)
	}
	return nil
}

//go:embed migrations/*.sql
var migrations embed.FS

// DB makes every store of package shop: they are written once, in package
// sqlstore, and promoted through the embedded *sqlstore.Store; this package
// adds what its database does its own way.
var _ sqlstore.Stores = (*DB)(nil)

// DB is the PostgreSQL-backed store.
type DB struct {
	*sqlstore.Store
	pool *pgxpool.Pool

	lockMu   sync.Mutex
	lockConn *pgx.Conn // holds TryLock's session-level locks
}

// Options tune the pool; zero values keep pgx's defaults (or what the URL
// says, e.g. ?pool_max_conns=20).
type Options struct {
	MaxConns int32
}

// Open connects to the database at url (postgres://… or postgresql://…)
// and applies every pending migration. Migrations run under a PostgreSQL
// advisory lock, so instances starting together apply them once, one
// after the other.
func Open(ctx context.Context, url string, opts Options) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: parse DATABASE_URL: %w", err)
	}
	if opts.MaxConns > 0 {
		cfg.MaxConns = opts.MaxConns
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: connect: %w", err)
	}
	// database/sql keeps at most half the pool's connections idle, so
	// what uses the pool directly (the health checks, db copy) always
	// finds one; pgx keeps each connection's statements prepared on its
	// own (the dialect runs them unprepared), so a connection database/sql
	// lets go loses none.
	sqldb := stdlib.OpenDBFromPool(pool)
	sqldb.SetMaxIdleConns(idleConns(pool))
	// An idle connection goes back to the pool within a minute, where the
	// pool's own health checks and lifetimes apply to it.
	sqldb.SetConnMaxIdleTime(time.Minute)
	db := &DB{Store: sqlstore.New(sqldb, dialect, time.Now), pool: pool}
	if err := db.migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return db, nil
}

func (db *DB) migrate(ctx context.Context) error {
	// Instances waiting for another's migrations look again every second.
	locker, err := lock.NewPostgresSessionLocker(lock.WithLockTimeout(1, 600))
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	sqldb := stdlib.OpenDBFromPool(db.pool)
	defer sqldb.Close()
	return sqlstore.Migrate(ctx, sqldb, goose.DialectPostgres, migrations, goose.WithSessionLocker(locker))
}

// Status reports the schema version of the database at url and the
// migrations Open would apply to it, applying none. It takes no lock, so
// it answers while an instance is migrating.
func Status(ctx context.Context, url string) (sqlstore.SchemaStatus, error) {
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		return sqlstore.SchemaStatus{}, fmt.Errorf("postgres: connect: %w", err)
	}
	defer pool.Close()
	sqldb := stdlib.OpenDBFromPool(pool)
	defer sqldb.Close()
	return sqlstore.Status(ctx, sqldb, goose.DialectPostgres, migrations)
}

// idleConns is how many connections database/sql may keep idle: half the
// pool, so what uses the pool directly always finds one.
func idleConns(pool *pgxpool.Pool) int { return max(int(pool.Config().MaxConns)/2, 1) }

// Pool is the connection pool (db copy and tests).
func (db *DB) Pool() *pgxpool.Pool { return db.pool }

// Close closes the pool and the lock connection (releasing its locks).
func (db *DB) Close() error {
	db.lockMu.Lock()
	if db.lockConn != nil {
		db.lockConn.Close(context.Background())
	}
	db.lockMu.Unlock()
	db.Store.Close()
	db.SQL().Close()
	db.pool.Close()
	return nil
}

// Ping checks that the database answers a query.
func (db *DB) Ping(ctx context.Context) error {
	var one int
	if err := db.pool.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil {
		return fmt.Errorf("ping postgres: %w", err)
	}
	return nil
}

// Heartbeat commits at as the heartbeat row's time: a read-only database
// (a replica, default_transaction_read_only) or a full disk fails it as it
// would fail a shopper's write. Only the health monitor calls it.
func (db *DB) Heartbeat(ctx context.Context, at time.Time) error {
	_, err := db.pool.Exec(ctx, `UPDATE heartbeat SET beat_at = $1 WHERE id = 1`, at.UnixMilli())
	return db.FormatError(err, "heartbeat", nil)
}

// TryLock takes the session-level advisory lock key, and returns a
// release function, or false when another session (of any instance) holds
// it. Jobs that must run on one instance at a time (catalogue sync,
// clean-ups) take it for each run. The locks live on one connection of
// their own, outside the pool, so a job holding one never starves the
// pool it works with; if that connection dies, PostgreSQL releases its
// locks and the next TryLock reconnects.
func (db *DB) TryLock(ctx context.Context, key int64) (func(), bool, error) {
	db.lockMu.Lock()
	defer db.lockMu.Unlock()
	if db.lockConn == nil || db.lockConn.IsClosed() {
		conn, err := pgx.ConnectConfig(ctx, db.pool.Config().ConnConfig.Copy())
		if err != nil {
			return nil, false, fmt.Errorf("advisory lock: connect: %w", err)
		}
		db.lockConn = conn
	}
	var ok bool
	if err := db.lockConn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, key).Scan(&ok); err != nil {
		db.lockConn.Close(context.Background())
		return nil, false, fmt.Errorf("advisory lock: %w", err)
	}
	if !ok {
		return nil, false, nil
	}
	conn := db.lockConn
	return func() {
		db.lockMu.Lock()
		defer db.lockMu.Unlock()
		if conn.IsClosed() {
			return // closing released it
		}
		// A lock that cannot be released closes its connection, which
		// releases it.
		if _, err := conn.Exec(context.Background(), `SELECT pg_advisory_unlock($1)`, key); err != nil {
			conn.Close(context.Background())
		}
	}, true, nil
}

// SchemaHash names the schema the embedded migrations build (a hash of
// their text): tests keep one migrated template database per schema.
func SchemaHash() string {
	h := sha256.New()
	entries, _ := fs.ReadDir(migrations, "migrations")
	for _, e := range entries {
		b, _ := fs.ReadFile(migrations, "migrations/"+e.Name())
		h.Write([]byte(e.Name()))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}
