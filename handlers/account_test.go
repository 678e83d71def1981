package handlers_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/nocturne/storefront/handlers"
	"github.com/nocturne/storefront/handlers/session"
	"github.com/nocturne/storefront/internal/auth"
)

func registerForm(name, email, pw string) url.Values {
	return url.Values{"displayName": {name}, "email": {email}, "password": {pw}, "confirmPassword": {pw}}
}

// register creates an account through the form and returns the signed-in client.
func (a *testApp) register(t testing.TB, name, email, pw string) *client {
	t.Helper()
	c := a.client(t)
	res, _ := c.postFrom("/register", "/register", registerForm(name, email, pw))
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("register %s: status %d", email, res.StatusCode)
	}
	return c
}

func (a *testApp) signIn(t *testing.T, c *client, email, pw, from string) *http.Response {
	t.Helper()
	res, _ := c.postFrom("/login", "/login", url.Values{"email": {email}, "password": {pw}, "from": {from}})
	return res
}

func TestRegister(t *testing.T) {
	t.Parallel()
	t.Run("OK", func(t *testing.T) {
		app := newTestApp(t)
		c := app.client(t)
		res, _ := c.postFrom("/register", "/register", registerForm("Ada Lovelace", "  Ada@Example.com ", "night-owl-41"))
		if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/profile/setup" {
			t.Fatalf("got %d to %q, want 303 to /profile/setup", res.StatusCode, res.Header.Get("Location"))
		}
		_, doc := c.get("/profile")
		if got := text(doc, `[data-testid="profile-email"]`); got != "ada@example.com" {
			t.Errorf("signed in as %q, want the normalised ada@example.com", got)
		}
	})

	tests := []struct {
		name  string
		form  url.Values
		field string
		want  string
	}{
		{"ErrPasswordsDiffer", url.Values{"displayName": {"A"}, "email": {"a@example.com"}, "password": {"night-owl-41"}, "confirmPassword": {"night-owl-42"}}, "register-confirm", auth.MsgPasswordsDiffer},
		{"ErrPasswordShort", registerForm("A", "a@example.com", "12345"), "register-password", auth.MsgPasswordTooShort},
		{"ErrNameRequired", registerForm("", "a@example.com", "night-owl-41"), "register-name", "Full name is required."},
		{"ErrEmailInvalid", registerForm("A", "a@", "night-owl-41"), "register-email", "Please enter a valid email address"},
		{"ErrPasswordTooLong", registerForm("A", "a@example.com", strings.Repeat("p", 73)), "register-password", auth.MsgPasswordTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app := newTestApp(t)
			res, doc := app.client(t).postFrom("/register", "/register", tt.form)
			if res.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("status: got %d, want 422", res.StatusCode)
			}
			if got := text(doc, `[data-testid="`+tt.field+`-error"]`); got != tt.want {
				t.Errorf("%s: got %q, want %q", tt.field, got, tt.want)
			}
			if got := doc.Find(`#register-email`).AttrOr("value", ""); got != tt.form.Get("email") {
				t.Errorf("email not kept: got %q", got)
			}
			if doc.Find(`input[type="password"][value]`).Length() != 0 {
				t.Error("a password was echoed back into the form")
			}
		})
	}

	t.Run("ErrEmailTaken", func(t *testing.T) {
		app := newTestApp(t)
		app.register(t, "Ada", "ada@example.com", "night-owl-41")
		res, doc := app.client(t).postFrom("/register", "/register", registerForm("Eve", "ADA@example.com", "night-owl-42"))
		if res.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("status: got %d, want 422", res.StatusCode)
		}
		if got := text(doc, `[data-testid="register-email-error"]`); got != auth.MsgEmailTaken {
			t.Errorf("got %q", got)
		}
	})

	t.Run("SignUpModeOfLogin", func(t *testing.T) {
		app := newTestApp(t)
		c := app.client(t)
		_, doc := c.get("/login?mode=signup&from=%2Fcheckout")
		if doc.Find(`form[action="/register"] input[name="confirmPassword"]`).Length() != 1 {
			t.Fatal("create-account mode has no registration form")
		}
		form := registerForm("Ada", "ada@example.com", "night-owl-41")
		form.Set("from", "/checkout")
		res, _ := c.post("/register", form)
		if got := res.Header.Get("Location"); got != "/profile/setup?from=%2Fcheckout" {
			t.Errorf("location: got %q", got)
		}
	})
}

func TestNoPlaintextPasswordStored(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	app := newTestApp(t, withDBFile(filepath.Join(dir, "shop.db")))
	const pw = "correct-horse-battery"
	c := app.register(t, "Ada", "ada@example.com", pw)
	c.postFrom("/settings", "/settings/password", url.Values{"currentPassword": {pw}, "newPassword": {pw + "2"}, "confirmPassword": {pw + "2"}})
	app.db.Close() // flush the WAL into the file
	files, _ := filepath.Glob(filepath.Join(dir, "shop.db*"))
	if len(files) == 0 {
		t.Fatal("no database file")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(pw)) {
			t.Errorf("%s contains the plaintext password", filepath.Base(f))
		}
		if !bytes.Contains(b, []byte("$2a$")) && filepath.Base(f) == "shop.db" {
			t.Errorf("%s has no bcrypt hash", filepath.Base(f))
		}
	}
}

func TestSessionCookie(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		base   string
		secure bool
	}{{"http://localhost:3000", false}, {"https://shop.example", true}} {
		t.Run(tt.base, func(t *testing.T) {
			app := newTestApp(t, func(env map[string]string, _ *handlers.Deps) { env["BASE_URL"] = tt.base })
			c := app.client(t)
			c.get("/register")
			req := formRequest("/register", registerForm("Ada", "ada@example.com", "night-owl-41"))
			req.Header.Set("Origin", tt.base)
			res := c.do(req)
			h := setCookie(res, session.CookieName)
			if h == "" {
				t.Fatalf("no session cookie set (status %d)", res.StatusCode)
			}
			lower := strings.ToLower(h)
			for _, want := range []string{"httponly", "samesite=lax", "path=/"} {
				if !strings.Contains(lower, want) {
					t.Errorf("cookie lacks %s: %s", want, h)
				}
			}
			if got := strings.Contains(lower, "secure"); got != tt.secure {
				t.Errorf("secure: got %v, want %v: %s", got, tt.secure, h)
			}
		})
	}
}

func TestLogin(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	app.register(t, "Ada", "ada@example.com", "night-owl-41")

	t.Run("ReturnsToFrom", func(t *testing.T) {
		res := app.signIn(t, app.client(t), "ADA@example.com", "night-owl-41", "/faq?x=1")
		if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/faq?x=1" {
			t.Fatalf("got %d to %q", res.StatusCode, res.Header.Get("Location"))
		}
	})
	for _, evil := range []string{"//evil.example", "https://evil.example", `/\evil.example`, "javascript:alert(1)", "evil.example", "/\t/evil.example"} {
		t.Run("OpenRedirect "+evil, func(t *testing.T) {
			res := app.signIn(t, app.client(t), "ada@example.com", "night-owl-41", evil)
			if got := res.Header.Get("Location"); got != "/" {
				t.Errorf("from=%q: redirected to %q, want /", evil, got)
			}
		})
	}
	t.Run("SessionRotated", func(t *testing.T) {
		c := app.client(t)
		c.cookies[session.CookieName] = "sess_planted-by-attacker"
		app.signIn(t, c, "ada@example.com", "night-owl-41", "")
		if got := c.cookies[session.CookieName]; got == "" || got == "sess_planted-by-attacker" {
			t.Fatalf("session id not rotated at sign-in: %q", got)
		}
		before := c.cookies[session.CookieName]
		// A session that merely carries state (the guest flow) is rotated too.
		c.postFrom("/", "/logout", url.Values{})
		if c.cookies[session.CookieName] == before {
			t.Error("session id survived sign-out")
		}
		stolen := app.client(t)
		stolen.cookies[session.CookieName] = before
		if res, _ := stolen.get("/profile"); res.StatusCode != http.StatusSeeOther {
			t.Errorf("old session id still signed in after sign-out: %d", res.StatusCode)
		}
	})
	for _, tt := range []struct{ name, email, pw string }{
		{"ErrWrongPassword", "ada@example.com", "wrong-password"},
		{"ErrUnknownEmail", "nobody@example.com", "night-owl-41"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := app.client(t)
			res, doc := c.postFrom("/login", "/login", url.Values{"email": {tt.email}, "password": {tt.pw}})
			if res.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("status: got %d, want 422", res.StatusCode)
			}
			if got := text(doc, `[data-testid="form-alert"]`); got != auth.MsgBadCredentials {
				t.Errorf("message: got %q, want %q (same for both)", got, auth.MsgBadCredentials)
			}
			if got := doc.Find(`#login-email`).AttrOr("value", ""); got != tt.email {
				t.Errorf("email not kept: %q", got)
			}
		})
	}
}

// signInFrom signs in as a request from the client address ip.
func signInFrom(c *client, email, pw, ip string) (*http.Response, *goquery.Document) {
	c.get("/login")
	return c.post("/login", url.Values{"email": {email}, "password": {pw}}, "X-Forwarded-For", ip)
}

// Failures from one address throttle that address for that
// account (with a clear retry-in message), but never lock the owner out
// from elsewhere.
func TestLogin_Throttled(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	app.register(t, "Ada", "ada@example.com", "night-owl-41")
	app.register(t, "Bob", "bob@example.com", "night-owl-42")
	const attacker, owner = "203.0.113.9", "198.51.100.7"
	c := app.client(t)
	for i := 1; i <= 5; i++ {
		if res, _ := signInFrom(c, "ada@example.com", "nope-nope", attacker); res.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("attempt %d: got %d, want 422", i, res.StatusCode)
		}
	}
	res, doc := signInFrom(c, "ada@example.com", "night-owl-41", attacker)
	if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") != "900" {
		t.Fatalf("6th attempt: got %d (Retry-After %q), want 429 and 900", res.StatusCode, res.Header.Get("Retry-After"))
	}
	if got, want := text(doc, `[data-testid="form-alert"]`), fmt.Sprintf(handlers.MsgTooManyAttempts, "15 minutes"); got != want {
		t.Errorf("message: got %q, want %q", got, want)
	}
	if doc.Find(`[data-testid="signin-link-form"]`).Length() != 1 {
		t.Error("no offer of a sign-in link")
	}
	if res, _ := signInFrom(app.client(t), "ada@example.com", "night-owl-41", owner); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("the owner from another address: got %d, want 303 (no lock-out)", res.StatusCode)
	}
	if res, _ := signInFrom(app.client(t), "bob@example.com", "night-owl-42", attacker); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("another account from the same address: got %d, want 303", res.StatusCode)
	}
	app.clock.Advance(15*time.Minute + time.Second)
	if res, _ := signInFrom(app.client(t), "ada@example.com", "night-owl-41", attacker); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("after the window: got %d, want 303", res.StatusCode)
	}
}

// An account guessed at from many addresses is throttled as a whole; its
// owner gets in with a one-time link by e-mail, which works once.
func TestLogin_AccountUnderAttackSignInLink(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	app.register(t, "Ada", "ada@example.com", "night-owl-41")
	for i := 0; i < 50; i++ {
		signInFrom(app.client(t), "ada@example.com", "guess-"+fmt.Sprint(i), fmt.Sprintf("203.0.113.%d", i+1))
	}
	owner := app.client(t)
	res, doc := signInFrom(owner, "ada@example.com", "night-owl-41", "198.51.100.7")
	if res.StatusCode != http.StatusTooManyRequests || doc.Find(`[data-testid="signin-link-form"]`).Length() != 1 {
		t.Fatalf("account under attack: %d, want 429 with the sign-in link offer", res.StatusCode)
	}
	res, _ = owner.post("/login/link", url.Values{"email": {"ada@example.com"}}, "X-Forwarded-For", "198.51.100.7")
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("link request: %d", res.StatusCode)
	}
	_, doc = owner.get(res.Header.Get("Location"))
	if got := text(doc, `[data-testid="flash"]`); got != auth.MsgLinkSent {
		t.Errorf("flash %q", got)
	}
	mails, _ := app.db.Outbox(context.Background())
	link := regexp.MustCompile(`/login/link\?token=[A-Za-z0-9_-]+`).FindString(mails[0].Body)
	if mails[0].To != "ada@example.com" || link == "" {
		t.Fatalf("mail %+v", mails[0])
	}
	// Opening the link changes nothing; its button signs in, once.
	_, doc = owner.get(link)
	token := doc.Find(`[data-testid="signin-link-confirm"] input[name="token"]`).AttrOr("value", "")
	res, _ = owner.post("/login/link/confirm", url.Values{"token": {token}}, "X-Forwarded-For", "198.51.100.7")
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("confirm: %d", res.StatusCode)
	}
	if _, doc := owner.get("/profile"); text(doc, `[data-testid="profile-email"]`) != "ada@example.com" {
		t.Error("not signed in by the link")
	}
	if u, _, _ := app.db.UserByEmail(context.Background(), "ada@example.com"); !u.EmailVerified {
		t.Error("a used sign-in link did not verify the address")
	}
	if res, _ := app.client(t).post("/login/link/confirm", url.Values{"token": {token}}); res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("second use of the link: %d, want 422", res.StatusCode)
	}
	// An unknown e-mail gets the same answer, and no mail.
	res, _ = app.client(t).post("/login/link", url.Values{"email": {"nobody@example.com"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Errorf("unknown e-mail: %d", res.StatusCode)
	}
	// The registration's confirmation mail and the sign-in link.
	if mails, _ := app.db.Outbox(context.Background()); len(mails) != 2 {
		t.Errorf("%d mails, want 2", len(mails))
	}
}

func TestLogin_SuccessesDoNotCount(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	app.register(t, "Ada", "ada@example.com", "night-owl-41")
	for i := 0; i < 8; i++ {
		if res := app.signIn(t, app.client(t), "ada@example.com", "night-owl-41", ""); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("sign-in %d: got %d", i+1, res.StatusCode)
		}
	}
}

func TestCSRF_RejectsAndChangesNothing(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.client(t)
	c.get("/register")
	res, _ := c.post("/register", registerForm("Ada", "ada@example.com", "night-owl-41"), "Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example")
	if res.StatusCode != http.StatusForbidden {
		t.Fatalf("status: got %d, want 403", res.StatusCode)
	}
	if res := app.signIn(t, app.client(t), "ada@example.com", "night-owl-41", ""); res.StatusCode == http.StatusSeeOther {
		t.Error("the rejected registration created an account")
	}
}

func TestGuards(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	guest := app.client(t)
	if res, _ := guest.postFrom("/", "/guest", url.Values{}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("continue as guest: %d", res.StatusCode)
	}
	for _, path := range []string{"/profile", "/profile/setup", "/settings"} {
		for name, c := range map[string]*client{"Visitor": app.client(t), "Guest": guest} {
			t.Run(name+path, func(t *testing.T) {
				res, _ := c.get(path)
				if want := "/login?from=" + url.QueryEscape(path); res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != want {
					t.Errorf("got %d to %q, want 303 to %q", res.StatusCode, res.Header.Get("Location"), want)
				}
			})
		}
	}
}

func TestGuest(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.client(t)
	res, _ := c.postFrom("/", "/guest", url.Values{"from": {"/faq"}})
	if res.Header.Get("Location") != "/faq" {
		t.Fatalf("location: got %q", res.Header.Get("Location"))
	}
	_, doc := c.get("/faq")
	if doc.Find(`.nav-wide [data-testid="account-menu"]`).Length() != 1 {
		t.Fatal("guest does not see the account menu")
	}
	if doc.Find(`.nav-wide [data-testid="login-link"]`).Length() != 0 {
		t.Error("guest still sees the Login link")
	}
	// Registering hands the guest over: the account is signed in and the
	// guest row is gone.
	res, _ = c.postFrom("/register", "/register", registerForm("Ada", "ada@example.com", "night-owl-41"))
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("register as guest: %d", res.StatusCode)
	}
	if n := app.db.CountGuests(context.Background()); n != 0 {
		t.Errorf("guests left after hand-over: %d", n)
	}
}

func TestGuestIDs(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	seen := map[string]bool{}
	re := regexp.MustCompile(`^guest_\d{13}_[0-9a-f]{12}$`)
	svc := &auth.Service{Users: app.db, Now: app.clock.Now} // frozen clock: same millisecond for all
	for i := 0; i < 50; i++ {
		u, err := svc.NewGuest(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !re.MatchString(u.ID) || seen[u.ID] || !u.IsGuest || u.Email != "" {
			t.Fatalf("bad or repeated guest %+v", u)
		}
		seen[u.ID] = true
	}
}

func TestLogout(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.register(t, "Ada", "ada@example.com", "night-owl-41")
	res, _ := c.postFrom("/profile", "/logout", url.Values{})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/" {
		t.Fatalf("got %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	if res, _ := c.get("/profile"); res.StatusCode != http.StatusSeeOther {
		t.Error("still signed in after logout")
	}
}

func TestProfile(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.register(t, "Ada Lovelace", "ada@example.com", "night-owl-41")
	_, doc := c.get("/profile")
	if got := text(doc, `[data-testid="profile-name"]`); got != "Ada Lovelace" {
		t.Errorf("name: got %q", got)
	}
	if got := text(doc, `.profile-head .avatar`); got != "A" {
		t.Errorf("avatar initial: got %q", got)
	}
	if got := text(doc, `[data-testid="account-summary"] div:first-child dd`); got != "November 2026" {
		t.Errorf("member since: %q", got)
	}
	if doc.Find(`[data-testid="profile-form"]`).Length() != 0 {
		t.Error("view mode shows the form")
	}
	_, doc = c.get("/profile?edit=1")
	if n := doc.Find(`#profile-country option`).Length(); n != 10 {
		t.Errorf("countries: got %d, want 10", n)
	}

	form := url.Values{"displayName": {"Ada King"}, "phoneNumber": {"+44 20 7946 0958"}, "address": {"12 St James's Square"},
		"city": {"London"}, "state": {""}, "zipCode": {"SW1Y 4LE"}, "country": {"Atlantis"}}
	res, doc := c.postFrom("/profile?edit=1", "/profile", form)
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("bad country: got %d, want 422", res.StatusCode)
	}
	if got := text(doc, `[data-testid="profile-country-error"]`); got != "Please choose a country from the list." {
		t.Errorf("country error: %q", got)
	}
	if got := doc.Find(`#profile-city`).AttrOr("value", ""); got != "London" {
		t.Errorf("typed city lost: %q", got)
	}

	form.Set("country", "United Kingdom")
	res, _ = c.postFrom("/profile?edit=1", "/profile", form)
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: got %d", res.StatusCode)
	}
	_, doc = c.get("/profile")
	if got := text(doc, `[data-testid="flash"]`); got != handlers.MsgProfileUpdated {
		t.Errorf("flash: %q", got)
	}
	info := text(doc, `[data-testid="profile-info"]`)
	for _, want := range []string{"Ada King", "London", "SW1Y 4LE", "United Kingdom"} {
		if !strings.Contains(info, want) {
			t.Errorf("profile lacks %q: %s", want, info)
		}
	}
}

func TestProfileSetup(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.register(t, "Ada", "ada@example.com", "night-owl-41")
	_, doc := c.get("/profile/setup")
	if got := doc.Find(`#setup-country option[selected]`).AttrOr("value", ""); got != "United States" {
		t.Errorf("default country: %q", got)
	}
	res, _ := c.postFrom("/profile/setup", "/profile/setup", url.Values{"action": {"skip"}})
	if res.Header.Get("Location") != "/profile" {
		t.Errorf("skip: went to %q", res.Header.Get("Location"))
	}
	res, _ = c.postFrom("/profile/setup", "/profile/setup", url.Values{"action": {"save"}, "city": {"Paris"}, "country": {"France"}})
	if res.Header.Get("Location") != "/profile" {
		t.Fatalf("save: went to %q (%d)", res.Header.Get("Location"), res.StatusCode)
	}
	_, doc = c.get("/profile")
	if info := text(doc, `[data-testid="profile-info"]`); !strings.Contains(info, "Paris") || !strings.Contains(info, "France") {
		t.Errorf("setup not saved: %s", info)
	}
}

func TestSettings(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.register(t, "Ada", "ada@example.com", "night-owl-41")
	other := app.client(t)
	app.signIn(t, other, "ada@example.com", "night-owl-41", "")

	res, doc := c.postFrom("/settings", "/settings/password", url.Values{"currentPassword": {"wrong1"}, "newPassword": {"night-owl-49"}, "confirmPassword": {"night-owl-49"}})
	if res.StatusCode != http.StatusUnprocessableEntity || text(doc, `[data-testid="current-password-error"]`) != auth.MsgWrongPassword {
		t.Fatalf("wrong current password: %d %q", res.StatusCode, text(doc, `[data-testid="current-password-error"]`))
	}
	res, _ = c.postFrom("/settings", "/settings/password", url.Values{"currentPassword": {"night-owl-41"}, "newPassword": {"night-owl-49"}, "confirmPassword": {"night-owl-49"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("change password: %d", res.StatusCode)
	}
	if res, _ := c.get("/settings"); res.StatusCode != http.StatusOK {
		t.Error("the session that changed the password was signed out")
	}
	if res, _ := other.get("/settings"); res.StatusCode != http.StatusSeeOther {
		t.Error("another session survived the password change")
	}
	if res := app.signIn(t, app.client(t), "ada@example.com", "night-owl-49", ""); res.StatusCode != http.StatusSeeOther {
		t.Error("cannot sign in with the new password")
	}

	third := app.client(t)
	app.signIn(t, third, "ada@example.com", "night-owl-49", "")
	c.postFrom("/settings", "/settings/sessions", url.Values{})
	if res, _ := third.get("/settings"); res.StatusCode != http.StatusSeeOther {
		t.Error("sign out everywhere else left another session signed in")
	}
	if res, _ := c.get("/settings"); res.StatusCode != http.StatusOK {
		t.Error("sign out everywhere else signed out this session")
	}

	res, doc = c.postFrom("/settings", "/settings/delete", url.Values{"confirm": {"delete"}})
	if res.StatusCode != http.StatusUnprocessableEntity || text(doc, `[data-testid="delete-confirm-error"]`) != handlers.MsgDeleteConfirm {
		t.Fatalf("unconfirmed delete: %d", res.StatusCode)
	}
	res, _ = c.postFrom("/settings", "/settings/delete", url.Values{"confirm": {"DELETE"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("delete: %d", res.StatusCode)
	}
	if res := app.signIn(t, app.client(t), "ada@example.com", "night-owl-49", ""); res.StatusCode == http.StatusSeeOther {
		t.Error("deleted account can still sign in")
	}
	if _, _, err := app.db.UserByEmail(context.Background(), "ada@example.com"); err == nil {
		t.Error("deleted user's row is still there")
	}
}

var resetLink = regexp.MustCompile(`http://localhost:3000(/reset-password\?token=[A-Za-z0-9_-]+)`)

func TestPasswordReset(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	ada := app.register(t, "Ada", "ada@example.com", "night-owl-41")
	ctx := context.Background()

	for _, email := range []string{"nobody@example.com", "ADA@example.com"} {
		res, _ := app.client(t).postFrom("/forgot-password", "/forgot-password", url.Values{"email": {email}})
		if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/forgot-password" {
			t.Fatalf("%s: got %d to %q", email, res.StatusCode, res.Header.Get("Location"))
		}
	}
	mails, err := app.db.Outbox(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Newest first: the reset, then the registration's confirmation mail.
	if len(mails) != 2 || mails[0].To != "ada@example.com" || mails[0].Subject != "Reset your password" {
		t.Fatalf("outbox: %+v, want one reset mail to ada", mails)
	}
	m := resetLink.FindStringSubmatch(mails[0].Body)
	if m == nil {
		t.Fatalf("no reset link in %q", mails[0].Body)
	}

	c := app.client(t)
	_, doc := c.get(m[1])
	token := doc.Find(`input[name="token"]`).AttrOr("value", "")
	res, doc := c.postFrom(m[1], "/reset-password", url.Values{"token": {token}, "password": {"new-secret"}, "confirmPassword": {"other"}})
	if res.StatusCode != http.StatusUnprocessableEntity || text(doc, `[data-testid="reset-confirm-error"]`) != auth.MsgPasswordsDiffer {
		t.Fatalf("mismatch: %d", res.StatusCode)
	}
	res, _ = c.postFrom(m[1], "/reset-password", url.Values{"token": {token}, "password": {"new-secret"}, "confirmPassword": {"new-secret"}})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/profile" {
		t.Fatalf("reset: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	if res, _ := c.get("/profile"); res.StatusCode != http.StatusOK {
		t.Error("not signed in after the reset")
	}
	if res, _ := ada.get("/profile"); res.StatusCode != http.StatusSeeOther {
		t.Error("an older session survived the reset")
	}
	res, doc = app.client(t).postFrom(m[1], "/reset-password", url.Values{"token": {token}, "password": {"again-1"}, "confirmPassword": {"again-1"}})
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(text(doc, `[data-testid="form-alert"]`), "invalid or has expired") {
		t.Errorf("token reused: %d %q", res.StatusCode, text(doc, `[data-testid="form-alert"]`))
	}
	if res := app.signIn(t, app.client(t), "ada@example.com", "new-secret", ""); res.StatusCode != http.StatusSeeOther {
		t.Error("cannot sign in with the new password")
	}
}

func TestPasswordReset_Expires(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	app.register(t, "Ada", "ada@example.com", "night-owl-41")
	app.client(t).postFrom("/forgot-password", "/forgot-password", url.Values{"email": {"ada@example.com"}})
	mails, _ := app.db.Outbox(context.Background())
	link := resetLink.FindStringSubmatch(mails[0].Body)[1]
	token := strings.TrimPrefix(link, "/reset-password?token=")
	app.clock.Advance(61 * time.Minute)
	res, _ := app.client(t).postFrom(link, "/reset-password", url.Values{"token": {token}, "password": {"new-secret"}, "confirmPassword": {"new-secret"}})
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("expired token: got %d, want 422", res.StatusCode)
	}
}

func TestSession_Expiry(t *testing.T) {
	t.Parallel()
	t.Run("Idle", func(t *testing.T) {
		app := newTestApp(t)
		c := app.register(t, "Ada", "ada@example.com", "night-owl-41")
		app.clock.Advance(session.IdleTimeout + time.Hour)
		if res, _ := c.get("/profile"); res.StatusCode != http.StatusSeeOther {
			t.Error("idle session still signed in")
		}
	})
	t.Run("Absolute", func(t *testing.T) {
		app := newTestApp(t)
		c := app.register(t, "Ada", "ada@example.com", "night-owl-41")
		for d := time.Duration(0); d < session.AbsoluteTimeout; d += 2 * 24 * time.Hour {
			app.clock.Advance(2 * 24 * time.Hour)
			c.get("/profile") // an active shopper, never idle
		}
		app.clock.Advance(time.Hour)
		if res, _ := c.get("/profile"); res.StatusCode != http.StatusSeeOther {
			t.Error("session outlived its absolute lifetime")
		}
	})
}

// A used, expired or garbage reset link says so when it is opened, with no
// form for the shopper to fill in only to be refused afterwards.
func TestPasswordReset_BadLinkSaysSoOnArrival(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	app.register(t, "Ada", "ada@example.com", "night-owl-41")
	app.client(t).postFrom("/forgot-password", "/forgot-password", url.Values{"email": {"ada@example.com"}})
	mails, _ := app.db.Outbox(context.Background())
	link := resetLink.FindStringSubmatch(mails[0].Body)[1]
	token := strings.TrimPrefix(link, "/reset-password?token=")

	c := app.client(t)
	res, doc := c.get(link)
	if doc.Find(`[data-testid="reset-form"]`).Length() != 1 || text(doc, `[data-testid="form-alert"]`) != "" {
		t.Fatal("a fresh link should show the form and no error")
	}
	if got := res.Header.Get("Cache-Control"); !strings.Contains(got, "no-store") {
		t.Errorf("Cache-Control %q, want no-store: the page says whether the token is usable now", got)
	}
	if res, _ := c.postFrom(link, "/reset-password", url.Values{"token": {token}, "password": {"new-secret"}, "confirmPassword": {"new-secret"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("reset: got %d", res.StatusCode)
	}
	for name, path := range map[string]string{"Used": link, "Garbage": "/reset-password?token=not-a-token"} {
		t.Run(name, func(t *testing.T) {
			_, doc := app.client(t).get(path)
			if got := text(doc, `[data-testid="form-alert"]`); got != auth.MsgResetLinkInvalid {
				t.Errorf("alert: got %q, want %q", got, auth.MsgResetLinkInvalid)
			}
			if doc.Find(`[data-testid="reset-form"]`).Length() != 0 {
				t.Error("the form is still shown")
			}
		})
	}
}

// Registration mails a confirmation link. Opening it changes nothing; its
// button verifies the address, once. A reset link verifies it as well.
func TestEmailConfirmation(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	ctx := context.Background()
	c := app.register(t, "Ada", "ada@example.com", "night-owl-41")
	verified := func() bool {
		u, _, err := app.db.UserByEmail(ctx, "ada@example.com")
		if err != nil {
			t.Fatal(err)
		}
		return u.EmailVerified
	}
	mails, _ := app.db.Outbox(ctx)
	if len(mails) != 1 || mails[0].To != "ada@example.com" || mails[0].Subject != "Confirm your e-mail address" {
		t.Fatalf("outbox after registering: %+v", mails)
	}
	found := confirmLink.FindStringSubmatch(mails[0].Body)
	if found == nil {
		t.Fatalf("no link in %q", mails[0].Body)
	}
	c.get("/confirm-email?token=" + found[1])
	if verified() {
		t.Fatal("opening the link verified the address (reads never write)")
	}
	res, _ := c.post("/confirm-email", url.Values{"token": {found[1]}})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/profile" {
		t.Fatalf("confirm: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	if _, doc := c.get("/profile"); text(doc, `[data-testid="flash"]`) != auth.MsgEmailConfirmed {
		t.Errorf("flash %q", text(doc, `[data-testid="flash"]`))
	}
	if !verified() {
		t.Error("not verified by the link")
	}
	res, doc := app.client(t).post("/confirm-email", url.Values{"token": {found[1]}})
	if res.StatusCode != http.StatusUnprocessableEntity || text(doc, `[data-testid="form-alert"]`) != auth.MsgConfirmLinkInvalid {
		t.Errorf("second use: %d %q", res.StatusCode, text(doc, `[data-testid="form-alert"]`))
	}

	// A reset link came to the address too.
	app.register(t, "Bob", "bob@example.com", "night-owl-41")
	app.client(t).postFrom("/forgot-password", "/forgot-password", url.Values{"email": {"bob@example.com"}})
	mails, _ = app.db.Outbox(ctx)
	m := resetLink.FindStringSubmatch(mails[0].Body)
	if m == nil {
		t.Fatalf("no reset link in %q", mails[0].Body)
	}
	app.client(t).post("/reset-password", url.Values{"token": {strings.TrimPrefix(m[1], "/reset-password?token=")},
		"password": {"starlit-river-9"}, "confirmPassword": {"starlit-river-9"}})
	if u, _, _ := app.db.UserByEmail(ctx, "bob@example.com"); !u.EmailVerified {
		t.Error("a used reset link did not verify the address")
	}
}
