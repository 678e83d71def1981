package handlers

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"

	"github.com/gofiber/fiber/v2"
)

const (
	csrfContextKey = "csrf"
	csrfFormField  = "_csrf"
	csrfHeader     = "X-CSRF-Token"
)

// errCSRF is returned for a POST without a valid token; the error handler
// turns it into a 403 page that tells the shopper to reload and try again.
var errCSRF = fiber.NewError(fiber.StatusForbidden, "csrf")

// maskedCSRFToken returns this request's CSRF token XOR-ed with a fresh
// random pad, pad first. Pages carry a different string on every response,
// so compressing them cannot leak the token (BREACH).
func maskedCSRFToken(c *fiber.Ctx) string {
	token, _ := c.Locals(csrfContextKey).(string)
	if token == "" {
		return ""
	}
	raw := []byte(token)
	out := make([]byte, 2*len(raw))
	pad := out[:len(raw)]
	if _, err := rand.Read(pad); err != nil {
		return ""
	}
	subtle.XORBytes(out[len(raw):], raw, pad)
	return base64.RawURLEncoding.EncodeToString(out)
}

func randomKey() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// unmaskCSRFToken reverses maskedCSRFToken.
func unmaskCSRFToken(s string) (string, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) == 0 || len(b)%2 != 0 {
		return "", errors.New("malformed csrf token")
	}
	n := len(b) / 2
	raw := make([]byte, n)
	subtle.XORBytes(raw, b[n:], b[:n])
	return string(raw), nil
}

// extractCSRF reads the masked token from the X-CSRF-Token header (scripts)
// or the _csrf form field (forms) and unmasks it for Fiber's CSRF check.
func extractCSRF(c *fiber.Ctx) (string, error) {
	masked := c.Get(csrfHeader)
	if masked == "" {
		masked = c.FormValue(csrfFormField)
	}
	if masked == "" {
		return "", errors.New("csrf token not found")
	}
	return unmaskCSRFToken(masked)
}
