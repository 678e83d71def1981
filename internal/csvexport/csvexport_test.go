package csvexport_test

import (
	"bytes"
	"encoding/csv"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/csvexport"
	"github.com/nocturne/storefront/internal/shop"
)

// readBack checks the byte order mark and reads the file back as a
// spreadsheet would get it.
func readBack(t *testing.T, b []byte) [][]string {
	t.Helper()
	rest, ok := bytes.CutPrefix(b, []byte(csvexport.BOM))
	if !ok {
		t.Fatalf("no byte order mark: %q", b[:min(len(b), 10)])
	}
	rows, err := csv.NewReader(bytes.NewReader(rest)).ReadAll()
	if err != nil {
		t.Fatalf("read back: %v\n%s", err, b)
	}
	return rows
}

// A text that a spreadsheet would run as a formula gets a leading
// apostrophe; any other text is written as it is.
func TestText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Ada Lovelace", "Ada Lovelace"},
		{"", ""},
		{`=HYPERLINK("http://evil.example","Click")`, `'=HYPERLINK("http://evil.example","Click")`},
		{"+1 416 555 0100", "'+1 416 555 0100"},
		{"-2+3", "'-2+3"},
		{"@SUM(A1:A2)", "'@SUM(A1:A2)"},
		{"\t=1+1", "'\t=1+1"},
		// A lone carriage return is not kept by a file with CRLF line
		// ends: what is left must still not be a formula.
		{"\r=1+1", "'=1+1"},
		{"a=b", "a=b"},
		{"zoë@example.com", "zoë@example.com"},
		{"'quoted", "'quoted"},
		{"NOC-1", "NOC-1"},
	}
	for _, tc := range tests {
		var b bytes.Buffer
		// A second column: encoding/csv writes a row of one empty
		// value as an empty line, which readers skip.
		w, err := csvexport.NewWriter(&b, "v", "end")
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(csvexport.Text(tc.in), csvexport.Int(1)); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if rows := readBack(t, b.Bytes()); len(rows) != 2 || rows[1][0] != tc.want {
			t.Errorf("Text(%q) reads back as %q, want %q", tc.in, rows[1:], tc.want)
		}
	}
}

// Numbers, amounts (negative too), times and yes/no are written plain:
// no apostrophe ever goes before a number the shop wrote.
func TestCells(t *testing.T) {
	loc, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		cell csvexport.Cell
		want string
	}{
		{"money", csvexport.Money(1250, "usd"), "12.50"},
		{"negative money", csvexport.Money(-300, "usd"), "-3.00"},
		{"yen", csvexport.Money(1235, "jpy"), "1235"},
		{"int", csvexport.Int(-4), "-4"},
		{"time", csvexport.Time(time.Date(2026, 11, 1, 3, 30, 0, 0, time.UTC), loc), "2026-10-31 23:30:00"},
		{"zero time", csvexport.Time(time.Time{}, loc), ""},
		{"yes", csvexport.Bool(true), "yes"},
		{"no", csvexport.Bool(false), "no"},
	}
	for _, tc := range tests {
		var b bytes.Buffer
		w, _ := csvexport.NewWriter(&b, "v", "end")
		if err := w.Write(tc.cell, csvexport.Int(1)); err != nil {
			t.Fatal(err)
		}
		w.Flush()
		if rows := readBack(t, b.Bytes()); rows[1][0] != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, rows[1][0], tc.want)
		}
	}
}

// A file is the byte order mark, the header and one line per row, ended
// CRLF, quoted where a value needs it.
func TestWriter(t *testing.T) {
	var b bytes.Buffer
	w, err := csvexport.NewWriter(&b, "Name", "Note")
	if err != nil {
		t.Fatal(err)
	}
	w.Write(csvexport.Text(`Lamp, "brass"`), csvexport.Text("two\nlines"))
	w.Write(csvexport.Text("Zoë"), csvexport.Text(""))
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	want := csvexport.BOM + "Name,Note\r\n\"Lamp, \"\"brass\"\"\",\"two\r\nlines\"\r\nZoë,\r\n"
	if b.String() != want {
		t.Errorf("file:\n%q\nwant\n%q", b.String(), want)
	}
}

// The orders export: the header, one row per order in the reader's
// order, amounts in the order's currency, hostile text neutralised; a
// reader's error stops the file and is returned.
func TestWriteOrders(t *testing.T) {
	orders := []*shop.Order{
		{ID: "NOC-1", CreatedAt: time.Date(2026, 11, 2, 15, 4, 5, 0, time.UTC), Status: shop.StatusShipped, PaymentStatus: shop.PaymentPartiallyRefunded,
			Currency: "usd", Subtotal: 5000, Discount: 500, Shipping: 1000, Tax: 450, Total: 5950, Refunded: 1000,
			Email: "+evil@example.com", ShipTo: shop.Address{Country: "=cmd|' /C calc'!A0"}},
		{ID: "NOC-2", CreatedAt: time.Date(2026, 11, 3, 0, 0, 0, 0, time.UTC), Status: shop.StatusProcessing, PaymentStatus: shop.PaymentPaid,
			Currency: "jpy", Subtotal: 1200, Total: 1200, Email: "ken@example.com", ShipTo: shop.Address{Country: "Japan"}},
	}
	var b bytes.Buffer
	err := csvexport.WriteOrders(&b, time.UTC, func(each func(*shop.Order) error) error {
		for _, o := range orders {
			if err := each(o); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		csvexport.Orders.Header,
		{"NOC-1", "2026-11-02 15:04:05", "shipped", "partially_refunded", "USD", "50.00", "5.00", "10.00", "4.50", "59.50", "10.00", "'+evil@example.com", "'=cmd|' /C calc'!A0"},
		{"NOC-2", "2026-11-03 00:00:00", "processing", "paid", "JPY", "1200", "0", "0", "0", "1200", "0", "ken@example.com", "Japan"},
	}
	if got := readBack(t, b.Bytes()); !reflect.DeepEqual(got, want) {
		t.Errorf("orders:\n got %q\nwant %q", got, want)
	}

	broken := errors.New("database gone")
	err = csvexport.WriteOrders(&bytes.Buffer{}, time.UTC, func(each func(*shop.Order) error) error {
		if err := each(orders[0]); err != nil {
			return err
		}
		return broken
	})
	if !errors.Is(err, broken) {
		t.Errorf("a reader's error: %v", err)
	}
}

// The order lines and customers exports, one row per line or customer.
func TestWriteLinesAndCustomers(t *testing.T) {
	at := time.Date(2026, 11, 2, 15, 4, 5, 0, time.UTC)
	var b bytes.Buffer
	err := csvexport.WriteOrderLines(&b, time.UTC, func(each func(shop.ExportLine) error) error {
		return each(shop.ExportLine{OrderID: "NOC-1", CreatedAt: at, Currency: "usd", OrderLine: shop.OrderLine{
			ProductID: "shirt", VariantID: "shirt-m", Name: "@Shirt", Variation: "Size: M", Price: 1250, Quantity: 3}})
	})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{csvexport.OrderLines.Header, {"NOC-1", "2026-11-02 15:04:05", "shirt", "shirt-m", "'@Shirt", "Size: M", "3", "12.50", "37.50"}}
	if got := readBack(t, b.Bytes()); !reflect.DeepEqual(got, want) {
		t.Errorf("lines:\n got %q\nwant %q", got, want)
	}

	b.Reset()
	err = csvexport.WriteCustomers(&b, time.UTC, func(each func(shop.Customer) error) error {
		for _, c := range []shop.Customer{
			{Key: "usr_1", Name: `=HYPERLINK("http://evil.example")`, Email: "ada@example.com", Orders: 2, Spent: 7000, LastOrder: at},
			{Key: "-glen@example.com", Name: "Glen", Email: "-glen@example.com", Guest: true, Orders: 1, Spent: -300},
		} {
			if err := each(c); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want = [][]string{
		csvexport.Customers.Header,
		{"usr_1", `'=HYPERLINK("http://evil.example")`, "ada@example.com", "no", "2", "70.00", "2026-11-02 15:04:05"},
		{"'-glen@example.com", "Glen", "'-glen@example.com", "yes", "1", "-3.00", ""},
	}
	if got := readBack(t, b.Bytes()); !reflect.DeepEqual(got, want) {
		t.Errorf("customers:\n got %q\nwant %q", got, want)
	}
}

// The selection's CSV opens in a spreadsheet as text where shoppers typed
// it, and as numbers where it is money.
func TestWriteShipments(t *testing.T) {
	o := shop.Order{ID: "NOC-261121-AB12", Email: "ada@example.com", Status: shop.StatusProcessing, PaymentStatus: shop.PaymentPaid,
		Subtotal: 4500, Shipping: 599, Tax: 0, Total: 5099, Currency: "usd", CreatedAt: time.Date(2026, 11, 21, 12, 30, 0, 0, time.UTC),
		ShipTo: shop.Address{Name: "=HYPERLINK(\"http://evil\")", Street: "+1 Harbour Lane", City: "-Arlington", State: "@VA",
			ZipCode: "\t22201", Country: "\rUnited States", Phone: "555 0199"},
		Lines: []shop.OrderLine{{Name: "Lamp", Quantity: 2, Price: 2250}}}
	var b bytes.Buffer
	if err := csvexport.WriteShipments(&b, []shop.Order{o}); err != nil {
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
		{"Subtotal", "45.00"},
		{"Shipping", "5.99"},
		{"Total", "50.99"},
		{"Currency", "USD"},
		{"Ship to", "'=HYPERLINK(\"http://evil\")"},
		{"Street", "'+1 Harbour Lane"},
		{"City", "'-Arlington"},
		{"State", "'@VA"},
		{"ZIP", "'\t22201"},
		// Read back, a carriage return in a CRLF file is a line end's: the
		// cell's apostrophe is what matters.
		{"Country", "'United States"},
		{"Phone", "555 0199"},
		{"Tracking number", ""},
	} {
		if got := cell[tt.column]; got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.column, got, tt.want)
		}
	}
}
