package handlers

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
)

const flashCookie = "nocturne_flash"

// flasher carries a one-time message across a POST-redirect-GET in a signed
// cookie: it needs no server state, works without JavaScript, and a forged
// cookie is ignored.
type flasher struct {
	key    []byte
	secure bool
}

func newFlasher(secret []byte, secure bool) *flasher {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("nocturne flash v1"))
	return &flasher{key: m.Sum(nil), secure: secure}
}

func (f *flasher) sign(msg string) string {
	m := hmac.New(sha256.New, f.key)
	m.Write([]byte(msg))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// set stores msg for the next page the browser loads.
func (f *flasher) set(c *fiber.Ctx, msg string) {
	v := base64.RawURLEncoding.EncodeToString([]byte(msg))
	c.Cookie(&fiber.Cookie{
		Name: flashCookie, Value: v + "." + f.sign(v), Path: "/",
		HTTPOnly: true, Secure: f.secure, SameSite: fiber.CookieSameSiteLaxMode,
		Expires: time.Now().Add(5 * time.Minute),
	})
}

// take returns the pending message, if any, and clears it.
func (f *flasher) take(c *fiber.Ctx) string {
	raw := c.Cookies(flashCookie)
	if raw == "" {
		return ""
	}
	c.Cookie(&fiber.Cookie{Name: flashCookie, Path: "/", Expires: time.Unix(1, 0), HTTPOnly: true, Secure: f.secure, SameSite: fiber.CookieSameSiteLaxMode})
	v, sig, ok := strings.Cut(raw, ".")
	if !ok || !hmac.Equal([]byte(sig), []byte(f.sign(v))) {
		return ""
	}
	msg, err := base64.RawURLEncoding.DecodeString(v)
	if err != nil {
		return ""
	}
	return string(msg)
}

// redirectWithFlash answers a successful POST: 303 See Other to a GET page
// that shows msg once.
func (a *App) redirectWithFlash(c *fiber.Ctx, to, msg string) error {
	a.flash.set(c, msg)
	return c.Redirect(to, fiber.StatusSeeOther)
}
