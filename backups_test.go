package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/config"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/store/sqlite"
)

func loadConfig(t *testing.T, env map[string]string) *config.Config {
	t.Helper()
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// `db backup` copies a serving shop and prints what the copy holds;
// `db restore` puts it into a new data directory, and refuses the serving
// shop's own file and a target that holds a database, one line each.
func TestDBBackupRestore_Commands(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	secret := strings.Repeat("s", 40)
	serving := loadConfig(t, map[string]string{"DATA_DIR": t.TempDir(), "SESSION_SECRET": secret})
	release, err := holdDatabase(serving)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	db, err := sqlite.Open(ctx, serving.SQLitePath())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.InsertOrder(ctx, &shop.Order{ID: "NOC-1", UserID: "guest_1", Email: "owl@example.com", Status: shop.StatusProcessing,
		Subtotal: 1000, Total: 1000, IdempotencyKey: "key-1", CreatedAt: time.Now(),
		Lines: []shop.OrderLine{{ProductID: "lamp-1", Name: "Lamp", Price: 1000, Quantity: 1}}}); err != nil {
		t.Fatal(err)
	}

	file := filepath.Join(t.TempDir(), "nightly.db")
	var out bytes.Buffer
	if err := dbBackupCommand(ctx, serving, []string{file}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), file+": ") || !strings.Contains(out.String(), "\norders: 1 rows\n") {
		t.Errorf("backup output:\n%s\nwant the file's size and a line per table", out.String())
	}

	fresh := loadConfig(t, map[string]string{"DATA_DIR": filepath.Join(t.TempDir(), "new"), "SESSION_SECRET": secret})
	out.Reset()
	if err := dbRestoreCommand(ctx, fresh, []string{file}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "orders: 1 rows") {
		t.Errorf("restore output:\n%s", out.String())
	}
	restored, err := sqlite.Open(ctx, fresh.SQLitePath())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := restored.Order(ctx, "NOC-1"); err != nil {
		t.Errorf("restored order: %v", err)
	}
	restored.Close()

	for _, tt := range []struct {
		name string
		cfg  *config.Config
		args []string
		want string
	}{
		{"ErrServing", serving, []string{file, "--force"}, "db restore refused: a running shop"},
		{"ErrNotEmpty", fresh, []string{file}, "already holds a database; add --force"},
		{"ErrNoFile", fresh, nil, "db restore: give the backup's file name"},
		{"ErrPostgres", &config.Config{DatabaseURL: "postgres://db/shop"}, []string{file}, "db restore is for SQLite shops; on PostgreSQL use pg_dump and pg_restore (see docs/operations.md#backups)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := dbRestoreCommand(ctx, tt.cfg, tt.args, &out)
			if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("got %v, want one line with %q", err, tt.want)
			}
		})
	}
	if err := dbRestoreCommand(ctx, fresh, []string{"--force", file}, &out); err != nil {
		t.Errorf("restore --force: %v", err)
	}
}

// A second shop on the same SQLite file is refused at start.
func TestHoldDatabase_OneShopPerFile(t *testing.T) {
	t.Parallel()
	cfg := loadConfig(t, map[string]string{"DATA_DIR": t.TempDir(), "SESSION_SECRET": strings.Repeat("s", 40)})
	release, err := holdDatabase(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := holdDatabase(cfg); err == nil || !strings.Contains(err.Error(), "one shop per SQLite file") {
		t.Errorf("second hold: got %v, want a refusal", err)
	}
	release()
	again, err := holdDatabase(cfg)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	again()
}
