// Package config reads Nocturne's settings from the environment, applies the
// documented defaults and rejects bad values before anything starts.
package config

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/language"

	"github.com/nocturne/storefront/internal/shop"
)

// Config is everything the server needs to start.
type Config struct {
	Port        int
	DatabaseURL string
	// DatabaseMaxConns caps the PostgreSQL connection pool of this
	// instance (0: pgx's default, or pool_max_conns in the URL).
	DatabaseMaxConns int
	BaseURL          *url.URL
	// BaseURLSet says BASE_URL was given rather than defaulted: only then
	// is it the one origin state-changing requests may come from.
	BaseURLSet bool
	ShopName   string
	// Currency is the shop's currency and the locale its amounts are
	// written for (SHOP_CURRENCY, SHOP_LOCALE); main makes it the
	// process's with shop.SetCurrency before anything else.
	Currency shop.Currency
	// Location is the shop's time zone (SHOP_TIMEZONE): shipping cut-offs
	// and delivery dates are counted in it.
	Location      *time.Location
	CareersURL    string
	SessionSecret []byte
	LogLevel      slog.Level
	// Dev serves templates' assets from disk and turns off compression, so the
	// templ live-reload proxy can rewrite pages.
	Dev bool
	// DataDir holds the default SQLite database and the generated secret.
	DataDir string
	// Google sign-in is enabled when both the client id and secret are set.
	GoogleClientID     string
	GoogleClientSecret string
	GoogleDiscoveryURL string
	// SMTPURL sends e-mail over SMTP; empty keeps e-mails in the outbox table.
	SMTPURL string
	// StaffNotifyEmail is mailed a new order, a return request and a
	// contact message (STAFF_NOTIFY_EMAIL); empty: staff are not mailed.
	StaffNotifyEmail string
	// CatalogURL is a FakeStore-shaped catalogue service to import from
	// every CatalogSyncInterval; empty serves the built-in catalogue.
	CatalogURL          string
	CatalogSyncInterval time.Duration
	// ImageFetchAllowPrivate lets product photos be fetched from loopback,
	// private and link-local addresses (tests, an intranet catalogue);
	// off, only public internet addresses are fetched.
	ImageFetchAllowPrivate bool
	// ImageMaxPixels refuses a product photo with more pixels, from its
	// header, before it is decoded (IMAGE_MAX_PIXELS).
	ImageMaxPixels int
	// ImageWorkers is how many photos one process decodes, scales and
	// encodes at once (IMAGE_WORKERS); with ImageMaxPixels it bounds the
	// memory photos take.
	ImageWorkers int
	// ImportDefaultStock is the stock an imported product starts with when
	// its source says none (IMPORT_DEFAULT_STOCK, default 25).
	ImportDefaultStock int
	// ReturnWindowDays is how many days after its delivery an order's
	// items may be returned (RETURN_WINDOW_DAYS, default 30).
	ReturnWindowDays int
	// PaymentDelay is how long the simulated payment takes (spec: 2 s).
	PaymentDelay time.Duration
	// PaymentTimeout bounds one charge; a pending order is left to the
	// recovery sweep once this plus a margin has passed.
	PaymentTimeout time.Duration
	// ShutdownGrace is how long a shutdown waits for requests and payments
	// under way before it exits.
	ShutdownGrace time.Duration
	// MaxConns caps concurrent connections (0: the default).
	MaxConns int
	// TrustedProxies are the addresses (IPs or CIDR ranges) of reverse
	// proxies whose X-Forwarded-For names the client; empty trusts none, and
	// the client is the connection's peer.
	TrustedProxies []string
	// Demo creates the demo account and its orders at start.
	Demo bool
	// Payments are the payment methods and their settings.
	Payments Payments
	// Backups are the scheduled backups (SQLite only).
	Backups Backups
}

// GoogleEnabled reports whether the Google button shows.
func (c *Config) GoogleEnabled() bool { return c.GoogleClientID != "" && c.GoogleClientSecret != "" }

// Defaults that the README documents.
const (
	DefaultPort       = 3000
	DefaultShopName   = "Nocturne"
	DefaultCareersURL = "https://careers.nocturne.example"
	DefaultDataDir    = "data"
	DefaultMaxConns   = 10000
	DefaultCurrency   = "USD"
	DefaultLocale     = "en-US"
	// DefaultTimezone is the spec's: its Next Day cut-off is 2 PM Eastern.
	DefaultTimezone = "America/New_York"
	secretFile      = "session_secret"
	minSecretLength = 32
)

// Photo limits: a decoded photo takes up to 4 bytes a pixel, so the
// defaults hold at most two of 160 MB at once.
const (
	DefaultImageMaxPixels = 40_000_000
	DefaultImageWorkers   = 2
)

// Load builds a Config from getenv (os.Getenv in production, a map in tests).
// When SESSION_SECRET is unset it reads, or creates once, a random secret in
// the data directory so sessions survive restarts.
func Load(getenv func(string) string) (*Config, error) {
	e := &env{get: getenv}
	cfg := &Config{ShopName: DefaultShopName, CareersURL: DefaultCareersURL, LogLevel: slog.LevelInfo}
	cfg.Port = e.number("PORT", DefaultPort, 1, 65535, "PORT must be a number from 1 to 65535")
	cfg.DataDir = e.text("DATA_DIR", DefaultDataDir)
	cfg.DatabaseURL = e.text("DATABASE_URL", "sqlite://"+filepath.Join(cfg.DataDir, "nocturne.db"))
	if !cfg.Postgres() && !strings.HasPrefix(cfg.DatabaseURL, "sqlite://") && !strings.HasPrefix(cfg.DatabaseURL, "sqlite::memory:") {
		e.fail("DATABASE_URL must start with sqlite://, postgres:// or postgresql:// (got %q)", redact(cfg.DatabaseURL))
	}
	cfg.DatabaseMaxConns = e.number("DATABASE_MAX_CONNS", 0, 1, 1000, "DATABASE_MAX_CONNS must be a number from 1 to 1000")
	base := e.httpURL("BASE_URL", fmt.Sprintf("http://localhost:%d", cfg.Port), "BASE_URL must be an absolute http(s) URL such as https://shop.example")
	if u, err := url.Parse(base); err == nil {
		u.Path = strings.TrimRight(u.Path, "/")
		cfg.BaseURL = u
	}
	cfg.BaseURLSet = strings.TrimSpace(getenv("BASE_URL")) != ""
	if v := strings.TrimSpace(getenv("SHOP_NAME")); v != "" {
		cfg.ShopName = v
	}
	loadCurrency(e, cfg)
	tz := strings.TrimSpace(e.text("SHOP_TIMEZONE", DefaultTimezone))
	if loc, err := time.LoadLocation(tz); err != nil || tz == "" || strings.EqualFold(tz, "local") {
		e.fail("SHOP_TIMEZONE must be an IANA time zone such as America/New_York or Europe/London, got %q", tz)
	} else {
		cfg.Location = loc
	}
	cfg.CareersURL = e.httpURL("CAREERS_URL", DefaultCareersURL, "CAREERS_URL must be an absolute http(s) URL")
	if v := getenv("LOG_LEVEL"); v != "" && cfg.LogLevel.UnmarshalText([]byte(v)) != nil {
		e.fail("LOG_LEVEL must be debug, info, warn or error, got %q", v)
	}
	cfg.Dev = e.boolean("DEV", "DEV must be true or false")
	loadGoogle(e, cfg)
	cfg.SMTPURL = getenv("SMTP_URL")
	cfg.StaffNotifyEmail = strings.TrimSpace(getenv("STAFF_NOTIFY_EMAIL"))
	cfg.CatalogURL = strings.TrimRight(e.httpURL("CATALOG_URL", "", "CATALOG_URL must be an absolute http(s) URL such as https://fakestoreapi.com"), "/")
	cfg.CatalogSyncInterval = e.duration("CATALOG_SYNC_INTERVAL", time.Hour, 10*time.Second, math.MaxInt64,
		"CATALOG_SYNC_INTERVAL must be a duration of at least 10s such as 30m or 1h")
	cfg.ImageFetchAllowPrivate = e.boolean("IMAGE_FETCH_ALLOW_PRIVATE", "IMAGE_FETCH_ALLOW_PRIVATE must be true or false")
	cfg.ImageMaxPixels = e.number("IMAGE_MAX_PIXELS", DefaultImageMaxPixels, 1_000_000, 400_000_000,
		"IMAGE_MAX_PIXELS must be a whole number of pixels from 1000000 to 400000000 (a photo's width × height)")
	cfg.ImageWorkers = e.number("IMAGE_WORKERS", DefaultImageWorkers, 1, 64, "IMAGE_WORKERS must be a whole number from 1 to 64")
	cfg.ImportDefaultStock = e.number("IMPORT_DEFAULT_STOCK", 25, 0, 1_000_000, "IMPORT_DEFAULT_STOCK must be a whole number from 0 to 1000000")
	cfg.ReturnWindowDays = e.number("RETURN_WINDOW_DAYS", shop.ReturnWindowDays, 1, 365, "RETURN_WINDOW_DAYS must be a whole number of days from 1 to 365")
	loadPayment(e, cfg)
	loadPayments(e, cfg)
	cfg.MaxConns = e.number("MAX_CONNS", DefaultMaxConns, 16, 1_000_000, "MAX_CONNS must be a number from 16 to 1000000")
	cfg.TrustedProxies = e.proxies("TRUSTED_PROXIES")
	cfg.Demo = e.boolean("DEMO", "DEMO must be true or false (or 1 or 0)")
	loadBackups(e, cfg)
	if e.err != nil {
		return nil, e.err
	}
	secret, err := sessionSecret(getenv("SESSION_SECRET"), cfg.DataDir)
	if err != nil {
		return nil, err
	}
	cfg.SessionSecret = secret
	return cfg, nil
}

// loadCurrency reads the shop's currency and the locale its amounts are
// written for. The locale must name a language that exists, not only be
// well-formed ("english" and "xx" are refused; "en_gb" is read as en-GB),
// since the formatter would quietly write an unknown one as English.
func loadCurrency(e *env, cfg *Config) {
	code := strings.TrimSpace(e.text("SHOP_CURRENCY", DefaultCurrency))
	raw := e.text("SHOP_LOCALE", DefaultLocale)
	locale, ok := localeTag(raw)
	if !ok {
		e.fail("SHOP_LOCALE must be a language tag such as en-US, de-DE or ja-JP, got %q", raw)
		return
	}
	cur, err := shop.NewCurrency(code, locale)
	if err != nil {
		e.fail("SHOP_CURRENCY must be an ISO 4217 currency code such as USD, EUR or JPY, got %q", code)
		return
	}
	cfg.Currency = cur
}

// localeTag returns s as a language tag's language, script and region
// ("sr-Latn-RS"), or false when s is not a tag of a known language.
func localeTag(s string) (string, bool) {
	tag, err := language.Parse(strings.TrimSpace(s))
	if err != nil {
		return "", false
	}
	base, script, region := tag.Raw()
	if base.String() == "und" {
		return "", false
	}
	out := base.String()
	if script.String() != "Zzzz" {
		out += "-" + script.String()
	}
	if region.String() != "ZZ" {
		out += "-" + region.String()
	}
	return out, true
}

// loadGoogle reads Google sign-in's settings: both credentials or neither.
func loadGoogle(e *env, cfg *Config) {
	cfg.GoogleClientID = e.get("GOOGLE_CLIENT_ID")
	cfg.GoogleClientSecret = e.get("GOOGLE_CLIENT_SECRET")
	if (cfg.GoogleClientID == "") != (cfg.GoogleClientSecret == "") {
		e.fail("GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together")
	}
	cfg.GoogleDiscoveryURL = e.httpURL("GOOGLE_DISCOVERY_URL", "https://accounts.google.com/.well-known/openid-configuration",
		"GOOGLE_DISCOVERY_URL must be an absolute http(s) URL")
}

// loadPayment reads the simulated payment's timings; the timeout must
// outlast the delay, and the shutdown grace defaults to outlast both.
func loadPayment(e *env, cfg *Config) {
	cfg.PaymentDelay = e.duration("PAYMENT_DELAY", 2*time.Second, 0, time.Minute, "PAYMENT_DELAY must be a duration from 0s to 1m such as 2s")
	cfg.PaymentTimeout = e.duration("PAYMENT_TIMEOUT", 30*time.Second, time.Second, 5*time.Minute,
		"PAYMENT_TIMEOUT must be a duration from 1s to 5m such as 30s")
	if e.err == nil && cfg.PaymentTimeout <= cfg.PaymentDelay {
		e.fail("PAYMENT_TIMEOUT (%s) must be longer than PAYMENT_DELAY (%s)", cfg.PaymentTimeout, cfg.PaymentDelay)
	}
	cfg.ShutdownGrace = e.duration("SHUTDOWN_GRACE", cfg.PaymentTimeout+5*time.Second, 0, 10*time.Minute,
		"SHUTDOWN_GRACE must be a duration from 0s to 10m such as 35s")
}

// sessionSecret is SESSION_SECRET when set (long enough), else the secret
// kept in the data directory, created on first start.
func sessionSecret(v, dataDir string) ([]byte, error) {
	if v == "" {
		return loadOrCreateSecret(filepath.Join(dataDir, secretFile))
	}
	if len(v) < minSecretLength {
		return nil, fmt.Errorf("SESSION_SECRET must be at least %d characters", minSecretLength)
	}
	return []byte(v), nil
}

// env reads environment variables and keeps the first error, so Load reads
// as a list of settings. Each reader returns its default when the
// variable is unset, and when it is invalid (the error then says why, with
// the value: "<what>, got %q").
type env struct {
	get func(string) string
	err error
}

func (e *env) fail(format string, args ...any) {
	if e.err == nil {
		e.err = fmt.Errorf(format, args...)
	}
}

func (e *env) text(key, def string) string {
	if v := e.get(key); v != "" {
		return v
	}
	return def
}

func (e *env) number(key string, def, lo, hi int, what string) int {
	v := e.get(key)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		e.fail("%s, got %q", what, v)
		return def
	}
	return n
}

func (e *env) boolean(key, what string) bool {
	v := e.get(key)
	if v == "" {
		return false
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		e.fail("%s, got %q", what, v)
	}
	return b
}

func (e *env) duration(key string, def, lo, hi time.Duration, what string) time.Duration {
	v := e.get(key)
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < lo || d > hi {
		e.fail("%s, got %q", what, v)
		return def
	}
	return d
}

// httpURL reads an absolute http(s) URL; the default is trusted.
func (e *env) httpURL(key, def, what string) string {
	v := e.get(key)
	if v == "" {
		return def
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		e.fail("%s, got %q", what, v)
		return def
	}
	return v
}

// proxies reads a comma-separated list of IP addresses or CIDR ranges.
func (e *env) proxies(key string) []string {
	v := strings.TrimSpace(e.get(key))
	if v == "" {
		return nil
	}
	var out []string
	for _, p := range strings.Split(v, ",") {
		p = strings.TrimSpace(p)
		if _, _, err := net.ParseCIDR(p); err != nil && net.ParseIP(p) == nil {
			e.fail("%s must be a comma-separated list of IP addresses or CIDR ranges, got %q", key, p)
			return nil
		}
		out = append(out, p)
	}
	return out
}

// Secure reports whether cookies must carry the Secure flag.
func (c *Config) Secure() bool { return c.BaseURL.Scheme == "https" }

// Postgres reports whether DATABASE_URL names a PostgreSQL database.
func (c *Config) Postgres() bool {
	return strings.HasPrefix(c.DatabaseURL, "postgres://") || strings.HasPrefix(c.DatabaseURL, "postgresql://")
}

// SQLitePath returns the file (or ":memory:") named by DatabaseURL.
func (c *Config) SQLitePath() string {
	if strings.HasPrefix(c.DatabaseURL, "sqlite::memory:") {
		return ":memory:"
	}
	return strings.TrimPrefix(c.DatabaseURL, "sqlite://")
}

func loadOrCreateSecret(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err == nil {
		s := strings.TrimSpace(string(b))
		if len(s) < minSecretLength {
			return nil, fmt.Errorf("the secret in %s is too short: delete it to generate a new one", path)
		}
		return []byte(s), nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("read session secret: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create data directory: %w", err)
	}
	s := shop.RandomHex(32)
	if err := os.WriteFile(path, []byte(s+"\n"), 0o600); err != nil {
		return nil, fmt.Errorf("save session secret: %w", err)
	}
	return []byte(s), nil
}

// redact hides a password in a database URL so the start-up error can be
// printed safely.
func redact(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return s
	}
	return u.Redacted()
}
