package sqlite

import (
	"context"
	"database/sql"
	"sync"
)

// stmts keeps one prepared statement per query text. SQLite parses and
// plans a statement on every prepare, which under load cost about a sixth
// of a page's CPU; database/sql re-prepares a cached statement on each
// connection only once.
type stmts struct {
	m sync.Map // query text → *sql.Stmt
}

func (db *DB) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if s, ok := db.stmts.m.Load(query); ok {
		return s.(*sql.Stmt), nil
	}
	s, err := db.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if prev, loaded := db.stmts.m.LoadOrStore(query, s); loaded {
		s.Close()
		return prev.(*sql.Stmt), nil
	}
	return s, nil
}

// query runs a prepared statement that returns rows.
func (db *DB) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	s, err := db.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return s.QueryContext(ctx, args...)
}

// queryRow runs a prepared statement that returns at most one row. A
// statement that fails to prepare is run unprepared, so its error reaches
// Scan as database/sql reports it.
func (db *DB) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	s, err := db.stmt(ctx, query)
	if err != nil {
		return db.db.QueryRowContext(ctx, query, args...)
	}
	return s.QueryRowContext(ctx, args...)
}

// exec runs a prepared statement that returns no rows.
func (db *DB) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	s, err := db.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return s.ExecContext(ctx, args...)
}

func (st *stmts) close() {
	st.m.Range(func(k, v any) bool {
		v.(*sql.Stmt).Close()
		st.m.Delete(k)
		return true
	})
}
