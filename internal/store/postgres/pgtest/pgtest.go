// Package pgtest gives tests a fresh PostgreSQL database on the server
// named by TEST_POSTGRES_URL (for example
// postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable). Without
// it, tests skip with one line, except under CI=true, where they fail: CI
// must run them.
package pgtest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/store/postgres"
)

// EnvURL names the environment variable with the server's URL.
const EnvURL = "TEST_POSTGRES_URL"

// ServerURL returns TEST_POSTGRES_URL, or skips tb (fails it under CI).
func ServerURL(tb testing.TB) string {
	tb.Helper()
	u := os.Getenv(EnvURL)
	if u == "" {
		if ci, _ := strconv.ParseBool(os.Getenv("CI")); ci {
			tb.Fatalf("%s is not set, and CI=true requires the PostgreSQL tests to run", EnvURL)
		}
		tb.Skipf("PostgreSQL tests skipped: set %s (e.g. postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable)", EnvURL)
	}
	return u
}

var (
	templateOnce sync.Once
	templateName string
	templateErr  error
)

// NewDatabase creates an empty, migrated database with a random name,
// dropped when tb ends, and returns its URL. It copies a migrated template
// database named after the schema (postgres.SchemaHash), which the first
// run after a migration change creates and later runs reuse, so a test
// binary that is killed leaves nothing behind but that one template.
func NewDatabase(tb testing.TB) string {
	tb.Helper()
	server := ServerURL(tb)
	ctx := context.Background()
	templateOnce.Do(func() {
		templateName = "nocturne_tmpl_" + postgres.SchemaHash()
		templateErr = ensureTemplate(ctx, server, templateName)
	})
	if templateErr != nil {
		tb.Fatalf("pgtest: %v", templateErr)
	}
	name := "nocturne_test_" + shop.RandomHex(6)
	if err := exec(ctx, server, `CREATE DATABASE `+name+` TEMPLATE `+templateName); err != nil {
		tb.Fatalf("pgtest: create database: %v", err)
	}
	tb.Cleanup(func() {
		if err := exec(context.Background(), server, `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`); err != nil {
			tb.Errorf("pgtest: drop database %s: %v", name, err)
		}
	})
	return WithDatabase(server, name)
}

// EmptyDatabase creates a database with no tables at all (db copy and
// migration tests), dropped when tb ends.
func EmptyDatabase(tb testing.TB) string {
	tb.Helper()
	server := ServerURL(tb)
	name := "nocturne_test_" + shop.RandomHex(6)
	if err := exec(context.Background(), server, `CREATE DATABASE `+name); err != nil {
		tb.Fatalf("pgtest: create database: %v", err)
	}
	tb.Cleanup(func() {
		if err := exec(context.Background(), server, `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`); err != nil {
			tb.Errorf("pgtest: drop database %s: %v", name, err)
		}
	})
	return WithDatabase(server, name)
}

// Cleanup is kept for TestMain functions that call it; the template is
// shared across runs, so there is nothing to drop.
func Cleanup() {}

// ensureTemplate creates the template database unless it exists: migrated
// under a scratch name, then renamed, so a concurrent test binary sees
// either no template or a complete one.
func ensureTemplate(ctx context.Context, server, name string) error {
	conn, err := pgx.Connect(ctx, server)
	if err != nil {
		return err
	}
	var exists bool
	err = conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&exists)
	conn.Close(ctx)
	if err != nil || exists {
		return err
	}
	scratch := "nocturne_scratch_" + shop.RandomHex(6)
	if err := exec(ctx, server, `CREATE DATABASE `+scratch); err != nil {
		return fmt.Errorf("create template: %w", err)
	}
	db, err := postgres.Open(ctx, WithDatabase(server, scratch), postgres.Options{MaxConns: 2})
	if err != nil {
		_ = exec(ctx, server, `DROP DATABASE IF EXISTS `+scratch+` WITH (FORCE)`)
		return fmt.Errorf("migrate template: %w", err)
	}
	db.Close()
	if err := exec(ctx, server, `ALTER DATABASE `+scratch+` RENAME TO `+name); err != nil {
		// Another test binary made it meanwhile.
		_ = exec(ctx, server, `DROP DATABASE IF EXISTS `+scratch+` WITH (FORCE)`)
	}
	return nil
}

// WithDatabase returns server's URL with its database replaced by name.
func WithDatabase(server, name string) string {
	u, err := url.Parse(server)
	if err != nil {
		return server
	}
	u.Path = "/" + name
	return u.String()
}

func exec(ctx context.Context, server, sql string) error {
	conn, err := pgx.Connect(ctx, server)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}
