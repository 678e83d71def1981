package handlers_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/gofiber/fiber/v2"

	"golang.org/x/crypto/bcrypt"

	"github.com/nocturne/storefront/handlers"
	"github.com/nocturne/storefront/handlers/admin"
	"github.com/nocturne/storefront/handlers/session"
	"github.com/nocturne/storefront/internal/auth"
	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/cart"
	"github.com/nocturne/storefront/internal/catalog"
	"github.com/nocturne/storefront/internal/checkout"
	"github.com/nocturne/storefront/internal/config"
	"github.com/nocturne/storefront/internal/democard"
	"github.com/nocturne/storefront/internal/health"
	"github.com/nocturne/storefront/internal/mail"
	"github.com/nocturne/storefront/internal/paymethods"
	"github.com/nocturne/storefront/internal/returns"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/store/sqlite"
	"github.com/nocturne/storefront/internal/store/sqlite/sqlitetest"
	"github.com/nocturne/storefront/internal/stripepay"
	"github.com/nocturne/storefront/internal/stripepay/stripestub"
	"github.com/nocturne/storefront/static"
)

// TestMain gives every test's in-memory database a migrated start, so
// each app boots without running the migrations again.
func TestMain(m *testing.M) {
	sqlitetest.MigratedMemory()
	os.Exit(m.Run())
}

// testAssets stands in for the built assets, so handler tests do not depend
// on whether esbuild has run.
var testAssets = fstest.MapFS{
	"css/app.css":                  {Data: []byte("body{background:#000}" + strings.Repeat(".x{color:red}", 200))}, // as minified
	"img/favicon.svg":              {Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`)},
	"img/products/placeholder.svg": {Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`)},
	"img/categories/home.svg":      {Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg"><title>home</title></svg>`)},
	"img/categories/fashion.svg":   {Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg"><title>fashion</title></svg>`)},
	"img/categories/other.svg":     {Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg"><title>other</title></svg>`)},
	"dist/manifest.json":           {Data: []byte(`{"entry":"entry-TEST.js"}`)},
	"dist/entry-TEST.js":           {Data: []byte(`console.log("islands")`)},
	"dist/chunks/a-TEST.js":        {Data: []byte(`export const a = 1`)},
}

type testApp struct {
	app      *fiber.App
	db       *sqlite.DB
	catalog  *catalog.Service
	cfg      *config.Config
	clock    *testClock
	checkout *checkout.Service
	card     *democard.Method // the demo card, whose gateway tests may hold
	monitor  *health.Monitor
	office   *backoffice.Service
	stripe   *stripestub.Server // nil unless Stripe is offered
}

// testClock is a settable clock shared by the app and its store.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// testOption adjusts the environment or the dependencies of a test app.
type testOption func(env map[string]string, d *handlers.Deps)

// withDBFile keeps the database in a file (so a test can read its bytes).
func withDBFile(path string) testOption {
	return func(env map[string]string, _ *handlers.Deps) { env["DATABASE_URL"] = "sqlite://" + path }
}

// withEnv sets one setting of the test app's environment.
func withEnv(key, value string) testOption {
	return func(env map[string]string, _ *handlers.Deps) { env[key] = value }
}

// newTestApp boots the real app on an in-memory database.
func newTestApp(tb testing.TB, opts ...testOption) *testApp {
	tb.Helper()
	env := map[string]string{
		"CAREERS_URL":    "https://careers.example.test",
		"SESSION_SECRET": strings.Repeat("s", 40),
		"DATA_DIR":       tb.TempDir(),
		"DATABASE_URL":   "sqlite::memory:",
		// Tests say which client address a request comes from.
		"TRUSTED_PROXIES": "0.0.0.0/0,::/0",
	}
	var deps handlers.Deps
	for _, o := range opts {
		o(env, &deps)
	}
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		tb.Fatalf("config: %v", err)
	}
	db, err := sqlite.Open(context.Background(), cfg.SQLitePath())
	if err != nil {
		tb.Fatalf("open db: %v", err)
	}
	tb.Cleanup(func() { db.Close() })
	set, err := static.Load(testAssets)
	if err != nil {
		tb.Fatalf("assets: %v", err)
	}
	clock := &testClock{now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	db.SetClock(clock.Now)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	deps.Config = cfg
	deps.Log = log
	deps.Assets = static.Fixed{Set: set}
	monitor := health.NewMonitor(context.Background(), db, clock.Now, log)
	deps.Health = monitor
	deps.Unavailable = sqlite.Unavailable
	deps.Contact, deps.Users = db, db
	deps.Storage = db.KV()
	deps.Now = clock.Now
	deps.Throttle = &shop.Throttle{Store: db, Now: clock.Now}
	deps.Auth = &auth.Service{Users: db, Carts: db, Resets: db, Links: db, Confirmations: db, Throttle: deps.Throttle, Mailer: &mail.Outbox{Store: db, Log: log},
		BaseURL: cfg.BaseURL.String(), HashCost: bcrypt.MinCost, Now: clock.Now, Log: log}
	deps.Sessions = session.New(db.KV(), cfg.Secure(), db, clock.Now, log)
	cat := catalog.NewService(db, log)
	if deps.Catalog == nil { // an option may have set a fake
		deps.Catalog = cat
	}
	deps.Carts, deps.Wishlists, deps.Orders, deps.Images = db, db, db, db
	deps.Location, _ = time.LoadLocation("America/New_York")
	prices := &checkout.Prices{Settings: db, Promos: db, Now: clock.Now, Location: deps.Location, Version: cat.Version}
	deps.Prices = prices
	var stub *stripestub.Server
	var sc stripepay.Pages
	if cfg.Payments.Offers(stripepay.Name) {
		// Stripe is the stand-in on loopback; its webhooks are posted by
		// the tests themselves (EventFor), so no delivery is set up.
		stub = stripestub.New(stripestub.Options{WebhookSecret: cfg.Payments.StripeWebhookSecret, Now: clock.Now})
		srv := httptest.NewServer(stub)
		tb.Cleanup(srv.Close)
		client, err := stripepay.New(stripepay.Config{SecretKey: cfg.Payments.StripeSecretKey, WebhookSecret: cfg.Payments.StripeWebhookSecret, APIURL: srv.URL})
		if err != nil {
			tb.Fatal(err)
		}
		sc = client
	}
	methods, err := paymethods.New(cfg, db, sc)
	if err != nil {
		tb.Fatalf("payment methods: %v", err)
	}
	// The demo card answers at once: tests that act during a charge hold
	// it themselves (gate).
	card := methods.For(democard.Name).(*democard.Method)
	card.Gateway = &democard.SimulatedGateway{Charges: db}
	co := &checkout.Service{Orders: db, Carts: db, Payments: db, Methods: methods, Prices: prices,
		Mailer: &mail.Outbox{Store: db, Log: log}, BaseURL: cfg.BaseURL.String(), Now: clock.Now, Log: log, StaffEmail: cfg.StaffNotifyEmail}
	deps.Checkout = co
	deps.StaffMail, deps.StaffEmail = &mail.Outbox{Store: db, Log: log}, cfg.StaffNotifyEmail
	deps.Payments = co
	deps.Methods = methods
	deps.Stock = db
	deps.Variants = cat
	deps.Cart = &cart.Service{Carts: db, Catalog: deps.Catalog, Variants: db, Stock: db}
	cat.Stock = db
	outbox := &mail.Outbox{Store: db, Log: log}
	office := &backoffice.Service{Orders: db, Audit: db, Mailer: outbox, Refunder: co, Orphans: db,
		BaseURL: cfg.BaseURL.String(), Now: clock.Now, Log: log}
	office.Carriers = db
	deps.Admin = admin.Deps{Staff: db, Orders: db, Audit: db, Fulfilment: db, Products: db, Variants: db, Gallery: db, Inbox: db, Dashboard: db, Mailer: outbox,
		Catalog: cat, Service: office, Pricing: db, Promos: db}
	deps.Admin.Carriers = db
	deps.Admin.Customers, deps.Admin.Exports = db, db
	deps.PersonalData, deps.Admin.PersonalData = db, db
	deps.Admin.Orphans, deps.Admin.OrphanRefundAfter = db, cfg.Payments.OrphanRefundAfter
	deps.Admin.Returns, deps.Admin.Mail = db, db
	deps.Admin.ReturnService = &returns.Service{Orders: db, Products: db, Returns: db, Audit: office, Refunds: office, Mailer: outbox, WindowDays: cfg.ReturnWindowDays,
		BaseURL: cfg.BaseURL.String(), Now: clock.Now, Log: log, StaffEmail: cfg.StaffNotifyEmail}
	if err := cat.LoadBuiltin(context.Background()); err != nil {
		tb.Fatalf("built-in catalogue: %v", err)
	}
	app := handlers.New(deps)
	return &testApp{app: app, db: db, catalog: cat, cfg: cfg, clock: clock, checkout: co, card: card, monitor: monitor, office: office, stripe: stub}
}

// client is a browser stand-in: it keeps cookies between requests and does
// not follow redirects, so tests can assert on them.
type client struct {
	tb      testing.TB
	app     *fiber.App
	cookies map[string]string
	// settle waits for the payments under way (the demo card is charged
	// after Place Order has answered).
	settle func()
}

func (a *testApp) client(tb testing.TB) *client {
	return &client{tb: tb, app: a.app, cookies: map[string]string{},
		settle: func() { a.checkout.Wait(context.Background()) }}
}

func (c *client) do(req *http.Request) *http.Response {
	c.tb.Helper()
	for k, v := range c.cookies {
		req.AddCookie(&http.Cookie{Name: k, Value: v})
	}
	res, err := c.app.Test(req, -1)
	if err != nil {
		c.tb.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	for _, ck := range res.Cookies() {
		if ck.MaxAge < 0 || (!ck.Expires.IsZero() && ck.Expires.Before(time.Now())) {
			delete(c.cookies, ck.Name)
		} else {
			c.cookies[ck.Name] = ck.Value
		}
	}
	return res
}

// get fetches path and parses the HTML answer.
func (c *client) get(path string, headers ...string) (*http.Response, *goquery.Document) {
	c.tb.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res := c.do(req)
	return res, c.parse(res)
}

// post sends a form as a browser would from one of the shop's own pages:
// with Sec-Fetch-Site and Origin, which the cross-site guard reads.
func (c *client) post(path string, form url.Values, headers ...string) (*http.Response, *goquery.Document) {
	c.tb.Helper()
	req := formRequest(path, form)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res := c.do(req)
	return res, c.parse(res)
}

// formRequest is a same-origin form POST, as a current browser sends it.
func formRequest(path string, form url.Values) *http.Request {
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.Header.Set("Origin", "http://"+req.Host)
	return req
}

// postFrom GETs page first, as a shopper would, then posts form from it.
func (c *client) postFrom(page, path string, form url.Values) (*http.Response, *goquery.Document) {
	c.tb.Helper()
	c.get(page)
	return c.post(path, form)
}

func (c *client) parse(res *http.Response) *goquery.Document {
	c.tb.Helper()
	defer res.Body.Close()
	doc, err := goquery.NewDocumentFromReader(res.Body)
	if err != nil {
		c.tb.Fatalf("parse HTML: %v", err)
	}
	return doc
}

func text(doc *goquery.Document, sel string) string {
	return strings.Join(strings.Fields(doc.Find(sel).First().Text()), " ")
}

// cookie returns the raw Set-Cookie header for name, or "".
func setCookie(res *http.Response, name string) string {
	for _, h := range res.Header.Values("Set-Cookie") {
		if strings.HasPrefix(h, name+"=") {
			return h
		}
	}
	return ""
}

// stripePages is the Stripe method's client (Stripe offered).
func (a *testApp) stripePages() stripepay.Pages {
	return a.checkout.Methods.For(stripepay.Name).(*stripepay.Method).Pages
}
