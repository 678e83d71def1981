package main

import (
	"context"
	"fmt"
	"io"

	"github.com/nocturne/storefront/internal/config"
	"github.com/nocturne/storefront/internal/store/postgres"
	"github.com/nocturne/storefront/internal/store/sqlite"
	"github.com/nocturne/storefront/internal/store/sqlstore"
)

// dbStatusCommand runs `storefront db status`: the schema version of the
// database DATABASE_URL names, then one line per migration this release
// would apply at its start, applying none. Before a roll an operator
// sees what the new release will change under the instances still
// running the old one (decision 0018).
func dbStatusCommand(ctx context.Context, cfg *config.Config, out io.Writer) error {
	var st sqlstore.SchemaStatus
	var err error
	if cfg.Postgres() {
		st, err = postgres.Status(ctx, cfg.DatabaseURL)
	} else {
		st, err = sqlite.Status(ctx, cfg.SQLitePath())
	}
	if err != nil {
		return fmt.Errorf("db status: %w", err)
	}
	fmt.Fprintf(out, "schema version %d, %d pending\n", st.Version, len(st.Pending))
	for _, name := range st.Pending {
		fmt.Fprintf(out, "pending %s\n", name)
	}
	return nil
}

// dbMigrateCommand runs `storefront db migrate`: it applies the pending
// migrations, as a start would, and serves nothing. The schema is then
// ready before the first new instance takes traffic, and the upgrade test
// gets a database on this release's schema without starting a shop.
func dbMigrateCommand(ctx context.Context, cfg *config.Config, out io.Writer) error {
	return withDatabase(ctx, cfg, func(*backend) error {
		return dbStatusCommand(ctx, cfg, out)
	})
}
