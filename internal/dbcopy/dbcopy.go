// Package dbcopy moves a shop's data from its SQLite database to a
// PostgreSQL one (`storefront db copy`): every table, in one PostgreSQL
// transaction, checked row count by row count at the end.
package dbcopy

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nocturne/storefront/internal/store/postgres"
	"github.com/nocturne/storefront/internal/store/sqlite"
)

// Options of a copy.
type Options struct {
	// Force copies into a target that holds data, replacing it.
	Force bool
	// Progress is told what is being copied (nil: nothing is printed).
	Progress io.Writer
}

// ErrTargetNotEmpty refuses a copy into a database that holds a shop.
var ErrTargetNotEmpty = errors.New("the target database is not empty (use --force to replace its data)")

// Skipped are the SQLite tables db copy leaves out, and why: nothing in
// them is data of the shop's own. Any other table must exist in
// PostgreSQL with the same columns, or the copy refuses to start.
var Skipped = map[string]string{
	"goose_db_version": "each database keeps its own migration history",
	"sqlite_sequence":  "SQLite's AUTOINCREMENT counters; identity sequences are set after the copy",
	"heartbeat":        "the health monitor's one row, which each database's monitor writes for itself",
}

// seeded are tables the migrations fill (a one-row table, the default
// shipping and tax settings, the carriers); their rows do not make a
// target "not empty".
var seeded = []string{"catalog_version", "pricing_settings", "shipping_zones", "shipping_zone_countries",
	"shipping_methods", "shipping_method_zones", "tax_rates",
	"carriers"}

// Table is one copied table and its row count.
type Table struct {
	Name string
	Rows int64
}

// Copy copies every table of the SQLite database at sqlitePath into the
// PostgreSQL database at pgURL, migrating both first. It refuses a target
// with data unless opts.Force. Everything lands in one transaction, so a
// failed copy leaves the target as it was, and a copy can be run again
// (with Force) to start over.
func Copy(ctx context.Context, sqlitePath, pgURL string, opts Options) ([]Table, error) {
	progress := func(format string, args ...any) {
		if opts.Progress != nil {
			fmt.Fprintf(opts.Progress, format+"\n", args...)
		}
	}
	// Opening migrates each side to the current schema.
	src, err := sqlite.Open(ctx, sqlitePath)
	if err != nil {
		return nil, fmt.Errorf("source: %w", err)
	}
	src.Close()
	dst, err := postgres.Open(ctx, pgURL, postgres.Options{MaxConns: 2})
	if err != nil {
		return nil, fmt.Errorf("target: %w", err)
	}
	defer dst.Close()
	srcDB, err := sql.Open("sqlite", "file:"+sqlitePath+"?mode=ro&_pragma=busy_timeout(5000)")
	if err != nil {
		return nil, fmt.Errorf("source: %w", err)
	}
	defer srcDB.Close()
	srcDB.SetMaxOpenConns(1)

	tables, err := sourceTables(ctx, srcDB)
	if err != nil {
		return nil, err
	}
	pg := dst.Pool()
	order, err := targetOrder(ctx, pg)
	if err != nil {
		return nil, err
	}
	if err := sameTables(tables, order); err != nil {
		return nil, err
	}
	if !opts.Force {
		if err := checkTargetEmpty(ctx, pg, order); err != nil {
			return nil, err
		}
	}

	// One read transaction on SQLite: a snapshot of the whole shop.
	stx, err := srcDB.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("source: %w", err)
	}
	defer stx.Rollback()

	copied, err := copyAll(ctx, stx, pg, order, progress)
	if err != nil {
		return nil, err
	}
	progress("checking row counts")
	if err := checkCounts(ctx, stx, pg, copied); err != nil {
		return nil, err
	}
	progress("done: %d tables, every row count matches", len(copied))
	return copied, nil
}

// sameTables refuses a copy between databases whose tables differ: every
// table of shop data must have its counterpart on the other side.
func sameTables(source, target []string) error {
	for _, t := range source {
		if !slices.Contains(target, t) {
			return fmt.Errorf("table %s has no counterpart in PostgreSQL: add it to the PostgreSQL migrations (or to dbcopy.Skipped, saying why)", t)
		}
	}
	for _, t := range target {
		if !slices.Contains(source, t) {
			return fmt.Errorf("PostgreSQL table %s has no counterpart in SQLite", t)
		}
	}
	return nil
}

// checkTargetEmpty refuses a target with rows in any table the migrations
// do not seed.
func checkTargetEmpty(ctx context.Context, pg *pgxpool.Pool, tables []string) error {
	for _, t := range tables {
		if slices.Contains(seeded, t) {
			continue
		}
		var any bool
		if err := pg.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM `+pgx.Identifier{t}.Sanitize()+`)`).Scan(&any); err != nil {
			return fmt.Errorf("target: %w", err)
		}
		if any {
			return fmt.Errorf("%w: table %s has rows", ErrTargetNotEmpty, t)
		}
	}
	return nil
}

// copyAll empties the target and copies the tables in order, in one
// PostgreSQL transaction, so a failure leaves the target as it was.
func copyAll(ctx context.Context, stx *sql.Tx, pg *pgxpool.Pool, order []string, progress func(string, ...any)) ([]Table, error) {
	var copied []Table
	err := pgx.BeginFunc(ctx, pg, func(tx pgx.Tx) error {
		quoted := make([]string, len(order))
		for i, t := range order {
			quoted[i] = pgx.Identifier{t}.Sanitize()
		}
		if _, err := tx.Exec(ctx, `TRUNCATE `+strings.Join(quoted, ", ")+` RESTART IDENTITY`); err != nil {
			return fmt.Errorf("empty the target: %w", err)
		}
		for _, t := range order {
			n, err := copyTable(ctx, stx, tx, t, progress)
			if err != nil {
				return fmt.Errorf("copy %s: %w", t, err)
			}
			copied = append(copied, Table{Name: t, Rows: n})
		}
		return resetIdentities(ctx, tx)
	})
	if err != nil {
		return nil, err
	}
	return copied, nil
}

// checkCounts compares each copied table's rows on both sides, and with
// what the copy wrote.
func checkCounts(ctx context.Context, stx *sql.Tx, pg *pgxpool.Pool, copied []Table) error {
	for _, t := range copied {
		var want, got int64
		if err := stx.QueryRowContext(ctx, `SELECT COUNT(*) FROM "`+t.Name+`"`).Scan(&want); err != nil {
			return fmt.Errorf("count %s in the source: %w", t.Name, err)
		}
		if err := pg.QueryRow(ctx, `SELECT COUNT(*) FROM `+pgx.Identifier{t.Name}.Sanitize()).Scan(&got); err != nil {
			return fmt.Errorf("count %s in the target: %w", t.Name, err)
		}
		if want != got || got != t.Rows {
			return fmt.Errorf("table %s: %d rows in SQLite, %d in PostgreSQL", t.Name, want, got)
		}
	}
	return nil
}

// sourceTables lists SQLite's tables of shop data: not its own tables,
// not full-text indexes (virtual tables and their shadow tables, which
// PostgreSQL rebuilds from the rows), not Skipped.
func sourceTables(ctx context.Context, db *sql.DB) ([]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT name, COALESCE(sql, '') FROM sqlite_master WHERE type = 'table' ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("source tables: %w", err)
	}
	defer rows.Close()
	var names []string
	virtual := map[string]bool{}
	for rows.Next() {
		var name, ddl string
		if err := rows.Scan(&name, &ddl); err != nil {
			return nil, fmt.Errorf("source tables: %w", err)
		}
		if strings.HasPrefix(strings.ToUpper(ddl), "CREATE VIRTUAL TABLE") {
			virtual[name] = true
			continue
		}
		names = append(names, name)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("source tables: %w", err)
	}
	var out []string
	for _, n := range names {
		if _, skip := Skipped[n]; skip || strings.HasPrefix(n, "sqlite_") || shadowOf(n, virtual) {
			continue
		}
		out = append(out, n)
	}
	return out, nil
}

// shadowOf reports whether name is a shadow table of a virtual table
// (products_fts_data of products_fts).
func shadowOf(name string, virtual map[string]bool) bool {
	for v := range virtual {
		if strings.HasPrefix(name, v+"_") {
			return true
		}
	}
	return false
}

// targetOrder lists PostgreSQL's tables (but goose's) with every table
// after the tables its foreign keys refer to.
func targetOrder(ctx context.Context, pg interface {
	Query(context.Context, string, ...any) (pgx.Rows, error)
}) ([]string, error) {
	rows, err := pg.Query(ctx, `SELECT c.relname,
			COALESCE(array_agg(DISTINCT r.relname) FILTER (WHERE r.relname IS NOT NULL AND r.relname <> c.relname), '{}')
		FROM pg_class c
		JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
		LEFT JOIN pg_constraint f ON f.conrelid = c.oid AND f.contype = 'f'
		LEFT JOIN pg_class r ON r.oid = f.confrelid
		WHERE c.relkind = 'r' AND c.relname <> 'goose_db_version'
		GROUP BY c.relname ORDER BY c.relname`)
	if err != nil {
		return nil, fmt.Errorf("target tables: %w", err)
	}
	deps := map[string][]string{}
	var names []string
	for rows.Next() {
		var name string
		var refs []string
		if err := rows.Scan(&name, &refs); err != nil {
			return nil, fmt.Errorf("target tables: %w", err)
		}
		if _, skip := Skipped[name]; skip {
			continue
		}
		names = append(names, name)
		deps[name] = refs
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("target tables: %w", err)
	}
	var order []string
	done := map[string]bool{}
	var visit func(string)
	visit = func(t string) {
		if done[t] {
			return
		}
		done[t] = true
		for _, d := range deps[t] {
			visit(d)
		}
		order = append(order, t)
	}
	for _, t := range names {
		visit(t)
	}
	return order, nil
}

// column is a target column and its type.
type column struct{ name, typ string }

func copyTable(ctx context.Context, src *sql.Tx, dst pgx.Tx, table string, progress func(string, ...any)) (int64, error) {
	rows, err := dst.Query(ctx, `SELECT column_name, data_type FROM information_schema.columns
		WHERE table_schema = current_schema() AND table_name = $1 AND is_generated = 'NEVER' ORDER BY ordinal_position`, table)
	if err != nil {
		return 0, err
	}
	cols, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (column, error) {
		var c column
		return c, r.Scan(&c.name, &c.typ)
	})
	if err != nil {
		return 0, err
	}
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.name
	}
	srcRows, err := src.QueryContext(ctx, `SELECT "`+strings.Join(names, `", "`)+`" FROM "`+table+`"`)
	if err != nil {
		return 0, fmt.Errorf("read (does SQLite have the same columns?): %w", err)
	}
	defer srcRows.Close()
	source := &rowSource{rows: srcRows, cols: cols, table: table, progress: progress}
	n, err := dst.CopyFrom(ctx, pgx.Identifier{table}, names, source)
	if err != nil {
		return 0, err
	}
	progress("%-18s %8d rows", table, n)
	return n, nil
}

// rowSource feeds SQLite's rows to COPY, converting what the two stores
// type differently: SQLite's 0/1 integers become booleans, text read as
// bytes becomes text and the other way round.
type rowSource struct {
	rows     *sql.Rows
	cols     []column
	table    string
	progress func(string, ...any)
	n        int64
	err      error
	vals     []any
}

func (s *rowSource) Next() bool {
	if !s.rows.Next() {
		return false
	}
	s.n++
	if s.n%50000 == 0 {
		s.progress("%-18s %8d rows…", s.table, s.n)
	}
	raw := make([]any, len(s.cols))
	ptrs := make([]any, len(s.cols))
	for i := range raw {
		ptrs[i] = &raw[i]
	}
	if err := s.rows.Scan(ptrs...); err != nil {
		s.err = err
		return false
	}
	for i, c := range s.cols {
		raw[i] = convert(raw[i], c.typ)
	}
	s.vals = raw
	return true
}

func (s *rowSource) Values() ([]any, error) { return s.vals, nil }

func (s *rowSource) Err() error {
	if s.err != nil {
		return s.err
	}
	return s.rows.Err()
}

func convert(v any, typ string) any {
	switch typ {
	case "boolean":
		switch x := v.(type) {
		case int64:
			return x != 0
		case float64:
			return x != 0
		}
	case "bytea":
		if x, ok := v.(string); ok {
			return []byte(x)
		}
	case "text":
		if x, ok := v.([]byte); ok {
			return string(x)
		}
	case "double precision":
		if x, ok := v.(int64); ok {
			return float64(x)
		}
	case "bigint":
		if x, ok := v.(float64); ok {
			return int64(x)
		}
	}
	return v
}

// resetIdentities moves every identity column's sequence past the copied
// ids, so the next contact message or e-mail gets a fresh one.
func resetIdentities(ctx context.Context, tx pgx.Tx) error {
	rows, err := tx.Query(ctx, `SELECT table_name, column_name FROM information_schema.columns
		WHERE table_schema = current_schema() AND is_identity = 'YES'`)
	if err != nil {
		return fmt.Errorf("identity columns: %w", err)
	}
	type ident struct{ table, column string }
	idents, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ident, error) {
		var i ident
		return i, r.Scan(&i.table, &i.column)
	})
	if err != nil {
		return fmt.Errorf("identity columns: %w", err)
	}
	for _, i := range idents {
		t, c := pgx.Identifier{i.table}.Sanitize(), pgx.Identifier{i.column}.Sanitize()
		if _, err := tx.Exec(ctx, `SELECT setval(pg_get_serial_sequence($1, $2), COALESCE((SELECT MAX(`+c+`) FROM `+t+`), 0) + 1, false)`,
			i.table, i.column); err != nil {
			return fmt.Errorf("reset identity of %s: %w", i.table, err)
		}
	}
	return nil
}
