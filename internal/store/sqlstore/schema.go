package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"path"

	"github.com/pressly/goose/v3"
)

// SchemaStatus is where a database's schema stands against the migrations
// a release carries: what an operator reads before an upgrade, to know
// what the new release will apply at its start.
type SchemaStatus struct {
	// Version is the newest migration the database has had (0: none).
	Version int64
	// Pending names the release's migrations the database has not had,
	// oldest first, by file name (00024_orphan_payments.sql).
	Pending []string
}

// Status reports db's schema version and the migrations in fsys's
// migrations folder it has not had, applying none. goose records versions
// in a table of its own, which it creates (empty) on a database that has
// never been migrated.
func Status(ctx context.Context, db *sql.DB, dialect goose.Dialect, fsys fs.FS) (SchemaStatus, error) {
	sub, err := fs.Sub(fsys, "migrations")
	if err != nil {
		return SchemaStatus{}, fmt.Errorf("migrations: %w", err)
	}
	p, err := goose.NewProvider(dialect, db, sub)
	if err != nil {
		return SchemaStatus{}, fmt.Errorf("migrations: %w", err)
	}
	all, err := p.Status(ctx)
	if err != nil {
		return SchemaStatus{}, fmt.Errorf("migration status: %w", err)
	}
	// The newest version recorded, which may be a later release's: an
	// instance not yet replaced in a roll runs on its successor's schema.
	version, err := p.GetDBVersion(ctx)
	if err != nil {
		return SchemaStatus{}, fmt.Errorf("schema version: %w", err)
	}
	st := SchemaStatus{Version: version}
	for _, m := range all {
		if m.State == goose.StatePending {
			st.Pending = append(st.Pending, path.Base(m.Source.Path))
		}
	}
	return st, nil
}
