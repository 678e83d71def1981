package handlers_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/demo"
)

// publicPages are the pages a shopper or a crawler reads, signed in or out.
var publicPages = []string{
	"/", "/products", "/products?category=electronics&sort=desc&minPrice=20", "/products?page=2",
	"/products?category=featured", "/product/nb-001", "/product/nb-999", "/search?q=lamp",
	"/search?q=hedphones", "/search?q=", "/api/products?page=2", "/cart", "/wishlist", "/login",
	"/login?mode=signup", "/register", "/forgot-password", "/reset-password?token=garbage",
	"/faq", "/shipping", "/returns", "/contact", "/orders", "/orders?status=shipped",
	"/orders/lookup", "/orders/NOC-DEMO-001", "/profile", "/profile?edit=1", "/profile/setup",
	"/settings", "/settings/data", "/checkout", "/checkout/shipping", "/checkout/payment", "/checkout/review",
	"/sitemap.xml", "/robots.txt", "/healthz", "/favicon.ico", "/no-such-page",
}

// Reads never write: hundreds of GETs and HEADs across every page, by
// visitors without a session and by a signed-in shopper with a cart and a
// wishlist, change no row of any table.
func TestReadsNeverWrite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "shop.db")
	app := newTestApp(t, withDBFile(path))
	acct, err := demo.Seed(context.Background(), app.db, app.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	shopper := app.client(t)
	if res := app.signIn(t, shopper, acct.Email, acct.Password, ""); res.StatusCode != http.StatusSeeOther {
		t.Fatal("sign-in failed")
	}
	shopper.addToCart("/products", "nb-001", "2")
	shopper.post("/wishlist/nb-002/toggle", nil)
	guest := app.client(t)
	guest.postFrom("/checkout", "/guest", nil)
	guest.addToCart("/products", "nb-003", "1")

	before := tableSums(t, path)
	// A few minutes pass between the set-up and the reading: within the
	// session's touch interval, so not even a session is re-saved.
	app.clock.Advance(3 * time.Minute)
	gets := 0
	for round := range 3 {
		for _, page := range publicPages {
			for _, c := range []*client{app.client(t), shopper, guest} {
				method := http.MethodGet
				if round == 2 {
					method = http.MethodHead
				}
				req, _ := http.NewRequest(method, page, nil)
				req.Header.Set("Accept-Encoding", "gzip")
				res := c.do(req)
				res.Body.Close()
				if res.StatusCode >= 500 {
					t.Errorf("%s %s: %d", method, page, res.StatusCode)
				}
				gets++
			}
		}
	}
	after := tableSums(t, path)
	for table, sum := range before {
		if after[table] != sum {
			t.Errorf("table %s changed during %d GET/HEAD requests", table, gets)
		}
	}
	for table := range after {
		if _, ok := before[table]; !ok {
			t.Errorf("table %s appeared during GET requests", table)
		}
	}
	if gets < 300 {
		t.Fatalf("only %d requests", gets)
	}
}

// tableSums reads every table of the database file through a connection of
// its own and returns a digest of each table's rows.
func tableSums(t *testing.T, path string) map[string]string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	rows.Close()
	if len(tables) < 10 {
		t.Fatalf("found only tables %v", tables)
	}
	sums := map[string]string{}
	for _, table := range tables {
		rows, err := db.Query(`SELECT * FROM "` + table + `"`)
		if err != nil {
			t.Fatalf("read %s: %v", table, err)
		}
		cols, _ := rows.Columns()
		h := sha256.New()
		n := 0
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(h, "%v\n", vals)
			n++
		}
		rows.Close()
		sums[table] = fmt.Sprintf("%d:%x", n, h.Sum(nil))
	}
	return sums
}
