package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// OrderDeskStore is what the back office's notes, carriers and product
// deletion need of a backend.
type OrderDeskStore interface {
	BackOfficeStore
	shop.OrderNoteStore
	shop.CarrierStore
}

// testOrderDesk runs the checks of staff notes, the carriers table and
// deleting a product on a backend that offers them.
func testOrderDesk(t *testing.T, b Backend) {
	open := func(t *testing.T) OrderDeskStore {
		s, _, _ := b.open(t)
		ds, ok := s.(OrderDeskStore)
		if !ok {
			t.Skipf("%T does not implement notes, carriers and product deletion", s)
		}
		return ds
	}
	t.Run("Notes", func(t *testing.T) { orderNotes(t, open(t)) })
	t.Run("Carriers", func(t *testing.T) { carriers(t, open(t)) })
	t.Run("DeleteProduct", func(t *testing.T) { deleteProduct(t, open(t)) })
}

// A note joins the order's timeline in order, as a note, by its author;
// an order that is not placed takes none.
func orderNotes(t *testing.T, s OrderDeskStore) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"p1": 4})
	must(t, s.AddToCart(ctx, "guest_1", "p1", 1))
	o, err := claim(ctx, s, "guest_1", "k1")
	must(t, err)
	at := time.Date(2026, 11, 21, 13, 0, 0, 0, time.UTC)
	wantCode(t, "a note on a pending order", s.AddOrderNote(ctx, o.ID, "early", "ada@example.com", at), shop.ENOTFOUND, shop.MsgOrderNotFound)
	wantCode(t, "a note on no order", s.AddOrderNote(ctx, "NOC-NONE", "x", "ada@example.com", at), shop.ENOTFOUND, shop.MsgOrderNotFound)
	must(t, s.CompleteOrder(ctx, o.ID, true))
	must(t, s.AddOrderNote(ctx, o.ID, "Fragile:\ndouble-box it", "ada@example.com", at))
	_, err = s.TransitionOrder(ctx, shop.Transition{OrderID: o.ID, From: shop.StatusProcessing, To: shop.StatusShipped,
		Carrier: "UPS", Tracking: "1Z", Actor: "bob@example.com", At: at.Add(time.Minute)})
	must(t, err)
	must(t, s.AddOrderNote(ctx, o.ID, "Left the dock", "bob@example.com", at.Add(2*time.Minute)))
	events, err := s.OrderEvents(ctx, o.ID)
	must(t, err)
	var got []string
	for _, e := range events {
		if e.Status == string(shop.PaymentPaid) {
			continue // the payment's own step, if the backend records one
		}
		got = append(got, fmt.Sprintf("%s|%s|%s|%s", e.Status, e.Note, e.Actor, e.At.Format("15:04")))
	}
	want := []string{"note|Fragile:\ndouble-box it|ada@example.com|13:00", "shipped|UPS 1Z|bob@example.com|13:01", "note|Left the dock|bob@example.com|13:02"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("timeline: got %q, want %q", got, want)
	}
	if o2, _ := s.Order(ctx, o.ID); o2.Status != shop.StatusShipped {
		t.Errorf("a note changed the order's status to %s", o2.Status)
	}
}

// The migrations seed the carriers the ship form offered; staff add one
// (its name unique, whoever races for it) and change a template.
func carriers(t *testing.T, s OrderDeskStore) {
	ctx := context.Background()
	list, err := s.Carriers(ctx)
	must(t, err)
	var names []string
	for _, c := range list {
		names = append(names, c.Name)
		if errs := c.Validate(); errs != nil {
			t.Errorf("seeded carrier %s: %v", c.Name, errs)
		}
	}
	if want := "[UPS FedEx USPS DHL Royal Mail Canada Post]"; fmt.Sprint(names) != want {
		t.Errorf("seeded carriers: got %v, want %s", names, want)
	}
	if ups, _ := shop.CarrierNamed(list, "UPS"); ups.TrackingURL("1Z9") != "https://www.ups.com/track?tracknum=1Z9" {
		t.Errorf("UPS tracks at %q", ups.TrackingURL("1Z9"))
	}

	// Two staff members add the same carrier at once: one gets it.
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = s.AddCarrier(ctx, shop.Carrier{Name: "Night Post", URLTemplate: "https://nightpost.example/{tracking}"})
		}()
	}
	wg.Wait()
	added := 0
	for _, err := range errs {
		if err == nil {
			added++
		} else {
			wantCode(t, "a carrier added twice", err, shop.ECONFLICT, fmt.Sprintf(shop.MsgCarrierExists, "Night Post"))
		}
	}
	if added != 1 {
		t.Errorf("%d of 4 racing adds went through, want 1", added)
	}
	list, err = s.Carriers(ctx)
	must(t, err)
	last := list[len(list)-1]
	if len(list) != 7 || last.Name != "Night Post" || last.ID == "" || last.Position <= list[len(list)-2].Position {
		t.Errorf("after adding: %+v", list)
	}
	must(t, s.SetCarrierTemplate(ctx, last.ID, "https://nightpost.example/t?n={tracking}"))
	list, _ = s.Carriers(ctx)
	if c, _ := shop.CarrierNamed(list, "Night Post"); c.URLTemplate != "https://nightpost.example/t?n={tracking}" {
		t.Errorf("template after the change: %q", c.URLTemplate)
	}
	wantCode(t, "an unknown carrier's template", s.SetCarrierTemplate(ctx, "nope", "https://x.example/{tracking}"), shop.ENOTFOUND, shop.MsgCarrierNotFound)
}

// Deleting a product takes it out of the catalogue, every cart and
// wishlist, keeps the orders that sold it, and bumps the catalogue
// version; a second delete (a confirmation posted twice) finds nothing.
func deleteProduct(t *testing.T, s OrderDeskStore) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"p1": 4, "p2": 4})
	must(t, s.AddToCart(ctx, "guest_1", "p1", 1))
	o, err := claim(ctx, s, "guest_1", "k1")
	must(t, err)
	must(t, s.CompleteOrder(ctx, o.ID, true))
	must(t, s.AddToCart(ctx, "guest_2", "p1", 2))
	must(t, s.AddToCart(ctx, "guest_2", "p2", 1))
	u := &shop.User{ID: "usr_1", Email: "ada@example.com", DisplayName: "Ada"}
	must(t, s.CreateUser(ctx, u, []byte("hash")))
	must(t, s.AddToWishlist(ctx, u.ID, "p1"))
	version, err := s.CatalogVersion(ctx)
	must(t, err)

	must(t, s.DeleteProduct(ctx, "p1"))
	_, err = s.AdminProduct(ctx, "p1")
	wantCode(t, "a deleted product", err, shop.ENOTFOUND, "")
	wantCode(t, "a second delete", s.DeleteProduct(ctx, "p1"), shop.ENOTFOUND, shop.MsgProductNotFound)
	if v, _ := s.CatalogVersion(ctx); v == version {
		t.Error("the catalogue version did not move")
	}
	cart, err := s.Cart(ctx, "guest_2")
	must(t, err)
	if len(cart.Lines) != 1 || cart.Lines[0].Product.ID != "p2" {
		t.Errorf("cart after the delete: %+v", cart.Lines)
	}
	if w, _ := s.Wishlist(ctx, u.ID); len(w) != 0 {
		t.Errorf("wishlist after the delete: %+v", w)
	}
	if got, err := s.Order(ctx, o.ID); err != nil || len(got.Lines) != 1 || got.Lines[0].ProductID != "p1" {
		t.Errorf("the order that sold it: %+v %v", got, err)
	}
}
