package paymethods_test

import (
	"strings"
	"testing"

	"github.com/nocturne/storefront/internal/config"
	"github.com/nocturne/storefront/internal/paymethods"
)

func load(t *testing.T, vars map[string]string) *config.Config {
	t.Helper()
	vars["DATA_DIR"] = t.TempDir()
	cfg, err := config.Load(func(k string) string { return vars[k] })
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// A method named that the shop doesn't have, or one offered without what
// it needs, stops the start with one line saying which and why, and never
// echoes a secret.
func TestNew_Refused(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"PaymentMethodUnknown", map[string]string{"PAYMENT_METHODS": "demo,paypal"}, `PAYMENT_METHODS must list demo, stripe or bank_transfer, separated by commas, got "paypal"`},
		{"PaymentMethodsEmpty", map[string]string{"PAYMENT_METHODS": " , "}, "PAYMENT_METHODS must list at least one"},
		{"StripeNoKey", map[string]string{"PAYMENT_METHODS": "stripe"}, "PAYMENT_METHODS includes stripe, so STRIPE_SECRET_KEY must be set"},
		{"StripePublishableKey", map[string]string{"PAYMENT_METHODS": "stripe", "STRIPE_SECRET_KEY": "pk_test_hunter2"}, "STRIPE_SECRET_KEY must be set to a Stripe secret"},
		{"StripeNoWebhookSecret", map[string]string{"PAYMENT_METHODS": "stripe", "STRIPE_SECRET_KEY": "sk_test_hunter2"}, "STRIPE_WEBHOOK_SECRET must be set"},
		{"StripeLiveOverHTTP", map[string]string{"PAYMENT_METHODS": "stripe", "STRIPE_SECRET_KEY": "sk_live_hunter2", "STRIPE_WEBHOOK_SECRET": "whsec_hunter2",
			"BASE_URL": "http://shop.example"}, "STRIPE_SECRET_KEY is a live key, which takes real money: BASE_URL must be https"},
		{"StripeRestrictedLiveOverHTTP", map[string]string{"PAYMENT_METHODS": "stripe", "STRIPE_SECRET_KEY": "rk_live_hunter2", "STRIPE_WEBHOOK_SECRET": "whsec_hunter2"},
			"BASE_URL must be https"},
		{"BankTransferNoInstructions", map[string]string{"PAYMENT_METHODS": "demo,bank_transfer"}, "BANK_TRANSFER_INSTRUCTIONS must say where to send the money"},
		{"StripeInKronur", map[string]string{"SHOP_CURRENCY": "ISK", "PAYMENT_METHODS": "stripe", "STRIPE_SECRET_KEY": "sk_test_hunter2", "STRIPE_WEBHOOK_SECRET": "whsec_hunter2"},
			"PAYMENT_METHODS includes stripe, which cannot take SHOP_CURRENCY ISK"},
		{"StripeInDinars", map[string]string{"SHOP_CURRENCY": "kwd", "PAYMENT_METHODS": "demo,stripe", "STRIPE_SECRET_KEY": "sk_test_hunter2", "STRIPE_WEBHOOK_SECRET": "whsec_hunter2"},
			"PAYMENT_METHODS includes stripe, which cannot take SHOP_CURRENCY KWD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := paymethods.New(load(t, tt.env), nil, nil)
			if err == nil {
				t.Fatal("got no error")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %q, want it to contain %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Errorf("error leaks a secret: %q", err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
		})
	}
}

// Every method is registered, offered or not, so orders it took are still
// recovered and refunded; the Payment step offers those named, in order.
func TestNew_OffersInOrder(t *testing.T) {
	cfg := load(t, map[string]string{"PAYMENT_METHODS": "bank_transfer, stripe,demo", "STRIPE_SECRET_KEY": "sk_test_x", "STRIPE_WEBHOOK_SECRET": "whsec_x",
		"BANK_TRANSFER_INSTRUCTIONS": "IBAN DE00 1234", "SHOP_CURRENCY": "JPY"})
	ms, err := paymethods.New(cfg, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms.Offered() {
		got = append(got, m.Name())
	}
	if strings.Join(got, ",") != "bank_transfer,stripe,demo" {
		t.Errorf("offered %v, want bank_transfer, stripe, demo", got)
	}
	only, err := paymethods.New(load(t, map[string]string{}), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(only.Offered()) != 1 || only.Offered()[0].Name() != "demo" || !only.For("bank_transfer").Words().ByHand {
		t.Errorf("default: offered %v; bank transfer registered: %v", only.Offered(), only.For("bank_transfer").Words())
	}
}
