// Package sqlstore is the store written once for every SQL database the
// shop runs on. Each statement both SQLite and PostgreSQL accept lives
// here, written with ? placeholders; a backend package (sqlite, postgres)
// opens its database, applies its migrations, and gives a Dialect for what
// really differs: placeholders, error codes, locking and a few function
// names. Search, bulk copy and advisory locks stay in the backends, where
// the dialects part ways. See docs/decisions on the store's shape.
package sqlstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pressly/goose/v3"

	"github.com/nocturne/storefront/internal/shop"
)

// Messages maps shop error codes to what the shopper is told when a
// statement breaks a constraint of that code; a Dialect's FormatError
// reads it.
type Messages map[string]string

// errClosed is database/sql's error for a closed database, which it does
// not export: taken once from a handle closed at start, so Closed knows it
// by identity, not by its text.
var errClosed = func() error {
	d := sql.OpenDB(nopConnector{})
	d.Close()
	return d.PingContext(context.Background())
}()

// Closed reports whether err says the database handle, or the connection
// it was using, is closed: the database cannot serve, not a request gone
// wrong.
func Closed(err error) bool {
	return errors.Is(err, sql.ErrConnDone) || errClosed != nil && errors.Is(err, errClosed)
}

// nopConnector is a connector that is never asked for a connection.
type nopConnector struct{}

func (nopConnector) Connect(context.Context) (driver.Conn, error) { return nil, driver.ErrBadConn }
func (nopConnector) Driver() driver.Driver                        { return nil }

// Dialect is what differs between the databases.
type Dialect struct {
	// Numbered placeholders: $1, $2, … (PostgreSQL) instead of ?.
	Numbered bool
	// Unprepared: the driver prepares and caches statements on its own
	// connections (pgx does), so the store does not hold database/sql
	// statements, which would need connections kept out of the driver's
	// pool to stay prepared.
	Unprepared bool
	// ErrorCode names the shop error code of a constraint the driver's
	// error reports, by the database's own error codes ("" for none).
	ErrorCode func(err error) string
	// Unavailable reports a driver error that says the database cannot
	// serve now (unreachable, full, read-only, closed).
	Unavailable func(err error) bool
	// Retry reports a failed transaction worth running again (PostgreSQL's
	// serialization failures and deadlocks); nil: none is.
	Retry func(err error) bool
	// Lock makes the transactions that take the same key run one after
	// the other (PostgreSQL's transaction-level advisory locks); nil when
	// the database already runs writers one at a time (SQLite).
	Lock func(ctx context.Context, tx *sql.Tx, key string) error
	// Least is the SQL function that picks the smaller of two values.
	Least string
	// ILike is the case-insensitive LIKE operator.
	ILike string
	// True is the literal true as the schema's partial indexes spell it
	// (SQLite's planner matches "featured = 1" to an index on that
	// condition, not "featured = TRUE").
	True string
	// Bytewise follows an ORDER BY to sort text by its bytes, as Go does
	// ("" where that is the default, as on SQLite).
	Bytewise string
}

// Store runs the shared statements on one database.
type Store struct {
	db    *sql.DB
	d     Dialect
	now   atomic.Pointer[func() time.Time]
	stmts sync.Map // query text as written → *sql.Stmt, or its rebound text when unprepared
}

// New returns a store over db speaking d, reading the time from now.
func New(db *sql.DB, d Dialect, now func() time.Time) *Store {
	s := &Store{db: db, d: d}
	s.now.Store(&now)
	return s
}

// SQL is the database handle, for a backend's own statements.
func (s *Store) SQL() *sql.DB { return s.db }

// Now is the store's clock.
func (s *Store) Now() time.Time { return (*s.now.Load())() }

// SetClock replaces the clock; tests use it to control expiry.
func (s *Store) SetClock(now func() time.Time) { s.now.Store(&now) }

// FormatError is the one place a driver's error becomes a shop error, by
// the database's error code (the dialect's ErrorCode), never by message
// text: a unique violation is an ECONFLICT, a foreign-key violation an
// ENOTFOUND (the row referred to is gone), a check or not-null violation
// an EINVALID. msgs gives the shopper-facing message of each code the
// caller expects; a violation it does not expect, or any other failure, is
// wrapped with what as an internal error. A database that cannot serve
// (the dialect's Unavailable) is shop.ErrUnavailable, whatever msgs says.
// A nil err stays nil.
func (s *Store) FormatError(err error, what string, msgs Messages) error {
	d := s.d
	if err == nil {
		return nil
	}
	if d.Unavailable(err) {
		return fmt.Errorf("%s: %w: %w", what, shop.ErrUnavailable, err)
	}
	if code := d.ErrorCode(err); code != "" {
		if msg, ok := msgs[code]; ok {
			return shop.Errorf(code, "%s", msg)
		}
	}
	return fmt.Errorf("%s: %w", what, err)
}

// Rebind writes query's ? placeholders as the dialect wants them. A ?
// inside a quoted string is left alone.
func (s *Store) Rebind(query string) string {
	if !s.d.Numbered || !strings.Contains(query, "?") {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 8)
	n, quoted := 0, false
	for i := 0; i < len(query); i++ {
		switch c := query[i]; {
		case c == '\'':
			quoted = !quoted
			b.WriteByte(c)
		case c == '?' && !quoted:
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// stmt returns the prepared statement of query. Preparing parses and
// plans a statement, which under load cost SQLite about a sixth of a
// page's CPU; database/sql then prepares a cached statement on each
// connection only once.
func (s *Store) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if s.d.Unprepared {
		return nil, errUnprepared
	}
	if st, ok := s.stmts.Load(query); ok {
		return st.(*sql.Stmt), nil
	}
	st, err := s.db.PrepareContext(ctx, s.Rebind(query))
	if err != nil {
		return nil, err
	}
	if prev, loaded := s.stmts.LoadOrStore(query, st); loaded {
		st.Close()
		return prev.(*sql.Stmt), nil
	}
	return st, nil
}

// errUnprepared says the dialect runs statements unprepared.
var errUnprepared = errors.New("unprepared")

// rebound is query as the dialect writes it, rebound once.
func (s *Store) rebound(query string) string {
	if !s.d.Numbered {
		return query
	}
	if q, ok := s.stmts.Load(query); ok {
		return q.(string)
	}
	q := s.Rebind(query)
	s.stmts.Store(query, q)
	return q
}

// Query runs a prepared statement that returns rows.
func (s *Store) Query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if s.d.Unprepared {
		return s.db.QueryContext(ctx, s.rebound(query), args...)
	}
	st, err := s.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

// QueryRow runs a prepared statement that returns at most one row. A
// statement that fails to prepare is run unprepared, so its error reaches
// Scan as database/sql reports it.
func (s *Store) QueryRow(ctx context.Context, query string, args ...any) *sql.Row {
	st, err := s.stmt(ctx, query)
	if err != nil {
		return s.db.QueryRowContext(ctx, s.rebound(query), args...)
	}
	return st.QueryRowContext(ctx, args...)
}

// Exec runs a prepared statement that returns no rows.
func (s *Store) Exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if s.d.Unprepared {
		return s.db.ExecContext(ctx, s.rebound(query), args...)
	}
	st, err := s.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(ctx, args...)
}

// Tx is a transaction that speaks the store's dialect.
type Tx struct {
	*sql.Tx
	s *Store
}

// Query runs query in the transaction.
func (tx Tx) Query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return tx.Tx.QueryContext(ctx, tx.s.Rebind(query), args...)
}

// QueryRow runs query in the transaction.
func (tx Tx) QueryRow(ctx context.Context, query string, args ...any) *sql.Row {
	return tx.Tx.QueryRowContext(ctx, tx.s.Rebind(query), args...)
}

// Exec runs query in the transaction.
func (tx Tx) Exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return tx.Tx.ExecContext(ctx, tx.s.Rebind(query), args...)
}

// Lock takes the dialect's lock on key until the transaction ends.
func (tx Tx) Lock(ctx context.Context, key string) error {
	if tx.s.d.Lock == nil {
		return nil
	}
	return tx.s.d.Lock(ctx, tx.Tx, key)
}

// InTx runs fn in a transaction, committed when fn returns nil. A failure
// the dialect says is worth retrying (another instance's transaction on
// the same rows) runs fn again, a few times, as PostgreSQL advises.
func (s *Store) InTx(ctx context.Context, fn func(tx Tx) error) error {
	for attempt := 0; ; attempt++ {
		err := s.inTx(ctx, fn)
		if err != nil && attempt < 4 && s.d.Retry != nil && s.d.Retry(err) {
			continue
		}
		return err
	}
}

func (s *Store) inTx(ctx context.Context, fn func(tx Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback()
	if err := fn(Tx{Tx: tx, s: s}); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// Close closes the prepared statements (not the database, whose backend
// owns it).
func (s *Store) Close() {
	s.stmts.Range(func(k, v any) bool {
		if st, ok := v.(*sql.Stmt); ok {
			st.Close()
		}
		s.stmts.Delete(k)
		return true
	})
}

// Stores is every store of package shop that the shared store serves; a
// backend that embeds *Store makes them all.
type Stores interface {
	shop.CatalogStore
	shop.CartStore
	shop.WishlistStore
	shop.ImageStore
	shop.UserStore
	shop.PasswordResetStore
	shop.SignInLinkStore
	shop.EmailConfirmationStore
	shop.OutboxStore
	shop.MailQueueStore
	shop.ThrottleStore
	shop.ContactStore
	shop.OrderStore
	shop.ChargeStore
	shop.PaymentStore
	shop.RefundIntentStore
	shop.StockStore
	shop.StaffStore
	shop.AuditStore
	shop.FulfilmentStore
	shop.OrderNoteStore
	shop.InboxStore
	shop.ProductAdminStore
	shop.DashboardStore
	shop.CarrierStore
	shop.VariantStore
	shop.GalleryStore
	shop.CatalogFileStore
	shop.VariantAdminStore
	shop.PricingStore
	shop.PromoStore
	shop.CustomerStore
	shop.PersonalDataStore
	shop.ExportStore
	shop.ReturnStore
	shop.OrphanStore
}

// Migrate applies every migration in fsys's migrations folder that db has
// not had yet, with goose in the database's dialect.
func Migrate(ctx context.Context, db *sql.DB, dialect goose.Dialect, fsys fs.FS, opts ...goose.ProviderOption) error {
	sub, err := fs.Sub(fsys, "migrations")
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	p, err := goose.NewProvider(dialect, db, sub, opts...)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("apply migrations: %w", err)
	}
	return nil
}
