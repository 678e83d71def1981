// Package handlers is Nocturne's HTTP layer: it parses requests, calls the
// stores and services, builds view models and renders templ pages. Every
// route and the order of every middleware is written down in this file.
package handlers

import (
	"log/slog"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/compress"
	"github.com/gofiber/fiber/v2/middleware/csrf"
	"github.com/gofiber/fiber/v2/middleware/etag"
	"github.com/gofiber/fiber/v2/middleware/helmet"
	"github.com/gofiber/fiber/v2/middleware/recover"
	"github.com/gofiber/fiber/v2/middleware/requestid"

	"github.com/nocturne/storefront/internal/config"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/static"
)

// Deps is everything the HTTP layer uses; main wires the concrete types.
type Deps struct {
	Config  *config.Config
	Log     *slog.Logger
	Assets  static.Source
	Health  shop.Pinger
	Contact shop.ContactStore
	// Storage keeps CSRF tokens (and later sessions) server-side.
	Storage fiber.Storage
	// Now is the clock; tests replace it.
	Now func() time.Time
}

// App holds the dependencies the handlers share.
type App struct {
	Deps
	flash *flasher
}

// csp allows only our own scripts, styles and images: no inline script, no
// framing. Island props travel in data attributes, so no 'unsafe-inline'.
const csp = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'"

// New builds the Fiber app with its middleware and routes.
func New(d Deps) *fiber.App {
	if d.Now == nil {
		d.Now = time.Now
	}
	a := &App{Deps: d, flash: newFlasher(d.Config.SessionSecret, d.Config.Secure())}
	app := fiber.New(fiber.Config{
		AppName:               d.Config.ShopName,
		ErrorHandler:          a.handleError,
		DisableStartupMessage: true,
		// Immutable copies every string Fiber hands out, so values read from
		// params, queries and forms may safely outlive the handler.
		Immutable:    true,
		ReadTimeout:  10 * time.Second,
		WriteTimeout: 15 * time.Second,
		IdleTimeout:  60 * time.Second,
		BodyLimit:    1 << 20,
	})

	// Middleware, in the order a request meets it.
	app.Use(recover.New(recover.Config{EnableStackTrace: true, StackTraceHandler: a.logPanic}))
	app.Use(requestid.New())
	app.Use(a.accessLog)
	app.Use(helmet.New(helmet.Config{
		ContentSecurityPolicy: csp,
		// same-origin keeps the Referer on our own posts, which Fiber's CSRF
		// check requires over HTTPS, and hides it from other sites.
		ReferrerPolicy:            "same-origin",
		XFrameOptions:             "DENY",
		CrossOriginEmbedderPolicy: "unsafe-none",
		HSTSMaxAge:                hstsMaxAge(d.Config.Secure()),
	}))
	if !d.Config.Dev {
		// The templ live-reload proxy cannot rewrite compressed pages; static
		// assets are compressed once, ahead of time, by the static handler.
		app.Use(compress.New(compress.Config{
			Level: compress.LevelBestSpeed,
			Next:  func(c *fiber.Ctx) bool { return strings.HasPrefix(c.Path(), static.Prefix) },
		}))
	}
	app.Get(static.Prefix+"*", a.serveStatic)
	app.Get("/favicon.ico", a.serveFavicon)
	app.Get("/healthz", a.healthz)
	app.Use(etag.New(etag.Config{Weak: true}))
	app.Use(csrf.New(csrf.Config{
		Storage:        d.Storage,
		Extractor:      extractCSRF,
		ContextKey:     csrfContextKey,
		CookieName:     "nocturne_csrf",
		CookieSameSite: "Lax",
		CookieHTTPOnly: true,
		CookieSecure:   d.Config.Secure(),
		// A shopper may leave a form open for a long time; the token is
		// extended on every page view, so only long-idle tabs meet the expiry.
		Expiration:   24 * time.Hour,
		ErrorHandler: func(c *fiber.Ctx, err error) error { return errCSRF },
	}))

	// Routes.
	app.Get("/", a.home)
	app.Get("/search", a.search)
	app.Get("/contact", a.contactPage)
	app.Post("/contact", a.contactSubmit)
	app.Get("/faq", a.faq)
	app.Get("/shipping", a.shipping)
	app.Get("/returns", a.returns)

	app.Use(func(c *fiber.Ctx) error { return fiber.ErrNotFound })
	return app
}

func hstsMaxAge(secure bool) int {
	if secure {
		return 31536000
	}
	return 0
}
