package backup_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/backup"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/store/sqlite"
)

// MustOpenDB opens a fresh shop database in a temp dir.
func MustOpenDB(tb testing.TB, path string) *sqlite.DB {
	tb.Helper()
	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

func newOrder(id string) *shop.Order {
	return &shop.Order{
		ID: id, UserID: "guest_" + id, Email: "owl@example.com", Status: shop.StatusProcessing,
		Subtotal: 1000, Total: 1000, PaymentMethod: "Visa ending 4242", IdempotencyKey: "key-" + id,
		ShipTo:    shop.Address{Name: "Night Owl", Street: "1 Moon St", City: "Oslo", State: "-", ZipCode: "0150", Country: "Norway", Phone: "555"},
		CreatedAt: time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC),
		Lines:     []shop.OrderLine{{ProductID: "lamp-1", Name: "Walnut desk lamp", Price: 1000, Quantity: 1}},
	}
}

// A backup taken while shoppers place orders, restored into a new data
// directory, holds every order that was acknowledged before the backup
// began: VACUUM INTO reads one consistent moment beside the writers.
func TestTake_WhileOrdersArePlaced(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpenDB(t, filepath.Join(t.TempDir(), "shop.db"))
	const writers, each = 4, 40
	var (
		mu    sync.Mutex
		acked []string
		wg    sync.WaitGroup
	)
	halfway := make(chan struct{})
	var once sync.Once
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				id := fmt.Sprintf("NOC-%d-%03d", w, i)
				if err := db.InsertOrder(ctx, newOrder(id)); err != nil {
					t.Errorf("place %s: %v", id, err)
					return
				}
				mu.Lock()
				acked = append(acked, id)
				if len(acked) == writers*each/2 {
					once.Do(func() { close(halfway) })
				}
				mu.Unlock()
			}
		}()
	}
	<-halfway
	mu.Lock()
	before := append([]string(nil), acked...)
	mu.Unlock()
	dst := filepath.Join(t.TempDir(), "backups", "shop-backup.db")
	rep, err := backup.Take(ctx, db.SQL(), dst)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if n := rep.Rows("orders"); n < int64(len(before)) || n > writers*each {
		t.Errorf("orders in the backup: got %d, want from %d to %d", n, len(before), writers*each)
	}
	if fi, err := os.Stat(dst); err != nil || fi.Mode().Perm() != 0o600 || fi.Size() != rep.Size {
		t.Errorf("backup file: %v (%v), want mode 600 and %d bytes", fi, err, rep.Size)
	}

	target := filepath.Join(t.TempDir(), "new-data", "nocturne.db")
	if _, err := backup.Restore(ctx, dst, target, backup.RestoreOptions{}); err != nil {
		t.Fatal(err)
	}
	restored := MustOpenDB(t, target)
	for _, id := range before {
		if _, err := restored.Order(ctx, id); err != nil {
			t.Errorf("order %s acknowledged before the backup: %v", id, err)
		}
	}
}

// The report is plain: the file and its size, then a line per table.
func TestReport_Write(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	rep := backup.Report{Path: "b.db", Size: 4096, Tables: []backup.TableCount{{Table: "orders", Rows: 3}, {Table: "users", Rows: 2}}}
	if err := rep.Write(&out); err != nil {
		t.Fatal(err)
	}
	want := "b.db: 4096 bytes, integrity ok\norders: 3 rows\nusers: 2 rows\n"
	if out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}

// Restore refuses, with one line saying why, a file that is not a SQLite
// database, a damaged one, one that is not a Nocturne shop's, a target
// that holds a database unless forced, and a target a shop is serving.
func TestRestore_Refuses(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	good := takeBackup(t, dir)

	notSQLite := filepath.Join(dir, "notes.txt")
	must(t, os.WriteFile(notSQLite, []byte("hello, this is not a database at all"), 0o600))
	foreign := filepath.Join(dir, "other.db")
	other, err := sql.Open("sqlite", "file:"+foreign)
	must(t, err)
	_, err = other.Exec(`CREATE TABLE things (id INTEGER PRIMARY KEY)`)
	must(t, err)
	other.Close()
	corrupt := filepath.Join(dir, "corrupt.db")
	corruptCopy(t, good, corrupt)

	full := filepath.Join(t.TempDir(), "nocturne.db")
	MustOpenDB(t, full).Close()
	served := filepath.Join(t.TempDir(), "nocturne.db")
	release, err := backup.Lock(served)
	must(t, err)
	defer release()

	for _, tt := range []struct {
		name, from, to string
		want           string
	}{
		{"NotSQLite", notSQLite, filepath.Join(t.TempDir(), "a.db"), "is not a SQLite database"},
		{"NotNocturne", foreign, filepath.Join(t.TempDir(), "a.db"), "is not a Nocturne database"},
		{"Corrupt", corrupt, filepath.Join(t.TempDir(), "a.db"), "failed its integrity check"},
		{"TargetHoldsData", good, full, "already holds a database; add --force"},
		{"TargetServed", good, served, "a running shop"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := backup.Restore(ctx, tt.from, tt.to, backup.RestoreOptions{})
			if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("got %v, want one line with %q", err, tt.want)
			}
		})
	}

	t.Run("Force", func(t *testing.T) {
		rep, err := backup.Restore(ctx, good, full, backup.RestoreOptions{Force: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(full + "-wal"); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the old database's WAL is still there: %v", err)
		}
		if rep.Rows("orders") != 1 {
			t.Errorf("orders restored: got %d, want 1", rep.Rows("orders"))
		}
		if _, err := MustOpenDB(t, full).Order(ctx, "NOC-1"); err != nil {
			t.Errorf("the restored order: %v", err)
		}
	})
}

// takeBackup makes a shop with one order in dir and backs it up.
func takeBackup(t *testing.T, dir string) string {
	t.Helper()
	ctx := context.Background()
	db := MustOpenDB(t, filepath.Join(dir, "source.db"))
	must(t, db.InsertOrder(ctx, newOrder("NOC-1")))
	dst := filepath.Join(dir, "good.db")
	if _, err := backup.Take(ctx, db.SQL(), dst); err != nil {
		t.Fatal(err)
	}
	return dst
}

// corruptCopy copies good to path with a page of an index scribbled over:
// the header still says SQLite, the integrity check finds the damage.
func corruptCopy(t *testing.T, good, path string) {
	t.Helper()
	b, err := os.ReadFile(good)
	must(t, err)
	for i := len(b) / 2; i < len(b)/2+4096 && i < len(b); i++ {
		b[i] = 0x5a
	}
	must(t, os.WriteFile(path, b, 0o600))
}

// Take never overwrites a file.
func TestTake_RefusesExisting(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := MustOpenDB(t, filepath.Join(dir, "shop.db"))
	dst := filepath.Join(dir, "exists.db")
	must(t, os.WriteFile(dst, []byte("mine"), 0o600))
	if _, err := backup.Take(context.Background(), db.SQL(), dst); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("got %v, want a refusal", err)
	}
	if b, _ := os.ReadFile(dst); string(b) != "mine" {
		t.Errorf("the existing file was changed: %q", b)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))
