package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/nocturne/storefront/handlers"
)

// A POST is accepted when the browser says it comes from the shop's own
// pages (or sends no fetch metadata at all, as non-browser clients do), and
// refused with 403 when it comes from another site; a refused post stores
// nothing.
func TestCrossOriginGuard(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		headers []string
		want    int
	}{
		{"SameOrigin", []string{"Sec-Fetch-Site", "same-origin", "Origin", "http://example.com"}, http.StatusSeeOther},
		{"TypedByUser", []string{"Sec-Fetch-Site", "none"}, http.StatusSeeOther},
		{"NoMetadataNonBrowser", []string{"Sec-Fetch-Site", "", "Origin", ""}, http.StatusSeeOther},
		{"OldBrowserBaseURLOrigin", []string{"Sec-Fetch-Site", "", "Origin", "https://shop.example"}, http.StatusSeeOther},
		{"OldBrowserBaseURLOriginDefaultPort", []string{"Sec-Fetch-Site", "", "Origin", "https://shop.example:443"}, http.StatusSeeOther},
		{"ErrOldBrowserOtherPort", []string{"Sec-Fetch-Site", "", "Origin", "https://shop.example:8443"}, http.StatusForbidden},
		{"ErrOldBrowserOtherScheme", []string{"Sec-Fetch-Site", "", "Origin", "http://shop.example"}, http.StatusForbidden},
		{"ErrOldBrowserRequestHostNotBaseURL", []string{"Sec-Fetch-Site", "", "Origin", "http://example.com"}, http.StatusForbidden},
		{"ErrCrossSite", []string{"Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example"}, http.StatusForbidden},
		{"ErrSameSiteSubdomain", []string{"Sec-Fetch-Site", "same-site", "Origin", "https://blog.shop.example"}, http.StatusForbidden},
		{"ErrOldBrowserOtherOrigin", []string{"Sec-Fetch-Site", "", "Origin", "https://evil.example"}, http.StatusForbidden},
		{"ErrNullOrigin", []string{"Sec-Fetch-Site", "", "Origin", "null"}, http.StatusForbidden},
	} {
		t.Run(tt.name, func(t *testing.T) {
			app := newTestApp(t, func(env map[string]string, _ *handlers.Deps) { env["BASE_URL"] = "https://shop.example" })
			form := url.Values{"name": {"Ada"}, "email": {"ada@example.com"}, "subject": {"Hi"}, "message": {"Hello"}}
			req := formRequest("/contact", form)
			for i := 0; i+1 < len(tt.headers); i += 2 {
				if tt.headers[i+1] == "" {
					req.Header.Del(tt.headers[i])
				} else {
					req.Header.Set(tt.headers[i], tt.headers[i+1])
				}
			}
			res := app.client(t).do(req)
			if res.StatusCode != tt.want {
				t.Fatalf("status: got %d, want %d", res.StatusCode, tt.want)
			}
			msgs, err := app.db.ContactMessages(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if stored := len(msgs) == 1; stored != (tt.want == http.StatusSeeOther) {
				t.Errorf("stored %d messages with status %d", len(msgs), res.StatusCode)
			}
		})
	}
}

// Without BASE_URL the shop's origin is the request's own scheme and Host:
// another port or scheme of the same host is another origin.
func TestCrossOriginGuard_NoBaseURL(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, origin, proto, proxies string
		want                         int
	}{
		{"SameOrigin", "http://example.com", "", "", http.StatusSeeOther},
		{"ErrHTTPSOriginOnHTTP", "https://example.com", "", "", http.StatusForbidden},
		{"ErrOtherPort", "http://example.com:8080", "", "", http.StatusForbidden},
		// X-Forwarded-Proto counts only from a trusted proxy.
		{"TLSAtTrustedProxy", "https://example.com", "https", "0.0.0.0/0", http.StatusSeeOther},
		{"ErrUntrustedForwardedProto", "https://example.com", "https", "", http.StatusForbidden},
	} {
		t.Run(tt.name, func(t *testing.T) {
			app := newTestApp(t, func(env map[string]string, _ *handlers.Deps) {
				delete(env, "BASE_URL")
				env["TRUSTED_PROXIES"] = tt.proxies
			})
			req := formRequest("/contact", url.Values{"name": {"Ada"}, "email": {"ada@example.com"}, "subject": {"Hi"}, "message": {"Hello"}})
			req.Header.Del("Sec-Fetch-Site")
			req.Header.Set("Origin", tt.origin)
			if tt.proto != "" {
				req.Header.Set("X-Forwarded-Proto", tt.proto)
			}
			if res := app.client(t).do(req); res.StatusCode != tt.want {
				t.Fatalf("Origin %s on http://example.com: status %d, want %d", tt.origin, res.StatusCode, tt.want)
			}
		})
	}
}

// A POST reads its fields from the body only: a password (or anything else)
// put in the query string is ignored, so it never has to travel in a URL.
func TestPostIgnoresQueryString(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	app.register(t, "Ada", "ada@example.com", "night-owl-41")
	c := app.client(t)
	q := url.Values{"email": {"ada@example.com"}, "password": {"night-owl-41"}}
	res, doc := c.post("/login?"+q.Encode(), url.Values{})
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("status: got %d to %q, want 422 (the query string must not sign in)", res.StatusCode, res.Header.Get("Location"))
	}
	if !strings.Contains(doc.Find("main").Text(), "Email is required.") {
		t.Error("the empty form has no 'Email is required.' message")
	}
	res, _ = c.post("/login", q)
	if res.StatusCode != http.StatusSeeOther || strings.HasPrefix(res.Header.Get("Location"), "/login") {
		t.Fatalf("the same credentials in the body: got %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
}
