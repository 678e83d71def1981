package handlers_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/nocturne/storefront/internal/catalog"
	"github.com/nocturne/storefront/internal/shop"
)

func rawGet(t *testing.T, c *client, path string, headers ...string) (*http.Response, string) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res := c.do(req)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(b)
}

// A page for a visitor without a session is the same bytes for everyone:
// it is built once and then served from memory, until the catalogue changes.
func TestPageCache_AnonymousPagesBuiltOnce(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	res1, body1 := rawGet(t, app.client(t), "/products?category=home", "Accept-Encoding", "gzip")
	res2, body2 := rawGet(t, app.client(t), "/products?category=home", "Accept-Encoding", "gzip")
	if res1.Header.Get("X-Cache") != "miss" || res2.Header.Get("X-Cache") != "hit" {
		t.Fatalf("X-Cache: first %q, second %q; want miss then hit", res1.Header.Get("X-Cache"), res2.Header.Get("X-Cache"))
	}
	if body1 != body2 || res2.Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("the cached answer differs (encoding %q)", res2.Header.Get("Content-Encoding"))
	}
	if !strings.Contains(res2.Header.Get("Vary"), "Accept-Encoding") {
		t.Errorf("Vary: %q", res2.Header.Get("Vary"))
	}
	if res2.Header.Get("X-Request-Id") == res1.Header.Get("X-Request-Id") {
		t.Error("a cached answer repeats another request's id")
	}

	// A client that takes no compression gets plain HTML, not the cached gzip.
	res3, body3 := rawGet(t, app.client(t), "/products?category=home")
	if res3.Header.Get("Content-Encoding") != "" || !strings.Contains(body3, "<!doctype html>") {
		t.Errorf("identity request got encoding %q", res3.Header.Get("Content-Encoding"))
	}

	// An import shows at once: the catalogue version is part of the key.
	ctx := context.Background()
	if err := app.db.ReplaceCatalog(ctx, catalog.SourceFile, []string{"home"}, []shop.Product{{ID: "new-1", Title: "Brand new lamp", Category: "home", Price: 100}}); err != nil {
		t.Fatal(err)
	}
	if err := app.catalog.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	res4, body4 := rawGet(t, app.client(t), "/products?category=home")
	if res4.Header.Get("X-Cache") == "hit" || !strings.Contains(body4, "Brand new lamp") {
		t.Errorf("after an import: X-Cache %q, new product shown %v", res4.Header.Get("X-Cache"), strings.Contains(body4, "Brand new lamp"))
	}
}

// A shopper with a session never gets the anonymous page from the cache:
// their menu, badge and flash messages are their own.
func TestPageCache_PersonalPagesNeverCached(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	rawGet(t, app.client(t), "/products") // cached for visitors
	rawGet(t, app.client(t), "/products")

	c := app.register(t, "Ada", "ada@example.com", "night-owl-41")
	c.addToCart("/products", "nb-001", "3")
	res, body := rawGet(t, c, "/products")
	if res.Header.Get("X-Cache") == "hit" {
		t.Fatal("a signed-in shopper got the cached anonymous page")
	}
	for _, want := range []string{`data-testid="cart-badge"`, `data-testid="account-menu"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the shopper's page lacks %q", want)
		}
	}
	// A visitor who just got a flash message (a cookie) sees it.
	v := app.client(t)
	v.postFrom("/contact", "/contact", map[string][]string{"name": {"A"}, "email": {"a@example.com"}, "subject": {"S"}, "message": {"M"}})
	_, doc := v.get("/contact")
	if got := text(doc, `[data-testid="flash"]`); got == "" {
		t.Error("the flash message was not shown (cached page?)")
	}
}
