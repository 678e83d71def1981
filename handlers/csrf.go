package handlers

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/gofiber/fiber/v2"
)

// errCSRF is returned for a cross-site POST; the error handler turns it into
// a 403 page that tells the shopper to go back and use the shop's own page.
var errCSRF = fiber.NewError(fiber.StatusForbidden, "csrf")

// crossOriginGuard refuses state-changing requests that a browser says come
// from another site. It is the standard library's CrossOriginProtection
// (fetch metadata, falling back to Origin against the host) applied to
// Fiber's request: no token and no per-visitor state, so a page for a
// visitor without a session is the same bytes for everyone.
//
// A request with neither Sec-Fetch-Site nor Origin is let through, as the
// standard library does: every browser released since 2020 sends at least
// Origin on a cross-site POST, so such a request comes from a non-browser
// client (which holds no victim's cookies) or a browser too old to be
// protected by anything but the SameSite=Lax session cookie.
func crossOriginGuard(trusted ...string) (fiber.Handler, error) {
	cop := http.NewCrossOriginProtection()
	for _, o := range trusted {
		if err := cop.AddTrustedOrigin(o); err != nil {
			return nil, err
		}
	}
	return func(c *fiber.Ctx) error {
		switch c.Method() {
		case fiber.MethodGet, fiber.MethodHead, fiber.MethodOptions:
			return c.Next()
		}
		req := &http.Request{
			Method: c.Method(),
			Host:   string(c.Request().Host()),
			URL:    &url.URL{Path: c.Path()},
			Header: http.Header{},
		}
		if v := c.Get("Sec-Fetch-Site"); v != "" {
			req.Header.Set("Sec-Fetch-Site", v)
		}
		if v := c.Get(fiber.HeaderOrigin); v != "" {
			req.Header.Set("Origin", v)
		}
		if err := cop.Check(req); err != nil {
			return errors.Join(errCSRF, err)
		}
		return c.Next()
	}, nil
}

// formValue returns a field of a POST's body, as valid UTF-8. Unlike
// Fiber's FormValue it never reads the query string, so a password or any
// other field cannot arrive in a URL (and so in logs, history and Referer
// headers).
func formValue(c *fiber.Ctx, key string) string {
	if v := c.Request().PostArgs().Peek(key); v != nil {
		return validText(string(v))
	}
	if mf, err := c.MultipartForm(); err == nil && mf != nil {
		if vs := mf.Value[key]; len(vs) > 0 {
			return validText(vs[0])
		}
	}
	return ""
}
