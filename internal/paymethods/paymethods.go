// Package paymethods registers the shop's payment methods: one line for
// each in registry, naming it and building it from its settings. Every
// method that can be built is registered whether offered or not, so orders
// placed while it was offered are still recovered, refunded and described;
// a method offered whose settings are refused stops the start.
package paymethods

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nocturne/storefront/internal/banktransfer"
	"github.com/nocturne/storefront/internal/checkout"
	"github.com/nocturne/storefront/internal/config"
	"github.com/nocturne/storefront/internal/democard"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/stripepay"
)

// Store is what the methods keep in the shop's database: the demo card's
// charges, Stripe's payment references and events, and the unpaid orders
// a bank transfer counts.
type Store interface {
	shop.ChargeStore
	stripepay.Orders
}

// setup is what a method is built from: the configuration, the store, and
// (tests) a Stripe client to use instead of one made from the settings.
type setup struct {
	cfg    *config.Config
	store  Store
	stripe stripepay.Pages
}

// A builder builds a method; offered says PAYMENT_METHODS names it. It
// answers nil, nil for a method that can't be built and is not offered.
type builder func(s setup, offered bool) (checkout.Method, error)

// registry is every method the shop knows, in the order a refusal lists
// them. A new method is a package and a line here.
var registry = []struct {
	name  string
	build builder
}{
	{democard.Name, demoCard},
	{stripepay.Name, stripe},
	{banktransfer.Name, bankTransfer},
}

// New builds every method from cfg and offers those PAYMENT_METHODS names,
// in its order. stripe, when not nil, is the Stripe client to use (tests).
func New(cfg *config.Config, store Store, stripe stripepay.Pages) (*checkout.Methods, error) {
	var names []string
	for _, r := range registry {
		names = append(names, r.name)
	}
	for _, name := range cfg.Payments.Methods {
		if !slices.Contains(names, name) {
			return nil, fmt.Errorf("PAYMENT_METHODS must list %s or %s, separated by commas, got %q",
				strings.Join(names[:len(names)-1], ", "), names[len(names)-1], name)
		}
	}
	var all []checkout.Method
	for _, r := range registry {
		m, err := r.build(setup{cfg: cfg, store: store, stripe: stripe}, cfg.Payments.Offers(r.name))
		if err != nil {
			return nil, err
		}
		if m != nil {
			all = append(all, m)
		}
	}
	return checkout.NewMethods(cfg.Payments.Methods, all...)
}

// demoCard charges through the simulated gateway, after PAYMENT_DELAY.
func demoCard(s setup, _ bool) (checkout.Method, error) {
	return &democard.Method{Gateway: &democard.SimulatedGateway{Delay: s.cfg.PaymentDelay, Charges: s.store}}, nil
}

// bankTransfer needs its instructions when offered.
func bankTransfer(s setup, offered bool) (checkout.Method, error) {
	p := s.cfg.Payments
	if offered && p.BankTransferInstructions == "" {
		return nil, fmt.Errorf("PAYMENT_METHODS includes bank_transfer, so BANK_TRANSFER_INSTRUCTIONS must say where to send the money")
	}
	return &banktransfer.Method{Instructions: p.BankTransferInstructions, Hold: p.BankTransferHold,
		MaxOpen: p.BankTransferMaxOpen, Unpaid: s.store}, nil
}

// stripe needs its keys when offered; without them it is not registered,
// and its orders are left to a stand-in that can't be paid or refund.
func stripe(s setup, offered bool) (checkout.Method, error) {
	if !offered {
		return nil, nil
	}
	p := s.cfg.Payments
	return stripepay.NewMethod(stripepay.Settings{SecretKey: p.StripeSecretKey, WebhookSecret: p.StripeWebhookSecret,
		APIURL: p.StripeAPIURL, TTL: p.StripeSessionTTL, BaseURL: s.cfg.BaseURL.String(), Currency: s.cfg.Currency.Code()}, s.store, s.stripe)
}
