// Package config reads Nocturne's settings from the environment, applies the
// documented defaults and rejects bad values before anything starts.
package config

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Config is everything the server needs to start.
type Config struct {
	Port          int
	DatabaseURL   string
	BaseURL       *url.URL
	ShopName      string
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
	// CatalogURL is a FakeStore-shaped catalogue service to import from
	// every CatalogSyncInterval; empty serves the built-in catalogue.
	CatalogURL          string
	CatalogSyncInterval time.Duration
	// ImageFetchAllowPrivate lets product photos be fetched from loopback,
	// private and link-local addresses (tests, an intranet catalogue);
	// off, only public internet addresses are fetched.
	ImageFetchAllowPrivate bool
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
	secretFile        = "session_secret"
	minSecretLength   = 32
)

// Load builds a Config from getenv (os.Getenv in production, a map in tests).
// When SESSION_SECRET is unset it reads, or creates once, a random secret in
// the data directory so sessions survive restarts.
func Load(getenv func(string) string) (*Config, error) {
	cfg := &Config{
		Port:       DefaultPort,
		ShopName:   DefaultShopName,
		CareersURL: DefaultCareersURL,
		DataDir:    DefaultDataDir,
		LogLevel:   slog.LevelInfo,
	}
	if v := getenv("PORT"); v != "" {
		p, err := strconv.Atoi(v)
		if err != nil || p < 1 || p > 65535 {
			return nil, fmt.Errorf("PORT must be a number from 1 to 65535, got %q", v)
		}
		cfg.Port = p
	}
	if v := getenv("DATA_DIR"); v != "" {
		cfg.DataDir = v
	}
	cfg.DatabaseURL = getenv("DATABASE_URL")
	if cfg.DatabaseURL == "" {
		cfg.DatabaseURL = "sqlite://" + filepath.Join(cfg.DataDir, "nocturne.db")
	}
	if !strings.HasPrefix(cfg.DatabaseURL, "sqlite://") && !strings.HasPrefix(cfg.DatabaseURL, "sqlite::memory:") {
		return nil, fmt.Errorf("DATABASE_URL must start with sqlite:// (got %q)", redact(cfg.DatabaseURL))
	}

	base := getenv("BASE_URL")
	if base == "" {
		base = fmt.Sprintf("http://localhost:%d", cfg.Port)
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("BASE_URL must be an absolute http(s) URL such as https://shop.example, got %q", base)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	cfg.BaseURL = u

	if v := strings.TrimSpace(getenv("SHOP_NAME")); v != "" {
		cfg.ShopName = v
	}
	if v := getenv("CAREERS_URL"); v != "" {
		cu, err := url.Parse(v)
		if err != nil || (cu.Scheme != "http" && cu.Scheme != "https") || cu.Host == "" {
			return nil, fmt.Errorf("CAREERS_URL must be an absolute http(s) URL, got %q", v)
		}
		cfg.CareersURL = v
	}
	if v := getenv("LOG_LEVEL"); v != "" {
		if err := cfg.LogLevel.UnmarshalText([]byte(v)); err != nil {
			return nil, fmt.Errorf("LOG_LEVEL must be debug, info, warn or error, got %q", v)
		}
	}
	if v := getenv("DEV"); v != "" {
		dev, err := strconv.ParseBool(v)
		if err != nil {
			return nil, fmt.Errorf("DEV must be true or false, got %q", v)
		}
		cfg.Dev = dev
	}

	cfg.GoogleClientID = getenv("GOOGLE_CLIENT_ID")
	cfg.GoogleClientSecret = getenv("GOOGLE_CLIENT_SECRET")
	if (cfg.GoogleClientID == "") != (cfg.GoogleClientSecret == "") {
		return nil, fmt.Errorf("GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together")
	}
	cfg.GoogleDiscoveryURL = getenv("GOOGLE_DISCOVERY_URL")
	if cfg.GoogleDiscoveryURL == "" {
		cfg.GoogleDiscoveryURL = "https://accounts.google.com/.well-known/openid-configuration"
	} else if du, err := url.Parse(cfg.GoogleDiscoveryURL); err != nil || (du.Scheme != "http" && du.Scheme != "https") || du.Host == "" {
		return nil, fmt.Errorf("GOOGLE_DISCOVERY_URL must be an absolute http(s) URL, got %q", cfg.GoogleDiscoveryURL)
	}
	cfg.SMTPURL = getenv("SMTP_URL")
	if v := getenv("CATALOG_URL"); v != "" {
		cu, err := url.Parse(v)
		if err != nil || (cu.Scheme != "http" && cu.Scheme != "https") || cu.Host == "" {
			return nil, fmt.Errorf("CATALOG_URL must be an absolute http(s) URL such as https://fakestoreapi.com, got %q", v)
		}
		cfg.CatalogURL = strings.TrimRight(v, "/")
	}
	cfg.CatalogSyncInterval = time.Hour
	if v := getenv("CATALOG_SYNC_INTERVAL"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 10*time.Second {
			return nil, fmt.Errorf("CATALOG_SYNC_INTERVAL must be a duration of at least 10s such as 30m or 1h, got %q", v)
		}
		cfg.CatalogSyncInterval = d
	}

	if v := getenv("IMAGE_FETCH_ALLOW_PRIVATE"); v != "" {
		allow, err := strconv.ParseBool(v)
		if err != nil {
			return nil, fmt.Errorf("IMAGE_FETCH_ALLOW_PRIVATE must be true or false, got %q", v)
		}
		cfg.ImageFetchAllowPrivate = allow
	}

	cfg.PaymentDelay = 2 * time.Second
	if v := getenv("PAYMENT_DELAY"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 || d > time.Minute {
			return nil, fmt.Errorf("PAYMENT_DELAY must be a duration from 0s to 1m such as 2s, got %q", v)
		}
		cfg.PaymentDelay = d
	}
	cfg.PaymentTimeout = 30 * time.Second
	if v := getenv("PAYMENT_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Second || d > 5*time.Minute {
			return nil, fmt.Errorf("PAYMENT_TIMEOUT must be a duration from 1s to 5m such as 30s, got %q", v)
		}
		cfg.PaymentTimeout = d
	}
	if cfg.PaymentTimeout <= cfg.PaymentDelay {
		return nil, fmt.Errorf("PAYMENT_TIMEOUT (%s) must be longer than PAYMENT_DELAY (%s)", cfg.PaymentTimeout, cfg.PaymentDelay)
	}
	cfg.ShutdownGrace = cfg.PaymentTimeout + 5*time.Second
	if v := getenv("SHUTDOWN_GRACE"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 || d > 10*time.Minute {
			return nil, fmt.Errorf("SHUTDOWN_GRACE must be a duration from 0s to 10m such as 35s, got %q", v)
		}
		cfg.ShutdownGrace = d
	}
	cfg.MaxConns = DefaultMaxConns
	if v := getenv("MAX_CONNS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 16 || n > 1_000_000 {
			return nil, fmt.Errorf("MAX_CONNS must be a number from 16 to 1000000, got %q", v)
		}
		cfg.MaxConns = n
	}
	if v := strings.TrimSpace(getenv("TRUSTED_PROXIES")); v != "" {
		for _, p := range strings.Split(v, ",") {
			p = strings.TrimSpace(p)
			if _, _, err := net.ParseCIDR(p); err != nil && net.ParseIP(p) == nil {
				return nil, fmt.Errorf("TRUSTED_PROXIES must be a comma-separated list of IP addresses or CIDR ranges, got %q", p)
			}
			cfg.TrustedProxies = append(cfg.TrustedProxies, p)
		}
	}
	if v := getenv("DEMO"); v != "" {
		demo, err := strconv.ParseBool(v)
		if err != nil {
			return nil, fmt.Errorf("DEMO must be true or false (or 1 or 0), got %q", v)
		}
		cfg.Demo = demo
	}

	if v := getenv("SESSION_SECRET"); v != "" {
		if len(v) < minSecretLength {
			return nil, fmt.Errorf("SESSION_SECRET must be at least %d characters", minSecretLength)
		}
		cfg.SessionSecret = []byte(v)
	} else {
		s, err := loadOrCreateSecret(filepath.Join(cfg.DataDir, secretFile))
		if err != nil {
			return nil, err
		}
		cfg.SessionSecret = s
	}
	return cfg, nil
}

// Secure reports whether cookies must carry the Secure flag.
func (c *Config) Secure() bool { return c.BaseURL.Scheme == "https" }

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
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, fmt.Errorf("generate session secret: %w", err)
	}
	s := hex.EncodeToString(raw)
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
