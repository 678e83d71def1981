package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/nocturne/storefront/handlers"
	"github.com/nocturne/storefront/internal/auth"
	"github.com/nocturne/storefront/internal/shop"
)

// requestReset asks for a reset link for email and returns the newest link.
func requestReset(t *testing.T, app *testApp, email string) string {
	t.Helper()
	app.client(t).postFrom("/forgot-password", "/forgot-password", url.Values{"email": {email}})
	mails, _ := app.db.Outbox(context.Background())
	m := resetLink.FindStringSubmatch(mails[0].Body)
	if m == nil {
		t.Fatal("no reset link")
	}
	return m[1]
}

func resetWith(t *testing.T, app *testApp, link, pw string) *http.Response {
	t.Helper()
	token := strings.TrimPrefix(link, "/reset-password?token=")
	res, _ := app.client(t).postFrom(link, "/reset-password", url.Values{"token": {token}, "password": {pw}, "confirmPassword": {pw}})
	return res
}

// A new link, a used link or a password change revokes
// every older reset link.
func TestPasswordReset_Revocation(t *testing.T) {
	t.Parallel()
	t.Run("UsingOneRevokesTheOther", func(t *testing.T) {
		app := newTestApp(t)
		app.register(t, "Ada", "ada@example.com", "night-owl-41")
		first := requestReset(t, app, "ada@example.com")
		second := requestReset(t, app, "ada@example.com")
		if res := resetWith(t, app, second, "dusk-lantern-5"); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("newest link: %d", res.StatusCode)
		}
		if res := resetWith(t, app, first, "dusk-lantern-6"); res.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("older link after a reset: %d, want 422", res.StatusCode)
		}
	})
	t.Run("NewLinkRevokesOlder", func(t *testing.T) {
		app := newTestApp(t)
		app.register(t, "Ada", "ada@example.com", "night-owl-41")
		first := requestReset(t, app, "ada@example.com")
		requestReset(t, app, "ada@example.com")
		if res := resetWith(t, app, first, "dusk-lantern-5"); res.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("older link after a newer was sent: %d, want 422", res.StatusCode)
		}
	})
	t.Run("PasswordChangeRevokes", func(t *testing.T) {
		app := newTestApp(t)
		ada := app.register(t, "Ada", "ada@example.com", "night-owl-41")
		link := requestReset(t, app, "ada@example.com")
		res, _ := ada.postFrom("/settings", "/settings/password", url.Values{"currentPassword": {"night-owl-41"},
			"newPassword": {"dusk-lantern-5"}, "confirmPassword": {"dusk-lantern-5"}})
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("change password: %d", res.StatusCode)
		}
		if res := resetWith(t, app, link, "dusk-lantern-6"); res.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("link from before the change: %d, want 422", res.StatusCode)
		}
	})
}

// Common and blank passwords are refused, with a message,
// on registration, password change and reset.
func TestPasswords_WeakRefused(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	for _, tt := range []struct{ pw, want string }{
		{"123456", auth.MsgPasswordCommon},
		{"      ", auth.MsgPasswordBlank},
		{"password1", auth.MsgPasswordCommon},
		{"P@ssw0rd", auth.MsgPasswordCommon},
		{"qwerty123", auth.MsgPasswordCommon},
		{"ada@example.com", auth.MsgPasswordCommon}, // the shopper's own e-mail
	} {
		res, doc := app.client(t).postFrom("/register", "/register", registerForm("Ada", "ada@example.com", tt.pw))
		if got := text(doc, `[data-testid="register-password-error"]`); res.StatusCode != http.StatusUnprocessableEntity || got != tt.want {
			t.Errorf("register %q: %d %q, want 422 %q", tt.pw, res.StatusCode, got, tt.want)
		}
	}
	ada := app.register(t, "Ada", "ada@example.com", "night-owl-41")
	res, _ := ada.postFrom("/settings", "/settings/password", url.Values{"currentPassword": {"night-owl-41"},
		"newPassword": {"abc123"}, "confirmPassword": {"abc123"}})
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("change to a common password: %d, want 422", res.StatusCode)
	}
	link := requestReset(t, app, "ada@example.com")
	if res := resetWith(t, app, link, "letmein"); res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("reset to a common password: %d, want 422", res.StatusCode)
	}
}

// The contact form is rate-limited per address; a refused
// message says when to retry, keeps what was typed and is not stored.
func TestContact_RateLimited(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.client(t)
	form := url.Values{"name": {"Ada"}, "email": {"ada@example.com"}, "subject": {"Order"}, "message": {"Where is my order?"}}
	for i := 0; i < shop.LimitContactAddress.Max; i++ {
		if res, _ := c.postFrom("/contact", "/contact", form); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("message %d: %d", i+1, res.StatusCode)
		}
	}
	form.Set("message", "One more, typed with care")
	res, doc := c.postFrom("/contact", "/contact", form)
	if res.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("over the limit: %d, want 429", res.StatusCode)
	}
	if got, want := text(doc, `[data-testid="form-alert"]`), fmt.Sprintf(shop.MsgContactThrottled, "10 minutes"); got != want {
		t.Errorf("message %q, want %q", got, want)
	}
	if got := doc.Find(`textarea[name="message"]`).Text(); got != "One more, typed with care" {
		t.Errorf("typed message not kept: %q", got)
	}
	if got := doc.Find(`input[name="subject"]`).AttrOr("value", ""); got != "Order" {
		t.Errorf("subject not kept: %q", got)
	}
	if doc.Find(`[data-testid="flash"]`).Text() == handlers.ContactSuccess {
		t.Error("a refused message shows the success message")
	}
	msgs, _ := app.db.ContactMessages(context.Background())
	if len(msgs) != shop.LimitContactAddress.Max {
		t.Errorf("%d messages stored, want %d", len(msgs), shop.LimitContactAddress.Max)
	}
	// Another address is not affected.
	if res, _ := c.post("/contact", form, "X-Forwarded-For", "198.51.100.7"); res.StatusCode != http.StatusSeeOther {
		t.Errorf("another address: %d", res.StatusCode)
	}
}

// Password-reset requests are rate-limited per address with a clear
// message.
func TestPasswordReset_RequestsRateLimited(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.client(t)
	for i := 0; i < shop.LimitResetAddress.Max; i++ {
		c.postFrom("/forgot-password", "/forgot-password", url.Values{"email": {fmt.Sprintf("u%d@example.com", i)}})
	}
	res, doc := c.postFrom("/forgot-password", "/forgot-password", url.Values{"email": {"ada@example.com"}})
	if got, want := text(doc, `[data-testid="form-alert"]`), fmt.Sprintf(handlers.MsgTooManyResets, "15 minutes"); res.StatusCode != http.StatusTooManyRequests || got != want {
		t.Errorf("over the limit: %d %q, want 429 %q", res.StatusCode, got, want)
	}
}
