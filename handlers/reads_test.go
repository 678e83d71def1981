package handlers_test

import (
	"crypto/sha256"
	"database/sql"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
)

// dbDigest hashes every row of every table but kv (the session store, which
// has its own rules) and the throttle counters, so a test can tell whether
// a request wrote anything.
func dbDigest(t *testing.T, path string) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('kv') AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var n string
		_ = rows.Scan(&n)
		tables = append(tables, n)
	}
	rows.Close()
	h := sha256.New()
	for _, tb := range tables {
		r, err := db.Query(`SELECT * FROM "` + tb + `"`)
		if err != nil {
			continue // virtual tables of FTS5 and the like
		}
		cols, _ := r.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for r.Next() {
			_ = r.Scan(ptrs...)
			fmt.Fprintf(h, "%s%v\n", tb, vals)
		}
		r.Close()
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// Reads never write: the GETs that sit next to a state change (the review
// with its cart key, the payment status, the sign-in link page) change no
// row.
func TestReadsNeverWrite_CheckoutAndLinks(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "shop.db")
	app := newTestApp(t, withDBFile(path))
	c := app.register(t, "Ada", "ada@example.com", "night-owl-41")
	c.addToCart("/products", "nb-001", "1")
	checkoutToReview(t, c, testCard)
	key := reviewKey(t, c)
	res, _ := c.post("/checkout/place", url.Values{"key": {key}})
	statusPath := res.Header.Get("Location")
	c.settle()
	before := dbDigest(t, path)
	c.addToCart("/products", "nb-002", "1") // the digest does see a write
	if after := dbDigest(t, path); after == before {
		t.Fatal("the digest missed a cart write")
	}
	before = dbDigest(t, path)
	for _, p := range []string{"/checkout/review", statusPath, strings.TrimSuffix(statusPath, "/status"), "/orders/NOC-000000-00000000/status",
		"/login/link?token=abc", "/login/link", "/orders", "/cart"} {
		res, _ = c.get(p)
		if after := dbDigest(t, path); after != before {
			t.Errorf("GET %s (%d) changed the database", p, res.StatusCode)
			before = after
		}
	}
}
