package handlers

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// errCSRF is returned for a cross-site POST; the error handler turns it into
// a 403 page that tells the shopper to go back and use the shop's own page.
var errCSRF = fiber.NewError(fiber.StatusForbidden, "csrf")

// crossOriginGuard refuses state-changing requests that a browser says come
// from another origin. No token and no per-visitor state, so a page for a
// visitor without a session is the same bytes for everyone (see
// docs/decisions on fetch-metadata CSRF).
//
// A browser's Sec-Fetch-Site is trusted as it is: "same-origin" (or "none",
// typed by the user) passes, anything else is refused unless its Origin is
// the shop's own. A browser that sends no fetch metadata is judged by its
// Origin, which must be the shop's origin exactly — scheme, host and port:
// base when the shop's public address is configured, otherwise the
// request's own scheme and Host. A Host alone would let a page on another
// port or scheme of the same host post (a proxy that drops the port makes
// them look the same).
//
// A request with neither header is let through, as the standard library's
// CrossOriginProtection does: every browser released since 2020 sends at
// least Origin on a cross-site POST, so such a request comes from a
// non-browser client (which holds no victim's cookies) or a browser too old
// to be protected by anything but the SameSite=Lax session cookie.
func crossOriginGuard(base string, scheme func(c *fiber.Ctx) string) fiber.Handler {
	base = normalOrigin(base)
	return func(c *fiber.Ctx) error {
		switch c.Method() {
		case fiber.MethodGet, fiber.MethodHead, fiber.MethodOptions:
			return c.Next()
		}
		origin := c.Get(fiber.HeaderOrigin)
		site := c.Get("Sec-Fetch-Site")
		if site == "same-origin" || site == "none" || site == "" && origin == "" {
			return c.Next()
		}
		own := base
		if own == "" {
			own = normalOrigin(scheme(c) + "://" + string(c.Request().Host()))
		}
		if origin != "" && normalOrigin(origin) == own {
			return c.Next()
		}
		return errors.Join(errCSRF, fmt.Errorf("cross-origin %s from %q (Sec-Fetch-Site %q), want %q", c.Method(), origin, site, own))
	}
}

// normalOrigin is an origin as browsers send it: lower-case scheme and
// host, no default port, no path; "" for anything that is not an http(s)
// origin (such as "null").
func normalOrigin(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.Scheme != "http" && u.Scheme != "https" {
		return ""
	}
	scheme, host, port := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname()), u.Port()
	if scheme == "http" && port == "80" || scheme == "https" && port == "443" {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return scheme + "://" + host
}
