package backoffice_test

import (
	"testing"

	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/banktransfer"
	"github.com/nocturne/storefront/internal/checkout"
	"github.com/nocturne/storefront/internal/democard"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/stripepay"
)

// A cancel's confirmation states what is refunded, and how, in the
// payment method's words; an order never paid refunds nothing.
func TestCancelText(t *testing.T) {
	tests := []struct {
		name string
		o    shop.Order
		want string
	}{
		{"Unpaid", shop.Order{ID: "NOC-1", Total: 4200, PaymentStatus: shop.PaymentAwaiting, PaymentProvider: banktransfer.Name},
			"Cancel order NOC-1"},
		{"BankTransferPartlyRefunded", shop.Order{ID: "NOC-2", Total: 4200, Refunded: 200, PaymentStatus: shop.PaymentPartiallyRefunded,
			PaymentProvider: banktransfer.Name}, "Cancel order NOC-2 and mark " + shop.Cents(4000).String() + " refunded (bank transfer)"},
		{"Stripe", shop.Order{ID: "NOC-3", Total: 45800, PaymentStatus: shop.PaymentPaid, PaymentProvider: stripepay.Name},
			"Cancel order NOC-3 and refund " + shop.Cents(45800).String() + " through Stripe"},
		{"DemoCard", shop.Order{ID: "NOC-4", Total: 999, PaymentStatus: shop.PaymentPaid, PaymentProvider: democard.Name,
			PaymentMethod: "Visa ending 4242"}, "Cancel order NOC-4 and refund " + shop.Cents(999).String() + " to the demo card •••• 4242"},
	}
	methods, err := checkout.NewMethods([]string{democard.Name}, &democard.Method{}, &banktransfer.Method{}, &stripepay.Method{})
	if err != nil {
		t.Fatal(err)
	}
	office := &backoffice.Service{Refunder: &checkout.Service{Methods: methods}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := office.CancelText(&tt.o); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
