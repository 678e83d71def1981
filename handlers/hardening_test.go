package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nocturne/storefront/handlers"
	"github.com/nocturne/storefront/internal/shop"
)

// Every page has a Permissions-Policy that turns off the
// features the shop does not use.
func TestHeaders_PermissionsPolicy(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	res, _ := app.client(t).get("/")
	pp := res.Header.Get("Permissions-Policy")
	for _, f := range []string{"camera=()", "microphone=()", "geolocation=()", "payment=()"} {
		if !strings.Contains(pp, f) {
			t.Errorf("Permissions-Policy %q lacks %s", pp, f)
		}
	}
}

// Personal pages are private, no-store; public ones are
// not.
func TestHeaders_NoStoreOnPersonalPages(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.register(t, "Ada", "ada@example.com", "night-owl-41")
	c.addToCart("/products", "nb-001", "1")
	for _, path := range []string{"/orders", "/orders/lookup", "/profile", "/profile/setup", "/settings", "/checkout", "/checkout/shipping", "/cart", "/wishlist", "/orders/NOC-NOPE", "/login/link?token=x", "/reset-password?token=x", "/confirm-email?token=x"} {
		res, _ := c.get(path)
		if got := res.Header.Get("Cache-Control"); got != "private, no-store" {
			t.Errorf("%s (%d): Cache-Control %q, want private, no-store", path, res.StatusCode, got)
		}
	}
	for _, path := range []string{"/", "/products", "/faq"} {
		if res, _ := c.get(path); strings.Contains(res.Header.Get("Cache-Control"), "no-store") {
			t.Errorf("%s: public page is no-store", path)
		}
	}
}

// A client's X-Request-Id is used only when it is a short
// token of safe characters; anything else gets a generated id.
func TestHeaders_RequestID(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.client(t)
	if res, _ := c.get("/", "X-Request-Id", "lb-7f3a.42_x"); res.Header.Get("X-Request-Id") != "lb-7f3a.42_x" {
		t.Errorf("safe id not kept: %q", res.Header.Get("X-Request-Id"))
	}
	for _, bad := range []string{`"} injected=1 {"`, strings.Repeat("a", 65), "id with spaces", "ünïcode"} {
		res, _ := c.get("/", "X-Request-Id", bad)
		got := res.Header.Get("X-Request-Id")
		if got == bad || len(got) != 32 || strings.Trim(got, "0123456789abcdef") != "" {
			t.Errorf("sent %q, got back %q, want a fresh 32-hex id", bad, got)
		}
	}
	if res, _ := c.get("/"); len(res.Header.Get("X-Request-Id")) != 32 {
		t.Errorf("no id generated: %q", res.Header.Get("X-Request-Id"))
	}
}

// Invalid UTF-8 in form text is never stored: each
// invalid sequence becomes U+FFFD.
func TestForms_InvalidUTF8Normalised(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.client(t)
	body := "name=Ada%ff&email=ada%40example.com&subject=Hi%c3%28there&message=Bad+%e2%82+bytes"
	c.get("/contact")
	req := httptest.NewRequest(http.MethodPost, "/contact", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	if res := c.do(req); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("contact: %d", res.StatusCode)
	}
	msgs, _ := app.db.ContactMessages(context.Background())
	if len(msgs) != 1 {
		t.Fatalf("%d messages", len(msgs))
	}
	m := msgs[0]
	for _, s := range []string{m.Name, m.Subject, m.Message} {
		if !utf8.ValidString(s) {
			t.Errorf("stored invalid UTF-8: %q", s)
		}
	}
	if m.Name != "Ada\uFFFD" {
		t.Errorf("name %q, want Ada + U+FFFD", m.Name)
	}
}

// Behind a trusted proxy the client is the right-most address of
// X-Forwarded-For that is not a proxy: a client that puts addresses of its
// own in front cannot dodge a per-address limit.
func TestClientIP_SpoofedForwardedForDoesNotDodgeLimits(t *testing.T) {
	t.Parallel()
	app := newTestApp(t, func(env map[string]string, _ *handlers.Deps) {
		env["TRUSTED_PROXIES"] = "0.0.0.0/32,::/128" // the test requests' peer: one proxy
	})
	c := app.client(t)
	form := url.Values{"name": {"Ada"}, "email": {"ada@example.com"}, "subject": {"Hi"}, "message": {"Hello"}}
	for i := 1; i <= shop.LimitContactAddress.Max+1; i++ {
		res, _ := c.post("/contact", form, "X-Forwarded-For", fmt.Sprintf("10.0.0.%d, 198.51.100.7", i))
		want := http.StatusSeeOther
		if i > shop.LimitContactAddress.Max {
			want = http.StatusTooManyRequests
		}
		if res.StatusCode != want {
			t.Fatalf("message %d: %d, want %d", i, res.StatusCode, want)
		}
	}
	// Another client behind the same proxy is counted on its own.
	if res, _ := c.post("/contact", form, "X-Forwarded-For", "198.51.100.8"); res.StatusCode != http.StatusSeeOther {
		t.Errorf("another client: %d", res.StatusCode)
	}
}
