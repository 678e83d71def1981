package backup_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/nocturne/storefront/internal/store/postgres"
	"github.com/nocturne/storefront/internal/store/postgres/pgtest"
)

// The PostgreSQL commands docs/operations.md gives, run once: a shop
// dumped with pg_dump's custom format and restored with pg_restore into an
// empty database serves its orders. The clients must be at least the
// server's major version (pg_dump refuses a newer server).
func TestPostgres_DumpRestore(t *testing.T) {
	t.Parallel()
	source := pgtest.NewDatabase(t)
	pgDump, pgRestore := pgClients(t)
	ctx := context.Background()
	checkClientVersion(t, pgDump, source)

	db, err := postgres.Open(ctx, source, postgres.Options{MaxConns: 2})
	must(t, err)
	must(t, db.InsertOrder(ctx, newOrder("NOC-PG-1")))
	db.Close()

	dump := filepath.Join(t.TempDir(), "nocturne.dump")
	run(t, pgDump, "--format=custom", "--no-owner", "--file="+dump, "--dbname="+source)
	target := pgtest.EmptyDatabase(t)
	run(t, pgRestore, "--no-owner", "--exit-on-error", "--single-transaction", "--dbname="+target, dump)

	restored, err := postgres.Open(ctx, target, postgres.Options{MaxConns: 2})
	must(t, err)
	defer restored.Close()
	if _, err := restored.Order(ctx, "NOC-PG-1"); err != nil {
		t.Errorf("the order after pg_restore: %v", err)
	}
}

// pgClients finds pg_dump and pg_restore on PATH, or skips the test with a
// line saying so (fails it under CI=true, which installs them).
func pgClients(t *testing.T) (dump, restore string) {
	t.Helper()
	dump, err1 := exec.LookPath("pg_dump")
	restore, err2 := exec.LookPath("pg_restore")
	if err1 == nil && err2 == nil {
		return dump, restore
	}
	if ci, _ := strconv.ParseBool(os.Getenv("CI")); ci {
		t.Fatal("pg_dump and pg_restore are not on PATH, and CI=true requires this test to run (apt-get install postgresql-client)")
	}
	t.Skip("pg_dump/pg_restore test skipped: install postgresql-client to run it")
	return "", ""
}

// checkClientVersion skips (fails under CI) when pg_dump is older than the
// server, which it cannot dump.
func checkClientVersion(t *testing.T, pgDump, url string) {
	t.Helper()
	out, err := exec.Command(pgDump, "--version").Output()
	must(t, err)
	m := regexp.MustCompile(`(\d+)\.\d+`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("pg_dump --version: %q", out)
	}
	client, _ := strconv.Atoi(string(m[1]))
	conn, err := pgx.Connect(context.Background(), url)
	must(t, err)
	var num int
	err = conn.QueryRow(context.Background(), `SELECT current_setting('server_version_num')::int`).Scan(&num)
	conn.Close(context.Background())
	must(t, err)
	if server := num / 10000; client < server {
		if ci, _ := strconv.ParseBool(os.Getenv("CI")); ci {
			t.Fatalf("pg_dump %d is older than the server (%d); install the matching client", client, server)
		}
		t.Skipf("pg_dump test skipped: pg_dump %d is older than the server (%d)", client, server)
	}
}

func run(t *testing.T, name string, args ...string) {
	t.Helper()
	if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", filepath.Base(name), err, out)
	}
}
