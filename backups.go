package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/nocturne/storefront/internal/backup"
	"github.com/nocturne/storefront/internal/config"
)

// sqliteFile is the SQLite file the configuration names, or an error
// saying why a command about database files does not apply.
func sqliteFile(cfg *config.Config, what string) (string, error) {
	if cfg.Postgres() {
		return "", fmt.Errorf("%s is for SQLite shops; on PostgreSQL use pg_dump and pg_restore (see docs/operations.md#backups)", what)
	}
	if path := cfg.SQLitePath(); path != ":memory:" {
		return path, nil
	}
	return "", fmt.Errorf("%s needs a database file; DATABASE_URL names an in-memory database", what)
}

// holdDatabase takes the lock a serving shop keeps on its SQLite file, so
// `db restore` refuses to replace the file under it and a second shop
// does not start on the same file. Nothing to hold on PostgreSQL or in
// memory.
func holdDatabase(cfg *config.Config) (release func(), err error) {
	path, err := sqliteFile(cfg, "")
	if err != nil {
		return func() {}, nil
	}
	release, err = backup.Lock(path)
	if errors.Is(err, backup.ErrHeld) {
		return nil, fmt.Errorf("another process serves or restores %s (it holds %s); one shop per SQLite file", path, backup.LockPath(path))
	}
	return release, err
}

// startBackups takes a backup into BACKUP_DIR every BACKUP_INTERVAL while
// the shop runs, keeping the newest BACKUP_KEEP (configuration refuses
// BACKUP_DIR on PostgreSQL).
func startBackups(ctx context.Context, cfg *config.Config, db *backend, log *slog.Logger, jobs *errgroup.Group) {
	if cfg.Backups.Dir == "" || db.SQLite == nil {
		return
	}
	s := &backup.Schedule{DB: db.SQLite, Dir: cfg.Backups.Dir, Interval: cfg.Backups.Interval, Keep: cfg.Backups.Keep,
		Now: time.Now, Log: log}
	goJob(ctx, jobs, s.Run)
}

// dbBackupCommand runs `storefront db backup FILE`: a checked copy of the
// SQLite shop, taken while it serves, and what it holds.
func dbBackupCommand(ctx context.Context, cfg *config.Config, args []string, out io.Writer) error {
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		return errors.New("db backup: give the backup's file name: db backup FILE")
	}
	path, err := sqliteFile(cfg, "db backup")
	if err != nil {
		return err
	}
	src, err := backup.OpenSource(path)
	if err != nil {
		return fmt.Errorf("db backup: %w", err)
	}
	defer src.Close()
	rep, err := backup.Take(ctx, src, args[0])
	if err != nil {
		return fmt.Errorf("db %w", err)
	}
	return rep.Write(out)
}

// dbRestoreCommand runs `storefront db restore FILE [--force]`: the backup
// in FILE, checked, becomes the database the configuration names.
func dbRestoreCommand(ctx context.Context, cfg *config.Config, args []string, out io.Writer) error {
	var from string
	force := false
	for _, a := range args {
		switch {
		case a == "--force" || a == "-force":
			force = true
		case strings.HasPrefix(a, "-") || from != "":
			return fmt.Errorf("db restore: unexpected %q; usage: db restore FILE [--force]", a)
		default:
			from = a
		}
	}
	if from == "" {
		return errors.New("db restore: give the backup's file name: db restore FILE [--force]")
	}
	to, err := sqliteFile(cfg, "db restore")
	if err != nil {
		return err
	}
	rep, err := backup.Restore(ctx, from, to, backup.RestoreOptions{Force: force})
	if err != nil {
		return fmt.Errorf("db %w", err)
	}
	fmt.Fprintf(out, "restored %s into %s\n", from, to)
	return rep.Write(out)
}
