package handlers_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/store/sqlite"
)

// healthz returns /healthz's status and body.
func (a *testApp) healthz(t *testing.T) (int, string) {
	t.Helper()
	res, err := a.app.Test(httptest.NewRequest(http.MethodGet, "/healthz", nil), -1)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}

// fillDisk fills the database as a full disk would, deterministically: it
// may grow no more (max_page_count at its size now) and writes of a page
// each take what free pages it has left until one fails (SQLITE_FULL).
func fillDisk(t *testing.T, db *sqlite.DB) (undo func()) {
	t.Helper()
	ctx := context.Background()
	pages, err := db.SetMaxPages(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.SetMaxPages(ctx, pages); err != nil {
		t.Fatal(err)
	}
	for i := range 10000 {
		if err := db.KV().Set(fmt.Sprintf("fill_%d", i), bytes.Repeat([]byte{'x'}, 4000), 0); err != nil {
			if !sqlite.Unavailable(err) {
				t.Fatalf("filling the database: %v", err)
			}
			return func() {
				if _, err := db.SetMaxPages(ctx, 0); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	t.Fatal("the database never filled")
	return nil
}

// A full disk shows on /healthz after the monitor's next heartbeat (the
// old write probe was rolled back and never reached the disk: 200 while
// every register failed), and /healthz is 200 again after one once there
// is room.
func TestHealthz_FullDisk(t *testing.T) {
	t.Parallel()
	app := newTestApp(t, withDBFile(filepath.Join(t.TempDir(), "shop.db")))
	if status, body := app.healthz(t); status != http.StatusOK || body != "ok" {
		t.Fatalf("healthy: got %d %q, want 200 ok", status, body)
	}
	undo := fillDisk(t, app.db)
	app.monitor.Probe(context.Background())
	if status, body := app.healthz(t); status != http.StatusServiceUnavailable || body != "unavailable: database" {
		t.Errorf("full disk after a probe: got %d %q, want 503 unavailable: database", status, body)
	}
	undo()
	app.monitor.Probe(context.Background())
	if status, body := app.healthz(t); status != http.StatusOK {
		t.Errorf("room again after a probe: got %d %q, want 200", status, body)
	}
}

// The SQLite file deleted under the running shop: writes would go into an
// unlinked file and every account would be gone at the next start, so
// /healthz says so at once.
func TestHealthz_DatabaseFileDeleted(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "shop.db")
	app := newTestApp(t, withDBFile(path))
	if status, _ := app.healthz(t); status != http.StatusOK {
		t.Fatalf("healthy: got %d", status)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if status, body := app.healthz(t); status != http.StatusServiceUnavailable || body != "unavailable: database" {
		t.Errorf("file deleted: got %d %q, want 503 unavailable: database", status, body)
	}
}

// Once the health check has seen the SQLite file deleted, writes are
// refused with 503 and Retry-After, as in an outage, instead of being
// accepted into the unlinked file and lost at the next start.
func TestDatabaseFileDeleted_WritesFailClosed(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "shop.db")
	app := newTestApp(t, withDBFile(path))
	shopper := app.register(t, "Ada Lovelace", "ada@example.com", "night-owl-41")
	visitor := app.client(t)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if status, _ := app.healthz(t); status != http.StatusServiceUnavailable {
		t.Fatalf("file deleted: /healthz got %d, want 503", status)
	}
	for _, tt := range []struct {
		name string
		c    *client
		path string
		form url.Values
	}{
		{"SignedInCart", shopper, "/cart/items", url.Values{"product_id": {"nb-001"}, "quantity": {"1"}}},
		{"VisitorRegister", visitor, "/register", registerForm("Bo", "bo@example.com", "night-owl-42")},
	} {
		res, doc := tt.c.post(tt.path, tt.form)
		if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
			t.Errorf("%s: POST %s got %d (Retry-After %q), want 503 with Retry-After", tt.name, tt.path, res.StatusCode, res.Header.Get("Retry-After"))
		}
		if !strings.Contains(doc.Text(), shop.MsgUnavailable) {
			t.Errorf("%s: the page does not say the shop is briefly unavailable", tt.name)
		}
	}
}

// What /healthz says while the shop lacks its catalogue.
func TestHealthz_Degraded(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	loaded := false
	app.monitor.Require("no catalogue", func() bool { return loaded })
	if status, body := app.healthz(t); status != http.StatusServiceUnavailable || body != "degraded: no catalogue" {
		t.Errorf("no catalogue: got %d %q, want 503 degraded: no catalogue", status, body)
	}
	loaded = true
	if status, body := app.healthz(t); status != http.StatusOK || body != "ok" {
		t.Errorf("catalogue loaded: got %d %q, want 200 ok", status, body)
	}
}

// During a database outage every page that needs the database answers 503
// with Retry-After and a plain message, never 500 "Something went wrong":
// a signed-in shopper's pages (the session is read from the database) and
// every POST. Anonymous pages keep serving from memory.
func TestDatabaseOutage_503(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	shopper := app.register(t, "Ada Lovelace", "ada@example.com", "night-owl-41")
	visitor := app.client(t)
	app.db.Close()

	want503 := func(what string, res *http.Response, body string) {
		t.Helper()
		if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
			t.Errorf("%s: got %d (Retry-After %q), want 503 with Retry-After", what, res.StatusCode, res.Header.Get("Retry-After"))
		}
		if !strings.Contains(body, shop.MsgUnavailable) || strings.Contains(body, "Something went wrong") {
			t.Errorf("%s: the page does not say the shop is briefly unavailable", what)
		}
	}
	res, doc := shopper.get("/profile")
	want503("signed-in GET /profile", res, doc.Text())
	res, doc = shopper.get("/")
	want503("signed-in GET /", res, doc.Text())
	res, doc = shopper.post("/cart/items", url.Values{"product_id": {"nb-001"}, "quantity": {"1"}})
	want503("signed-in POST /cart/items", res, doc.Text())
	res, doc = visitor.post("/cart/items", url.Values{"product_id": {"nb-001"}, "quantity": {"1"}})
	want503("visitor POST /cart/items", res, doc.Text())
	res, doc = visitor.post("/register", registerForm("Bo", "bo@example.com", "night-owl-42"))
	want503("visitor POST /register", res, doc.Text())
	res, doc = visitor.post("/login", url.Values{"email": {"ada@example.com"}, "password": {"night-owl-41"}})
	want503("visitor POST /login", res, doc.Text())

	if res, _ := visitor.get("/products"); res.StatusCode != http.StatusOK {
		t.Errorf("anonymous GET /products during the outage: got %d, want 200 from memory", res.StatusCode)
	}
}
