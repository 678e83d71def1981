package config_test

import (
	"strings"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/config"
)

func TestLoad_Backups(t *testing.T) {
	t.Run("Defaults", func(t *testing.T) {
		cfg, err := config.Load(env(map[string]string{"DATA_DIR": t.TempDir()}))
		if err != nil {
			t.Fatal(err)
		}
		want := config.Backups{Interval: 24 * time.Hour, Keep: 7}
		if cfg.Backups != want {
			t.Errorf("got %+v, want %+v", cfg.Backups, want)
		}
	})
	t.Run("OK", func(t *testing.T) {
		cfg, err := config.Load(env(map[string]string{"DATA_DIR": t.TempDir(), "BACKUP_DIR": "/var/backups/shop", "BACKUP_INTERVAL": "6h", "BACKUP_KEEP": "28"}))
		if err != nil {
			t.Fatal(err)
		}
		want := config.Backups{Dir: "/var/backups/shop", Interval: 6 * time.Hour, Keep: 28}
		if cfg.Backups != want {
			t.Errorf("got %+v, want %+v", cfg.Backups, want)
		}
	})
	for _, tt := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"ErrIntervalTooShort", map[string]string{"BACKUP_INTERVAL": "30m"}, `BACKUP_INTERVAL must be a duration of at least 1h such as 24h or 6h, got "30m"`},
		{"ErrKeepZero", map[string]string{"BACKUP_KEEP": "0"}, `BACKUP_KEEP must be a whole number from 1 to 1000, got "0"`},
		{"ErrPostgres", map[string]string{"BACKUP_DIR": "backups", "DATABASE_URL": "postgres://db/shop"}, "BACKUP_DIR is for SQLite shops; back up PostgreSQL with pg_dump (see docs/operations.md#backups)"},
		{"ErrMemory", map[string]string{"BACKUP_DIR": "backups", "DATABASE_URL": "sqlite::memory:"}, "BACKUP_DIR needs a database file"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.env["DATA_DIR"] = t.TempDir()
			_, err := config.Load(env(tt.env))
			if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("got %v, want one line with %q", err, tt.want)
			}
		})
	}
}
