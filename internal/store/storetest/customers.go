package storetest

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/banktransfer"
	"github.com/nocturne/storefront/internal/shop"
)

// CustomerStore is a store that also lists customers, keeps their notes
// and reads the accountant's exports.
type CustomerStore interface {
	Store
	shop.CustomerStore
	shop.ExportStore
	shop.InboxStore
}

// testCustomers checks the customers' aggregation (an account's own and
// guest orders, a guest by e-mail, what was spent less refunds, pending
// orders left out), the search, a customer's page, the note's round trip
// and the exports' ranges.
func testCustomers(t *testing.T, b Backend) {
	open := func(t *testing.T) (CustomerStore, time.Time) {
		s, _, clock := b.open(t)
		cs, ok := s.(CustomerStore)
		if !ok {
			t.Skipf("%T does not implement the customer stores", s)
		}
		return cs, seedCustomers(t, cs, clock.Now())
	}
	t.Run("List", func(t *testing.T) { s, _ := open(t); customersList(t, s) })
	t.Run("Search", func(t *testing.T) { s, _ := open(t); customersSearch(t, s) })
	t.Run("Page", func(t *testing.T) { s, _ := open(t); customerPage(t, s) })
	t.Run("Note", func(t *testing.T) { s, _ := open(t); customerNote(t, s) })
	t.Run("Exports", func(t *testing.T) { s, now := open(t); customerExports(t, s, now) })
}

// seedCustomers makes Ada (an account with an order of her own, a guest
// checkout with her address, a cancelled order and a pending one), Glen
// (a guest with a paid order and one awaiting payment) and Cy (an account
// without orders), and returns the time they are counted from.
func seedCustomers(t *testing.T, s CustomerStore, now time.Time) time.Time {
	t.Helper()
	ctx := context.Background()
	for _, u := range []shop.User{
		{ID: "usr_ada", Email: "ada@example.com", DisplayName: "Ada Lovelace"},
		{ID: "usr_cy", Email: "cy@example.com", DisplayName: "Cy"},
		{ID: "guest_ada", IsGuest: true},
		{ID: "guest_glen", IsGuest: true},
	} {
		must(t, s.CreateUser(ctx, &u, nil))
	}
	day := 24 * time.Hour
	for _, o := range []shop.Order{
		{ID: "NOC-A1", UserID: "usr_ada", Email: "ada@example.com", Status: shop.StatusDelivered, PaymentStatus: shop.PaymentPaid,
			Subtotal: 5000, Total: 5000, CreatedAt: now.Add(-3 * day), ShipTo: shop.Address{Name: "Ada L.", Country: "United Kingdom"},
			Lines: []shop.OrderLine{{ProductID: "lamp", Name: "Lamp", Price: 2500, Quantity: 2}}},
		{ID: "NOC-A2", UserID: "guest_ada", Email: "ada@example.com", Status: shop.StatusProcessing, PaymentStatus: shop.PaymentPartiallyRefunded,
			Subtotal: 3000, Total: 3000, Refunded: 1000, CreatedAt: now.Add(-2 * day), ShipTo: shop.Address{Name: "Ada at work"},
			Lines: []shop.OrderLine{
				{ProductID: "shirt", VariantID: "shirt-m", Variation: "Size: M", Name: "Shirt", Price: 1000, Quantity: 1},
				{ProductID: "mug", Name: "Mug", Price: 2000, Quantity: 1},
			}},
		{ID: "NOC-AX", UserID: "usr_ada", Email: "ada@example.com", Status: shop.StatusCancelled, PaymentStatus: shop.PaymentRefunded,
			Subtotal: 700, Total: 700, Refunded: 700, CreatedAt: now.Add(-4 * day)},
		{ID: "NOC-AP", UserID: "usr_ada", Email: "ada@example.com", Status: shop.StatusPending, PaymentStatus: shop.PaymentAwaiting,
			Subtotal: 9900, Total: 9900, CreatedAt: now.Add(-time.Hour)},
		{ID: "NOC-G1", UserID: "guest_glen", Email: "glen@example.com", Status: shop.StatusShipped, PaymentStatus: shop.PaymentPaid,
			Subtotal: 2000, Total: 2000, CreatedAt: now.Add(-day), ShipTo: shop.Address{Name: "Glen Guest"}},
		{ID: "NOC-G2", UserID: "guest_glen", Email: "glen@example.com", Status: shop.StatusProcessing, PaymentStatus: shop.PaymentAwaiting,
			PaymentProvider: banktransfer.Name, Subtotal: 1500, Total: 1500, CreatedAt: now.Add(-2 * time.Hour), ShipTo: shop.Address{Name: "Glen Newer"}},
	} {
		o.IdempotencyKey, o.PaymentMethod = "key-"+o.ID, "Visa ending 4242"
		must(t, s.InsertOrder(ctx, &o))
	}
	return now
}

// The customers, newest order first: Glen by e-mail with the name of his
// newest order, Ada with her guest checkout counted and the refunds and
// the cancelled order taken off, Cy without orders last; the pending
// order and the guest users themselves are not customers.
func customersList(t *testing.T, s CustomerStore) {
	ctx := context.Background()
	got, total, err := s.Customers(ctx, shop.CustomerQuery{Page: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := []shop.Customer{
		{Key: "glen@example.com", Name: "Glen Newer", Email: "glen@example.com", Guest: true, Orders: 2, Spent: 2000},
		{Key: "usr_ada", Name: "Ada Lovelace", Email: "ada@example.com", Orders: 3, Spent: 5000 + 2000},
		{Key: "usr_cy", Name: "Cy", Email: "cy@example.com"},
	}
	if total != len(want) || len(got) != len(want) {
		t.Fatalf("got %d customers (total %d): %+v, want %d", len(got), total, got, len(want))
	}
	for i := range want {
		got[i].LastOrder = time.Time{}
		if got[i] != want[i] {
			t.Errorf("customer %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	if page2, total, err := s.Customers(ctx, shop.CustomerQuery{Page: 2}); err != nil || len(page2) != 0 || total != 3 {
		t.Errorf("page 2: %+v, %d, %v", page2, total, err)
	}
}

// A search matches the account's name or e-mail, or a name or e-mail
// on any of the customer's orders, in any case; LIKE's wildcards are
// taken literally.
func customersSearch(t *testing.T, s CustomerStore) {
	ctx := context.Background()
	for _, tc := range []struct {
		search string
		want   []string
	}{
		{"lovelace", []string{"usr_ada"}},
		{"ADA@", []string{"usr_ada"}},
		{"at work", []string{"usr_ada"}},
		{"glen guest", []string{"glen@example.com"}},
		{"example.com", []string{"glen@example.com", "usr_ada", "usr_cy"}},
		{"%", nil},
		{"nobody", nil},
	} {
		got, total, err := s.Customers(ctx, shop.CustomerQuery{Search: tc.search, Page: 1})
		if err != nil {
			t.Fatalf("%q: %v", tc.search, err)
		}
		var keys []string
		for _, c := range got {
			keys = append(keys, c.Key)
		}
		if !reflect.DeepEqual(keys, tc.want) || total != len(tc.want) {
			t.Errorf("search %q: got %v (total %d), want %v", tc.search, keys, total, tc.want)
		}
	}
}

// One customer, by account id or by e-mail: an account's address opens
// the account; the orders are the customer's, newest first, an account's
// guest checkout marked; the messages are the address's, in any case.
func customerPage(t *testing.T, s CustomerStore) {
	ctx := context.Background()
	for _, tc := range []struct{ key, want string }{
		{"usr_ada", "usr_ada"},
		{"ADA@example.com", "usr_ada"},
		{"glen@example.com", "glen@example.com"},
		{"usr_cy", "usr_cy"},
	} {
		c, err := s.Customer(ctx, tc.key)
		if err != nil || c.Key != tc.want {
			t.Errorf("customer %q: %+v, %v; want key %q", tc.key, c, err, tc.want)
		}
	}
	for _, key := range []string{"nobody@example.com", "guest_ada", "usr_nobody", ""} {
		_, err := s.Customer(ctx, key)
		wantCode(t, "customer "+key, err, shop.ENOTFOUND, shop.MsgCustomerNotFound)
	}

	type line struct {
		id    string
		guest bool
	}
	for key, want := range map[string][]line{
		"usr_ada":          {{"NOC-A2", true}, {"NOC-A1", false}, {"NOC-AX", false}},
		"glen@example.com": {{"NOC-G2", false}, {"NOC-G1", false}},
		"usr_cy":           nil,
	} {
		orders, err := s.CustomerOrders(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		var got []line
		for _, o := range orders {
			got = append(got, line{o.ID, o.GuestOrder})
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("orders of %s: got %v, want %v", key, got, want)
		}
	}
	if orders, _ := s.CustomerOrders(ctx, "usr_ada"); len(orders) > 0 && (orders[0].Total != 3000 || orders[0].ItemCount() != 2) {
		t.Errorf("an order's summary: %+v", orders[0].Order)
	}

	for _, m := range []shop.ContactMessage{
		{Name: "Ada", Email: "Ada@Example.com", Subject: "Lamp", Message: "Hello"},
		{Name: "Glen", Email: "glen@example.com", Subject: "Parcel", Message: "Where?"},
	} {
		must(t, s.CreateContactMessage(ctx, &m))
	}
	msgs, err := s.CustomerMessages(ctx, "ada@example.com")
	if err != nil || len(msgs) != 1 || msgs[0].Subject != "Lamp" {
		t.Errorf("Ada's messages: %+v, %v", msgs, err)
	}
	if msgs, err := s.CustomerMessages(ctx, ""); err != nil || len(msgs) != 0 {
		t.Errorf("messages of no address: %+v, %v", msgs, err)
	}
}

// A note round trip: none at first, saved, replaced, deleted by an empty
// text; an account shows the note its address had as a guest's until
// its own is saved, which takes that one's place for good.
func customerNote(t *testing.T, s CustomerStore) {
	ctx := context.Background()
	at := time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)
	n, err := s.CustomerNote(ctx, "glen@example.com", "")
	if err != nil || n != (shop.CustomerNote{Key: "glen@example.com"}) {
		t.Fatalf("no note: %+v, %v", n, err)
	}
	for _, text := range []string{"Prefers a call.", "Prefers e-mail now.\nLine two: =SUM(A1)"} {
		must(t, s.SaveCustomerNote(ctx, shop.CustomerNote{Key: "glen@example.com", Text: text, By: "admin@example.com", At: at}))
		n, err := s.CustomerNote(ctx, "glen@example.com", "glen@example.com")
		want := shop.CustomerNote{Key: "glen@example.com", Text: text, By: "admin@example.com", At: at}
		if err != nil || n != want {
			t.Errorf("saved %q: got %+v, %v; want %+v", text, n, err, want)
		}
	}
	must(t, s.SaveCustomerNote(ctx, shop.CustomerNote{Key: "glen@example.com", By: "admin@example.com"}))
	if n, _ := s.CustomerNote(ctx, "glen@example.com", ""); n.Text != "" {
		t.Errorf("deleted note still there: %+v", n)
	}

	// Ada's address had a note as a guest's.
	must(t, s.SaveCustomerNote(ctx, shop.CustomerNote{Key: "ada@example.com", Text: "Guest note", By: "fay@example.com", At: at}))
	if n, _ := s.CustomerNote(ctx, "usr_ada", "ada@example.com"); n.Key != "usr_ada" || n.Text != "Guest note" || n.By != "fay@example.com" {
		t.Errorf("the account's note from its address: %+v", n)
	}
	must(t, s.SaveCustomerNote(ctx, shop.CustomerNote{Key: "usr_ada", Email: "ada@example.com", Text: "Account note", By: "admin@example.com", At: at}))
	if n, _ := s.CustomerNote(ctx, "usr_ada", "ada@example.com"); n.Text != "Account note" {
		t.Errorf("the account's own note: %+v", n)
	}
	must(t, s.SaveCustomerNote(ctx, shop.CustomerNote{Key: "usr_ada", Email: "ada@example.com", By: "admin@example.com"}))
	if n, _ := s.CustomerNote(ctx, "usr_ada", "ada@example.com"); n.Text != "" {
		t.Errorf("a cleared account note came back: %+v", n)
	}
}

// The exports read what was placed in the range, From included and To
// excluded, oldest first, pending orders never; the customers' figures
// count only the range; an error of the callback stops the read.
func customerExports(t *testing.T, s CustomerStore, now time.Time) {
	ctx := context.Background()
	day := 24 * time.Hour
	r := shop.ExportRange{From: now.Add(-3 * day), To: now.Add(-day)}

	var orders []string
	must(t, s.ExportOrders(ctx, r, func(o *shop.Order) error {
		orders = append(orders, o.ID)
		if o.ID == "NOC-A2" && (o.Refunded != 1000 || o.Total != 3000 || o.Currency == "" || !o.CreatedAt.Equal(now.Add(-2*day))) {
			t.Errorf("exported order: %+v", o)
		}
		return nil
	}))
	if want := []string{"NOC-A1", "NOC-A2"}; !reflect.DeepEqual(orders, want) {
		t.Errorf("orders in range: got %v, want %v", orders, want)
	}
	var all []string
	must(t, s.ExportOrders(ctx, shop.ExportRange{From: now.Add(-30 * day), To: now.Add(day)}, func(o *shop.Order) error {
		all = append(all, o.ID)
		return nil
	}))
	if want := []string{"NOC-AX", "NOC-A1", "NOC-A2", "NOC-G1", "NOC-G2"}; !reflect.DeepEqual(all, want) {
		t.Errorf("orders of the month: got %v, want %v", all, want)
	}

	var lines []shop.ExportLine
	must(t, s.ExportOrderLines(ctx, r, func(l shop.ExportLine) error {
		lines = append(lines, l)
		return nil
	}))
	wantLines := []shop.ExportLine{
		{OrderID: "NOC-A1", CreatedAt: now.Add(-3 * day), Currency: shop.OrderCurrency(), OrderLine: shop.OrderLine{ProductID: "lamp", VariantID: "lamp", Name: "Lamp", Price: 2500, Quantity: 2}},
		{OrderID: "NOC-A2", CreatedAt: now.Add(-2 * day), Currency: shop.OrderCurrency(), OrderLine: shop.OrderLine{ProductID: "shirt", VariantID: "shirt-m", Variation: "Size: M", Name: "Shirt", Price: 1000, Quantity: 1}},
		{OrderID: "NOC-A2", CreatedAt: now.Add(-2 * day), Currency: shop.OrderCurrency(), OrderLine: shop.OrderLine{ProductID: "mug", VariantID: "mug", Name: "Mug", Price: 2000, Quantity: 1}},
	}
	if !reflect.DeepEqual(lines, wantLines) {
		t.Errorf("lines in range:\n got %+v\nwant %+v", lines, wantLines)
	}

	var customers []shop.Customer
	must(t, s.ExportCustomers(ctx, r, func(c shop.Customer) error {
		customers = append(customers, c)
		return nil
	}))
	wantCustomers := []shop.Customer{{Key: "usr_ada", Name: "Ada Lovelace", Email: "ada@example.com", Orders: 2, Spent: 7000, LastOrder: now.Add(-2 * day)}}
	if !reflect.DeepEqual(customers, wantCustomers) {
		t.Errorf("customers in range: got %+v, want %+v", customers, wantCustomers)
	}
	var keys []string
	must(t, s.ExportCustomers(ctx, shop.ExportRange{}, func(c shop.Customer) error {
		keys = append(keys, c.Key)
		return nil
	}))
	if want := []string{"glen@example.com", "usr_ada"}; !reflect.DeepEqual(keys, want) {
		t.Errorf("customers of all time: got %v, want %v (only those with orders, by key)", keys, want)
	}

	stop := errors.New("stop")
	n := 0
	err := s.ExportOrders(ctx, shop.ExportRange{}, func(*shop.Order) error { n++; return stop })
	if !errors.Is(err, stop) || n != 1 {
		t.Errorf("a callback's error: %v after %d rows, want stop after 1", err, n)
	}
}
