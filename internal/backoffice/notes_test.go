package backoffice_test

import (
	"testing"

	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/shop"
)

// A cancel's confirmation states what is refunded, and how, in the
// payment method's words; an order never paid refunds nothing.
func TestCancelText(t *testing.T) {
	tests := []struct {
		name string
		o    shop.Order
		want string
	}{
		{"Unpaid", shop.Order{ID: "NOC-1", Total: 4200, PaymentStatus: shop.PaymentAwaiting, PaymentProvider: shop.ProviderBankTransfer},
			"Cancel order NOC-1"},
		{"BankTransferPartlyRefunded", shop.Order{ID: "NOC-2", Total: 4200, Refunded: 200, PaymentStatus: shop.PaymentPartiallyRefunded,
			PaymentProvider: shop.ProviderBankTransfer}, "Cancel order NOC-2 and mark " + shop.Cents(4000).String() + " refunded (bank transfer)"},
		{"Stripe", shop.Order{ID: "NOC-3", Total: 45800, PaymentStatus: shop.PaymentPaid, PaymentProvider: shop.ProviderStripe},
			"Cancel order NOC-3 and refund " + shop.Cents(45800).String() + " through Stripe"},
		{"DemoCard", shop.Order{ID: "NOC-4", Total: 999, PaymentStatus: shop.PaymentPaid, PaymentProvider: shop.ProviderDemo,
			PaymentMethod: "Visa ending 4242"}, "Cancel order NOC-4 and refund " + shop.Cents(999).String() + " to the demo card •••• 4242"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := backoffice.CancelText(&tt.o); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
