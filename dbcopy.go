package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/nocturne/storefront/internal/dbcopy"
)

// dbCopyCommand runs `storefront db copy --from sqlite://… --to
// postgres://… [--force]`: the move of a shop from SQLite to PostgreSQL.
// Stop the shop first: rows written during the copy would be left behind.
func dbCopyCommand(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("db copy", flag.ContinueOnError)
	fs.SetOutput(out)
	from := fs.String("from", "", "the SQLite database, sqlite://path/to/nocturne.db")
	to := fs.String("to", "", "the PostgreSQL database, postgres://user@host:5432/dbname")
	force := fs.Bool("force", false, "replace the data of a target that is not empty")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if !strings.HasPrefix(*from, "sqlite://") || len(*from) == len("sqlite://") {
		return errors.New("db copy: --from must be a sqlite:// URL such as sqlite://data/nocturne.db")
	}
	if !strings.HasPrefix(*to, "postgres://") && !strings.HasPrefix(*to, "postgresql://") {
		return errors.New("db copy: --to must be a postgres:// URL")
	}
	tables, err := dbcopy.Copy(ctx, strings.TrimPrefix(*from, "sqlite://"), *to, dbcopy.Options{Force: *force, Progress: out})
	if err != nil {
		return fmt.Errorf("db copy: %w", err)
	}
	var rows int64
	for _, t := range tables {
		rows += t.Rows
	}
	fmt.Fprintf(out, "copied %d rows in %d tables\n", rows, len(tables))
	return nil
}
