// Package stripepay takes card payments through Stripe Checkout's hosted
// payment page.
//
// The shop never sees a card number: it creates a Checkout Session for an
// order, sends the shopper's browser to the page Stripe hosts, and learns
// the outcome from a signed webhook (or by reading the session back). Card
// data therefore never passes through our servers, which keeps the shop in
// PCI DSS's lightest self-assessment (SAQ A), and the whole flow is links,
// redirects and form posts, so it works with no JavaScript of the shop's
// own and with JavaScript switched off in the shop's pages.
//
// The package wraps the official stripe-go client: it turns an order's
// lines into a session request, carries an idempotency key on every call
// that changes something, and reduces Stripe's objects and events to the
// few fields the shop acts on. Money stays in shop.Cents (integer minor
// units) end to end.
//
// Tests point Config.APIURL at stripe-mock (Stripe's API mock, which checks
// request shapes) or at the stateful stand-in in package stripestub.
package stripepay

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/stripe/stripe-go/v82"
)

// APIVersion is the Stripe API version this package's client speaks and
// the one it expects webhook events to be rendered in. The webhook endpoint
// configured in Stripe's dashboard must be set to this version (or one of
// the same release train): ParseWebhook refuses events of any other
// version, since their objects may not decode into the shapes read here.
const APIVersion = stripe.APIVersion

// MinimumCharge is the smallest amount Stripe will charge in US dollars,
// $0.50 (Stripe's documentation, "Minimum and maximum charge amounts":
// https://docs.stripe.com/currencies#minimum-and-maximum-charge-amounts).
// CreateSession refuses a USD session whose total is below it rather than
// letting Stripe refuse it after a coupon has already been created. The
// checkout holds every currency to the same 50 minor units, which is
// Stripe's minimum in euros and in yen too (¥50); where Stripe's minimum
// is higher, Stripe refuses the session itself.
const MinimumCharge shop.Cents = 50

// CheckCurrency says whether the shop can take payments in currency code
// (ISO 4217, any case) through Stripe. Stripe takes amounts in a
// currency's minor units, as shop.Cents holds them: cents for USD, whole
// yen for JPY, which has none smaller, so both go as they are. It is
// refused for the currencies where that does not hold
// (https://docs.stripe.com/currencies#special-cases):
//   - ISK has no minor unit in ISO 4217, but Stripe's API still counts it
//     in hundredths (100 is one króna), and MGA is the reverse: sent as
//     they are, amounts would be a hundred times off.
//   - BHD, JOD, KWD, OMR and TND have three decimals, and Stripe takes
//     their amounts only rounded to ten thousandths, which the shop's
//     prices, taxes and discounts do not promise.
func CheckCurrency(code string) error {
	switch c := strings.ToUpper(code); c {
	case "ISK", "MGA":
		return fmt.Errorf("stripe counts %s amounts in other units than ISO 4217 does, which the shop does not convert", c)
	case "BHD", "JOD", "KWD", "OMR", "TND":
		return fmt.Errorf("stripe takes %s amounts only in multiples of 10 thousandths, which the shop's prices and taxes are not rounded to", c)
	}
	return nil
}

// defaultTimeout bounds one HTTP round trip to Stripe when Config.HTTPClient
// is nil. Stripe answers in well under a second; 20 s leaves room for a
// slow network without holding a shopper's request open indefinitely.
const defaultTimeout = 20 * time.Second

// Config says how to reach Stripe.
type Config struct {
	// SecretKey is the API key: sk_test_…, sk_live_…, or a restricted
	// rk_… key with write access to Checkout Sessions, Coupons and Refunds.
	SecretKey string
	// WebhookSecret is the webhook endpoint's signing secret (whsec_…).
	// ParseWebhook refuses every event while it is empty.
	WebhookSecret string
	// APIURL is the API's base URL; "" means Stripe's own
	// (https://api.stripe.com). Tests point it at stripe-mock or at the
	// stand-in.
	APIURL string
	// HTTPClient makes the requests; nil means a client with a 20 s
	// timeout.
	HTTPClient *http.Client
}

// Client calls Stripe for one account. It is safe for concurrent use.
type Client struct {
	sc            *stripe.Client
	webhookSecret string
}

// LiveKey reports whether key is a live-mode secret or restricted key,
// one that moves real money.
func LiveKey(key string) bool {
	return strings.HasPrefix(key, "sk_live_") || strings.HasPrefix(key, "rk_live_")
}

// New returns a Client for cfg. It fails when the secret key is missing or
// is not a secret key (a publishable pk_… key cannot create sessions), when
// APIURL is not an absolute http(s) URL, and when a live key would be sent
// over plain HTTP. Errors never repeat the key.
func New(cfg Config) (*Client, error) {
	key := strings.TrimSpace(cfg.SecretKey)
	if key == "" {
		return nil, errors.New("stripe: no secret key configured")
	}
	if !strings.HasPrefix(key, "sk_") && !strings.HasPrefix(key, "rk_") {
		return nil, errors.New("stripe: the secret key must start with sk_ or rk_ (a publishable pk_ key cannot create sessions)")
	}

	bc := &stripe.BackendConfig{
		HTTPClient:      cfg.HTTPClient,
		EnableTelemetry: stripe.Bool(false),
		// The package returns every failure as an error with context;
		// stripe-go's own log lines would only repeat them on stderr.
		LeveledLogger: &stripe.LeveledLogger{Level: stripe.LevelNull},
	}
	if bc.HTTPClient == nil {
		bc.HTTPClient = &http.Client{Timeout: defaultTimeout}
	}
	if cfg.APIURL != "" {
		u, err := url.Parse(cfg.APIURL)
		if err != nil {
			return nil, fmt.Errorf("stripe: API URL: %w", err)
		}
		if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("stripe: API URL %q: want an absolute http or https URL", cfg.APIURL)
		}
		if u.Scheme != "https" && LiveKey(key) {
			return nil, errors.New("stripe: a live key is only sent over https")
		}
		bc.URL = stripe.String(strings.TrimRight(u.String(), "/"))
	}

	return &Client{
		sc:            stripe.NewClient(key, stripe.WithBackends(stripe.NewBackendsWithConfig(bc))),
		webhookSecret: cfg.WebhookSecret,
	}, nil
}

// apiError is a failed Stripe call: op says what the shop was doing, and
// Unwrap gives the underlying error (a *stripe.Error when Stripe answered),
// so callers can still use errors.As.
type apiError struct {
	op  string
	err error
}

func (e *apiError) Error() string {
	var se *stripe.Error
	if errors.As(e.err, &se) {
		// stripe.Error's own text is the whole JSON object; this keeps the
		// parts a person reading a log needs.
		var b strings.Builder
		fmt.Fprintf(&b, "stripe: %s: HTTP %d %s", e.op, se.HTTPStatusCode, se.Type)
		if se.Code != "" {
			fmt.Fprintf(&b, " (%s)", se.Code)
		}
		if se.Param != "" {
			fmt.Fprintf(&b, " param %s", se.Param)
		}
		if se.Msg != "" {
			fmt.Fprintf(&b, ": %s", se.Msg)
		}
		if se.RequestID != "" {
			fmt.Fprintf(&b, " [request %s]", se.RequestID)
		}
		return b.String()
	}
	return fmt.Sprintf("stripe: %s: %v", e.op, e.err)
}

func (e *apiError) Unwrap() error { return e.err }

func wrap(op string, err error) error { return &apiError{op: op, err: err} }

// validID reports whether id can be put into a request path: Stripe's ids
// are letters, digits and underscores, and anything else (a slash, a dot)
// could address another endpoint.
func validID(id, prefix string) bool {
	if !strings.HasPrefix(id, prefix) || len(id) > 255 {
		return false
	}
	for _, r := range id {
		if !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}
