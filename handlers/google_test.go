package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/oauth2-proxy/mockoidc"

	"github.com/nocturne/storefront/handlers"
	"github.com/nocturne/storefront/internal/auth"
	"github.com/nocturne/storefront/internal/shop"
)

// confirmLink finds the newest confirmation link mailed with subject.
var confirmLink = regexp.MustCompile(`http://localhost:3000/confirm-email\?token=([A-Za-z0-9_-]+)`)

// confirmByMail opens the newest mail with subject, as c: the link's page
// changes nothing, its button confirms.
func confirmByMail(t *testing.T, app *testApp, c *client, subject string) {
	t.Helper()
	mails, err := app.db.Outbox(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mails {
		if m.Subject != subject {
			continue
		}
		found := confirmLink.FindStringSubmatch(m.Body)
		if found == nil {
			t.Fatalf("no confirmation link in %q", m.Body)
		}
		_, doc := c.get("/confirm-email?token=" + found[1])
		if doc.Find(`[data-testid="confirm-email-form"]`).Length() != 1 {
			t.Fatal("the confirmation page has no Confirm button")
		}
		res, _ := c.post("/confirm-email", url.Values{"token": {found[1]}})
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("confirm: %d", res.StatusCode)
		}
		return
	}
	t.Fatalf("no mail %q in %+v", subject, mails)
}

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
	t.Parallel()
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

	// The pre-account takeover: someone registers the victim's address
	// with a password of theirs and stays signed in; the owner of the
	// address later continues with Google. The account passes to the owner
	// cleanly: the unverified password stops working and the other
	// session ends.
	t.Run("TakesOverNeverVerifiedAccount", func(t *testing.T) {
		app, m := newGoogleApp(t)
		attacker := app.register(t, "Mallory", "victim@example.com", "night-owl-41")
		if res, _ := attacker.get("/profile"); res.StatusCode != http.StatusOK {
			t.Fatalf("attacker not signed in after registering: %d", res.StatusCode)
		}
		m.QueueUser(&mockoidc.MockUser{Subject: "g-victim", Email: "victim@example.com", EmailVerified: true})
		victim := app.client(t)
		res, _ := googleRoundTrip(t, victim, "/profile", nil)
		if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/profile" {
			t.Fatalf("callback: %d to %q", res.StatusCode, res.Header.Get("Location"))
		}
		_, doc := victim.get("/profile")
		if got := text(doc, `[data-testid="profile-email"]`); got != "victim@example.com" {
			t.Fatalf("victim signed in as %q", got)
		}
		if got := text(doc, `[data-testid="flash"]`); got != auth.MsgGoogleTookOver {
			t.Errorf("flash %q", got)
		}
		if res, _ := attacker.get("/profile"); res.StatusCode != http.StatusSeeOther {
			t.Errorf("the attacker's session still works: %d", res.StatusCode)
		}
		if res := app.signIn(t, app.client(t), "victim@example.com", "night-owl-41", ""); res.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("the attacker's password still works: %d", res.StatusCode)
		}
		u, err := app.db.UserByGoogleSubject(context.Background(), "g-victim")
		if err != nil || u.Email != "victim@example.com" || !u.EmailVerified || u.HasPassword {
			t.Errorf("account after the take-over: %+v %v", u, err)
		}
		if _, doc := victim.get("/profile"); text(doc, `[data-testid="profile-email"]`) != "victim@example.com" {
			t.Error("the victim's own session was ended too")
		}
	})

	// A verified account is not joined by address alone: the address gets
	// a confirmation link, and only using it links Google.
	t.Run("VerifiedAccountConfirmsByMail", func(t *testing.T) {
		app, m := newGoogleApp(t)
		owner := app.register(t, "Grace Hopper", "grace@example.com", "night-owl-41")
		confirmByMail(t, app, owner, "Confirm your e-mail address")

		m.QueueUser(&mockoidc.MockUser{Subject: "g-456", Email: "grace@example.com", EmailVerified: true})
		c := app.client(t)
		res, _ := googleRoundTrip(t, c, "/faq", nil)
		if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/login?from=%2Ffaq" {
			t.Fatalf("callback: %d to %q", res.StatusCode, res.Header.Get("Location"))
		}
		_, doc := c.get(res.Header.Get("Location"))
		want := "We sent a link to grace@example.com to confirm adding Google sign-in to your account."
		if got := text(doc, `[data-testid="flash"]`); got != want {
			t.Errorf("flash %q, want %q", got, want)
		}
		if res, _ := c.get("/profile"); res.StatusCode != http.StatusSeeOther {
			t.Error("signed in before the link was used")
		}
		if _, err := app.db.UserByGoogleSubject(context.Background(), "g-456"); shop.ErrorCode(err) != shop.ENOTFOUND {
			t.Fatalf("linked before the link was used: %v", err)
		}
		confirmByMail(t, app, c, "Confirm adding Google sign-in")
		_, doc = c.get("/profile")
		if got := text(doc, `[data-testid="profile-email"]`); got != "grace@example.com" {
			t.Errorf("signed in as %q after the link", got)
		}
		if got := text(doc, `[data-testid="flash"]`); got != auth.MsgGoogleLinked {
			t.Errorf("flash after the link %q", got)
		}
		if u, err := app.db.UserByGoogleSubject(context.Background(), "g-456"); err != nil || u.Email != "grace@example.com" {
			t.Errorf("not linked by the link: %+v %v", u, err)
		}
		// The password stays, and Google now signs in directly.
		if res := app.signIn(t, app.client(t), "grace@example.com", "night-owl-41", ""); res.StatusCode != http.StatusSeeOther {
			t.Errorf("password after linking: %d", res.StatusCode)
		}
		m.QueueUser(&mockoidc.MockUser{Subject: "g-456", Email: "grace@example.com", EmailVerified: true})
		if res, _ := googleRoundTrip(t, app.client(t), "/faq", nil); res.Header.Get("Location") != "/faq" {
			t.Errorf("linked Google sign-in: %d to %q", res.StatusCode, res.Header.Get("Location"))
		}
	})

	// The account's own session is proof enough: a signed-in shopper adds
	// Google from the settings, whatever address the Google account has.
	t.Run("SignedInAccountLinksGoogle", func(t *testing.T) {
		app, m := newGoogleApp(t)
		c := app.register(t, "Ada Lovelace", "ada@example.com", "night-owl-41")
		_, doc := c.get("/settings")
		if doc.Find(`[data-testid="google-connect"]`).Length() != 1 {
			t.Fatal("no Add Google sign-in button in the settings")
		}
		m.QueueUser(&mockoidc.MockUser{Subject: "g-ada", Email: "countess@example.org", EmailVerified: true})
		res, _ := googleRoundTrip(t, c, "/settings", nil)
		if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/settings" {
			t.Fatalf("callback: %d to %q", res.StatusCode, res.Header.Get("Location"))
		}
		_, doc = c.get("/settings")
		if got := text(doc, `[data-testid="flash"]`); got != auth.MsgGoogleLinked {
			t.Errorf("flash %q", got)
		}
		if doc.Find(`[data-testid="google-linked"]`).Length() != 1 {
			t.Error("the settings do not say Google is linked")
		}
		u, err := app.db.UserByGoogleSubject(context.Background(), "g-ada")
		if err != nil || u.Email != "ada@example.com" || !u.HasPassword {
			t.Errorf("linked to %+v, %v", u, err)
		}
		if _, _, err := app.db.UserByEmail(context.Background(), "countess@example.org"); shop.ErrorCode(err) != shop.ENOTFOUND {
			t.Errorf("a second account was made: %v", err)
		}
		// A Google account another account uses is refused.
		other := app.register(t, "Other", "other@example.com", "night-owl-41")
		m.QueueUser(&mockoidc.MockUser{Subject: "g-ada", Email: "countess@example.org", EmailVerified: true})
		googleRoundTrip(t, other, "/settings", nil)
		_, doc = other.get("/settings")
		if got := text(doc, `[data-testid="flash"]`); got != shop.MsgGoogleInUse {
			t.Errorf("flash for a Google account in use: %q", got)
		}
		if got := text(doc, `[data-testid="account-menu"]`); strings.Contains(got, "Ada") {
			t.Error("switched to the other account")
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
