package sqlite_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/store/sqlite"
	"github.com/nocturne/storefront/internal/store/sqlite/sqlitetest"
	"github.com/nocturne/storefront/internal/store/storetest"
)

// MustOpenDB opens a fresh file database (WAL needs a file) in a temp dir,
// a copy of one migrated once for the whole run.
func MustOpenDB(tb testing.TB) *sqlite.DB {
	tb.Helper()
	db, err := sqlite.Open(context.Background(), sqlitetest.Path(tb, tb.TempDir(), "test.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

func TestConformance(t *testing.T) {
	t.Parallel()
	storetest.Run(t, storetest.Backend{
		Open: func(tb testing.TB, now func() time.Time) (storetest.Store, storetest.KV) {
			db := MustOpenDB(tb)
			db.SetClock(now)
			return db, db.KV()
		},
		RefuseWrites: func(tb testing.TB, s storetest.Store) func() {
			db := s.(*sqlite.DB)
			fillDisk(tb, db)
			return func() {
				if _, err := db.SetMaxPages(context.Background(), 0); err != nil {
					tb.Fatal(err)
				}
			}
		},
		Close:       func(s storetest.Store) { s.(*sqlite.DB).Close() },
		Unavailable: sqlite.Unavailable,
	})
}

// fillDisk fills db as a full disk would, deterministically: it may grow
// no more (max_page_count at its size now) and writes of a page each take
// the free pages it has left until one fails with SQLITE_FULL.
func fillDisk(tb testing.TB, db *sqlite.DB) {
	tb.Helper()
	ctx := context.Background()
	pages, err := db.SetMaxPages(ctx, 0)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := db.SetMaxPages(ctx, pages); err != nil {
		tb.Fatal(err)
	}
	for i := range 10000 {
		err := db.KV().Set(fmt.Sprintf("fill_%d", i), bytes.Repeat([]byte{'x'}, 4000), 0)
		if err == nil {
			continue
		}
		if !sqlite.Unavailable(err) {
			tb.Fatalf("filling the database: %v", err)
		}
		return
	}
	tb.Fatal("the database never filled")
}

// A full database (SQLITE_FULL) is a shop error of code unavailable, not
// an internal one, through FormatError.
func TestFormatError_Full(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	fillDisk(t, db)
	err := db.Heartbeat(context.Background(), time.Now())
	if shop.ErrorCode(err) != shop.EUNAVAILABLE {
		t.Errorf("heartbeat on a full database: got %q (%v), want %q", shop.ErrorCode(err), err, shop.EUNAVAILABLE)
	}
}

// The database file deleted, or replaced, under the running shop: writes
// would go into a file nobody will open again, so Ping and the heartbeat
// fail.
func TestPing_FileGone(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tt := range []struct {
		name string
		do   func(path string) error
	}{
		{"Deleted", os.Remove},
		{"Replaced", func(path string) error {
			if err := os.WriteFile(path+".new", []byte("x"), 0o600); err != nil {
				return err
			}
			return os.Rename(path+".new", path)
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "shop.db")
			db, err := sqlite.Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if err := db.Ping(ctx); err != nil {
				t.Fatal(err)
			}
			if err := tt.do(path); err != nil {
				t.Fatal(err)
			}
			if err := db.Ping(ctx); !sqlite.Unavailable(err) {
				t.Errorf("ping: got %v, want an unavailable error", err)
			}
			if err := db.Heartbeat(ctx, time.Now()); !sqlite.Unavailable(err) {
				t.Errorf("heartbeat: got %v, want an unavailable error", err)
			}
			// Ping noticed: every write is refused from now on.
			err = db.CreateContactMessage(ctx, &shop.ContactMessage{Name: "Ann", Email: "ann@example.com", Message: "hello"})
			if !sqlite.Unavailable(err) {
				t.Errorf("write after the file went: got %v, want an unavailable error", err)
			}
		})
	}
}

// Deleted with no health probe in between: the next commit a second
// after the last look at the path is refused, through a transaction or a
// single statement, and stays refused; nothing reaches the unlinked file.
func TestWrite_FileDeletedFailsClosed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "shop.db")
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	now := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	db.SetFileClock(func() time.Time { return now })
	msg := func() error {
		return db.CreateContactMessage(ctx, &shop.ContactMessage{Name: "Ann", Email: "ann@example.com", Message: "hello"})
	}
	if err := msg(); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	now = now.Add(1100 * time.Millisecond)
	if err := msg(); !sqlite.Unavailable(err) {
		t.Errorf("contact message: got %v, want an unavailable error", err)
	}
	if err := db.KV().Set("k", []byte("v"), 0); !sqlite.Unavailable(err) {
		t.Errorf("kv set: got %v, want an unavailable error", err)
	}
	if err := db.Heartbeat(ctx, now); !sqlite.Unavailable(err) {
		t.Errorf("heartbeat: got %v, want an unavailable error", err)
	}
	msgs, err := db.ContactMessages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 1 {
		t.Errorf("messages in the unlinked file: got %d, want 1 (the one before)", len(msgs))
	}
}

func TestOpen_MigratesOnceAndReopens(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	db := MustOpenDB(t)
	mode, err := db.JournalMode(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if mode != "wal" {
		t.Errorf("journal mode: got %q, want wal", mode)
	}
}

// The heartbeat is committed, so it reaches the file (another connection
// reads it) and touches no row of the shop's; on a closed database it
// fails.
func TestHeartbeat(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "beat.db")
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	before, err := db.CatalogVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	for i := range 3 {
		if err := db.Heartbeat(ctx, at.Add(time.Duration(i)*time.Second)); err != nil {
			t.Fatalf("heartbeat: %v", err)
		}
	}
	if after, _ := db.CatalogVersion(ctx); after != before {
		t.Errorf("catalogue version %d after heartbeats, want %d", after, before)
	}
	other, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	var beat int64
	if err := other.QueryRow(`SELECT beat_at FROM heartbeat WHERE id = 1`).Scan(&beat); err != nil || beat != at.Add(2*time.Second).UnixMilli() {
		t.Errorf("heartbeat row read elsewhere: %d (%v), want %d", beat, err, at.Add(2*time.Second).UnixMilli())
	}
	db.Close()
	if err := db.Heartbeat(ctx, at); err == nil || !sqlite.Unavailable(err) {
		t.Errorf("heartbeat of a closed database: got %v, want an unavailable error", err)
	}
}
