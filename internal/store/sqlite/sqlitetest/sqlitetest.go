// Package sqlitetest gives tests SQLite databases that start migrated.
// Applying every migration costs a test process more CPU than most of its
// tests (SQLite parses each statement and reloads the schema after each
// migration), so the migrations run once per process, into a template, and
// each database a test opens starts as a byte copy of it. sqlite.Open still
// runs its migrations on the copy, and finds none pending; the rows and
// schema are exactly the ones the migrations write.
package sqlitetest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	msqlite "modernc.org/sqlite"

	"github.com/nocturne/storefront/internal/store/sqlite"
)

var (
	fileOnce  sync.Once
	fileImage []byte
	fileErr   error

	memoryOnce  sync.Once
	memoryImage []byte
)

// Path writes a copy of the migrated template database to dir/name and
// returns its path, for sqlite.Open.
func Path(tb testing.TB, dir, name string) string {
	tb.Helper()
	fileOnce.Do(func() { fileImage, fileErr = migratedFile() })
	if fileErr != nil {
		tb.Fatalf("migrated template: %v", fileErr)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, fileImage, 0o600); err != nil {
		tb.Fatal(err)
	}
	return path
}

// migratedFile migrates a database file and returns its bytes; closing it
// checkpoints the write-ahead log into the file.
func migratedFile() ([]byte, error) {
	dir, err := os.MkdirTemp("", "sqlitetest-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "template.db")
	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		return nil, err
	}
	if err := db.Close(); err != nil {
		return nil, err
	}
	return os.ReadFile(path)
}

// MigratedMemory makes every in-memory database that sqlite.Open opens in
// this process from now on start as a copy of a migrated one. It registers
// a hook on the driver, which must not happen while connections open: call
// it from TestMain, before m.Run.
func MigratedMemory() {
	memoryOnce.Do(func() {
		img, err := migratedMemory()
		if err != nil {
			// Without the image each database migrates itself: slower,
			// and just as correct.
			fmt.Fprintln(os.Stderr, "sqlitetest:", err)
			return
		}
		memoryImage = img
		msqlite.RegisterConnectionHook(restoreMigrated)
	})
}

// restoreMigrated fills a new connection to sqlite.Open's in-memory
// database with the migrated image. Other in-memory connections (the
// search stemmer's scratch database, a test's own) are left empty: only
// sqlite.Open asks for immediate transactions.
func restoreMigrated(c msqlite.ExecQuerierContext, dsn string) error {
	if !strings.HasPrefix(dsn, "file::memory:?") || !strings.Contains(dsn, "_txlock=immediate") {
		return nil
	}
	d, ok := c.(interface{ Deserialize([]byte) error })
	if !ok {
		return fmt.Errorf("sqlitetest: the driver's connection cannot deserialize")
	}
	return d.Deserialize(memoryImage)
}

// migratedMemory migrates an in-memory database and returns its image.
func migratedMemory() ([]byte, error) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, ":memory:")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	conn, err := db.SQL().Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	var img []byte
	err = conn.Raw(func(dc any) error {
		s, ok := dc.(interface{ Serialize() ([]byte, error) })
		if !ok {
			return fmt.Errorf("the driver's connection cannot serialize")
		}
		img, err = s.Serialize()
		return err
	})
	if err == nil && len(img) == 0 {
		err = fmt.Errorf("empty image")
	}
	return img, err
}
