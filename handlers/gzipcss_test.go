package handlers_test

import (
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"
)

// A first visit gets the page gzipped with the stylesheet inside, and it is
// byte for byte the page an uncompressed request gets.
func TestAnonymousPage_GzipCarriesTheStylesheet(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	for path, accept := range map[string]string{
		"/products?category=electronics&sort=desc": "gzip",
		"/products?category=home":                  "gzip, deflate, br, zstd", // a browser's
	} {
		t.Run(accept, func(t *testing.T) {
			_, plain := rawGet(t, app.client(t), path)
			res, zipped := rawGet(t, app.client(t), path, "Accept-Encoding", accept)
			assertGzipOf(t, res, zipped, plain)
			if !strings.Contains(plain, "<style>") || !strings.Contains(plain, "Nocturne") {
				t.Fatal("the page has no inline stylesheet to test with")
			}
			if len(zipped)*3 > len(plain) {
				t.Errorf("%d bytes compressed to %d", len(plain), len(zipped))
			}
		})
	}
}

// A signed-in shopper's page links the stylesheet and is never cached; it is
// gzipped too (by the same writer, in one call), and decodes to the page an
// uncompressed request gets.
func TestSignedInPage_Gzip(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	shopper := app.register(t, "Ada", "ada@example.com", "night-owl-41")
	_, plain := rawGet(t, shopper, "/products")
	res, zipped := rawGet(t, shopper, "/products", "Accept-Encoding", "gzip, deflate, br, zstd")
	assertGzipOf(t, res, zipped, plain)
	if strings.Contains(plain, "<style>") || !strings.Contains(plain, "Account") {
		t.Fatal("not a signed-in page with a linked stylesheet")
	}
	if len(zipped)*4 > len(plain) {
		t.Errorf("%d bytes compressed to %d", len(plain), len(zipped))
	}
}

// assertGzipOf checks that res is gzipped and that its body, zipped, decodes
// to plain, byte for byte.
func assertGzipOf(t *testing.T, res *http.Response, zipped, plain string) {
	t.Helper()
	if got := res.Header.Get("Content-Encoding"); got != "gzip" {
		t.Fatalf("Content-Encoding %q, want gzip", got)
	}
	zr, err := gzip.NewReader(strings.NewReader(zipped))
	if err != nil {
		t.Fatal(err)
	}
	page, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("the page does not decode: %v", err)
	}
	if string(page) != plain {
		t.Fatalf("decoded page (%d bytes) differs from the plain one (%d bytes)", len(page), len(plain))
	}
}
