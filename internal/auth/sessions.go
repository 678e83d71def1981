package auth

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"log/slog"
	"net/url"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/session"

	"github.com/nocturne/storefront/internal/shop"
)

// Session lifetimes: a session ends after IdleTimeout without a visit, and in
// any case AbsoluteTimeout after sign-in.
const (
	IdleTimeout     = 7 * 24 * time.Hour
	AbsoluteTimeout = 30 * 24 * time.Hour
	// touchEvery limits how often a visit re-saves the session to extend its
	// idle expiry: once an hour, not on every request.
	touchEvery = time.Hour

	keyUserID  = "uid"
	keyGen     = "gen"
	keyCreated = "created"
	keyTouched = "touched"
	localsUser = "nocturne.user"
	CookieName = "nocturne_session"
)

// Sessions keeps sessions server-side (Fiber's session middleware on our
// store); the cookie holds only a random id.
type Sessions struct {
	store *session.Store
	users shop.UserStore
	now   func() time.Time
	log   *slog.Logger
}

// NewSessions builds the session store on storage.
func NewSessions(storage fiber.Storage, secure bool, users shop.UserStore, now func() time.Time, log *slog.Logger) *Sessions {
	return &Sessions{
		store: session.New(session.Config{
			Storage:        storage,
			Expiration:     IdleTimeout,
			KeyLookup:      "cookie:" + CookieName,
			CookiePath:     "/",
			CookieHTTPOnly: true,
			CookieSecure:   secure,
			// Lax, not Strict: the OAuth callback is a cross-site navigation
			// and must carry the session that holds its state.
			CookieSameSite: fiber.CookieSameSiteLaxMode,
			KeyGenerator:   func() string { return "sess_" + randomKey() },
		}),
		users: users,
		now:   now,
		log:   log,
	}
}

func randomKey() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// Middleware loads the current user, if any, into the request context. A
// session past its absolute lifetime, of a deleted user, or signed out
// elsewhere (its generation is stale) is destroyed.
func (s *Sessions) Middleware(c *fiber.Ctx) error {
	if c.Cookies(CookieName) == "" {
		return c.Next()
	}
	sess, err := s.store.Get(c)
	if err != nil {
		return fmt.Errorf("load session: %w", err)
	}
	uid, _ := sess.Get(keyUserID).(string)
	if uid == "" {
		return c.Next()
	}
	now := s.now()
	created, _ := sess.Get(keyCreated).(int64)
	gen, _ := sess.Get(keyGen).(int64)
	u, err := s.users.UserByID(c.UserContext(), uid)
	if shop.ErrorCode(err) == shop.ENOTFOUND || (err == nil && u.SessionGen != gen) || now.Sub(time.Unix(created, 0)) > AbsoluteTimeout {
		if err := sess.Destroy(); err != nil {
			return fmt.Errorf("end session: %w", err)
		}
		return c.Next()
	} else if err != nil {
		return fmt.Errorf("load session user: %w", err)
	}
	if touched, _ := sess.Get(keyTouched).(int64); now.Sub(time.Unix(touched, 0)) > touchEvery {
		sess.Set(keyTouched, now.Unix())
		if err := sess.Save(); err != nil {
			return fmt.Errorf("touch session: %w", err)
		}
	}
	c.Locals(localsUser, u)
	c.SetUserContext(shop.NewContextWithUser(c.UserContext(), u.Current()))
	return c.Next()
}

// User returns the current user loaded by Middleware, or nil.
func User(c *fiber.Ctx) *shop.User {
	u, _ := c.Locals(localsUser).(*shop.User)
	return u
}

// SignIn starts a session for u under a new id, so an id planted before
// sign-in is worthless after it (no fixation).
func (s *Sessions) SignIn(c *fiber.Ctx, u *shop.User) error {
	sess, err := s.store.Get(c)
	if err != nil {
		return fmt.Errorf("sign in: %w", err)
	}
	if err := sess.Reset(); err != nil {
		return fmt.Errorf("sign in: %w", err)
	}
	now := s.now().Unix()
	sess.Set(keyUserID, u.ID)
	sess.Set(keyGen, u.SessionGen)
	sess.Set(keyCreated, now)
	sess.Set(keyTouched, now)
	if err := sess.Save(); err != nil {
		return fmt.Errorf("sign in: %w", err)
	}
	c.Locals(localsUser, u)
	c.SetUserContext(shop.NewContextWithUser(c.UserContext(), u.Current()))
	return nil
}

// SignOut ends the session and expires its cookie.
func (s *Sessions) SignOut(c *fiber.Ctx) error {
	sess, err := s.store.Get(c)
	if err != nil {
		return fmt.Errorf("sign out: %w", err)
	}
	if err := sess.Destroy(); err != nil {
		return fmt.Errorf("sign out: %w", err)
	}
	c.Locals(localsUser, nil)
	c.SetUserContext(shop.NewContextWithUser(c.UserContext(), nil))
	return nil
}

// Set stores a value in the session (creating one for a signed-out visitor).
func (s *Sessions) Set(c *fiber.Ctx, key string, val any) error {
	sess, err := s.store.Get(c)
	if err != nil {
		return fmt.Errorf("session set: %w", err)
	}
	sess.Set(key, val)
	if sess.Get(keyCreated) == nil {
		sess.Set(keyCreated, s.now().Unix())
	}
	if err := sess.Save(); err != nil {
		return fmt.Errorf("session set: %w", err)
	}
	return nil
}

// Take returns a value stored with Set and removes it.
func (s *Sessions) Take(c *fiber.Ctx, key string) (any, error) {
	if c.Cookies(CookieName) == "" {
		return nil, nil
	}
	sess, err := s.store.Get(c)
	if err != nil {
		return nil, fmt.Errorf("session take: %w", err)
	}
	v := sess.Get(key)
	if v == nil {
		return nil, nil
	}
	sess.Delete(key)
	if err := sess.Save(); err != nil {
		return nil, fmt.Errorf("session take: %w", err)
	}
	return v, nil
}

// KeepGeneration records a new session generation in this session, so a
// password change or "sign out everywhere else" spares the current one.
func (s *Sessions) KeepGeneration(c *fiber.Ctx, gen int64) error {
	sess, err := s.store.Get(c)
	if err != nil {
		return fmt.Errorf("keep session: %w", err)
	}
	if err := sess.Regenerate(); err != nil {
		return fmt.Errorf("keep session: %w", err)
	}
	sess.Set(keyGen, gen)
	if err := sess.Save(); err != nil {
		return fmt.Errorf("keep session: %w", err)
	}
	return nil
}

// RequireAccount lets only signed-in account holders through; visitors and
// guests go to the sign-in page with the path to come back to.
func RequireAccount(c *fiber.Ctx) error {
	if u := User(c); u != nil && !u.IsGuest {
		return c.Next()
	}
	return c.Redirect("/login?from="+url.QueryEscape(string(c.Request().URI().RequestURI())), fiber.StatusSeeOther)
}

// RequireUser lets any current user through, guests included.
func RequireUser(c *fiber.Ctx) error {
	if User(c) != nil {
		return c.Next()
	}
	return c.Redirect("/login?from="+url.QueryEscape(string(c.Request().URI().RequestURI())), fiber.StatusSeeOther)
}

// Get returns a value stored with Set, or nil.
func (s *Sessions) Get(c *fiber.Ctx, key string) (any, error) {
	if c.Cookies(CookieName) == "" {
		return nil, nil
	}
	sess, err := s.store.Get(c)
	if err != nil {
		return nil, fmt.Errorf("session get: %w", err)
	}
	return sess.Get(key), nil
}
