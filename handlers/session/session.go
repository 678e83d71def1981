// Package session owns the shopper's server-side session in the HTTP layer:
// the cookie that names it, the middleware that loads the signed-in user
// from it, the values a visitor keeps in it, and the guards that need a
// signed-in user. The account rules themselves are package auth's.
package session

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/url"
	"time"

	"github.com/gofiber/fiber/v2"

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

	localsUser = "nocturne.user"
	CookieName = "nocturne_session"
)

// Store is where sessions are kept: the database's kv table, so every
// instance of the shop sees them. Each call carries the request's context,
// so a read or write is cancelled with the request it serves.
type Store interface {
	GetWithContext(ctx context.Context, key string) ([]byte, error)
	SetWithContext(ctx context.Context, key string, val []byte, exp time.Duration) error
	DeleteWithContext(ctx context.Context, key string) error
}

// Sessions keeps sessions server-side, in a Store; the cookie holds only
// a random id. A session is created only when a shopper first stores
// something in it, never by a page view.
type Sessions struct {
	storage Store
	secure  bool
	users   shop.UserStore
	now     func() time.Time
	log     *slog.Logger
}

// sessionData is what a session holds, stored as JSON: decoding it is a
// few microseconds, where Fiber's session middleware builds a gob decoder
// (and compiles its types) on every request.
type sessionData struct {
	UserID  string            `json:"uid,omitempty"`
	Gen     int64             `json:"gen,omitempty"`
	Created int64             `json:"created,omitempty"`
	Touched int64             `json:"touched,omitempty"`
	Values  map[string]string `json:"v,omitempty"`
}

// session is the request's session: its id ("" when none is stored yet).
type session struct {
	id   string
	data sessionData
}

const localsSession = "nocturne.session"

// New builds the sessions on storage.
func New(storage Store, secure bool, users shop.UserStore, now func() time.Time, log *slog.Logger) *Sessions {
	return &Sessions{storage: storage, secure: secure, users: users, now: now, log: log}
}

// load returns the request's session, read once per request. An unknown,
// expired or unreadable id is no session: a new one will get a new id, so
// an id planted by someone else is never adopted.
func (s *Sessions) load(c *fiber.Ctx) (*session, error) {
	if sess, ok := c.Locals(localsSession).(*session); ok {
		return sess, nil
	}
	sess := &session{}
	if id := c.Cookies(CookieName); id != "" {
		raw, err := s.storage.GetWithContext(c.UserContext(), id)
		if err != nil {
			return nil, fmt.Errorf("load session: %w", err)
		}
		if raw != nil && json.Unmarshal(raw, &sess.data) == nil {
			sess.id = id
		} else {
			sess.data = sessionData{}
		}
	}
	c.Locals(localsSession, sess)
	return sess, nil
}

// save stores the session (under a new id if it has none) and sets its
// cookie, both good for IdleTimeout from now.
func (s *Sessions) save(c *fiber.Ctx, sess *session) error {
	if sess.id == "" {
		sess.id = "sess_" + shop.RandomToken(32)
	}
	if sess.data.Created == 0 {
		sess.data.Created = s.now().Unix()
	}
	raw, err := json.Marshal(sess.data)
	if err != nil {
		return fmt.Errorf("save session: %w", err)
	}
	if err := s.storage.SetWithContext(c.UserContext(), sess.id, raw, IdleTimeout); err != nil {
		return fmt.Errorf("save session: %w", err)
	}
	c.Cookie(&fiber.Cookie{
		Name:     CookieName,
		Value:    sess.id,
		Path:     "/",
		MaxAge:   int(IdleTimeout.Seconds()),
		Expires:  s.now().Add(IdleTimeout),
		Secure:   s.secure,
		HTTPOnly: true,
		// Lax, not Strict: the OAuth callback is a cross-site navigation
		// and must carry the session that holds its state.
		SameSite: fiber.CookieSameSiteLaxMode,
	})
	return nil
}

// drop deletes the stored session and forgets its id; the data stays in
// sess for a caller that stores it again under a new id.
func (s *Sessions) drop(ctx context.Context, sess *session) error {
	if sess.id == "" {
		return nil
	}
	if err := s.storage.DeleteWithContext(ctx, sess.id); err != nil {
		return fmt.Errorf("end session: %w", err)
	}
	sess.id = ""
	return nil
}

// Middleware loads the current user, if any, into the request context. A
// session past its absolute lifetime, of a deleted user, or signed out
// elsewhere (its generation is stale) is destroyed.
func (s *Sessions) Middleware(c *fiber.Ctx) error {
	if c.Cookies(CookieName) == "" {
		return c.Next()
	}
	sess, err := s.load(c)
	if err != nil {
		return err
	}
	uid := sess.data.UserID
	if uid == "" {
		return c.Next()
	}
	now := s.now()
	u, err := s.users.UserByID(c.UserContext(), uid)
	if shop.ErrorCode(err) == shop.ENOTFOUND || (err == nil && u.SessionGen != sess.data.Gen) || now.Sub(time.Unix(sess.data.Created, 0)) > AbsoluteTimeout {
		if err := s.destroy(c, sess); err != nil {
			return err
		}
		return c.Next()
	} else if err != nil {
		return fmt.Errorf("load session user: %w", err)
	}
	if now.Sub(time.Unix(sess.data.Touched, 0)) > touchEvery {
		sess.data.Touched = now.Unix()
		if err := s.save(c, sess); err != nil {
			return fmt.Errorf("touch session: %w", err)
		}
	}
	c.Locals(localsUser, u)
	c.SetUserContext(shop.NewContextWithUser(c.UserContext(), u.Current()))
	return c.Next()
}

// destroy ends the session on the server and expires its cookie.
func (s *Sessions) destroy(c *fiber.Ctx, sess *session) error {
	if err := s.drop(c.UserContext(), sess); err != nil {
		return err
	}
	sess.data = sessionData{}
	c.Cookie(&fiber.Cookie{Name: CookieName, Path: "/", Expires: time.Unix(1, 0), MaxAge: -1,
		Secure: s.secure, HTTPOnly: true, SameSite: fiber.CookieSameSiteLaxMode})
	return nil
}

// User returns the current user loaded by Middleware, or nil.
func User(c *fiber.Ctx) *shop.User {
	u, _ := c.Locals(localsUser).(*shop.User)
	return u
}

// SignIn starts a session for u under a new id, so an id planted before
// sign-in is worthless after it (no fixation). It starts empty: what the
// visitor's session held (a cart key) was handed over before sign-in.
func (s *Sessions) SignIn(c *fiber.Ctx, u *shop.User) error {
	sess, err := s.load(c)
	if err != nil {
		return fmt.Errorf("sign in: %w", err)
	}
	if err := s.drop(c.UserContext(), sess); err != nil {
		return fmt.Errorf("sign in: %w", err)
	}
	now := s.now().Unix()
	sess.data = sessionData{UserID: u.ID, Gen: u.SessionGen, Created: now, Touched: now}
	if err := s.save(c, sess); err != nil {
		return fmt.Errorf("sign in: %w", err)
	}
	c.Locals(localsUser, u)
	c.SetUserContext(shop.NewContextWithUser(c.UserContext(), u.Current()))
	return nil
}

// SignOut ends the session and expires its cookie.
func (s *Sessions) SignOut(c *fiber.Ctx) error {
	sess, err := s.load(c)
	if err != nil {
		return fmt.Errorf("sign out: %w", err)
	}
	if err := s.destroy(c, sess); err != nil {
		return fmt.Errorf("sign out: %w", err)
	}
	c.Locals(localsUser, nil)
	c.SetUserContext(shop.NewContextWithUser(c.UserContext(), nil))
	return nil
}

// Set stores a text value in the session (creating one for a signed-out
// visitor).
func (s *Sessions) Set(c *fiber.Ctx, key string, val any) error {
	text, ok := val.(string)
	if !ok {
		return fmt.Errorf("session set %s: a %T is not text", key, val)
	}
	sess, err := s.load(c)
	if err != nil {
		return fmt.Errorf("session set: %w", err)
	}
	if sess.data.Values == nil {
		sess.data.Values = map[string]string{}
	}
	sess.data.Values[key] = text
	if err := s.save(c, sess); err != nil {
		return fmt.Errorf("session set: %w", err)
	}
	return nil
}

// Take returns a value stored with Set and removes it.
func (s *Sessions) Take(c *fiber.Ctx, key string) (any, error) {
	v, err := s.Get(c, key)
	if v == nil || err != nil {
		return v, err
	}
	sess, _ := s.load(c)
	delete(sess.data.Values, key)
	if err := s.save(c, sess); err != nil {
		return nil, fmt.Errorf("session take: %w", err)
	}
	return v, nil
}

// KeepGeneration records a new session generation in this session, so a
// password change or "sign out everywhere else" spares the current one.
// The session moves to a new id as well.
func (s *Sessions) KeepGeneration(c *fiber.Ctx, gen int64) error {
	sess, err := s.load(c)
	if err != nil {
		return fmt.Errorf("keep session: %w", err)
	}
	if err := s.drop(c.UserContext(), sess); err != nil {
		return fmt.Errorf("keep session: %w", err)
	}
	sess.data.Gen = gen
	if err := s.save(c, sess); err != nil {
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
	sess, err := s.load(c)
	if err != nil {
		return nil, fmt.Errorf("session get: %w", err)
	}
	v, ok := sess.data.Values[key]
	if !ok {
		return nil, nil
	}
	return v, nil
}
