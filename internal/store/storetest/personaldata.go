package storetest

import (
	"context"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// PersonalDataStore is a store that also gathers a person's data and
// lists customers (a guest's key comes from the list).
type PersonalDataStore interface {
	Store
	shop.PersonalDataStore
	shop.CustomerStore
	shop.ReturnStore
}

// testPersonalData checks that a person's data holds every row of theirs
// and none of anyone else's, for an account and for a guest, and what
// erasure takes away and keeps.
func testPersonalData(t *testing.T, b Backend) {
	open := func(t *testing.T) PersonalDataStore {
		s, _, clock := b.open(t)
		ps, ok := s.(PersonalDataStore)
		if !ok {
			t.Skipf("%T does not implement the personal data store", s)
		}
		seedPersonal(t, ps, clock.Now())
		return ps
	}
	t.Run("Account", func(t *testing.T) { personalAccount(t, open(t)) })
	t.Run("Guest", func(t *testing.T) { personalGuest(t, open(t)) })
	t.Run("Erasure", func(t *testing.T) { personalErasure(t, open(t)) })
}

// seedPersonal makes Ada, a busy account (orders of her own, one pending,
// a guest checkout typed in capitals, a return, a wishlist, messages and
// mails in either case), Bob, an account with the same kinds of rows, and
// Glen, a guest whose address was stored in mixed case.
func seedPersonal(t *testing.T, s PersonalDataStore, now time.Time) {
	t.Helper()
	ctx := context.Background()
	seed(t, s)
	for _, u := range []shop.User{
		{ID: "usr_ada", Email: "ada@example.com", DisplayName: "Ada Lovelace", Address: "12 St James's Square", City: "London", ZipCode: "SW1Y 4LE"},
		{ID: "usr_bob", Email: "bob@example.com", DisplayName: "Bob"},
	} {
		must(t, s.CreateUser(ctx, &u, []byte("hash-"+u.ID)))
	}
	must(t, s.LinkGoogle(ctx, "usr_ada", "google-ada"))
	for _, g := range []string{"guest_ada", "guest_glen"} {
		must(t, s.CreateUser(ctx, &shop.User{ID: g, IsGuest: true}, nil))
	}
	mk := func(id, user, email string, status shop.OrderStatus, ago time.Duration, lines ...shop.OrderLine) {
		o := order(id, user, status, 0, now.Add(-ago))
		o.Email, o.Lines, o.PaymentStatus = email, lines, shop.PaymentPaid
		for _, l := range lines {
			o.Subtotal += l.Total()
		}
		o.Total, o.Tax, o.Currency = o.Subtotal, 100, "USD"
		must(t, s.InsertOrder(ctx, o))
	}
	lamp := shop.OrderLine{ProductID: "lamp-1", Name: "Walnut desk lamp", Price: 4500, Quantity: 2}
	tv := shop.OrderLine{ProductID: "tv-1", Name: "Compact TV", Price: 30000, Quantity: 1}
	board := shop.OrderLine{ProductID: "board-1", Name: "Serving board", Price: 2500, Quantity: 3}
	day := 24 * time.Hour
	mk("NOC-ADA1", "usr_ada", "ada@example.com", shop.StatusDelivered, 5*day, lamp, tv)
	mk("NOC-ADA2", "guest_ada", "ADA@Example.com", shop.StatusProcessing, 4*day, board)
	mk("NOC-ADA3", "usr_ada", "ada@example.com", shop.StatusPending, time.Hour, tv)
	mk("NOC-BOB1", "usr_bob", "bob@example.com", shop.StatusDelivered, 3*day, lamp)
	mk("NOC-GLEN", "guest_glen", "Glen@Example.com", shop.StatusShipped, 2*day, board)
	must(t, s.CreateReturn(ctx, &shop.ReturnRequest{OrderID: "NOC-ADA1", Reason: "other", Comment: "Too bright",
		RequestedBy: "usr_ada", Lines: []shop.ReturnLine{{Line: 0, Quantity: 1}}}))
	must(t, s.CreateReturn(ctx, &shop.ReturnRequest{OrderID: "NOC-BOB1", Reason: "other", RequestedBy: "usr_bob",
		Lines: []shop.ReturnLine{{Line: 0, Quantity: 2}}}))
	for _, w := range [][2]string{{"usr_ada", "lamp-2"}, {"usr_ada", "phones-1"}, {"usr_bob", "stand-1"}} {
		must(t, s.AddToWishlist(ctx, w[0], w[1]))
	}
	for _, m := range []shop.ContactMessage{
		{Name: "Ada", Email: "ada@example.com", Subject: "Parcel", Message: "Where is it?"},
		{Name: "Ada", Email: "Ada@EXAMPLE.com", Subject: "Thanks", Message: "It came."},
		{Name: "Bob", Email: "bob@example.com", Subject: "Bob's", Message: "Hello"},
		{Name: "Glen", Email: "glen@example.com", Subject: "Glen's", Message: "Hi"},
		{Name: "Ada L", Email: "ada.l@example.com", Subject: "Someone else", Message: "Not Ada's address"},
	} {
		must(t, s.CreateContactMessage(ctx, &m))
	}
	for _, to := range []string{"ada@example.com", "Ada@Example.COM", "bob@example.com", "glen@example.com"} {
		must(t, s.AddToOutbox(ctx, shop.Email{To: to, Subject: "Your order", Body: "Thanks"}))
	}
}

// contentsOf lists the ids of d's orders and lines, its returns'
// orders, wishlist's products and messages' subjects, each sorted.
func contentsOf(d *shop.PersonalData) map[string][]string {
	out := map[string][]string{}
	for _, o := range d.Orders {
		out["orders"] = append(out["orders"], o.ID)
		for _, l := range o.Lines {
			out["lines"] = append(out["lines"], o.ID+":"+l.ProductID)
		}
	}
	for _, r := range d.Returns {
		out["returns"] = append(out["returns"], r.OrderID)
	}
	for _, w := range d.Wishlist {
		out["wishlist"] = append(out["wishlist"], w.Product.ID)
	}
	for _, m := range d.Messages {
		out["messages"] = append(out["messages"], m.Subject)
	}
	for _, v := range out {
		sort.Strings(v)
	}
	return out
}

// Ada's data: her own orders (the pending one too) and the guest
// checkout made with her address in capitals, each with its lines, her
// return, wishlist and messages in either case; nothing of Bob's or
// Glen's, nor the message from a similar address.
func personalAccount(t *testing.T, s PersonalDataStore) {
	ctx := context.Background()
	d, err := s.PersonalData(ctx, "usr_ada")
	must(t, err)
	want := map[string][]string{
		"orders":   {"NOC-ADA1", "NOC-ADA2", "NOC-ADA3"},
		"lines":    {"NOC-ADA1:lamp-1", "NOC-ADA1:tv-1", "NOC-ADA2:board-1", "NOC-ADA3:tv-1"},
		"returns":  {"NOC-ADA1"},
		"wishlist": {"lamp-2", "phones-1"},
		"messages": {"Parcel", "Thanks"},
	}
	if got := contentsOf(d); !reflect.DeepEqual(got, want) {
		t.Errorf("Ada's data: got %v, want %v", got, want)
	}
	if d.Account == nil || d.Account.DisplayName != "Ada Lovelace" || !d.Account.HasPassword || d.Account.GoogleSubject != "google-ada" {
		t.Errorf("Ada's account: %+v", d.Account)
	}
	if d.Key != "usr_ada" || d.Email != "ada@example.com" {
		t.Errorf("Ada is %q %q", d.Key, d.Email)
	}
	if len(d.Returns) == 1 && (len(d.Returns[0].Lines) != 1 || d.Returns[0].Comment != "Too bright") {
		t.Errorf("Ada's return: %+v", d.Returns[0])
	}
	// Her address leads to her account, in any case.
	if byEmail, err := s.PersonalData(ctx, "ADA@example.com"); err != nil || byEmail.Key != "usr_ada" || len(byEmail.Orders) != 3 {
		t.Errorf("Ada by address: %+v, %v", byEmail, err)
	}
	bob, err := s.PersonalData(ctx, "usr_bob")
	must(t, err)
	if got := contentsOf(bob); !reflect.DeepEqual(got["orders"], []string{"NOC-BOB1"}) || !reflect.DeepEqual(got["wishlist"], []string{"stand-1"}) ||
		!reflect.DeepEqual(got["messages"], []string{"Bob's"}) || !reflect.DeepEqual(got["returns"], []string{"NOC-BOB1"}) {
		t.Errorf("Bob's data: %v", got)
	}
	_, err = s.PersonalData(ctx, "usr_nobody")
	wantCode(t, "an unknown account", err, shop.ENOTFOUND, "")
	_, err = s.PersonalData(ctx, "nobody@example.com")
	wantCode(t, "an unknown address", err, shop.ENOTFOUND, "")
}

// A guest is one customer in any case of the address: the list's key is
// the address in lower case, and it, the address as stored and another
// case all find the guest's page and data.
func personalGuest(t *testing.T, s PersonalDataStore) {
	ctx := context.Background()
	list, _, err := s.Customers(ctx, shop.CustomerQuery{Search: "glen", Page: 1})
	must(t, err)
	if len(list) != 1 || list[0].Key != "glen@example.com" || !list[0].Guest {
		t.Fatalf("Glen in the list: %+v", list)
	}
	for _, key := range []string{list[0].Key, "Glen@Example.com", "GLEN@EXAMPLE.COM"} {
		cu, err := s.Customer(ctx, key)
		if err != nil || cu.Key != "glen@example.com" || cu.Orders != 1 {
			t.Errorf("customer %q: %+v, %v", key, cu, err)
			continue
		}
		if orders, err := s.CustomerOrders(ctx, cu.Key); err != nil || len(orders) != 1 || orders[0].ID != "NOC-GLEN" {
			t.Errorf("Glen's orders by %q: %+v, %v", key, orders, err)
		}
	}
	d, err := s.PersonalData(ctx, "Glen@Example.com")
	must(t, err)
	want := map[string][]string{"orders": {"NOC-GLEN"}, "lines": {"NOC-GLEN:board-1"}, "messages": {"Glen's"}}
	if got := contentsOf(d); !reflect.DeepEqual(got, want) || d.Account != nil {
		t.Errorf("Glen's data: got %v (account %+v), want %v", got, d.Account, want)
	}
}

// Erasing Ada blanks her on every order that is hers (the guest checkout
// too) and keeps their amounts and tax, and removes the mails to her
// address in any case; Bob's and Glen's rows stay as they were.
func personalErasure(t *testing.T, s PersonalDataStore) {
	ctx := context.Background()
	must(t, s.DeleteUser(ctx, "usr_ada"))
	for _, id := range []string{"NOC-ADA1", "NOC-ADA2", "NOC-ADA3"} {
		o, err := s.Order(ctx, id)
		if err != nil || o.Email != "" || o.ShipTo != (shop.Address{Country: o.ShipTo.Country}) || o.Total == 0 || o.Tax != 100 || len(o.Lines) == 0 {
			t.Errorf("%s after erasure: %+v, %v", id, o, err)
		}
	}
	for id, email := range map[string]string{"NOC-BOB1": "bob@example.com", "NOC-GLEN": "Glen@Example.com"} {
		if o, err := s.Order(ctx, id); err != nil || o.Email != email || o.ShipTo.Name != "Night Owl" {
			t.Errorf("%s after Ada's erasure: %+v, %v", id, o, err)
		}
	}
	mails, err := s.Outbox(ctx)
	must(t, err)
	var to []string
	for _, m := range mails {
		to = append(to, m.To)
	}
	sort.Strings(to)
	if want := []string{"bob@example.com", "glen@example.com"}; !reflect.DeepEqual(to, want) {
		t.Errorf("outbox after erasure: %v, want %v", to, want)
	}
	_, err = s.PersonalData(ctx, "usr_ada")
	wantCode(t, "Ada after erasure", err, shop.ENOTFOUND, "")
	wantCode(t, "erase twice", s.DeleteUser(ctx, "usr_ada"), shop.ENOTFOUND, "")
}
