package postgres_test

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/store/postgres"
	"github.com/nocturne/storefront/internal/store/postgres/pgtest"
	"github.com/nocturne/storefront/internal/store/storetest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.Cleanup()
	os.Exit(code)
}

// MustOpenDB opens a fresh, migrated database.
func MustOpenDB(tb testing.TB) *postgres.DB {
	tb.Helper()
	db, err := postgres.Open(context.Background(), pgtest.NewDatabase(tb), postgres.Options{MaxConns: 8})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// The whole conformance suite, on PostgreSQL.
func TestConformance(t *testing.T) {
	t.Parallel() // each subtest takes databases of its own
	storetest.Run(t, storetest.Backend{
		Open: func(tb testing.TB, now func() time.Time) (storetest.Store, storetest.KV) {
			db := MustOpenDB(tb)
			db.SetClock(now)
			return db, db.KV()
		},
		RefuseWrites: func(tb testing.TB, s storetest.Store) func() {
			db := s.(*postgres.DB)
			setReadOnly(tb, db, true)
			return func() { setReadOnly(tb, db, false) }
		},
		Close:       func(s storetest.Store) { s.(*postgres.DB).Close() },
		Unavailable: postgres.Unavailable,
	})
}

// setReadOnly makes db's database refuse writes, as a replica or a full
// disk does (default_transaction_read_only, for new connections), or take
// them again; the pool's connections are replaced so the change applies.
func setReadOnly(tb testing.TB, db *postgres.DB, on bool) {
	tb.Helper()
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, pgtest.ServerURL(tb))
	if err != nil {
		tb.Fatal(err)
	}
	defer admin.Close(ctx)
	name := pgx.Identifier{db.Pool().Config().ConnConfig.Database}.Sanitize()
	stmt := `ALTER DATABASE ` + name + ` RESET default_transaction_read_only`
	if on {
		stmt = `ALTER DATABASE ` + name + ` SET default_transaction_read_only = on`
	}
	if _, err := admin.Exec(ctx, stmt); err != nil {
		tb.Fatal(err)
	}
	db.ResetConns()
}

// Two instances starting together on an empty database both come up: the
// advisory lock makes the second wait for the first's migrations instead
// of failing on tables that already exist.
func TestOpen_ConcurrentMigrations(t *testing.T) {
	t.Parallel() // on a database of its own
	url := pgtest.EmptyDatabase(t)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			db, err := postgres.Open(context.Background(), url, postgres.Options{MaxConns: 2})
			if err == nil {
				err = db.Ping(context.Background())
				db.Close()
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("instance %d: %v", i, err)
		}
	}
}

// A job guarded by TryLock runs on one instance at a time, and on another
// once released.
func TestTryLock(t *testing.T) {
	t.Parallel() // on a database of its own: advisory locks are per database
	url := pgtest.NewDatabase(t)
	ctx := context.Background()
	var dbs [2]*postgres.DB
	for i := range dbs {
		db, err := postgres.Open(ctx, url, postgres.Options{MaxConns: 2})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		dbs[i] = db
	}
	a, b := dbs[0], dbs[1]
	release, ok, err := a.TryLock(ctx, 42)
	if err != nil || !ok {
		t.Fatalf("first lock: %v %v", ok, err)
	}
	if _, ok, err := b.TryLock(ctx, 42); err != nil || ok {
		t.Fatalf("second instance's lock while held: got %v %v, want refused", ok, err)
	}
	release()
	r, ok, err := b.TryLock(ctx, 42)
	if err != nil || !ok {
		t.Fatalf("lock after release: %v %v", ok, err)
	}
	r()
}

// A taken e-mail is an ECONFLICT (a wrong mapping would make it a 500).
func TestCreateUser_EmailTaken(t *testing.T) {
	t.Parallel() // on a database of its own
	db := MustOpenDB(t)
	ctx := context.Background()
	if err := db.CreateUser(ctx, &shop.User{ID: "usr_1", Email: "ada@example.com"}, []byte("h")); err != nil {
		t.Fatal(err)
	}
	err := db.CreateUser(ctx, &shop.User{ID: "usr_2", Email: "ada@example.com"}, []byte("h"))
	if shop.ErrorCode(err) != shop.ECONFLICT {
		t.Fatalf("got %v, want ECONFLICT", err)
	}
}

// The wishlist toggle racing itself: an even number of toggles at once
// leaves the product off, an odd number on, and none fails.
func TestToggleWishlist_Races(t *testing.T) {
	t.Parallel() // on a database of its own
	db := MustOpenDB(t)
	ctx := context.Background()
	if err := db.ReplaceCatalog(ctx, "file", []string{"home"}, []shop.Product{{ID: "nb-001", Title: "Lamp", Category: "home", Price: 100}}); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateUser(ctx, &shop.User{ID: "usr_1", Email: "ada@example.com"}, nil); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{8, 9} {
		var wg sync.WaitGroup
		for range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := db.ToggleWishlist(ctx, "usr_1", "nb-001"); err != nil {
					t.Errorf("toggle: %v", err)
				}
			}()
		}
		wg.Wait()
		ids, _ := db.WishlistIDs(ctx, "usr_1")
		if ids["nb-001"] != (n%2 == 1) {
			t.Errorf("after %d toggles from off: on=%v", n, ids["nb-001"])
		}
		db.RemoveFromWishlist(ctx, "usr_1", "nb-001")
	}
}
