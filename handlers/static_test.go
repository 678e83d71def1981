package handlers_test

import (
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/nocturne/storefront/static"
)

// The first paint needs nothing but the HTML: the stylesheet is in the head,
// allowed by its hash in the Content-Security-Policy (no 'unsafe-inline').
func TestInlineStylesheet(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	for _, path := range []string{"/", "/products", "/faq", "/no-such-page"} {
		res, doc := app.client(t).get(path)
		if n := doc.Find(`link[rel="stylesheet"]`).Length(); n != 0 {
			t.Errorf("%s: %d render-blocking stylesheet links", path, n)
		}
		css := doc.Find("head style").Text()
		if css != string(testAssets["css/app.css"].Data) {
			t.Fatalf("%s: the head's style is not the stylesheet (%d bytes)", path, len(css))
		}
		sum := sha256.Sum256([]byte(css))
		policy := res.Header.Get("Content-Security-Policy")
		if want := "style-src 'self' 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"; !strings.Contains(policy, want) {
			t.Errorf("%s: CSP %q lacks %q", path, policy, want)
		}
		if strings.Contains(policy, "unsafe-inline") {
			t.Errorf("%s: CSP allows unsafe-inline", path)
		}
	}
}

func TestStaticAssets(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.client(t)
	// Pages carry the stylesheet inline; development links it by this URL.
	set, err := static.Load(testAssets)
	if err != nil {
		t.Fatal(err)
	}
	css := set.URL("css/app.css")
	if !regexp.MustCompile(`^/static/css/app\.[0-9a-f]{10}\.css$`).MatchString(css) {
		t.Fatalf("stylesheet URL is not content-hashed: %q", css)
	}

	tests := []struct {
		name, path, encoding string
		status               int
		wantEncoding         string
	}{
		{"CSS", css, "", 200, ""},
		{"CSSGzip", css, "gzip, deflate", 200, "gzip"},
		{"CSSBrotli", css, "gzip, deflate, br", 200, "br"},
		{"IslandChunk", "/static/dist/chunks/a-TEST.js", "", 200, ""},
		{"UnhashedName", "/static/css/app.css", "", 404, ""},
		{"Unknown", "/static/css/nope.0123456789.css", "", 404, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, tt.path, nil)
			if tt.encoding != "" {
				req.Header.Set("Accept-Encoding", tt.encoding)
			}
			res := c.do(req)
			defer res.Body.Close()
			if res.StatusCode != tt.status {
				t.Fatalf("status: got %d, want %d", res.StatusCode, tt.status)
			}
			if tt.status != 200 {
				return
			}
			if got := res.Header.Get("Cache-Control"); got != "public, max-age=31536000, immutable" {
				t.Errorf("cache-control: got %q", got)
			}
			if got := res.Header.Get("Content-Encoding"); got != tt.wantEncoding {
				t.Errorf("encoding: got %q, want %q", got, tt.wantEncoding)
			}
			if tt.wantEncoding == "gzip" {
				zr, err := gzip.NewReader(res.Body)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(zr)
				if want := testAssets["css/app.css"].Data; string(body) != string(want) {
					t.Error("gzip body does not decode to the stylesheet")
				}
			}
		})
	}
}

func TestFavicon(t *testing.T) {
	t.Parallel()
	res, _ := newTestApp(t).client(t).get("/favicon.ico")
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/svg+xml" {
		t.Errorf("got %d %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
}
