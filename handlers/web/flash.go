package web

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
)

const flashCookie = "nocturne_flash"

// Flasher carries a one-time message across a POST-redirect-GET in a signed
// cookie: it needs no server state, works without JavaScript, and a forged
// cookie is ignored.
type Flasher struct {
	key    []byte
	secure bool
}

// NewFlasher signs flash cookies with a key derived from secret; secure
// marks them Secure.
func NewFlasher(secret []byte, secure bool) *Flasher {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("nocturne flash v1"))
	return &Flasher{key: m.Sum(nil), secure: secure}
}

func (f *Flasher) sign(msg string) string {
	m := hmac.New(sha256.New, f.key)
	m.Write([]byte(msg))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// Flash kinds: a confirmation or a problem.
const (
	flashOK    = "s:"
	flashError = "e:"
)

// set stores msg for the next page the browser loads.
func (f *Flasher) set(c *fiber.Ctx, msg string) { f.setKind(c, flashOK, msg) }

func (f *Flasher) setKind(c *fiber.Ctx, kind, msg string) {
	v := base64.RawURLEncoding.EncodeToString([]byte(kind + msg))
	c.Cookie(&fiber.Cookie{
		Name: flashCookie, Value: v + "." + f.sign(v), Path: "/",
		HTTPOnly: true, Secure: f.secure, SameSite: fiber.CookieSameSiteLaxMode,
		Expires: time.Now().Add(5 * time.Minute),
	})
}

// take returns the pending message, if any, whether it reports a problem,
// and clears it.
func (f *Flasher) take(c *fiber.Ctx) (string, bool) {
	raw := c.Cookies(flashCookie)
	if raw == "" {
		return "", false
	}
	c.Cookie(&fiber.Cookie{Name: flashCookie, Path: "/", Expires: time.Unix(1, 0), HTTPOnly: true, Secure: f.secure, SameSite: fiber.CookieSameSiteLaxMode})
	v, sig, ok := strings.Cut(raw, ".")
	if !ok || !hmac.Equal([]byte(sig), []byte(f.sign(v))) {
		return "", false
	}
	b, err := base64.RawURLEncoding.DecodeString(v)
	if err != nil {
		return "", false
	}
	msg := string(b)
	if strings.HasPrefix(msg, flashError) {
		return strings.TrimPrefix(msg, flashError), true
	}
	return strings.TrimPrefix(msg, flashOK), false
}

// RedirectWithFlash answers a successful POST: 303 See Other to a GET page
// that shows msg once.
func (p *Pages) RedirectWithFlash(c *fiber.Ctx, to, msg string) error {
	p.Flash.set(c, msg)
	return c.Redirect(to, fiber.StatusSeeOther)
}

// RedirectWithError answers a rejected POST whose page cannot re-render the
// form (a card's button): back to the page, with the reason.
func (p *Pages) RedirectWithError(c *fiber.Ctx, to, msg string) error {
	p.Flash.setKind(c, flashError, msg)
	return c.Redirect(to, fiber.StatusSeeOther)
}
