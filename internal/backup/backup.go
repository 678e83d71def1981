// Package backup owns the copies of a SQLite shop: taking one while the
// shop serves (SQLite's VACUUM INTO, one read transaction, so the copy is
// the database as of one moment), checking one (integrity, the shop's
// schema, row counts), restoring one into a data directory no shop is
// running on, and the schedule that keeps the newest few. PostgreSQL
// shops use pg_dump and pg_restore instead (docs/operations.md).
package backup

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/nocturne/storefront/internal/shop"
)

// Report describes a checked copy: where it is, its size, and how many
// rows its main tables hold.
type Report struct {
	Path   string
	Size   int64
	Tables []TableCount
}

// TableCount is one table's row count.
type TableCount struct {
	Table string
	Rows  int64
}

// Rows is the row count of table, or -1 when the report has none.
func (r Report) Rows(table string) int64 {
	for _, t := range r.Tables {
		if t.Table == table {
			return t.Rows
		}
	}
	return -1
}

// Write prints the report plainly, one line each: the file, its size and
// that it passed its checks, then each table's rows.
func (r Report) Write(w io.Writer) error {
	if _, err := fmt.Fprintf(w, "%s: %d bytes, integrity ok\n", r.Path, r.Size); err != nil {
		return err
	}
	for _, t := range r.Tables {
		if _, err := fmt.Fprintf(w, "%s: %d rows\n", t.Table, t.Rows); err != nil {
			return err
		}
	}
	return nil
}

// required are the tables a file must have to be a Nocturne database:
// the migrations' record and the tables no shop is without.
var required = []string{"goose_db_version", "products", "users", "orders"}

// counted are the main tables a report counts, in this order; a table an
// older schema lacks is left out.
var counted = []string{"products", "variants", "users", "orders", "order_lines", "return_requests", "audit_log"}

// sqliteHeader opens every SQLite database file.
var sqliteHeader = []byte("SQLite format 3\x00")

// OpenSource opens the shop's SQLite file at path for a backup while the
// shop may be serving from it: it must exist (nothing is created), and
// nothing is migrated (a newer binary must not change a running shop's
// schema).
func OpenSource(path string) (*sql.DB, error) {
	if fi, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("the shop's database: %w", err)
	} else if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("the shop's database %s is not a file", path)
	}
	q := url.Values{}
	q.Set("mode", "rw")
	q.Add("_pragma", "busy_timeout(5000)")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return db, nil
}

// Take copies the database src into a new file dst and checks the copy
// (Inspect). It is safe while the shop serves: VACUUM INTO reads in one
// transaction beside the shop's writers (WAL), so the copy holds every
// transaction committed before it began and none after. The copy is
// written under a temporary name and renamed when checked, so dst is
// either a complete, checked copy or absent; an existing dst is refused.
func Take(ctx context.Context, src *sql.DB, dst string) (Report, error) {
	if _, err := os.Lstat(dst); err == nil {
		return Report{}, fmt.Errorf("backup: %s already exists; choose a new file name", dst)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return Report{}, fmt.Errorf("backup: %w", err)
	}
	dir := filepath.Dir(dst)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Report{}, fmt.Errorf("backup: create %s: %w", dir, err)
	}
	tmp := tempName(dst)
	defer os.Remove(tmp) // left only when the copy failed
	if _, err := src.ExecContext(ctx, "VACUUM INTO ?", tmp); err != nil {
		return Report{}, fmt.Errorf("backup: copy the database: %w", err)
	}
	// It holds what the shop holds (password hashes, addresses): for the
	// shop's user alone, as the database is.
	if err := os.Chmod(tmp, 0o600); err != nil {
		return Report{}, fmt.Errorf("backup: %w", err)
	}
	if err := syncFile(tmp); err != nil {
		return Report{}, fmt.Errorf("backup: %w", err)
	}
	rep, err := Inspect(ctx, tmp)
	if err != nil {
		return Report{}, fmt.Errorf("backup: the copy failed its check: %w", err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		return Report{}, fmt.Errorf("backup: %w", err)
	}
	if err := syncDir(dir); err != nil {
		return Report{}, fmt.Errorf("backup: %w", err)
	}
	rep.Path = dst
	return rep, nil
}

// tempName is a name beside path for a file being written: never one a
// backup listing or the shop reads.
func tempName(path string) string {
	return path + ".tmp-" + shop.RandomHex(4)
}

// Inspect checks that path is a SQLite database (its header), that SQLite
// finds it intact (PRAGMA integrity_check), and that it is a Nocturne
// shop's (its migrations' table and main tables), and counts the rows of
// the main tables. It opens the file read-only and immutable: nothing of
// it is written, not even a journal.
func Inspect(ctx context.Context, path string) (Report, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return Report{}, err
	}
	if !fi.Mode().IsRegular() {
		return Report{}, fmt.Errorf("%s is not a file", path)
	}
	if err := checkHeader(path); err != nil {
		return Report{}, err
	}
	q := url.Values{}
	q.Set("mode", "ro")
	q.Set("immutable", "1")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return Report{}, fmt.Errorf("open %s: %w", path, err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if err := integrity(ctx, db, path); err != nil {
		return Report{}, err
	}
	tables, err := counts(ctx, db, path)
	if err != nil {
		return Report{}, err
	}
	return Report{Path: path, Size: fi.Size(), Tables: tables}, nil
}

// checkHeader refuses a file that does not begin as every SQLite
// database does.
func checkHeader(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, len(sqliteHeader))
	if _, err := io.ReadFull(f, head); err != nil || !bytes.Equal(head, sqliteHeader) {
		return fmt.Errorf("%s is not a SQLite database", path)
	}
	return nil
}

// integrity runs PRAGMA integrity_check, which answers one row "ok" or
// rows describing what is broken.
func integrity(ctx context.Context, db *sql.DB, path string) error {
	rows, err := db.QueryContext(ctx, "PRAGMA integrity_check")
	if err != nil {
		return fmt.Errorf("%s failed its integrity check: %w", path, err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return fmt.Errorf("%s failed its integrity check: %w", path, err)
		}
		if line != "ok" && len(problems) < 3 {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("%s failed its integrity check: %w", path, err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s failed its integrity check: %s", path, strings.Join(problems, "; "))
	}
	return nil
}

// counts checks that db has the tables every Nocturne database has and
// counts the rows of the main ones it has.
func counts(ctx context.Context, db *sql.DB, path string) ([]TableCount, error) {
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table'`)
	if err != nil {
		return nil, fmt.Errorf("read the tables of %s: %w", path, err)
	}
	has := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read the tables of %s: %w", path, err)
		}
		has[name] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read the tables of %s: %w", path, err)
	}
	for _, t := range required {
		if !has[t] {
			return nil, fmt.Errorf("%s is not a Nocturne database (it has no %s table)", path, t)
		}
	}
	var out []TableCount
	for _, t := range counted {
		if !has[t] {
			continue
		}
		var n int64
		// t is one of the names above, never input.
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+t).Scan(&n); err != nil {
			return nil, fmt.Errorf("count the rows of %s in %s: %w", t, path, err)
		}
		out = append(out, TableCount{Table: t, Rows: n})
	}
	return out, nil
}

// syncFile makes path's contents durable before it is renamed into place.
func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("sync %s: %w", path, err)
	}
	return f.Close()
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
