package storetest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// BackOfficeStore is what the back office needs of a backend:
// stock taken with the order claim, order transitions, staff roles, the
// audit log, the inbox, the product list and the dashboard.
type BackOfficeStore interface {
	Store
	shop.StockStore
	shop.StaffStore
	shop.AuditStore
	shop.FulfilmentStore
	shop.InboxStore
	shop.ProductAdminStore
	shop.DashboardStore
	shop.VariantStore
}

// testBackOffice runs the back-office checks on a backend that offers
// them (a backend without them is skipped, with a line saying so).
func testBackOffice(t *testing.T, b Backend) {
	var clock *Clock
	now := func() time.Time { return clock.Now() }
	open := func(t *testing.T) BackOfficeStore {
		s, _, c := b.open(t)
		clock = c
		bs, ok := s.(BackOfficeStore)
		if !ok {
			t.Skipf("%T does not implement the back-office store", s)
		}
		return bs
	}
	t.Run("StockRace", func(t *testing.T) { stockRace(t, open(t)) })
	t.Run("OptionFilter", func(t *testing.T) { optionFilter(t, open(t)) })
	t.Run("StockOwnedByShop", func(t *testing.T) { stockOwnedByShop(t, open(t), now) })
	t.Run("StockEditAfterSale", func(t *testing.T) { stockEditAfterSale(t, open(t)) })
	t.Run("StockEditRacesSales", func(t *testing.T) { stockEditRacesSales(t, open(t)) })
	t.Run("Transitions", func(t *testing.T) { transitions(t, open(t)) })
	t.Run("Staff", func(t *testing.T) { staffRoles(t, open(t)) })
	t.Run("Inbox", func(t *testing.T) { inbox(t, open(t), now) })
	t.Run("EditorSearch", func(t *testing.T) { editorSearch(t, open(t)) })
	t.Run("ReleaseRace", func(t *testing.T) { releaseRace(t, open(t)) })
	t.Run("Dashboard", func(t *testing.T) { dashboard(t, open(t)) })
	t.Run("StaffList", func(t *testing.T) { staffList(t, open(t), now) })
	t.Run("AdminProducts", func(t *testing.T) { adminProducts(t, open(t)) })
	t.Run("DashboardDays", func(t *testing.T) {
		s := open(t)
		dashboardDays(t, s, clock)
	})
}

func seedStock(t *testing.T, s BackOfficeStore, stock map[string]int) {
	t.Helper()
	var ps []shop.Product
	for id, n := range stock {
		ps = append(ps, shop.Product{ID: id, Title: "Product " + id, Category: "home", Price: 1000, Stock: n})
	}
	if err := s.ReplaceCatalog(context.Background(), "builtin", []string{"home"}, ps); err != nil {
		t.Fatal(err)
	}
}

// claim has owner's cart claimed as an order under key, as checkout does.
func claim(ctx context.Context, s BackOfficeStore, owner, key string) (*shop.Order, error) {
	o, _, err := s.ClaimCart(ctx, owner, key, func(c shop.Cart, placed int) (*shop.Order, error) {
		o := &shop.Order{ID: "NOC-" + key, UserID: owner, Email: owner + "@example.com", ShipTo: shop.Address{Name: "A"},
			PaymentMethod: "Visa ending 4242", ChargeKey: "chg_" + key, LeaseUntil: time.Now().Add(time.Minute)}
		for _, l := range c.Lines {
			o.Lines = append(o.Lines, shop.OrderLine{ProductID: l.Product.ID, VariantID: l.VariantID, Variation: l.Variation,
				Name: l.Product.Title, Price: l.Product.Price, Quantity: l.Quantity})
			o.Subtotal += l.Total()
		}
		o.Total = o.Subtotal
		return o, nil
	})
	return o, err
}

// Shoppers racing for the last items of one variant: exactly as many
// orders as the variant has in stock go through, the rest are refused with
// the shopper's message, the variant's stock ends at zero, never below, and
// the product's other variant keeps its stock.
func stockRace(t *testing.T, s BackOfficeStore) {
	ctx := context.Background()
	for _, tc := range []struct{ stock, racers int }{{1, 2}, {3, 8}} {
		id := fmt.Sprintf("race-%d", tc.stock)
		seedStock(t, s, map[string]int{id: 0})
		variant := id + "-m"
		if err := s.SetChoices(ctx, id, shop.Choices{
			Options: []shop.Option{{Name: "Size", Values: []shop.OptionValue{{Value: "M"}, {Value: "L"}}}},
			Variants: []shop.Variant{
				{ID: variant, Values: []string{"M"}, Stock: tc.stock, Enabled: true},
				{ID: id + "-l", Values: []string{"L"}, Stock: 50, Enabled: true},
			},
		}); err != nil {
			t.Fatal(err)
		}
		for i := range tc.racers {
			if err := s.AddToCart(ctx, fmt.Sprintf("guest_%s_%d", id, i), variant, 1); err != nil {
				t.Fatal(err)
			}
		}
		var wg sync.WaitGroup
		start := make(chan struct{})
		errs := make([]error, tc.racers)
		for i := range tc.racers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				_, errs[i] = claim(ctx, s, fmt.Sprintf("guest_%s_%d", id, i), fmt.Sprintf("%s-%d", id, i))
			}()
		}
		close(start)
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case shop.ErrorCode(err) != shop.EINVALID:
				t.Errorf("a refused claim failed with %v, want an EINVALID with the shopper's message", err)
			case !strings.Contains(shop.ErrorMessage(err), "(Size: M)"):
				t.Errorf("refusal %q does not name the variant", shop.ErrorMessage(err))
			}
		}
		if won != tc.stock {
			t.Errorf("%d racers for %d items: %d orders went through", tc.racers, tc.stock, won)
		}
		if n, err := s.Stock(ctx, variant); err != nil || n != 0 {
			t.Errorf("stock after the race: %d, %v", n, err)
		}
		if n, err := s.Stock(ctx, id+"-l"); err != nil || n != 50 {
			t.Errorf("the other variant's stock after the race: %d, %v; want 50", n, err)
		}
	}
}

// An import sets stock only for a product it creates; a released claim and
// a cancelled order give their stock back; a staff edit is never undone by
// an import.
func stockOwnedByShop(t *testing.T, s BackOfficeStore, now func() time.Time) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"p1": 5, "p2": 5})
	if err := s.AddToCart(ctx, "guest_1", "p1", 2); err != nil {
		t.Fatal(err)
	}
	o, err := claim(ctx, s, "guest_1", "k1")
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := s.Stock(ctx, "p1"); n != 3 {
		t.Errorf("stock after a claim of 2: %d", n)
	}
	since := now().Add(-time.Minute)
	if ch, err := s.StockChanges(ctx, since); err != nil || ch["p1"] != 3 {
		t.Errorf("stock changes: %v, %v", ch, err)
	}
	seedStock(t, s, map[string]int{"p1": 50, "p2": 50}) // a re-import
	if n, _ := s.Stock(ctx, "p1"); n != 3 {
		t.Errorf("stock after a re-import: %d, want the shop's 3", n)
	}
	if err := s.ReleaseOrder(ctx, o.ID); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.Stock(ctx, "p1"); n != 5 {
		t.Errorf("stock after a released claim: %d", n)
	}
	p, err := s.AdminProduct(ctx, "p2")
	if err != nil {
		t.Fatal(err)
	}
	p.Title, p.Price, p.Stock = "Edited", 1234, 9
	if err := s.SaveProduct(ctx, shop.ProductEdit{Product: *p, StockWas: 5}); err != nil {
		t.Fatal(err)
	}
	if err := s.ReplaceCatalog(ctx, "builtin", []string{"home"}, []shop.Product{{ID: "p1", Title: "P1", Category: "home", Price: 1000}}); err != nil {
		t.Fatal(err)
	}
	p, err = s.AdminProduct(ctx, "p2")
	if err != nil {
		t.Fatalf("a staff-edited product was removed by an import: %v", err)
	}
	if p.Title != "Edited" || p.Price != 1234 || p.Stock != 9 {
		t.Errorf("an import overwrote a staff edit: %+v", p)
	}
}

// Staff open the editor at 5 in stock, a shopper buys 2: saving other
// fields leaves the 3, and a typed stock is refused with the stock now.
func stockEditAfterSale(t *testing.T, s BackOfficeStore) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"p1": 5})
	loaded, err := s.AdminProduct(ctx, "p1")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AddToCart(ctx, "guest_1", "p1", 2); err != nil {
		t.Fatal(err)
	}
	if _, err := claim(ctx, s, "guest_1", "k1"); err != nil {
		t.Fatal(err)
	}
	edit := shop.ProductEdit{Product: *loaded, StockWas: loaded.Stock}
	edit.Title = "Renamed"
	if err := s.SaveProduct(ctx, edit); err != nil {
		t.Fatal(err)
	}
	if p, _ := s.AdminProduct(ctx, "p1"); p.Stock != 3 || p.Title != "Renamed" {
		t.Errorf("a title-only save after a sale: stock %d, title %q; want 3, Renamed", p.Stock, p.Title)
	}
	edit.Stock, edit.Title = 8, "Renamed again"
	err = s.SaveProduct(ctx, edit)
	if shop.ErrorCode(err) != shop.ECONFLICT || shop.ErrorField(err) != "stock" || shop.ErrorMessage(err) != "Stock changed while you were editing: it is now 3." {
		t.Errorf("a stock typed over a sale: %v (field %q)", err, shop.ErrorField(err))
	}
	if p, _ := s.AdminProduct(ctx, "p1"); p.Stock != 3 || p.Title != "Renamed" {
		t.Errorf("a refused save changed the product: stock %d, title %q", p.Stock, p.Title)
	}
	edit.StockWas = 3
	if err := s.SaveProduct(ctx, edit); err != nil {
		t.Fatal(err)
	}
	if p, _ := s.AdminProduct(ctx, "p1"); p.Stock != 8 {
		t.Errorf("stock %d after a save checked against 3, want 8", p.Stock)
	}
	edit.ID = "gone"
	if err := s.SaveProduct(ctx, edit); shop.ErrorCode(err) != shop.ENOTFOUND {
		t.Errorf("editing a product that is gone: %v", err)
	}
}

// Shoppers buy one each while staff save the product twice, once leaving
// stock alone and once typing a new number over what they loaded: no sale
// is ever undone, whichever commits first.
func stockEditRacesSales(t *testing.T, s BackOfficeStore) {
	ctx := context.Background()
	const start, buyers = 10, 6
	seedStock(t, s, map[string]int{"p1": start})
	loaded, err := s.AdminProduct(ctx, "p1")
	if err != nil {
		t.Fatal(err)
	}
	for i := range buyers {
		if err := s.AddToCart(ctx, fmt.Sprintf("guest_%d", i), "p1", 1); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	begin := make(chan struct{})
	sold := make([]error, buyers)
	for i := range buyers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-begin
			_, sold[i] = claim(ctx, s, fmt.Sprintf("guest_%d", i), fmt.Sprintf("k%d", i))
		}()
	}
	titleOnly := shop.ProductEdit{Product: *loaded, StockWas: loaded.Stock}
	titleOnly.Title = "Title only"
	restock := shop.ProductEdit{Product: *loaded, StockWas: loaded.Stock}
	restock.Stock = 30
	var titleErr, restockErr error
	wg.Add(2)
	go func() { defer wg.Done(); <-begin; titleErr = s.SaveProduct(ctx, titleOnly) }()
	go func() { defer wg.Done(); <-begin; restockErr = s.SaveProduct(ctx, restock) }()
	close(begin)
	wg.Wait()
	for i, err := range sold {
		if err != nil {
			t.Fatalf("sale %d: %v", i, err)
		}
	}
	if titleErr != nil {
		t.Errorf("a save that leaves stock alone failed: %v", titleErr)
	}
	want := start - buyers
	switch code := shop.ErrorCode(restockErr); {
	case restockErr == nil:
		// The restock went in before any sale: the sales come off 30.
		want = restock.Stock - buyers
	case code != shop.ECONFLICT:
		t.Fatalf("the restock failed with %v, want success or the stock-moved conflict", restockErr)
	}
	if n, err := s.Stock(ctx, "p1"); err != nil || n != want {
		t.Errorf("stock after %d sales racing two saves (restock: %v): %d, want %d", buyers, restockErr, n, want)
	}
}

func transitions(t *testing.T, s BackOfficeStore) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"p1": 4})
	if err := s.AddToCart(ctx, "guest_1", "p1", 3); err != nil {
		t.Fatal(err)
	}
	o, err := claim(ctx, s, "guest_1", "k1")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CompleteOrder(ctx, o.ID, true); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 21, 13, 0, 0, 0, time.UTC)
	if _, err := s.TransitionOrder(ctx, shop.Transition{OrderID: o.ID, From: shop.StatusShipped, To: shop.StatusDelivered, At: at}); shop.ErrorCode(err) != shop.ECONFLICT {
		t.Errorf("deliver a processing order: %v, want ECONFLICT", err)
	}
	got, err := s.TransitionOrder(ctx, shop.Transition{OrderID: o.ID, From: shop.StatusProcessing, To: shop.StatusShipped,
		Carrier: "UPS", Tracking: "1Z999", Actor: "ada@example.com", At: at})
	if err != nil || got.Status != shop.StatusShipped || got.TrackingNumber != "1Z999" || got.Carrier != "UPS" {
		t.Fatalf("ship: %+v, %v", got, err)
	}
	if _, err := s.TransitionOrder(ctx, shop.Transition{OrderID: o.ID, From: shop.StatusProcessing, To: shop.StatusCancelled, Reason: "x", At: at}); shop.ErrorCode(err) != shop.ECONFLICT ||
		shop.ErrorMessage(err) != fmt.Sprintf(shop.MsgOrderMoved, shop.StatusShipped) {
		t.Errorf("cancel a shipped order: %v, want ECONFLICT saying it is shipped", err)
	}
	if _, err := s.TransitionOrder(ctx, shop.Transition{OrderID: "NOC-NONE", From: shop.StatusProcessing, To: shop.StatusShipped, At: at}); shop.ErrorCode(err) != shop.ENOTFOUND {
		t.Errorf("unknown order: %v, want ENOTFOUND", err)
	}
	events, err := s.OrderEvents(ctx, o.ID)
	if err != nil || len(events) != 1 || events[0].Status != string(shop.StatusShipped) || events[0].Actor != "ada@example.com" || !events[0].At.Equal(at) {
		t.Errorf("events: %+v, %v", events, err)
	}

	// Cancelling gives the stock back.
	if err := s.AddToCart(ctx, "guest_2", "p1", 1); err != nil {
		t.Fatal(err)
	}
	o2, err := claim(ctx, s, "guest_2", "k2")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CompleteOrder(ctx, o2.ID, true); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.Stock(ctx, "p1"); n != 0 {
		t.Fatalf("stock %d", n)
	}
	if _, err := s.TransitionOrder(ctx, shop.Transition{OrderID: o2.ID, From: shop.StatusProcessing, To: shop.StatusCancelled, Reason: "Asked to", At: at}); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.Stock(ctx, "p1"); n != 1 {
		t.Errorf("stock after cancel: %d", n)
	}
	list, total, err := s.AdminOrders(ctx, shop.AdminOrderQuery{Status: shop.StatusCancelled})
	if err != nil || total != 1 || len(list) != 1 || list[0].ID != o2.ID || list[0].CancelReason != "Asked to" {
		t.Errorf("cancelled orders: %d %+v %v", total, list, err)
	}
	if _, total, _ := s.AdminOrders(ctx, shop.AdminOrderQuery{Search: "guest_1@EXAMPLE.com"}); total != 1 {
		t.Errorf("search by e-mail: %d", total)
	}
	if _, total, _ := s.AdminOrders(ctx, shop.AdminOrderQuery{Search: "noc-k"}); total != 2 {
		t.Errorf("search by number prefix: %d", total)
	}
}

func staffRoles(t *testing.T, s BackOfficeStore) {
	ctx := context.Background()
	if _, err := s.GrantStaff(ctx, "nobody@example.com", shop.RoleAdmin); shop.ErrorCode(err) != shop.ENOTFOUND ||
		shop.ErrorMessage(err) != fmt.Sprintf(shop.MsgNoStaffAccount, "nobody@example.com") {
		t.Errorf("grant to no account: %v", err)
	}
	u := &shop.User{ID: "usr_1", Email: "ada@example.com", DisplayName: "Ada"}
	if err := s.CreateUser(ctx, u, []byte("hash")); err != nil {
		t.Fatal(err)
	}
	if r, err := s.StaffRole(ctx, u.ID); err != nil || r != "" {
		t.Errorf("role before: %q, %v", r, err)
	}
	// Whoever registered an address nobody verified may not be its owner:
	// no role for it.
	if _, err := s.GrantStaff(ctx, "ada@example.com", shop.RoleAdmin); shop.ErrorCode(err) != shop.EINVALID ||
		shop.ErrorMessage(err) != fmt.Sprintf(shop.MsgStaffUnverified, "ada@example.com") {
		t.Errorf("grant to an unverified account: %v", err)
	}
	if r, _ := s.StaffRole(ctx, u.ID); r != "" {
		t.Errorf("role of an unverified account: %q", r)
	}
	if err := s.MarkEmailVerified(ctx, u.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GrantStaff(ctx, "ADA@example.com", shop.RoleFulfilment); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GrantStaff(ctx, "ada@example.com", shop.RoleAdmin); err != nil {
		t.Fatal(err)
	}
	if r, _ := s.StaffRole(ctx, u.ID); r != shop.RoleAdmin {
		t.Errorf("role: %q", r)
	}
	if ok, err := s.RevokeStaff(ctx, "ada@example.com"); !ok || err != nil {
		t.Errorf("revoke: %v %v", ok, err)
	}
	if r, _ := s.StaffRole(ctx, u.ID); r != "" {
		t.Errorf("role after revoke: %q", r)
	}
	for i := range 3 {
		if err := s.RecordAudit(ctx, shop.AuditEntry{Actor: "ada@example.com", Action: fmt.Sprint("a", i), Subject: "x", Before: "1", After: "2"}); err != nil {
			t.Fatal(err)
		}
	}
	entries, total, err := s.AuditLog(ctx, 1)
	if err != nil || total != 3 || entries[0].Action != "a2" || entries[0].Before != "1" || entries[0].After != "2" {
		t.Errorf("audit log: %d %+v %v", total, entries, err)
	}
}

func inbox(t *testing.T, s BackOfficeStore, now func() time.Time) {
	ctx := context.Background()
	for _, subj := range []string{"first", "second"} {
		if err := s.CreateContactMessage(ctx, &shop.ContactMessage{Name: "A", Email: "a@example.com", Subject: subj, Message: "m"}); err != nil {
			t.Fatal(err)
		}
	}
	msgs, total, err := s.Inbox(ctx, false, 1)
	if err != nil || total != 2 || msgs[0].Subject != "second" {
		t.Fatalf("inbox, newest first: %d %+v %v", total, msgs, err)
	}
	if ok, err := s.MarkHandled(ctx, msgs[0].ID, "ada@example.com", now()); !ok || err != nil {
		t.Errorf("mark handled: %v %v", ok, err)
	}
	if ok, _ := s.MarkHandled(ctx, msgs[0].ID, "bob@example.com", now()); ok {
		t.Error("marked handled twice")
	}
	m, err := s.ContactMessage(ctx, msgs[0].ID)
	if err != nil || m.HandledBy != "ada@example.com" || !m.HandledAt.Equal(now()) {
		t.Errorf("handled message: %+v %v", m, err)
	}
	if _, total, _ := s.Inbox(ctx, true, 1); total != 1 {
		t.Errorf("unhandled: %d", total)
	}
	if _, err := s.ContactMessage(ctx, 999); shop.ErrorCode(err) != shop.ENOTFOUND {
		t.Errorf("unknown message: %v", err)
	}
}

// The staff page lists everyone with a role, by e-mail address, with the
// role and when it was given; a revoked role and an account without one
// are not listed.
func staffList(t *testing.T, s BackOfficeStore, now func() time.Time) {
	ctx := context.Background()
	if list, err := s.ListStaff(ctx); err != nil || len(list) != 0 {
		t.Fatalf("staff of a new shop: %+v, %v", list, err)
	}
	for _, u := range []shop.User{{ID: "usr_c", Email: "cy@example.com"}, {ID: "usr_a", Email: "ada@example.com"}, {ID: "usr_b", Email: "bo@example.com"}, {ID: "usr_d", Email: "di@example.com"}} {
		must(t, s.CreateUser(ctx, &u, []byte("hash")))
		must(t, s.MarkEmailVerified(ctx, u.ID))
	}
	for _, g := range []struct{ email, role string }{
		{"cy@example.com", shop.RoleAdmin},
		{"ADA@example.com", shop.RoleFulfilment},
		{"di@example.com", shop.RoleAdmin},
	} {
		if _, err := s.GrantStaff(ctx, g.email, g.role); err != nil {
			t.Fatal(err)
		}
	}
	if ok, err := s.RevokeStaff(ctx, "di@example.com"); !ok || err != nil {
		t.Fatalf("revoke: %v %v", ok, err)
	}
	list, err := s.ListStaff(ctx)
	must(t, err)
	want := []shop.Staff{
		{UserID: "usr_a", Email: "ada@example.com", Role: shop.RoleFulfilment, CreatedAt: now()},
		{UserID: "usr_c", Email: "cy@example.com", Role: shop.RoleAdmin, CreatedAt: now()},
	}
	if len(list) != len(want) {
		t.Fatalf("staff: got %+v, want %+v", list, want)
	}
	for i := range want {
		if g, w := list[i], want[i]; g.UserID != w.UserID || g.Email != w.Email || g.Role != w.Role || !g.CreatedAt.Equal(w.CreatedAt) {
			t.Errorf("staff %d: got %+v, want %+v", i, g, w)
		}
	}
}

// The product editor's list: every product, hidden ones too, by id, a
// page at a time; the search box matches the id or the title, in any
// case, and takes % and _ as the characters they are.
func adminProducts(t *testing.T, s BackOfficeStore) {
	ctx := context.Background()
	ps := []shop.Product{
		{ID: "lamp-1", Title: "Walnut desk lamp", Category: "home", Price: 4500, Stock: 3},
		{ID: "lamp-2", Title: "Brass floor lamp", Category: "home", Price: 12000, Stock: 3},
		{ID: "mug-1", Title: "snake_case mug", Category: "home", Price: 900, Stock: 3},
		{ID: "sign-1", Title: "50% off sign", Category: "home", Price: 500, Stock: 3},
	}
	for i := range 2 * shop.AdminProductsPageSize {
		ps = append(ps, shop.Product{ID: fmt.Sprintf("bulk-%02d", i), Title: fmt.Sprintf("Bulk item %d", i), Category: "home", Price: 100, Stock: 3})
	}
	must(t, s.ReplaceCatalog(ctx, "builtin", []string{"home"}, ps))
	must(t, s.SaveProduct(ctx, shop.ProductEdit{New: true, Product: shop.Product{ID: "zz-hidden", Title: "Retired lamp", Category: "home", Price: 100, Hidden: true}}))
	const all = 4 + 2*shop.AdminProductsPageSize + 1
	bulk := func(from, to int) string {
		var out []string
		for i := from; i < to; i++ {
			out = append(out, fmt.Sprintf("bulk-%02d", i))
		}
		return strings.Join(out, ",")
	}
	for _, tt := range []struct {
		name, query string
		page        int
		want        string
		total       int
	}{
		{"FirstPage", "", 1, bulk(0, shop.AdminProductsPageSize), all},
		{"PageZeroIsTheFirst", "", 0, bulk(0, shop.AdminProductsPageSize), all},
		{"SecondPage", "", 2, bulk(shop.AdminProductsPageSize, 2*shop.AdminProductsPageSize), all},
		{"LastPage", "", 3, "lamp-1,lamp-2,mug-1,sign-1,zz-hidden", all},
		{"PastTheEnd", "", 4, "", all},
		{"TitleAnyCase", "LAMP", 1, "lamp-1,lamp-2,zz-hidden", 3},
		{"TitleWord", "walnut", 1, "lamp-1", 1},
		{"ID", "sign-", 1, "sign-1", 1},
		{"SpacesTrimmed", "  brass  ", 1, "lamp-2", 1},
		{"PercentIsLiteral", "%", 1, "sign-1", 1},
		{"UnderscoreIsLiteral", "_", 1, "mug-1", 1},
		{"NoMatch", "zebra", 1, "", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, total, err := s.AdminProducts(ctx, tt.query, tt.page)
			if err != nil {
				t.Fatal(err)
			}
			if ids(got) != tt.want || total != tt.total {
				t.Errorf("%q page %d: got %s (total %d), want %s (total %d)", tt.query, tt.page, ids(got), total, tt.want, tt.total)
			}
		})
	}
	if got, _, _ := s.AdminProducts(ctx, "Retired", 1); len(got) != 1 || !got[0].Hidden {
		t.Errorf("a hidden product is listed as hidden: %+v", got)
	}
}

// The dashboard a member of staff opens on the third day: today's orders
// and revenue (a cancelled order counts as an order but earns nothing; a
// payment under way is not an order yet), orders still to ship, messages
// nobody handled, products running low (hidden ones left out, least stock
// first) and a day-by-day chart ending today.
func dashboardDays(t *testing.T, s BackOfficeStore, clock *Clock) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"sold": 100, "a-low": shop.LowStockLevel, "b-out": 0, "c-plenty": shop.LowStockLevel + 1})
	must(t, s.SaveProduct(ctx, shop.ProductEdit{New: true, Product: shop.Product{ID: "d-hidden", Title: "Retired", Category: "home", Price: 100, Stock: 1, Hidden: true}}))
	n := 0
	place := func(qty int, complete bool) *shop.Order {
		t.Helper()
		n++
		owner := fmt.Sprintf("guest_d%d", n)
		must(t, s.AddToCart(ctx, owner, "sold", qty))
		o, err := claim(ctx, s, owner, fmt.Sprintf("d%d", n))
		must(t, err)
		if complete {
			must(t, s.CompleteOrder(ctx, o.ID, true))
		}
		return o
	}
	at := func() time.Time { return clock.Now() }

	// Day 1 (11-21): one order, shipped since.
	shipped := place(1, true)
	if _, err := s.TransitionOrder(ctx, shop.Transition{OrderID: shipped.ID, From: shop.StatusProcessing, To: shop.StatusShipped, Carrier: "UPS", Tracking: "1Z", At: at()}); err != nil {
		t.Fatal(err)
	}
	// Day 2: one order, cancelled.
	clock.Add(24 * time.Hour)
	cancelled := place(3, true)
	if _, err := s.TransitionOrder(ctx, shop.Transition{OrderID: cancelled.ID, From: shop.StatusProcessing, To: shop.StatusCancelled, Reason: "Asked to", At: at()}); err != nil {
		t.Fatal(err)
	}
	// Day 3, today: one order to ship, one payment under way.
	clock.Add(24 * time.Hour)
	place(2, true)
	place(4, false)
	for _, subj := range []string{"first", "second"} {
		must(t, s.CreateContactMessage(ctx, &shop.ContactMessage{Name: "A", Email: "a@example.com", Subject: subj, Message: "m"}))
	}
	msgs, _, err := s.Inbox(ctx, false, 1)
	must(t, err)
	if _, err := s.MarkHandled(ctx, msgs[0].ID, "ada@example.com", at()); err != nil {
		t.Fatal(err)
	}

	today := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	day := func(d int) time.Time { return today.AddDate(0, 0, d) }
	for _, tt := range []struct {
		name string
		days int
		want []shop.DayTotal
	}{
		{"ThreeDays", 3, []shop.DayTotal{{Day: day(-2), Orders: 1, Revenue: 1000}, {Day: day(-1), Orders: 1, Revenue: 0}, {Day: day(0), Orders: 1, Revenue: 2000}}},
		{"WeekBeforeTheShopOpened", 5, []shop.DayTotal{{Day: day(-4)}, {Day: day(-3)}, {Day: day(-2), Orders: 1, Revenue: 1000}, {Day: day(-1), Orders: 1, Revenue: 0}, {Day: day(0), Orders: 1, Revenue: 2000}}},
		{"TodayOnly", 1, []shop.DayTotal{{Day: day(0), Orders: 1, Revenue: 2000}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, err := s.Dashboard(ctx, today, tt.days)
			if err != nil {
				t.Fatal(err)
			}
			if d.OrdersToday != 1 || d.RevenueToday != 2000 {
				t.Errorf("today: %d orders, %d revenue; want 1 and 2000", d.OrdersToday, d.RevenueToday)
			}
			if d.AwaitingShip != 1 {
				t.Errorf("awaiting shipment: %d, want 1", d.AwaitingShip)
			}
			if d.Unhandled != 1 {
				t.Errorf("unhandled messages: %d, want 1", d.Unhandled)
			}
			if got := ids(d.LowStock); got != "b-out,a-low" {
				t.Errorf("low stock: %s, want b-out,a-low", got)
			}
			if len(d.Days) != len(tt.want) {
				t.Fatalf("days: got %+v, want %+v", d.Days, tt.want)
			}
			for i, w := range tt.want {
				if g := d.Days[i]; !g.Day.Equal(w.Day) || g.Orders != w.Orders || g.Revenue != w.Revenue {
					t.Errorf("day %d: got %+v, want %+v", i, g, w)
				}
			}
		})
	}
}
