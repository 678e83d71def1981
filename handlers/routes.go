// Package handlers is Nocturne's HTTP layer for shoppers: it parses
// requests, calls the stores and services, builds view models and renders
// templ pages. Each feature (catalogue, help pages, account, cart and
// wishlist, checkout, orders) is a struct holding what it uses and
// registering its own routes; the back office is package admin. The order
// of every middleware, and of the features' routes, is written down in
// this file.
package handlers

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/compress"
	"github.com/gofiber/fiber/v2/middleware/helmet"
	"github.com/gofiber/fiber/v2/middleware/limiter"
	"github.com/gofiber/fiber/v2/middleware/recover"

	"github.com/nocturne/storefront/handlers/admin"
	"github.com/nocturne/storefront/handlers/session"
	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/auth"
	"github.com/nocturne/storefront/internal/cart"
	"github.com/nocturne/storefront/internal/catalog"
	"github.com/nocturne/storefront/internal/checkout"
	"github.com/nocturne/storefront/internal/config"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/static"
)

// Deps is everything the HTTP layer uses; main wires the concrete types.
type Deps struct {
	Config  *config.Config
	Log     *slog.Logger
	Assets  static.Source
	Health  HealthChecker
	Contact shop.ContactStore
	// StaffMail mails StaffEmail each contact message; either unset: none.
	StaffMail  shop.MailSender
	StaffEmail string
	Users      shop.UserStore
	// Auth holds the account rules (package auth's Service), Sessions the
	// server-side sessions (package session).
	Auth     Accounts
	Sessions Sessions
	// Google is nil when Google sign-in is not configured.
	Google *auth.Google
	// Catalog answers catalogue queries (package catalog).
	Catalog Catalog
	Carts   shop.CartStore
	// Cart applies the cart's rules (package cart) to Carts.
	Cart      *cart.Service
	Wishlists shop.WishlistStore
	Orders    shop.OrderStore
	// PersonalData gathers a shopper's data for their download; nil: no
	// download.
	PersonalData shop.PersonalDataStore
	// Images serves the stored variants of imported product photos, the
	// covers and the galleries' (images.go).
	Images   PhotoStore
	Checkout Checkout
	// Prices prices carts from the shop's shipping, tax and promo
	// settings; Location is the shop's time zone, for shipping cut-offs
	// and delivery dates (America/New_York when nil).
	Prices   Pricer
	Location *time.Location
	// Payments closes abandoned hosted payments and acts on the methods'
	// webhooks; Methods are the payment methods, and which the Payment
	// step offers.
	Payments Payments
	Methods  *checkout.Methods
	// Storage keeps the rate limiter's counters server-side.
	Storage fiber.Storage
	// Throttle counts attempts for the limits of package shop (contact
	// messages; the account service has its own); nil means no limits.
	Throttle *shop.Throttle
	// Now is the clock; tests replace it.
	Now func() time.Time
	// Stock answers live stock for the cart page's warnings; nil: none.
	Stock shop.StockStore
	// Variants are the options and variants of products that have them.
	Variants Variants
	// Admin is the back office (package admin); zero: none.
	Admin admin.Deps
	// Unavailable tells a failure of the database to serve now (down,
	// full, read-only: the store package's Unavailable) from any other, so
	// the error handler answers it with 503 and Retry-After, not 500. Nil:
	// only errors the store already marked (shop.ErrUnavailable).
	Unavailable func(err error) bool
}

// Catalog is what the pages need of the catalogue; package catalog's
// Service is it, tests may use a fake.
type Catalog interface {
	List(ctx context.Context, f shop.ProductFilter) (shop.ProductPage, error)
	Suggest(ctx context.Context, q string) (string, error)
	Product(ctx context.Context, id string) (*shop.Product, error)
	StoredProduct(ctx context.Context, id string) (*shop.Product, error)
	Categories(ctx context.Context) ([]string, error)
	Featured(ctx context.Context, limit int) ([]shop.Product, error)
	ProductIDs(ctx context.Context) ([]string, error)
	// Facets are the options listings can be filtered by, with their values.
	Facets(ctx context.Context) ([]shop.Option, error)
	// Gallery is a product's photos, in order; photo 1 is the cover.
	Gallery(ctx context.Context, productID string) ([]shop.GalleryPhoto, error)
	// Version is the catalogue version served, which keys the page cache.
	Version() int64
}

// Variants finds a product's options and variants.
type Variants interface {
	Choices(ctx context.Context, productID string) (shop.Choices, error)
}

// Checkout is what the checkout pages need of package checkout's Service.
type Checkout interface {
	Tokenize(ctx context.Context, method, number string, c checkout.Card) (string, error)
	ReviewKey(ctx context.Context, owner string, cart shop.Cart, ch checkout.Choice) (string, error)
	Place(ctx context.Context, in checkout.PlaceInput) (checkout.Result, error)
	Admit(ctx context.Context, in checkout.PlaceInput) error
	Status(ctx context.Context, userID, key, token string) (checkout.Result, error)
}

// Accounts is what the account pages need of package auth's Service: the
// rules for registering, signing in and recovering an account.
type Accounts interface {
	Register(ctx context.Context, in auth.RegisterInput) (*shop.User, shop.FieldErrors, error)
	SignIn(ctx context.Context, email, password, addr string) (*shop.User, error)
	SignInWithGoogle(ctx context.Context, cur *shop.User, id auth.GoogleIdentity, addr string) (auth.GoogleResult, error)
	ConfirmEmail(ctx context.Context, token string) (*shop.User, bool, error)
	RequestSignInLink(ctx context.Context, email, addr string) error
	SignInWithLink(ctx context.Context, token, addr string) (*shop.User, error)
	NewGuest(ctx context.Context) (*shop.User, error)
	KeepCart(ctx context.Context, cur *shop.User, cartOwner string, to *shop.User) error
	ChangePassword(ctx context.Context, u *shop.User, current, password, confirm string) (int64, shop.FieldErrors, error)
	RequestPasswordReset(ctx context.Context, email, addr string) error
	ResetLinkUsable(ctx context.Context, token string) (bool, error)
	ResetPassword(ctx context.Context, token, password, confirm string) (*shop.User, shop.FieldErrors, error)
}

// Sessions is what the handlers need of the server-side sessions
// (package session): the middleware that loads one, and the values kept in it.
type Sessions interface {
	Middleware(c *fiber.Ctx) error
	Get(c *fiber.Ctx, key string) (any, error)
	Set(c *fiber.Ctx, key string, val any) error
	Take(c *fiber.Ctx, key string) (any, error)
	SignIn(c *fiber.Ctx, u *shop.User) error
	SignOut(c *fiber.Ctx) error
	KeepGeneration(c *fiber.Ctx, gen int64) error
}

var (
	_ Catalog  = (*catalog.Service)(nil)
	_ Checkout = (*checkout.Service)(nil)
	_ Accounts = (*auth.Service)(nil)
	_ Sessions = (*session.Sessions)(nil)
)

// HealthChecker tells /healthz whether the shop can serve (package health).
type HealthChecker interface {
	Check(ctx context.Context) error
}

// site is what serves every request before and around the features: the
// middleware, the one error handler, static files, product photos, the
// health check and the rate limits.
type site struct {
	*web.Pages
	// webhook takes the payment methods' webhooks (nil: none).
	webhook fiber.Handler
	health  HealthChecker
	catalog Catalog
	images  PhotoStore
	// storage keeps the rate limiter's counters.
	storage fiber.Storage
	// proxies are the trusted reverse proxies clientIP looks behind.
	proxies proxies
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
	pages := &web.Pages{Config: d.Config, Log: d.Log, Now: d.Now, Assets: d.Assets,
		Flash: web.NewFlasher(d.Config.SessionSecret, d.Config.Secure()), Unavailable: d.Unavailable}
	owners := &cartOwners{sessions: d.Sessions, Log: d.Log}
	pages.CartCount = func(c *fiber.Ctx) (int, error) {
		owner := owners.cartOwner(c)
		if owner == "" {
			return 0, nil
		}
		return d.Carts.CartCount(c.UserContext(), owner)
	}
	a := &site{Pages: pages, health: d.Health, catalog: d.Catalog, images: d.Images, storage: d.Storage,
		proxies: parseProxies(d.Config.TrustedProxies)}
	cat := &catalogHandlers{Pages: pages, catalog: d.Catalog, wishlists: d.Wishlists, stock: d.Stock, variants: d.Variants,
		cardHTML: newCardHTML(maxCardsKept), fragments: newFragments(maxFragmentsKept), prices: d.Prices}
	if d.Location == nil {
		d.Location = defaultLocation()
	}
	help := &pageHandlers{Pages: pages, contact: d.Contact, throttle: d.Throttle, staffMail: d.StaffMail, staffEmail: d.StaffEmail, clientIP: a.clientIP, prices: d.Prices,
		location: d.Location}
	account := &accountHandlers{Pages: pages, auth: d.Auth, sessions: d.Sessions, users: d.Users, orders: d.Orders,
		carts: d.Carts, owners: owners, google: d.Google, clientIP: a.clientIP}
	carts := &cartHandlers{Pages: pages, owners: owners, cart: d.Cart, carts: d.Carts, wishlists: d.Wishlists, prices: d.Prices,
		sessions: d.Sessions}
	co := &checkoutHandlers{Pages: pages, checkout: d.Checkout, sessions: d.Sessions, carts: d.Carts, orders: d.Orders, owners: owners,
		paymethods: d.Methods, prices: d.Prices, location: d.Location}
	orders := &orderHandlers{Pages: pages, orders: d.Orders, sessions: d.Sessions,
		payments: d.Payments, lastPayment: co.lastPayment}
	if d.Payments != nil {
		a.webhook = (&webhookHandlers{Pages: pages, payments: d.Payments}).webhook
	}
	if d.Admin.Fulfilment != nil {
		orders.events = d.Admin.Fulfilment
	}
	if d.Admin.Service != nil {
		orders.cancels = d.Admin.Service
		orders.tracking = d.Admin.Service
	}
	if d.Admin.ReturnService != nil {
		orders.returns = d.Admin.ReturnService
	}
	if d.Admin.Location == nil {
		d.Admin.Location = d.Location
	}
	back := admin.New(pages, d.Admin)

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
		// Fiber has one body limit for the whole app: it fits a product
		// photo, and limitBody holds every other route to maxBody.
		BodyLimit: admin.MaxUpload + multipartOverhead,
		// At most this many connections at once; more are answered
		// 503 and closed, so a flood cannot use up the descriptors.
		Concurrency: d.Config.MaxConns,
	})
	a.middleware(app, d.Sessions.Middleware, cat)
	perIP := a.perIP
	cat.routes(app)
	help.routes(app)
	account.routes(app, perIP)
	(&personalDataHandlers{Pages: pages, store: d.PersonalData}).routes(app)
	carts.routes(app)
	co.routes(app, perIP)
	orders.routes(app, perIP)
	back.Register(app) // the back office (package admin)
	app.Use(func(c *fiber.Ctx) error { return fiber.ErrNotFound })
	return app
}

// middleware installs the middleware, in the order a request meets it, up
// to the routes: static files, photos and /healthz are served before
// sessions and the cross-site guard.
func (a *site) middleware(app *fiber.App, sessions fiber.Handler, catalog *catalogHandlers) {
	d := a.Pages
	app.Use(recover.New(recover.Config{EnableStackTrace: true, StackTraceHandler: a.logPanic}))
	app.Use(requestIDs) // a client's id only when short and safe
	app.Use(limitBody)
	app.Use(a.accessLog)
	app.Use(helmet.New(helmet.Config{
		// Imported photos are served from our own /img/, so img-src stays
		// 'self' in every mode.
		ContentSecurityPolicy: a.inlineStyles(),
		// same-origin keeps the Referer (our "back" links use it) on our own
		// pages and hides it from other sites.
		ReferrerPolicy:            "same-origin",
		XFrameOptions:             "DENY",
		CrossOriginEmbedderPolicy: "unsafe-none",
		HSTSMaxAge:                hstsMaxAge(d.Config.Secure()),
		PermissionPolicy:          permissionsPolicy,
	}))
	if !d.Config.Dev {
		// Anonymous pages from memory, already compressed (pagecache.go).
		// Not in development, where templates change under the server.
		app.Use(a.pageCache())
		// The templ live-reload proxy cannot rewrite compressed pages; static
		// assets are compressed once, ahead of time, by the static handler.
		// The fastest level: the default one makes a listing a fifth
		// smaller but costs about five times the CPU, which every page a
		// cache cannot answer (a signed-in shopper's, a crawler's walk
		// through filter URLs) would pay.
		app.Use(compress.New(compress.Config{
			Level: compress.LevelBestSpeed,
			Next: func(c *fiber.Ctx) bool {
				return strings.HasPrefix(c.Path(), static.Prefix) || strings.HasPrefix(c.Path(), imagePrefix)
			},
		}))
		// Inside the compressor: HTML pages are gzipped here, in one call,
		// and those that carry the stylesheet without compressing it again
		// (gzipcss.go). Other responses, and clients without gzip, are the
		// compressor's.
		if a.InlineCSS != "" {
			if g, err := newCSSGzip(a.InlineCSS); err != nil {
				d.Log.Warn("stylesheet not precompressed", "err", err)
			} else {
				app.Use(g.middleware)
			}
		}
	}
	// Personal pages are never cached (inside the page cache, so
	// it sees the header and does not keep them either).
	app.Use(noStorePersonal)
	app.Get(static.Prefix+"*", a.serveStatic)
	// The gallery's route first: Fiber would give the cover's ":width" the
	// "2/160" of a gallery address. No session: images set no cookie.
	app.Get(imagePrefix+":product/:photo/:width.:ext", a.serveGalleryImage)
	app.Get(imagePrefix+":product/:width.:ext", a.serveImage)
	app.Get("/favicon.ico", a.serveFavicon)
	app.Get("/healthz", a.healthz)
	app.Get("/robots.txt", catalog.robots)
	app.Get("/sitemap.xml", catalog.sitemap)
	if a.webhook != nil {
		// Before sessions and the cross-origin guard: the provider's
		// server calls it, and the signature is its check.
		app.Post("/webhooks/:method", a.webhook)
	}
	// No ETag on pages: computing one means hashing every body, which cost
	// more CPU than the rare 304 saved; anonymous pages come from memory
	// anyway, and static assets have immutable, hashed URLs.
	app.Use(sessions)
	base := ""
	if d.Config.BaseURLSet {
		base = d.Config.BaseURL.Scheme + "://" + d.Config.BaseURL.Host
	}
	app.Use(crossOriginGuard(base, a.scheme))
}

// inlineStyles inlines the stylesheet (not in development, where the file
// changes under the server) and returns the content security policy that
// allows it: a first paint from the HTML response alone (one round trip
// less on a phone's network), allowed by its hash rather than by
// 'unsafe-inline'.
func (a *site) inlineStyles() string {
	if a.Config.Dev {
		return csp
	}
	css, err := inlineStylesheet(a.Assets)
	if err != nil {
		a.Log.Warn("stylesheet not inlined", "err", err)
		return csp
	}
	a.InlineCSS = css
	sum := sha256.Sum256([]byte(css))
	return strings.Replace(csp, "style-src 'self'", "style-src 'self' 'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'", 1)
}

// perIP limits a route to max requests a minute from one client address.
func (a *site) perIP(name string, max int) fiber.Handler {
	return a.limit(name, max, false, a.tooManyRequests, a.clientIP)
}

// limit counts requests per key in a one-minute window, in our store so the
// count holds across restarts; onlyFailures leaves successful requests
// (status below 400) uncounted.
func (a *site) limit(name string, max int, onlyFailures bool, reached fiber.Handler, key func(*fiber.Ctx) string) fiber.Handler {
	return limiter.New(limiter.Config{
		Max:                    max,
		Expiration:             time.Minute,
		KeyGenerator:           func(c *fiber.Ctx) string { return "limit:" + name + ":" + key(c) },
		LimitReached:           reached,
		SkipSuccessfulRequests: onlyFailures,
		Storage:                a.storage,
	})
}

func (a *site) tooManyRequests(c *fiber.Ctx) error {
	return fiber.NewError(fiber.StatusTooManyRequests, MsgTooManyRequests)
}

func hstsMaxAge(secure bool) int {
	if secure {
		return 31536000
	}
	return 0
}

// inlineStylesheet returns the stylesheet's text, to be put in every page.
func inlineStylesheet(assets static.Source) (string, error) {
	set, err := assets.Current()
	if err != nil {
		return "", err
	}
	asset, ok := set.Lookup(set.URL("css/app.css"))
	if !ok {
		return "", errors.New("no css/app.css among the assets")
	}
	if bytes.Contains(bytes.ToLower(asset.Body), []byte("</style")) {
		return "", errors.New("css/app.css contains </style")
	}
	return string(asset.Body), nil
}
