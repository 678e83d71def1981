package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/store/sqlite"
	"github.com/nocturne/storefront/internal/store/storetest"
)

// MustOpenDB opens a fresh file database (WAL needs a file) in a temp dir.
func MustOpenDB(tb testing.TB) *sqlite.DB {
	tb.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(tb.TempDir(), "test.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

func TestConformance(t *testing.T) {
	storetest.Run(t, storetest.Backend{
		Open: func(tb testing.TB, now func() time.Time) (storetest.Store, storetest.KV) {
			db := MustOpenDB(tb)
			db.SetClock(now)
			return db, db.KV()
		},
	})
}

func TestOpen_MigratesOnceAndReopens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shop.db")
	for i := 0; i < 2; i++ {
		db, err := sqlite.Open(context.Background(), path)
		if err != nil {
			t.Fatalf("open #%d: %v", i+1, err)
		}
		if err := db.Ping(context.Background()); err != nil {
			t.Fatal(err)
		}
		db.Close()
	}
}

func TestOpen_WAL(t *testing.T) {
	db := MustOpenDB(t)
	mode, err := db.JournalMode(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if mode != "wal" {
		t.Errorf("journal mode: got %q, want wal", mode)
	}
}

// The write probe proves the database takes writes and leaves no row
// changed; on a closed database it fails.
func TestProbeWrite(t *testing.T) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "probe.db"))
	if err != nil {
		t.Fatal(err)
	}
	before, err := db.CatalogVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := db.ProbeWrite(ctx); err != nil {
			t.Fatalf("probe: %v", err)
		}
	}
	if after, _ := db.CatalogVersion(ctx); after != before {
		t.Errorf("catalogue version %d after probes, want %d", after, before)
	}
	db.Close()
	if err := db.ProbeWrite(ctx); err == nil {
		t.Error("probe of a closed database succeeded")
	}
}
