package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

func TestPages(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	tests := []struct {
		path    string
		status  int
		title   string
		heading string
		has     []string // texts the page must contain
	}{
		{"/", 200, "Nocturne", "Everything you love, in one quiet place",
			[]string{"Shop Now", "Featured Products", "Quality Products", "Fast Delivery", "Secure Shopping", "Best Prices"}},
		{"/faq", 200, "FAQ | Nocturne", "Frequently Asked Questions", []string{"How long does shipping take?"}},
		{"/shipping", 200, "Shipping Information | Nocturne", "Shipping Information",
			[]string{"3–5 business days", "$10.00 on orders under $50; free on orders of $50 or more", "$14.99", "$19.99", "before 2 PM EST",
				"International", "7–14 business days", "$24.99"}},
		{"/returns", 200, "Returns & Refunds | Nocturne", "Returns & Refunds",
			[]string{"within 30 days", "3-5 business days", "5-10 days", "Gift cards", "Digital products", "Undergarments and swimwear", "Personal care", "Final sale", "Custom"}},
		{"/contact", 200, "Contact Us | Nocturne", "Contact Us", []string{"Mon-Fri 8am-6pm"}},
		{"/no-such-page", 404, "Page Not Found | Nocturne", "Page Not Found", []string{"Go Home", "Browse Products"}},
		{"/product-typo/deeper", 404, "Page Not Found | Nocturne", "Page Not Found", nil},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			res, doc := app.client(t).get(tt.path)
			if res.StatusCode != tt.status {
				t.Fatalf("status: got %d, want %d", res.StatusCode, tt.status)
			}
			if got := res.Header.Get("Content-Type"); got != "text/html; charset=utf-8" {
				t.Errorf("content type: got %q", got)
			}
			if got := doc.Find("title").Text(); got != tt.title {
				t.Errorf("title: got %q, want %q", got, tt.title)
			}
			if got := text(doc, "main h1"); got != tt.heading {
				t.Errorf("h1: got %q, want %q", got, tt.heading)
			}
			body := strings.Join(strings.Fields(doc.Find("main").Text()), " ")
			for _, s := range tt.has {
				if !strings.Contains(body, s) {
					t.Errorf("page lacks %q", s)
				}
			}
		})
	}
}

func TestLanding_Links(t *testing.T) {
	t.Parallel()
	_, doc := newTestApp(t).client(t).get("/")
	want := map[string]string{
		`[data-testid="shop-now"]`:      "/products",
		`[data-testid="featured-link"]`: "/products?category=featured",
	}
	for sel, href := range want {
		if got, _ := doc.Find(sel).Attr("href"); got != href {
			t.Errorf("%s href: got %q, want %q", sel, got, href)
		}
	}
	var tiles []string
	doc.Find(`[data-testid="category-tiles"] a`).Each(func(_ int, s *goquery.Selection) {
		tiles = append(tiles, s.AttrOr("href", ""))
	})
	if got, want := strings.Join(tiles, " "), "/products?category=electronics /products?category=home /products?category=fashion"; got != want {
		t.Errorf("tiles: got %q, want %q", got, want)
	}
	if n := doc.Find(`[data-testid="benefits"] li`).Length(); n != 4 {
		t.Errorf("benefits: got %d, want 4", n)
	}
}

func TestFrame(t *testing.T) {
	t.Parallel()
	_, doc := newTestApp(t).client(t).get("/faq")

	t.Run("Careers", func(t *testing.T) {
		link := doc.Find(`.nav-wide [data-testid="careers-link"]`)
		if got := link.AttrOr("href", ""); got != "https://careers.example.test" {
			t.Errorf("href: got %q", got)
		}
		if got := link.AttrOr("target", ""); got != "_blank" {
			t.Errorf("target: got %q, want _blank", got)
		}
		if got := link.AttrOr("rel", ""); got != "noopener noreferrer" {
			t.Errorf("rel: got %q, want noopener noreferrer", got)
		}
	})
	t.Run("TopBar", func(t *testing.T) {
		for _, nav := range []string{".nav-wide", ".nav-narrow"} {
			for _, href := range []string{"/products", "/cart", "/login?from=%2Ffaq"} {
				if doc.Find(nav+` a[href="`+href+`"]`).Length() != 1 {
					t.Errorf("%s lacks a link to %s", nav, href)
				}
			}
		}
		if got := doc.Find(`a.brand`).AttrOr("href", ""); got != "/" {
			t.Errorf("brand links to %q, want /", got)
		}
		if doc.Find(`[data-testid="account-menu"]`).Length() != 0 {
			t.Error("signed-out visitor sees the account menu")
		}
		if doc.Find(`[data-testid="cart-badge"]`).Length() != 0 {
			t.Error("empty cart shows a badge")
		}
		search := doc.Find(`form[role="search"]`)
		if search.AttrOr("action", "") != "/search" || search.AttrOr("method", "") != "get" {
			t.Error("search form does not GET /search")
		}
		if _, ok := search.Find(`input[name="q"]`).Attr("required"); !ok {
			t.Error("search box is not required")
		}
	})
	t.Run("Footer", func(t *testing.T) {
		footer := doc.Find("footer")
		for _, href := range []string{"/products", "/products?category=electronics", "/products?category=fashion",
			"/products?category=jewelery", "/contact", "/faq", "/shipping", "/returns", "/orders", "/login",
			"/register", "/cart", "/profile", "https://careers.example.test"} {
			if footer.Find(`a[href="`+href+`"]`).Length() == 0 {
				t.Errorf("footer lacks %s", href)
			}
		}
		if got := footer.Find(`a[href="/orders"]`).Text(); got != "Track Order" {
			t.Errorf("orders link text: got %q", got)
		}
		if !strings.Contains(footer.Text(), "Prices and availability are subject to change without notice.") {
			t.Error("footer lacks the price notice")
		}
	})
}

func TestFAQ_ExclusiveAccordion(t *testing.T) {
	t.Parallel()
	_, doc := newTestApp(t).client(t).get("/faq")
	items := doc.Find(`details[name="faq"]`)
	if items.Length() != 10 {
		t.Fatalf("got %d entries, want 10", items.Length())
	}
	if doc.Find(`details[name="faq"][open]`).Length() != 0 {
		t.Error("an entry starts open")
	}
}

// Only pages that mount an island load JavaScript.
func TestScripts(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	for _, path := range []string{"/faq", "/shipping", "/returns", "/contact", "/missing"} {
		_, doc := app.client(t).get(path)
		if n := doc.Find("script").Length(); n != 0 {
			t.Errorf("%s has %d script elements, want 0", path, n)
		}
	}
	_, doc := app.client(t).get("/")
	script := doc.Find(`script[type="module"]`)
	if got := script.AttrOr("src", ""); got != "/static/dist/entry-TEST.js" {
		t.Errorf("landing entry script: got %q", got)
	}
	if doc.Find(`script:not([src])`).Length() != 0 {
		t.Error("landing page has an inline script")
	}
	if got := doc.Find(`.nav-wide [data-island="cart-badge"]`).AttrOr("data-props", ""); got != `{"count":0}` {
		t.Errorf("badge island props: got %q", got)
	}
}

func TestSearch(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	tests := []struct {
		name, query, referer, location string
	}{
		{"BlankGoesBack", "%20%20", "http://example.com/faq", "/faq"},
		{"EmptyWithoutReferer", "", "", "/products"},
		{"ForeignRefererIgnored", "+", "http://evil.example/phish", "/products"},
		{"NoLoopToSearch", "+", "http://example.com/search?q=lamp", "/products"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			headers := []string{}
			if tt.referer != "" {
				headers = append(headers, "Referer", tt.referer)
			}
			res, _ := app.client(t).get("/search?q="+tt.query, headers...)
			if res.StatusCode != http.StatusSeeOther {
				t.Fatalf("status: got %d, want 303", res.StatusCode)
			}
			if got := res.Header.Get("Location"); got != tt.location {
				t.Errorf("location: got %q, want %q", got, tt.location)
			}
		})
	}
	t.Run("Trimmed", func(t *testing.T) {
		c := app.client(t)
		res, _ := c.get("/search?q=%20%20desk%20lamp%20")
		if res.StatusCode != http.StatusFound || res.Header.Get("Location") != "/search?q=desk+lamp" {
			t.Fatalf("got %d to %q, want 302 to the canonical /search?q=desk+lamp", res.StatusCode, res.Header.Get("Location"))
		}
		res, doc := c.get("/search?q=desk+lamp")
		if res.StatusCode != 200 {
			t.Fatalf("status: got %d", res.StatusCode)
		}
		if got := text(doc, "main h1"); got != "Search results for “desk lamp”" {
			t.Errorf("heading: got %q", got)
		}
	})
}

func TestSecurityHeaders(t *testing.T) {
	t.Parallel()
	res, _ := newTestApp(t).client(t).get("/")
	csp := res.Header.Get("Content-Security-Policy")
	for _, want := range []string{"script-src 'self'", "frame-ancestors 'none'", "object-src 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP lacks %q: %s", want, csp)
		}
	}
	if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
		t.Errorf("CSP allows inline or eval: %s", csp)
	}
	for h, want := range map[string]string{
		"X-Content-Type-Options": "nosniff",
		"Referrer-Policy":        "same-origin",
		"X-Frame-Options":        "DENY",
	} {
		if got := res.Header.Get(h); got != want {
			t.Errorf("%s: got %q, want %q", h, got, want)
		}
	}
	if res.Header.Get("X-Request-Id") == "" {
		t.Error("no X-Request-Id")
	}
}

func TestCompression(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	res, _ := app.client(t).get("/faq", "Accept-Encoding", "gzip")
	if got := res.Header.Get("Content-Encoding"); got != "gzip" {
		t.Errorf("page encoding: got %q, want gzip", got)
	}
}

func TestHealthz(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	res, _ := app.client(t).get("/healthz")
	if res.StatusCode != 200 {
		t.Fatalf("healthy: got %d, want 200", res.StatusCode)
	}
	app.db.Close()
	res, _ = app.client(t).get("/healthz")
	if res.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("database closed: got %d, want 503", res.StatusCode)
	}
}
