package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/nocturne/storefront/internal/config"
)

// A first start whose CATALOG_URL sync fails has no catalogue to sell:
// /healthz answers 503 "degraded: no catalogue" (it said 200 over an empty
// shop) until a sync, retried at the next tick of the interval, loads one.
func TestStart_CatalogueSyncFailsOnFirstStart(t *testing.T) {
	var up atomic.Bool
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !up.Load() {
			http.Error(w, "down", http.StatusBadGateway)
			return
		}
		switch r.URL.Path {
		case "/products":
			w.Write([]byte(`[{"id": 1, "title": "Synced Lamp", "price": 9.99, "description": "d", "category": "home", "image": "", "rating": {"rate": 4, "count": 1}}]`))
		case "/products/categories":
			w.Write([]byte(`["home"]`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer fake.Close()
	env := map[string]string{"DATA_DIR": t.TempDir(), "CATALOG_URL": fake.URL}
	env["SESSION_SECRET"] = "0123456789012345678901234567890123456789"
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	db, err := openDatabase(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var jobs errgroup.Group
	t.Cleanup(func() { cancel(); jobs.Wait(); db.Close() })
	tick := make(chan time.Time)
	app, _, err := start(ctx, cfg, db, slog.New(slog.DiscardHandler), catalogPace{Tick: tick}, &jobs)
	if err != nil {
		t.Fatal(err)
	}
	healthz := func() (int, string) {
		t.Helper()
		res, err := app.Test(httptest.NewRequest(http.MethodGet, "/healthz", nil), -1)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(body)
	}

	// The first tick is taken once the failed first sync has ended (its
	// own sync fails too: the service is still down).
	tick <- time.Now()
	if status, body := healthz(); status != http.StatusServiceUnavailable || body != "degraded: no catalogue" {
		t.Fatalf("after a failed first sync: got %d %q, want 503 degraded: no catalogue", status, body)
	}
	up.Store(true)
	// The next tick's sync succeeds; the one after it is taken once that
	// sync has ended.
	tick <- time.Now()
	tick <- time.Now()
	if status, body := healthz(); status != http.StatusOK || body != "ok" {
		t.Errorf("after a sync that loaded the catalogue: got %d %q, want 200 ok", status, body)
	}
}
