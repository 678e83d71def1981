package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/oauth2-proxy/mockoidc"

	"github.com/nocturne/storefront/handlers"
	"github.com/nocturne/storefront/internal/auth"
)

// newGoogleApp runs a local OpenID Connect provider on loopback and points
// the shop's Google sign-in at it.
func newGoogleApp(t *testing.T) (*testApp, *mockoidc.MockOIDC) {
	t.Helper()
	m, err := mockoidc.Run()
	if err != nil {
		t.Fatalf("mock OIDC provider: %v", err)
	}
	t.Cleanup(func() { m.Shutdown() })
	cfg := m.Config()
	app := newTestApp(t, func(env map[string]string, d *handlers.Deps) {
		env["GOOGLE_CLIENT_ID"], env["GOOGLE_CLIENT_SECRET"] = cfg.ClientID, cfg.ClientSecret
		d.Google = &auth.Google{
			ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret,
			CallbackURL:  "http://localhost:3000/auth/google/callback",
			DiscoveryURL: m.DiscoveryEndpoint(),
		}
	})
	return app, m
}

// googleRoundTrip presses the Google button and follows the provider's
// redirect back to the shop, as a browser would; it returns the callback's
// response.
func googleRoundTrip(t *testing.T, c *client, from string, tamper func(callback *url.URL)) (*http.Response, *goquery.Document) {
	t.Helper()
	res, _ := c.postFrom("/login", "/auth/google", url.Values{"from": {from}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("begin: status %d", res.StatusCode)
	}
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	pres, err := noFollow.Get(res.Header.Get("Location"))
	if err != nil {
		t.Fatalf("provider: %v", err)
	}
	pres.Body.Close()
	cb, err := url.Parse(pres.Header.Get("Location"))
	if err != nil || !strings.HasSuffix(cb.Path, "/auth/google/callback") {
		t.Fatalf("provider did not redirect to the callback: %d %q", pres.StatusCode, pres.Header.Get("Location"))
	}
	if tamper != nil {
		tamper(cb)
	}
	return c.get(cb.RequestURI())
}

func TestGoogle(t *testing.T) {
	t.Run("CreatesAccount", func(t *testing.T) {
		app, m := newGoogleApp(t)
		m.QueueUser(&mockoidc.MockUser{Subject: "g-123", Email: "Grace@Example.com", EmailVerified: true})
		c := app.client(t)
		_, doc := c.get("/login")
		if doc.Find(`[data-testid="google-signin"]`).Length() != 1 {
			t.Fatal("no Google button although Google is configured")
		}
		res, _ := googleRoundTrip(t, c, "/faq", nil)
		if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/faq" {
			t.Fatalf("callback: %d to %q", res.StatusCode, res.Header.Get("Location"))
		}
		_, doc = c.get("/profile")
		if got := text(doc, `[data-testid="profile-email"]`); got != "grace@example.com" {
			t.Errorf("signed in as %q", got)
		}
	})

	t.Run("LinksExistingAccount", func(t *testing.T) {
		app, m := newGoogleApp(t)
		app.register(t, "Grace Hopper", "grace@example.com", "night-owl-41")
		m.QueueUser(&mockoidc.MockUser{Subject: "g-456", Email: "grace@example.com", EmailVerified: true})
		c := app.client(t)
		googleRoundTrip(t, c, "", nil)
		_, doc := c.get("/profile")
		if got := text(doc, `[data-testid="profile-name"]`); got != "Grace Hopper" {
			t.Errorf("not the existing account: %q", got)
		}
		u, err := app.db.UserByGoogleSubject(context.Background(), "g-456")
		if err != nil || u.Email != "grace@example.com" {
			t.Errorf("subject not linked: %v %+v", err, u)
		}
	})

	t.Run("ErrUnverifiedEmailOfExistingAccount", func(t *testing.T) {
		app, m := newGoogleApp(t)
		app.register(t, "Grace", "grace@example.com", "night-owl-41")
		m.QueueUser(&mockoidc.MockUser{Subject: "g-evil", Email: "grace@example.com", EmailVerified: false})
		c := app.client(t)
		res, _ := googleRoundTrip(t, c, "", nil)
		if res.StatusCode != http.StatusUnauthorized {
			t.Fatalf("status: got %d, want 401", res.StatusCode)
		}
		if res, _ := c.get("/profile"); res.StatusCode != http.StatusSeeOther {
			t.Error("an unverified e-mail took over the account")
		}
	})

	for name, tamper := range map[string]func(*url.URL){
		"ErrStateMismatch": func(u *url.URL) { q := u.Query(); q.Set("state", "forged"); u.RawQuery = q.Encode() },
		"ErrProviderError": func(u *url.URL) { u.RawQuery = "error=access_denied&state=" + u.Query().Get("state") },
		"ErrBadCode":       func(u *url.URL) { q := u.Query(); q.Set("code", "made-up"); u.RawQuery = q.Encode() },
	} {
		t.Run(name, func(t *testing.T) {
			app, _ := newGoogleApp(t)
			c := app.client(t)
			res, doc := googleRoundTrip(t, c, "/faq", tamper)
			if res.StatusCode != http.StatusUnauthorized {
				t.Fatalf("status: got %d, want 401", res.StatusCode)
			}
			if got := text(doc, `[data-testid="form-alert"]`); got != auth.MsgGoogleFailed {
				t.Errorf("message: got %q", got)
			}
			if res, _ := c.get("/profile"); res.StatusCode != http.StatusSeeOther {
				t.Error("signed in after a failed Google sign-in")
			}
		})
	}

	t.Run("HiddenWhenNotConfigured", func(t *testing.T) {
		_, doc := newTestApp(t).client(t).get("/login")
		if doc.Find(`[data-testid="google-signin"]`).Length() != 0 {
			t.Error("Google button shown without Google configured")
		}
	})
}
