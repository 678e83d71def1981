package backoffice_test

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
	"time"

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
		name            string
		status, payment string
		want            string
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

// The selection's CSV opens in a spreadsheet as text where shoppers typed
// it, and as numbers where it is money.
func TestWriteOrdersCSV(t *testing.T) {
	o := shop.Order{ID: "NOC-261121-AB12", Email: "ada@example.com", Status: shop.StatusProcessing, PaymentStatus: shop.PaymentPaid,
		Subtotal: 4500, Shipping: 599, Tax: 0, Total: 5099, Currency: "usd", CreatedAt: time.Date(2026, 11, 21, 12, 30, 0, 0, time.UTC),
		ShipTo: shop.Address{Name: "=HYPERLINK(\"http://evil\")", Street: "+1 Harbour Lane", City: "-Arlington", State: "@VA",
			ZipCode: "\t22201", Country: "\rUnited States", Phone: "555 0199"},
		Lines: []shop.OrderLine{{Name: "Lamp", Quantity: 2, Price: 2250}}}
	var b bytes.Buffer
	if err := backoffice.WriteOrdersCSV(&b, []shop.Order{o}); err != nil {
		t.Fatal(err)
	}
	body := b.String()
	if !strings.HasPrefix(body, "\uFEFFOrder,") {
		t.Fatalf("no byte order mark before the header: %q", body[:min(20, len(body))])
	}
	rows, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(body, "\uFEFF"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("got %d rows, want header and one order", len(rows))
	}
	cell := map[string]string{}
	for i, h := range rows[0] {
		cell[h] = rows[1][i]
	}
	for _, tt := range []struct{ column, want string }{
		{"Order", "NOC-261121-AB12"},
		{"Placed (UTC)", "2026-11-21 12:30"},
		{"Items", "2"},
		{"Subtotal", "45"},
		{"Shipping", "5.99"},
		{"Total", "50.99"},
		{"Currency", "USD"},
		{"Ship to", "'=HYPERLINK(\"http://evil\")"},
		{"Street", "'+1 Harbour Lane"},
		{"City", "'-Arlington"},
		{"State", "'@VA"},
		{"ZIP", "'\t22201"},
		{"Country", "'\rUnited States"},
		{"Phone", "555 0199"},
		{"Tracking number", ""},
	} {
		if got := cell[tt.column]; got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.column, got, tt.want)
		}
	}
}
