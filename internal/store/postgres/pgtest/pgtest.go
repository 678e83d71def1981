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
	"slices"
	"strconv"
	"strings"
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

// NewDatabase returns the URL of an empty, migrated database that tb has
// to itself until it ends. Creating a database costs PostgreSQL a copy of
// the template and a checkpoint's worth of writes, most of a small test's
// time, so the databases are a pool kept across runs: each is cloned once
// from the migrated template (named after the schema, postgres.SchemaHash),
// taken by one test at a time under a session-level advisory lock (test
// binaries run in parallel), and emptied when taken: every row deleted,
// the rows the migrations seeded put back, sequences restarted, and
// database-level settings a test made (a read-only default) reset.
func NewDatabase(tb testing.TB) string {
	tb.Helper()
	server := ServerURL(tb)
	ctx := context.Background()
	templateOnce.Do(func() {
		templateName = templatePrefix + postgres.SchemaHash()
		templateErr = ensureTemplate(ctx, server, templateName)
	})
	if templateErr != nil {
		tb.Fatalf("pgtest: %v", templateErr)
	}
	for slot := 0; slot < maxPool; slot++ {
		hold, err := pgx.Connect(ctx, server)
		if err != nil {
			tb.Fatalf("pgtest: %v", err)
		}
		var mine bool
		if err := hold.QueryRow(ctx, `SELECT pg_try_advisory_lock(hashtextextended($1, 0))`, templateName+"/"+strconv.Itoa(slot)).Scan(&mine); err != nil || !mine {
			hold.Close(ctx)
			continue
		}
		name := poolPrefix + strings.TrimPrefix(templateName, templatePrefix) + "_" + strconv.Itoa(slot)
		if err := takePooled(ctx, server, hold, name); err != nil {
			hold.Close(ctx)
			tb.Fatalf("pgtest: %v", err)
		}
		tb.Cleanup(func() { hold.Close(context.Background()) }) // releases the slot
		return WithDatabase(server, name)
	}
	tb.Fatalf("pgtest: all %d pooled databases are taken", maxPool)
	return ""
}

// Name prefixes of the template and the pooled databases; the number says
// how they are made (a template carries its seeds in a pgtest schema).
const (
	templatePrefix = "nocturne_t2_"
	poolPrefix     = "nocturne_p2_"
)

// maxPool bounds the pooled databases: more than tests ever run at once.
const maxPool = 64

// takePooled makes the pooled database name (cloned from the template if
// it does not exist yet) empty for the test holding its slot through hold.
func takePooled(ctx context.Context, server string, hold *pgx.Conn, name string) error {
	var exists bool
	if err := hold.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&exists); err != nil {
		return err
	}
	if !exists {
		if _, err := hold.Exec(ctx, `CREATE DATABASE `+name+` TEMPLATE `+templateName); err != nil {
			return fmt.Errorf("create pooled database: %w", err)
		}
		return resetSettings(ctx, hold, name) // a fresh clone is empty already
	}
	// A connection the last test left open could hold locks the reset
	// would wait for.
	if _, err := hold.Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, name); err != nil {
		return fmt.Errorf("pooled database %s: %w", name, err)
	}
	if err := resetSettings(ctx, hold, name); err != nil {
		return err
	}
	conn, err := pgx.Connect(ctx, WithDatabase(server, name))
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, `DO $$
DECLARE t record;
BEGIN
	SET LOCAL session_replication_role = replica; -- no foreign-key checks while emptying
	FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'goose_db_version' LOOP
		EXECUTE format('DELETE FROM public.%I', t.tablename);
	END LOOP;
	FOR t IN SELECT tbl, rows FROM pgtest.seeds LOOP
		EXECUTE format('INSERT INTO public.%I SELECT * FROM json_populate_recordset(NULL::public.%I, $1)', t.tbl, t.tbl) USING t.rows;
	END LOOP;
	FOR t IN SELECT sequencename FROM pg_sequences WHERE schemaname = 'public' LOOP
		EXECUTE format('ALTER SEQUENCE public.%I RESTART', t.sequencename);
	END LOOP;
END $$`)
	if err != nil {
		return fmt.Errorf("empty pooled database %s: %w", name, err)
	}
	return nil
}

// pooledSettings are the database-level settings of every pooled
// database. A pooled database is emptied with DELETE and reused by many
// tests, so its tables carry dead rows between vacuums; on such tables the
// planner costs even a one-row catalogue query above jit_above_cost and
// JIT-compiles it, half a second of server CPU each time. A shop's
// database does not churn like that, and JIT changes no result, so the
// pooled databases do without it.
var pooledSettings = []string{"jit=off"}

// resetSettings puts the database-level settings of the pooled database
// name back to pooledSettings, undoing any a test made (a read-only
// default). It writes only when they differ: each such write invalidates
// every new connection's cached catalogue, on the whole server.
func resetSettings(ctx context.Context, hold *pgx.Conn, name string) error {
	var now []string
	if err := hold.QueryRow(ctx, `SELECT COALESCE((SELECT s.setconfig FROM pg_db_role_setting s
		JOIN pg_database d ON d.oid = s.setdatabase WHERE d.datname = $1 AND s.setrole = 0), '{}')`, name).Scan(&now); err != nil {
		return fmt.Errorf("pooled database %s: settings: %w", name, err)
	}
	if slices.Equal(now, pooledSettings) {
		return nil
	}
	stmts := []string{`ALTER DATABASE ` + name + ` RESET ALL`}
	for _, kv := range pooledSettings {
		k, v, _ := strings.Cut(kv, "=")
		stmts = append(stmts, `ALTER DATABASE `+name+` SET `+k+` = `+v)
	}
	for _, stmt := range stmts {
		if _, err := hold.Exec(ctx, stmt); err != nil {
			return fmt.Errorf("pooled database %s: %w", name, err)
		}
	}
	return nil
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
	if err := recordSeeds(ctx, WithDatabase(server, scratch)); err != nil {
		_ = exec(ctx, server, `DROP DATABASE IF EXISTS `+scratch+` WITH (FORCE)`)
		return fmt.Errorf("template seeds: %w", err)
	}
	if err := exec(ctx, server, `ALTER DATABASE `+scratch+` RENAME TO `+name); err != nil {
		// Another test binary made it meanwhile.
		_ = exec(ctx, server, `DROP DATABASE IF EXISTS `+scratch+` WITH (FORCE)`)
	}
	return nil
}

// recordSeeds keeps, in the template's own pgtest schema, the rows the
// migrations put in their tables, so a pooled database can be emptied back
// to them.
func recordSeeds(ctx context.Context, url string) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, `CREATE SCHEMA pgtest;
CREATE TABLE pgtest.seeds (tbl text PRIMARY KEY, rows json NOT NULL);
DO $$
DECLARE t record; r json;
BEGIN
	FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'goose_db_version' LOOP
		EXECUTE format('SELECT json_agg(x) FROM public.%I x', t.tablename) INTO r;
		IF r IS NOT NULL THEN
			INSERT INTO pgtest.seeds VALUES (t.tablename, r);
		END IF;
	END LOOP;
END $$`)
	return err
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
