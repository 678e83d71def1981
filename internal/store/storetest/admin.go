package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// The product editor's search ignores case on every database (PostgreSQL's
// LIKE does not), takes % and _ as the characters typed, and a new
// product's id is refused when taken; the staff list is in e-mail order.
func editorSearch(t *testing.T, s BackOfficeStore) {
	ctx := context.Background()
	must(t, s.ReplaceCatalog(ctx, "builtin", []string{"home"}, []shop.Product{
		{ID: "lamp-1", Title: "Walnut Desk Lamp", Category: "home", Price: 1000, Stock: 3},
		{ID: "rug-50", Title: "Rug, 50% wool", Category: "home", Price: 1000, Stock: 3},
		{ID: "rug-500", Title: "Rug 500 wool", Category: "home", Price: 1000, Stock: 3},
	}))
	for _, tc := range []struct{ query, want string }{
		{"desk LAMP", "lamp-1"},
		{"LAMP-", "lamp-1"},
		{"50%", "rug-50"},
		{"rug_", ""},
		{"", "lamp-1,rug-50,rug-500"},
	} {
		got, total, err := s.AdminProducts(ctx, tc.query, 1)
		if err != nil || ids(got) != tc.want || total != len(got) {
			t.Errorf("editor search %q: %s (%d in all), %v; want %s", tc.query, ids(got), total, err, tc.want)
		}
	}
	p := shop.Product{ID: "lamp-1", Title: "Another lamp", Category: "home", Price: 500, Stock: 1}
	if err := s.SaveProduct(ctx, shop.ProductEdit{Product: p, New: true}); shop.ErrorCode(err) != shop.ECONFLICT ||
		shop.ErrorMessage(err) != fmt.Sprintf(shop.MsgProductExists, "lamp-1") {
		t.Errorf("a new product under a taken id: %v", err)
	}
	if got, err := s.AdminProduct(ctx, "lamp-1"); err != nil || got.Title != "Walnut Desk Lamp" {
		t.Errorf("a refused new product changed the old one: %+v, %v", got, err)
	}

	for _, email := range []string{"bo@example.com", "a.z@example.com", "ab@example.com"} {
		u := &shop.User{ID: "usr_" + email, Email: email, DisplayName: "Staff"}
		must(t, s.CreateUser(ctx, u, []byte("hash")))
		must(t, s.MarkEmailVerified(ctx, u.ID))
		if _, err := s.GrantStaff(ctx, email, shop.RoleFulfilment); err != nil {
			t.Fatal(err)
		}
	}
	staff, err := s.ListStaff(ctx)
	var got []string
	for _, st := range staff {
		got = append(got, st.Email)
	}
	if want := "[a.z@example.com ab@example.com bo@example.com]"; err != nil || fmt.Sprint(got) != want {
		t.Errorf("staff list: %v, %v; want %s", got, err, want)
	}
}

// A claim released by several instances at once, while the payment's
// completion races them too, gives its stock back once at most: the order
// ends either placed with its stock taken, or gone with its stock back.
func releaseRace(t *testing.T, s BackOfficeStore) {
	ctx := context.Background()
	// Enough stock for every round to place its order: the import sets
	// stock only when it creates the product.
	seedStock(t, s, map[string]int{"p1": 50})
	for round := range 4 {
		owner, key := fmt.Sprintf("guest_%d", round), fmt.Sprintf("k%d", round)
		must(t, s.AddToCart(ctx, owner, "p1", 2))
		o, err := claim(ctx, s, owner, key)
		if err != nil {
			t.Fatal(err)
		}
		before, _ := s.Stock(ctx, "p1")
		var wg sync.WaitGroup
		begin := make(chan struct{})
		errs := make([]error, 4)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-begin
				if i == 0 {
					errs[i] = s.CompleteOrder(ctx, o.ID, true)
					if shop.ErrorCode(errs[i]) == shop.ECONFLICT { // released first
						errs[i] = nil
					}
					return
				}
				errs[i] = s.ReleaseOrder(ctx, o.ID)
			}()
		}
		close(begin)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d, racer %d: %v", round, i, err)
			}
		}
		n, _ := s.Stock(ctx, "p1")
		got, err := s.Order(ctx, o.ID)
		switch {
		case err == nil && got.Status == shop.StatusProcessing:
			if n != before {
				t.Errorf("round %d: order placed, stock %d, want %d", round, n, before)
			}
		case shop.ErrorCode(err) == shop.ENOTFOUND:
			if n != before+2 {
				t.Errorf("round %d: claim released, stock %d, want %d", round, n, before+2)
			}
		default:
			t.Errorf("round %d: order after the race: %+v, %v", round, got, err)
		}
	}
}

// The dashboard counts placed orders by day (cancelled ones in the count,
// not the revenue; pending claims in neither), what awaits shipping, the
// unanswered messages, and the visible products running out, least first.
func dashboard(t *testing.T, s BackOfficeStore) {
	ds, ok := s.(shop.DashboardStore)
	if !ok {
		t.Skipf("%T has no dashboard", s)
	}
	ctx := context.Background()
	today := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	for _, o := range []*shop.Order{
		order("NOC-1", "u1", shop.StatusProcessing, 1000, today.Add(9*time.Hour)),
		order("NOC-2", "u1", shop.StatusCancelled, 500, today.Add(10*time.Hour)),
		order("NOC-3", "u1", shop.StatusPending, 700, today.Add(11*time.Hour)),
		order("NOC-4", "u1", shop.StatusShipped, 300, today.Add(-time.Hour)),
		order("NOC-5", "u1", shop.StatusDelivered, 200, today.AddDate(0, 0, -3)),
	} {
		must(t, s.InsertOrder(ctx, o))
	}
	for _, subj := range []string{"first", "second"} {
		must(t, s.CreateContactMessage(ctx, &shop.ContactMessage{Name: "A", Email: "a@example.com", Subject: subj, Message: "m"}))
	}
	msgs, _, err := s.Inbox(ctx, false, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.MarkHandled(ctx, msgs[0].ID, "ada@example.com", today); err != nil {
		t.Fatal(err)
	}
	seedStock(t, s, map[string]int{"p1": shop.LowStockLevel, "p2": shop.LowStockLevel + 1, "p3": 0, "p4": 1})
	hidden, err := s.AdminProduct(ctx, "p4")
	if err != nil {
		t.Fatal(err)
	}
	hidden.Hidden = true
	must(t, s.SaveProduct(ctx, shop.ProductEdit{Product: *hidden, StockWas: hidden.Stock}))

	d, err := ds.Dashboard(ctx, today, 3)
	if err != nil {
		t.Fatal(err)
	}
	if d.OrdersToday != 2 || d.RevenueToday != 1000 || d.AwaitingShip != 1 || d.Unhandled != 1 {
		t.Errorf("dashboard: %d orders today for %d, %d to ship, %d messages; want 2 for 1000, 1, 1",
			d.OrdersToday, d.RevenueToday, d.AwaitingShip, d.Unhandled)
	}
	if got := ids(d.LowStock); got != "p3,p1" {
		t.Errorf("low stock: %s, want p3,p1", got)
	}
	want := []shop.DayTotal{{Day: today.AddDate(0, 0, -2)}, {Day: today.AddDate(0, 0, -1), Orders: 1, Revenue: 300}, {Day: today, Orders: 2, Revenue: 1000}}
	if fmt.Sprint(d.Days) != fmt.Sprint(want) {
		t.Errorf("days: %v, want %v", d.Days, want)
	}
}
