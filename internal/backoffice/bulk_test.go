package backoffice_test

import (
	"strings"
	"testing"

	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/shop"
)

func TestSelection(t *testing.T) {
	many := make([]string, backoffice.MaxSelection+5)
	for i := range many {
		many[i] = "NOC-" + strings.Repeat("A", 3) + string(rune('a'+i%26)) + string(rune('a'+i/26))
	}
	for _, tt := range []struct {
		name string
		in   []string
		want int
	}{
		{"none", nil, 0},
		{"blanks dropped", []string{"", "  "}, 0},
		{"each once, trimmed", []string{"NOC-1", " NOC-1 ", "NOC-2"}, 2},
		{"not too long", []string{strings.Repeat("x", 65)}, 0},
		{"at most MaxSelection", many, backoffice.MaxSelection},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := backoffice.Selection(tt.in); len(got) != tt.want {
				t.Errorf("got %d ids %v, want %d", len(got), got, tt.want)
			}
		})
	}
	if got := backoffice.Selection([]string{"NOC-2", "NOC-1", "NOC-2"}); strings.Join(got, " ") != "NOC-2 NOC-1" {
		t.Errorf("got %v, want the order sent", got)
	}
}

func TestWhyNotShippable(t *testing.T) {
	for _, tt := range []struct {
		name    string
		status  shop.OrderStatus
		payment shop.PaymentState
		want    string
	}{
		{"paid and processing", shop.StatusProcessing, shop.PaymentPaid, ""},
		{"partly refunded still ships", shop.StatusProcessing, shop.PaymentPartiallyRefunded, ""},
		{"awaiting a transfer", shop.StatusProcessing, shop.PaymentAwaiting, shop.MsgShipUnpaid},
		{"shipped", shop.StatusShipped, shop.PaymentPaid, "It has been shipped already."},
		{"delivered", shop.StatusDelivered, shop.PaymentPaid, "It has been delivered already."},
		{"cancelled", shop.StatusCancelled, shop.PaymentRefunded, "It was cancelled."},
		{"pending", shop.StatusPending, shop.PaymentAwaiting, shop.MsgOrderNotFound},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := &shop.Order{Status: tt.status, PaymentStatus: tt.payment}
			if got := backoffice.WhyNotShippable(o); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestBulkShipText(t *testing.T) {
	for _, tt := range []struct {
		name string
		r    backoffice.BulkShip
		want string
	}{
		{"three", backoffice.BulkShip{Shipped: []string{"A", "B", "C"}}, "3 orders marked as shipped; the shoppers were e-mailed."},
		{"one", backoffice.BulkShip{Shipped: []string{"A"}}, "1 order marked as shipped; the shopper was e-mailed."},
		{"one moved meanwhile", backoffice.BulkShip{Shipped: []string{"A"}, NotShipped: []backoffice.NotShipped{{OrderID: "B", Reason: "It was cancelled."}}},
			"1 order marked as shipped; the shopper was e-mailed. Not shipped: B (It was cancelled.)"},
		{"none", backoffice.BulkShip{}, "No order was marked as shipped."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.r.Text(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
