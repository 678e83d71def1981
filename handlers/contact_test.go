package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"github.com/nocturne/storefront/handlers"
)

func TestContact(t *testing.T) {
	t.Parallel()
	valid := url.Values{"name": {"Ada Lovelace"}, "email": {"ada@example.com"}, "subject": {"Order 42"}, "message": {"Where is my lamp?"}}
	with := func(k, v string) url.Values {
		f := url.Values{}
		for key, vals := range valid {
			f[key] = append([]string(nil), vals...)
		}
		f.Set(k, v)
		return f
	}

	t.Run("ErrFieldsRequired", func(t *testing.T) {
		app := newTestApp(t)
		res, doc := app.client(t).postFrom("/contact", "/contact", url.Values{"subject": {"Kept subject"}, "name": {"   "}})
		if res.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("status: got %d, want 422", res.StatusCode)
		}
		for id, want := range map[string]string{
			"contact-name-error":    "Name is required.",
			"contact-email-error":   "Email is required.",
			"contact-message-error": "Message is required.",
		} {
			if got := text(doc, `[data-testid="`+id+`"]`); got != want {
				t.Errorf("%s: got %q, want %q", id, got, want)
			}
		}
		if doc.Find(`[data-testid="contact-subject-error"]`).Length() != 0 {
			t.Error("subject was given but shows an error")
		}
		if got := doc.Find(`#contact-subject`).AttrOr("value", ""); got != "Kept subject" {
			t.Errorf("typed subject not kept: got %q", got)
		}
		if got := doc.Find(`#contact-name`).AttrOr("aria-invalid", ""); got != "true" {
			t.Errorf("name aria-invalid: got %q", got)
		}
		assertNoMessages(t, app)
	})

	t.Run("ErrEmailInvalid", func(t *testing.T) {
		app := newTestApp(t)
		for _, bad := range []string{"<svg/onload=alert(1)>@x.co", "Ada <ada@example.com>"} {
			res, doc := app.client(t).postFrom("/contact", "/contact", with("email", bad))
			if res.StatusCode != http.StatusUnprocessableEntity || text(doc, `[data-testid="contact-email-error"]`) == "" {
				t.Errorf("%q: status %d, want 422 with a message by the field", bad, res.StatusCode)
			}
		}
		res, doc := app.client(t).postFrom("/contact", "/contact", with("email", "not-an-email"))
		if res.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("status: got %d, want 422", res.StatusCode)
		}
		if got := text(doc, `[data-testid="contact-email-error"]`); got != "Please enter a valid email address" {
			t.Errorf("email error: got %q", got)
		}
		if got := doc.Find(`#contact-message`).Text(); got != "Where is my lamp?" {
			t.Errorf("message not kept: got %q", got)
		}
		assertNoMessages(t, app)
	})

	t.Run("ErrTooLong", func(t *testing.T) {
		app := newTestApp(t)
		long := make([]byte, 5001)
		for i := range long {
			long[i] = 'a'
		}
		res, doc := app.client(t).postFrom("/contact", "/contact", with("message", string(long)))
		if res.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("status: got %d, want 422", res.StatusCode)
		}
		if got := text(doc, `[data-testid="contact-message-error"]`); got != "Message is too long (at most 5000 characters)." {
			t.Errorf("message error: got %q", got)
		}
	})

	t.Run("OK", func(t *testing.T) {
		app := newTestApp(t)
		c := app.client(t)
		res, _ := c.postFrom("/contact", "/contact", with("name", "  Ada Lovelace  "))
		if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/contact" {
			t.Fatalf("got %d to %q, want 303 to /contact", res.StatusCode, res.Header.Get("Location"))
		}
		_, doc := c.get("/contact")
		if got := text(doc, `[data-testid="flash"]`); got != handlers.ContactSuccess {
			t.Errorf("flash: got %q, want %q", got, handlers.ContactSuccess)
		}
		if got := doc.Find(`#contact-name`).AttrOr("value", ""); got != "" {
			t.Errorf("form not empty after success: name %q", got)
		}
		_, doc = c.get("/contact")
		if doc.Find(`[data-testid="flash"]`).Length() != 0 {
			t.Error("flash shown twice")
		}
		msgs, err := app.db.ContactMessages(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(msgs) != 1 {
			t.Fatalf("stored %d messages, want 1", len(msgs))
		}
		if m := msgs[0]; m.Name != "Ada Lovelace" || m.Email != "ada@example.com" || m.Subject != "Order 42" || m.Message != "Where is my lamp?" {
			t.Errorf("stored %+v", m)
		}
	})

	t.Run("ErrCrossSite", func(t *testing.T) {
		app := newTestApp(t)
		c := app.client(t)
		c.get("/contact")
		res, doc := c.post("/contact", valid, "Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example")
		if res.StatusCode != http.StatusForbidden {
			t.Fatalf("status: got %d, want 403", res.StatusCode)
		}
		if got := text(doc, "main h1"); got != "This form came from another site" {
			t.Errorf("heading: got %q", got)
		}
		assertNoMessages(t, app)
	})
}

func assertNoMessages(t *testing.T, app *testApp) {
	t.Helper()
	msgs, err := app.db.ContactMessages(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 0 {
		t.Errorf("stored %d messages, want none", len(msgs))
	}
}
