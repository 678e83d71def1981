package config_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/config"
	"github.com/nocturne/storefront/internal/shop"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestLoad_Defaults(t *testing.T) {
	dir := t.TempDir()
	cfg, err := config.Load(env(map[string]string{"DATA_DIR": dir}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Port != 3000 {
		t.Errorf("port: got %d, want 3000", cfg.Port)
	}
	if got, want := cfg.BaseURL.String(), "http://localhost:3000"; got != want {
		t.Errorf("base URL: got %q, want %q", got, want)
	}
	if cfg.ShopName != "Nocturne" {
		t.Errorf("shop name: got %q", cfg.ShopName)
	}
	if got, want := cfg.SQLitePath(), filepath.Join(dir, "nocturne.db"); got != want {
		t.Errorf("database: got %q, want %q", got, want)
	}
	if cfg.Secure() {
		t.Error("http base URL marked secure")
	}
	if cfg.ImageFetchAllowPrivate {
		t.Error("photos may be fetched from private addresses by default")
	}
	if cfg.ImageMaxPixels != 40_000_000 || cfg.ImageWorkers != 2 {
		t.Errorf("image limits: got %d pixels and %d workers, want 40000000 and 2", cfg.ImageMaxPixels, cfg.ImageWorkers)
	}
	if cfg.ReturnWindowDays != 30 {
		t.Errorf("return window: got %d days, want 30", cfg.ReturnWindowDays)
	}
}

func TestLoad_SecretPersisted(t *testing.T) {
	dir := t.TempDir()
	a, err := config.Load(env(map[string]string{"DATA_DIR": dir}))
	if err != nil {
		t.Fatal(err)
	}
	b, err := config.Load(env(map[string]string{"DATA_DIR": dir}))
	if err != nil {
		t.Fatal(err)
	}
	if len(a.SessionSecret) < 32 || string(a.SessionSecret) != string(b.SessionSecret) {
		t.Fatalf("secret not generated once and reused: %q vs %q", a.SessionSecret, b.SessionSecret)
	}
	info, err := os.Stat(filepath.Join(dir, "session_secret"))
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o600 {
		t.Errorf("secret file mode: got %o, want 600", perm)
	}
}

func TestLoad_ImageLimits(t *testing.T) {
	cfg, err := config.Load(env(map[string]string{"DATA_DIR": t.TempDir(), "IMAGE_MAX_PIXELS": "12000000", "IMAGE_WORKERS": "1"}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.ImageMaxPixels != 12_000_000 || cfg.ImageWorkers != 1 {
		t.Errorf("got %d pixels and %d workers, want 12000000 and 1", cfg.ImageMaxPixels, cfg.ImageWorkers)
	}
}

func TestLoad_PortSetsBaseURL(t *testing.T) {
	cfg, err := config.Load(env(map[string]string{"DATA_DIR": t.TempDir(), "PORT": "8080", "SHOP_NAME": "Night Owl"}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.BaseURL.String() != "http://localhost:8080" || cfg.ShopName != "Night Owl" {
		t.Errorf("got %s %q", cfg.BaseURL, cfg.ShopName)
	}
}

func TestLoad_Errors(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"PortNotNumber", map[string]string{"PORT": "http"}, "PORT must be a number"},
		{"PortTooLarge", map[string]string{"PORT": "70000"}, "PORT must be a number"},
		{"BaseURLRelative", map[string]string{"BASE_URL": "shop.example"}, "BASE_URL must be an absolute"},
		{"BaseURLScheme", map[string]string{"BASE_URL": "ftp://shop.example"}, "BASE_URL must be an absolute"},
		{"CareersURL", map[string]string{"CAREERS_URL": "javascript:alert(1)"}, "CAREERS_URL must be"},
		{"LogLevel", map[string]string{"LOG_LEVEL": "loud"}, "LOG_LEVEL must be"},
		{"ShortSecret", map[string]string{"SESSION_SECRET": "short"}, "SESSION_SECRET must be at least 32"},
		{"DatabaseScheme", map[string]string{"DATABASE_URL": "mysql://root:hunter2@db/shop"}, "DATABASE_URL must start with sqlite://"},
		{"DatabaseMaxConns", map[string]string{"DATABASE_URL": "postgres://db/shop", "DATABASE_MAX_CONNS": "0"}, "DATABASE_MAX_CONNS must be a number from 1 to 1000"},
		{"Dev", map[string]string{"DEV": "maybe"}, "DEV must be true or false"},
		{"ImageFetchAllowPrivate", map[string]string{"IMAGE_FETCH_ALLOW_PRIVATE": "sometimes"}, "IMAGE_FETCH_ALLOW_PRIVATE must be true or false"},
		{"ImageMaxPixelsNotNumber", map[string]string{"IMAGE_MAX_PIXELS": "24MP"}, `IMAGE_MAX_PIXELS must be a whole number of pixels from 1000000 to 400000000 (a photo's width × height), got "24MP"`},
		{"ImageMaxPixelsTooSmall", map[string]string{"IMAGE_MAX_PIXELS": "999999"}, `IMAGE_MAX_PIXELS must be a whole number of pixels from 1000000 to 400000000 (a photo's width × height), got "999999"`},
		{"ImageMaxPixelsTooLarge", map[string]string{"IMAGE_MAX_PIXELS": "400000001"}, "IMAGE_MAX_PIXELS must be a whole number of pixels from 1000000"},
		{"ImageWorkersZero", map[string]string{"IMAGE_WORKERS": "0"}, `IMAGE_WORKERS must be a whole number from 1 to 64, got "0"`},
		{"ImageWorkersNotNumber", map[string]string{"IMAGE_WORKERS": "two"}, `IMAGE_WORKERS must be a whole number from 1 to 64, got "two"`},
		{"ImageWorkersTooMany", map[string]string{"IMAGE_WORKERS": "65"}, "IMAGE_WORKERS must be a whole number from 1 to 64"},
		{"PaymentMethodTwice", map[string]string{"PAYMENT_METHODS": "demo, demo"}, "PAYMENT_METHODS lists demo twice"},
		{"StripeSessionTTLTooShort", map[string]string{"STRIPE_SESSION_TTL": "10m"}, "STRIPE_SESSION_TTL must be a duration from 30m to 24h"},
		{"StripeAPIURL", map[string]string{"STRIPE_API_URL": "api.stripe.com"}, "STRIPE_API_URL must be an absolute"},
		{"BankTransferHold", map[string]string{"BANK_TRANSFER_HOLD": "a week"}, `BANK_TRANSFER_HOLD must be a duration from 1h to 90d such as 7d or 72h, got "a week"`},
		{"BankTransferHoldTooLong", map[string]string{"BANK_TRANSFER_HOLD": "91d"}, "BANK_TRANSFER_HOLD must be a duration from 1h to 90d"},
		{"OrphanRefundAfter", map[string]string{"ORPHAN_PAYMENT_REFUND_AFTER": "10m"}, `ORPHAN_PAYMENT_REFUND_AFTER must be a duration from 1h to 90d such as 24h or 3d, got "10m"`},
		{"BankTransferMaxOpenZero", map[string]string{"BANK_TRANSFER_MAX_OPEN": "0"}, `BANK_TRANSFER_MAX_OPEN must be a whole number from 1 to 100, got "0"`},
		{"BankTransferMaxOpenWord", map[string]string{"BANK_TRANSFER_MAX_OPEN": "one"}, `BANK_TRANSFER_MAX_OPEN must be a whole number from 1 to 100, got "one"`},
		{"CurrencyUnknown", map[string]string{"SHOP_CURRENCY": "XYZ"}, `SHOP_CURRENCY must be an ISO 4217 currency code such as USD, EUR or JPY, got "XYZ"`},
		{"CurrencyName", map[string]string{"SHOP_CURRENCY": "dollars"}, `SHOP_CURRENCY must be an ISO 4217 currency code such as USD, EUR or JPY, got "dollars"`},
		{"CurrencySymbol", map[string]string{"SHOP_CURRENCY": "$"}, `SHOP_CURRENCY must be an ISO 4217 currency code`},
		{"LocaleMalformed", map[string]string{"SHOP_LOCALE": "english"}, `SHOP_LOCALE must be a language tag such as en-US, de-DE or ja-JP, got "english"`},
		{"LocaleUnknownLanguage", map[string]string{"SHOP_LOCALE": "xx-YY"}, `SHOP_LOCALE must be a language tag such as en-US, de-DE or ja-JP, got "xx-YY"`},
		{"TimezoneUnknown", map[string]string{"SHOP_TIMEZONE": "Mars/Olympus"}, `SHOP_TIMEZONE must be an IANA time zone such as America/New_York or Europe/London, got "Mars/Olympus"`},
		{"TimezoneLocal", map[string]string{"SHOP_TIMEZONE": "Local"}, `SHOP_TIMEZONE must be an IANA time zone`},
		{"LocaleUndetermined", map[string]string{"SHOP_LOCALE": "und"}, `SHOP_LOCALE must be a language tag`},
		{"LocalePOSIX", map[string]string{"SHOP_LOCALE": "en_US.UTF-8"}, `SHOP_LOCALE must be a language tag`},
		{"ReturnWindowZero", map[string]string{"RETURN_WINDOW_DAYS": "0"}, `RETURN_WINDOW_DAYS must be a whole number of days from 1 to 365, got "0"`},
		{"ReturnWindowWeeks", map[string]string{"RETURN_WINDOW_DAYS": "4w"}, `RETURN_WINDOW_DAYS must be a whole number of days from 1 to 365, got "4w"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.env["DATA_DIR"] = t.TempDir()
			_, err := config.Load(env(tt.env))
			if err == nil {
				t.Fatal("got no error")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %q, want it to contain %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Errorf("error leaks a password: %q", err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
		})
	}
}

// The hardening settings: payment timeout, shutdown grace, connection cap and
// trusted proxies, with their defaults and refusals.
func TestLoad_HardeningSettings(t *testing.T) {
	cfg, err := config.Load(env(map[string]string{"DATA_DIR": t.TempDir()}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.PaymentTimeout.String() != "30s" || cfg.ShutdownGrace.String() != "35s" || cfg.MaxConns != config.DefaultMaxConns || cfg.TrustedProxies != nil {
		t.Errorf("defaults: timeout %s grace %s conns %d proxies %v", cfg.PaymentTimeout, cfg.ShutdownGrace, cfg.MaxConns, cfg.TrustedProxies)
	}
	cfg, err = config.Load(env(map[string]string{"DATA_DIR": t.TempDir(), "PAYMENT_DELAY": "20s", "PAYMENT_TIMEOUT": "40s",
		"SHUTDOWN_GRACE": "1m", "MAX_CONNS": "500", "TRUSTED_PROXIES": "10.0.0.0/8, 192.0.2.1"}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.PaymentTimeout.String() != "40s" || cfg.ShutdownGrace.String() != "1m0s" || cfg.MaxConns != 500 || len(cfg.TrustedProxies) != 2 {
		t.Errorf("set: %+v", cfg)
	}
	for name, bad := range map[string]map[string]string{
		"timeout not above delay": {"PAYMENT_DELAY": "20s", "PAYMENT_TIMEOUT": "20s"},
		"grace":                   {"SHUTDOWN_GRACE": "forever"},
		"conns":                   {"MAX_CONNS": "3"},
		"proxies":                 {"TRUSTED_PROXIES": "10.0.0.0/8,not-an-ip"},
	} {
		bad["DATA_DIR"] = t.TempDir()
		if _, err := config.Load(env(bad)); err == nil {
			t.Errorf("%s: accepted %v", name, bad)
		}
	}
}

// DATABASE_URL selects PostgreSQL with either scheme, and its pool size.
func TestLoad_Postgres(t *testing.T) {
	for _, u := range []string{"postgres://shop:pw@db:5432/shop", "postgresql://db/shop?sslmode=disable"} {
		cfg, err := config.Load(func(k string) string {
			return map[string]string{"DATABASE_URL": u, "DATABASE_MAX_CONNS": "12", "SESSION_SECRET": strings.Repeat("x", 40)}[k]
		})
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		if !cfg.Postgres() || cfg.DatabaseMaxConns != 12 || cfg.DatabaseURL != u {
			t.Errorf("%s: postgres=%v max conns %d url %q", u, cfg.Postgres(), cfg.DatabaseMaxConns, cfg.DatabaseURL)
		}
	}
}

// Payment methods: demo alone by default (a fresh clone takes no money and
// needs no keys); each method's settings when it is listed.
func TestLoad_Payments(t *testing.T) {
	cfg, err := config.Load(env(map[string]string{"DATA_DIR": t.TempDir()}))
	if err != nil {
		t.Fatal(err)
	}
	p := cfg.Payments
	if !slices.Equal(p.Methods, []string{"demo"}) || p.StripeSessionTTL != 30*time.Minute || p.BankTransferHold != 7*24*time.Hour ||
		p.BankTransferMaxOpen != 1 || p.StripeAPIURL != "https://api.stripe.com" {
		t.Errorf("defaults: %+v", p)
	}
	cfg, err = config.Load(env(map[string]string{"DATA_DIR": t.TempDir(), "PAYMENT_METHODS": "bank_transfer, stripe,demo",
		"STRIPE_SECRET_KEY": "sk_live_x", "STRIPE_WEBHOOK_SECRET": "whsec_x", "BASE_URL": "https://shop.example",
		"STRIPE_API_URL": "http://127.0.0.1:12111/", "STRIPE_SESSION_TTL": "1h",
		"BANK_TRANSFER_INSTRUCTIONS": " IBAN DE00 1234 ", "BANK_TRANSFER_HOLD": "3d", "BANK_TRANSFER_MAX_OPEN": "3"}))
	if err != nil {
		t.Fatal(err)
	}
	p = cfg.Payments
	if !slices.Equal(p.Methods, []string{"bank_transfer", "stripe", "demo"}) || p.StripeAPIURL != "http://127.0.0.1:12111" ||
		p.StripeSessionTTL != time.Hour || p.BankTransferInstructions != "IBAN DE00 1234" || p.BankTransferHold != 72*time.Hour ||
		p.BankTransferMaxOpen != 3 {
		t.Errorf("set: %+v", p)
	}
}

// SHOP_CURRENCY and SHOP_LOCALE: US dollars for the United States by
// default, which is also how a process that never reads them formats
// money; a code in any case and a locale tag in any common spelling.
func TestLoad_Currency(t *testing.T) {
	tests := []struct {
		name         string
		env          map[string]string
		code, locale string
		formatted    string // shop.Cents(123456) in it
	}{
		{"Default", map[string]string{}, "USD", "en-US", "$1,234.56"},
		{"Yen", map[string]string{"SHOP_CURRENCY": "JPY", "SHOP_LOCALE": "ja-JP"}, "JPY", "ja-JP", "￥123,456"},
		{"LowerCase", map[string]string{"SHOP_CURRENCY": " eur ", "SHOP_LOCALE": "de_de"}, "EUR", "de-DE", "1.234,56\u00a0€"},
		{"LanguageOnly", map[string]string{"SHOP_CURRENCY": "EUR", "SHOP_LOCALE": "fr"}, "EUR", "fr", "1\u202f234,56\u00a0€"},
		{"Script", map[string]string{"SHOP_CURRENCY": "RSD", "SHOP_LOCALE": "sr-Latn-RS"}, "RSD", "sr-Latn-RS", "1.234,56\u00a0RSD"},
		{"DeprecatedRegion", map[string]string{"SHOP_CURRENCY": "GBP", "SHOP_LOCALE": "en-UK"}, "GBP", "en-GB", "£1,234.56"},
		{"Dinars", map[string]string{"SHOP_CURRENCY": "KWD"}, "KWD", "en-US", "KWD\u00a0123.456"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.env["DATA_DIR"] = t.TempDir()
			cfg, err := config.Load(env(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			c := cfg.Currency
			if c.Code() != tt.code || c.Locale() != tt.locale || c.Format(123456) != tt.formatted {
				t.Errorf("got %s for %s writing %q, want %s for %s writing %q", c.Code(), c.Locale(), c.Format(123456), tt.code, tt.locale, tt.formatted)
			}
		})
	}
	if got, want := shop.CurrentCurrency().Format(123456), "$1,234.56"; got != want {
		t.Errorf("Load changed the process's currency: got %q, want %q", got, want)
	}
}
