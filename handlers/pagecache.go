package handlers

import (
	"bytes"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/cache"

	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/static"
)

// pageCacheTTL bounds how old a cached page may be. Catalogue changes do not
// wait for it (the catalogue version is part of the key); it covers what
// else an anonymous page shows, such as the year in the footer.
const pageCacheTTL = 5 * time.Second

// pageCache answers GETs from visitors without a session from memory. With
// no CSRF token and no per-visitor state in such a page, it is the same
// bytes for every visitor, so it is rendered and compressed once per URL,
// catalogue version and encoding, then served from memory (Fiber's cache
// middleware, placed before compression so it keeps the compressed body).
//
// A request with a session or flash cookie always reaches the handlers,
// and only a 200 without Set-Cookie and without Cache-Control private or
// no-store is kept.
func (a *site) pageCache() fiber.Handler {
	cached := cache.New(cache.Config{
		Expiration: pageCacheTTL,
		Methods:    []string{fiber.MethodGet},
		MaxBytes:   8 << 20,
		KeyGenerator: func(c *fiber.Ctx) string {
			return string(c.Request().URI().RequestURI()) + "|" + encodingOf(c) + "|" + strconv.FormatInt(a.catalog.Version(), 10)
		},
		// Called after the handler: whether to leave this response out.
		Next: func(c *fiber.Ctx) bool {
			r := &c.Response().Header
			cc := r.Peek(fiber.HeaderCacheControl)
			return c.Response().StatusCode() != fiber.StatusOK ||
				len(r.Peek(fiber.HeaderSetCookie)) > 0 ||
				bytes.Contains(cc, []byte("no-store")) || bytes.Contains(cc, []byte("private"))
		},
	})
	return func(c *fiber.Ctx) error {
		if !cacheable(c) {
			return c.Next()
		}
		// Every answer here depends on the encoding asked for; say so, for
		// hits too (the compressor adds it only when it compresses).
		c.Vary(fiber.HeaderAcceptEncoding)
		return cached(c)
	}
}

// cacheable reports whether the page cache may answer the request: a GET
// of a page by a visitor without a session. Not a static asset or photo,
// not the health check, and not a product page: it shows the stock as it is
// now, which an order changes without a new catalogue version.
func cacheable(c *fiber.Ctx) bool {
	p := c.Path()
	return c.Method() == fiber.MethodGet && web.Anonymous(c) &&
		!strings.HasPrefix(p, static.Prefix) && !strings.HasPrefix(p, imagePrefix) && p != "/healthz" &&
		!strings.HasPrefix(p, "/product/")
}

// encodingOf names the content coding the compressor will choose for this
// request, in its order of preference.
func encodingOf(c *fiber.Ctx) string {
	h := &c.Request().Header
	switch {
	case h.HasAcceptEncoding("br"):
		return "br"
	case h.HasAcceptEncoding("gzip"):
		return "gzip"
	case h.HasAcceptEncoding("deflate"):
		return "deflate"
	}
	return ""
}
