package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nocturne/storefront/internal/config"
	"github.com/nocturne/storefront/internal/store/postgres/pgtest"
)

// schemaLines runs `db status` on cfg's database and returns its lines.
func schemaLines(t *testing.T, cfg *config.Config) []string {
	t.Helper()
	var out bytes.Buffer
	if err := dbStatusCommand(context.Background(), cfg, &out); err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
}

// migrationFiles names the migrations a backend's folder holds, in order.
func migrationFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// checkSchemaStatus checks `db status` on a database never migrated (every
// migration pending, one line each, and nothing applied by asking), then
// `db migrate` and `db status` again (the newest version, none pending).
func checkSchemaStatus(t *testing.T, cfg *config.Config, files []string) {
	t.Helper()
	lines := schemaLines(t, cfg)
	if got, want := lines[0], fmt.Sprintf("schema version 0, %d pending", len(files)); got != want {
		t.Fatalf("first line: got %q, want %q", got, want)
	}
	if got, want := len(lines)-1, len(files); got != want {
		t.Fatalf("got %d pending lines, want %d:\n%s", got, want, strings.Join(lines, "\n"))
	}
	for i, name := range files {
		if got, want := lines[i+1], "pending "+name; got != want {
			t.Errorf("line %d: got %q, want %q", i+2, got, want)
		}
	}
	if again := schemaLines(t, cfg); again[0] != lines[0] {
		t.Fatalf("a second db status: got %q, want %q (status must apply nothing)", again[0], lines[0])
	}

	var out bytes.Buffer
	if err := dbMigrateCommand(context.Background(), cfg, &out); err != nil {
		t.Fatal(err)
	}
	newest := strings.SplitN(files[len(files)-1], "_", 2)[0]
	want := "schema version " + strings.TrimLeft(newest, "0") + ", 0 pending"
	if got := schemaLines(t, cfg); len(got) != 1 || got[0] != want {
		t.Fatalf("after db migrate: got %q, want [%q]", got, want)
	}
}

func TestDBStatus_SQLite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := loadConfig(t, map[string]string{"DATA_DIR": dir, "SESSION_SECRET": strings.Repeat("s", 40)})

	t.Run("NoDatabase", func(t *testing.T) {
		var out bytes.Buffer
		err := dbStatusCommand(context.Background(), cfg, &out)
		if err == nil || !strings.Contains(err.Error(), "no database at") {
			t.Fatalf("got %v, want a no-database error", err)
		}
		if _, err := os.Stat(cfg.SQLitePath()); err == nil {
			t.Fatal("db status created the database file")
		}
	})
	t.Run("OK", func(t *testing.T) {
		// An empty file is an SQLite database with no tables.
		if err := os.WriteFile(filepath.Join(dir, "nocturne.db"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		checkSchemaStatus(t, cfg, migrationFiles(t, "internal/store/sqlite/migrations"))
	})
}

func TestDBStatus_Postgres(t *testing.T) {
	t.Parallel()
	cfg := loadConfig(t, map[string]string{"DATABASE_URL": pgtest.EmptyDatabase(t), "SESSION_SECRET": strings.Repeat("s", 40)})
	checkSchemaStatus(t, cfg, migrationFiles(t, "internal/store/postgres/migrations"))
}
