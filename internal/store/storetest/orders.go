package storetest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// order is a placed order with one line, for InsertOrder.
func order(id, userID string, status shop.OrderStatus, total shop.Cents, created time.Time) *shop.Order {
	return &shop.Order{
		ID: id, UserID: userID, Email: "owl@example.com", Status: status,
		Subtotal: total, Total: total, PaymentMethod: "Visa ending 4242", IdempotencyKey: "key-" + id,
		ShipTo:    shop.Address{Name: "Night Owl", Street: "1 Moon St", City: "Oslo", State: "-", ZipCode: "0150", Country: "Norway", Phone: "555"},
		CreatedAt: created.UTC().Truncate(time.Second),
		Lines:     []shop.OrderLine{{ProductID: "lamp-1", Name: "Walnut desk lamp", Price: total, Quantity: 1, Image: "img/x.svg"}},
	}
}

// build is a ClaimCart builder that turns the cart into an order.
func build(id string, lease time.Time, calls *atomic.Int32) func(shop.Cart, int) (*shop.Order, error) {
	return func(c shop.Cart, placed int) (*shop.Order, error) {
		if calls != nil {
			calls.Add(1)
		}
		if len(c.Lines) == 0 {
			return nil, shop.Errorf(shop.EINVALID, "empty cart")
		}
		o := &shop.Order{ID: id, UserID: "u1", Email: "owl@example.com", ChargeKey: fmt.Sprintf("charge-%s-%d", id, placed), LeaseUntil: lease}
		for _, l := range c.Lines {
			o.Lines = append(o.Lines, shop.OrderLine{ProductID: l.Product.ID, Name: l.Product.Title, Price: l.Product.Price, Quantity: l.Quantity})
			o.Subtotal += l.Total()
		}
		o.Total = o.Subtotal
		return o, nil
	}
}

// testOrders covers orders: the claim on a cart and its idempotency key,
// completion, release, leases, listing and saved cards.
func testOrders(t *testing.T, b Backend) {
	ctx := context.Background()

	t.Run("ClaimCompleteRelease", func(t *testing.T) {
		s, _, clock := b.open(t)
		seed(t, s)
		newUser(t, s, "u1", "owl@example.com")
		must(t, s.AddToCart(ctx, "u1", "lamp-1", 2))
		must(t, s.AddToCart(ctx, "u1", "tv-1", 1))
		lease := clock.Now().Add(time.Minute)
		o, claim, err := s.ClaimCart(ctx, "u1", "k1", build("NOC-1", lease, nil))
		if err != nil || claim != shop.Claimed || o.Status != shop.StatusPending || o.CartOwner != "u1" || o.IdempotencyKey != "k1" || o.ChargeKey != "charge-NOC-1-0" {
			t.Fatalf("claim: %+v %v %v", o, claim, err)
		}
		got, err := s.Order(ctx, "NOC-1")
		if err != nil || got.Status != shop.StatusPending || len(got.Lines) != 2 || got.Lines[0].ProductID != "lamp-1" || got.Lines[0].Quantity != 2 ||
			got.Total != 2*4500+30000 || !got.CreatedAt.Equal(clock.Now()) || !got.LeaseUntil.Equal(lease) {
			t.Errorf("stored claim: %+v, %v", got, err)
		}
		if byKey, err := s.OrderByKey(ctx, "k1"); err != nil || byKey.ID != "NOC-1" {
			t.Errorf("by key: %+v, %v", byKey, err)
		}
		// Pending orders are not the shopper's yet.
		if list, n, err := s.Orders(ctx, shop.OrderQuery{UserID: "u1"}); err != nil || n != 0 || len(list) != 0 {
			t.Errorf("pending order listed: %d %v", n, err)
		}
		if n, _ := s.CountOrders(ctx, "u1"); n != 0 {
			t.Errorf("pending order counted: %d", n)
		}
		var calls atomic.Int32
		again, claim, err := s.ClaimCart(ctx, "u1", "k1", build("NOC-X", lease, &calls))
		if err != nil || claim != shop.ClaimExists || again.ID != "NOC-1" || calls.Load() != 0 {
			t.Errorf("same key: %+v %v %v (build called %d times)", again, claim, err, calls.Load())
		}
		busy, claim, err := s.ClaimCart(ctx, "u1", "k2", build("NOC-2", lease, &calls))
		if err != nil || claim != shop.ClaimBusy || busy.ID != "NOC-1" || calls.Load() != 0 {
			t.Errorf("second key while paying: %+v %v %v", busy, claim, err)
		}

		// Items added during the payment stay in the cart.
		must(t, s.AddToCart(ctx, "u1", "lamp-1", 1))
		must(t, s.CompleteOrder(ctx, "NOC-1", true))
		if c := cartOf(t, s, "u1"); c != "lamp-1×1" {
			t.Errorf("cart after completion: %s, want lamp-1×1", c)
		}
		if got, _ := s.Order(ctx, "NOC-1"); got.Status != shop.StatusProcessing {
			t.Errorf("status: %q", got.Status)
		}
		wantCode(t, "complete twice", s.CompleteOrder(ctx, "NOC-1", true), shop.ECONFLICT, shop.MsgOrderPlaced)
		if n, err := s.PlacedFromCart(ctx, "u1"); err != nil || n != 1 {
			t.Errorf("placed from cart: %d, %v", n, err)
		}

		// A claim whose payment fails is released; the cart is untouched.
		o, _, err = s.ClaimCart(ctx, "u1", "k3", build("NOC-3", lease, nil))
		if err != nil || o.ChargeKey != "charge-NOC-3-1" {
			t.Fatalf("second claim: %+v %v", o, err)
		}
		must(t, s.ReleaseOrder(ctx, "NOC-3"))
		_, err = s.Order(ctx, "NOC-3")
		wantCode(t, "released order", err, shop.ENOTFOUND, "")
		if c := cartOf(t, s, "u1"); c != "lamp-1×1" {
			t.Errorf("cart after release: %s", c)
		}
		must(t, s.ReleaseOrder(ctx, "NOC-1")) // not pending: stays
		if _, err := s.Order(ctx, "NOC-1"); err != nil {
			t.Errorf("release removed a placed order: %v", err)
		}

		// A builder's error cancels the claim.
		_, _, err = s.ClaimCart(ctx, "empty", "k4", build("NOC-4", lease, nil))
		wantCode(t, "claim of an empty cart", err, shop.EINVALID, "empty cart")
		_, err = s.OrderByKey(ctx, "k4")
		wantCode(t, "cancelled claim", err, shop.ENOTFOUND, "")
		_, err = s.Order(ctx, "nope")
		wantCode(t, "unknown order", err, shop.ENOTFOUND, shop.MsgOrderNotFound)
	})

	t.Run("OneOrderPerKey", func(t *testing.T) {
		s, _, clock := b.open(t)
		seed(t, s)
		newUser(t, s, "u1", "owl@example.com")
		must(t, s.AddToCart(ctx, "u1", "lamp-1", 1))
		var calls atomic.Int32
		ids := make([]string, 20)
		claims := make([]shop.Claim, 20)
		errs := parallel(20, func(i int) error {
			o, c, err := s.ClaimCart(ctx, "u1", "same-key", build(fmt.Sprintf("NOC-%d", i), clock.Now().Add(time.Minute), &calls))
			if err == nil {
				ids[i], claims[i] = o.ID, c
			}
			return err
		})
		claimed := 0
		for i, err := range errs {
			must(t, err)
			if claims[i] == shop.Claimed {
				claimed++
			} else if claims[i] != shop.ClaimExists {
				t.Errorf("claim %d: %v", i, claims[i])
			}
			if ids[i] != ids[0] {
				t.Errorf("claim %d got order %s, claim 0 got %s", i, ids[i], ids[0])
			}
		}
		if claimed != 1 || calls.Load() != 1 {
			t.Errorf("%d claims succeeded, build ran %d times; want 1 and 1", claimed, calls.Load())
		}
	})

	t.Run("Leases", func(t *testing.T) {
		s, _, clock := b.open(t)
		seed(t, s)
		newUser(t, s, "u1", "owl@example.com")
		must(t, s.AddToCart(ctx, "u1", "lamp-1", 1))
		lease := clock.Now().Add(time.Minute)
		_, _, err := s.ClaimCart(ctx, "u1", "k1", build("NOC-1", lease, nil))
		must(t, err)
		if got, err := s.ExpiredClaims(ctx, clock.Now()); err != nil || len(got) != 0 {
			t.Errorf("before the lease ends: %+v, %v", got, err)
		}
		got, err := s.ExpiredClaims(ctx, clock.Now().Add(2*time.Minute))
		if err != nil || len(got) != 1 || got[0].ID != "NOC-1" {
			t.Fatalf("after the lease ends: %+v, %v", got, err)
		}
		next := lease.Add(time.Minute)
		if ok, err := s.TakeLease(ctx, "NOC-1", got[0].LeaseUntil, next); err != nil || !ok {
			t.Errorf("take: %v, %v", ok, err)
		}
		if ok, err := s.TakeLease(ctx, "NOC-1", got[0].LeaseUntil, next.Add(time.Minute)); err != nil || ok {
			t.Errorf("take with a stale lease: %v, %v, want false", ok, err)
		}
		if o, _ := s.Order(ctx, "NOC-1"); !o.LeaseUntil.Equal(next) {
			t.Errorf("lease: %v, want %v", o.LeaseUntil, next)
		}
		must(t, s.CompleteOrder(ctx, "NOC-1", true))
		if got, _ := s.ExpiredClaims(ctx, clock.Now().Add(time.Hour)); len(got) != 0 {
			t.Errorf("a placed order is an expired claim: %+v", got)
		}
		if ok, _ := s.TakeLease(ctx, "NOC-1", time.Time{}, next); ok {
			t.Error("took the lease of a placed order")
		}
	})

	t.Run("List", func(t *testing.T) {
		s, _, clock := b.open(t)
		newUser(t, s, "u1", "owl@example.com")
		statuses := []shop.OrderStatus{shop.StatusProcessing, shop.StatusShipped, shop.StatusDelivered, shop.StatusCancelled}
		n := shop.OrdersPageSize + 3
		for i := range n {
			o := order(fmt.Sprintf("NOC-%02d", i), "u1", statuses[i%4], shop.Cents(1000+100*((i*7)%n)), clock.Now().Add(time.Duration(i)*time.Hour))
			must(t, s.InsertOrder(ctx, o))
		}
		must(t, s.InsertOrder(ctx, order("NOC-other", "u2", shop.StatusShipped, 1, clock.Now())))
		err := s.InsertOrder(ctx, order("NOC-00", "u1", shop.StatusShipped, 1, clock.Now()))
		wantCode(t, "insert an order id twice", err, shop.ECONFLICT, shop.MsgOrderExists)

		if c, err := s.CountOrders(ctx, "u1"); err != nil || c != n {
			t.Errorf("count: %d, %v, want %d", c, err, n)
		}
		page1, total, err := s.Orders(ctx, shop.OrderQuery{UserID: "u1", Sort: "date", Desc: true, Page: 1})
		if err != nil || total != n || len(page1) != shop.OrdersPageSize || page1[0].ID != fmt.Sprintf("NOC-%02d", n-1) || page1[0].ItemCount() != 1 {
			t.Errorf("newest first: %d of %d, first %+v, %v", len(page1), total, page1[0], err)
		}
		page2, _, _ := s.Orders(ctx, shop.OrderQuery{UserID: "u1", Sort: "date", Desc: true, Page: 2})
		if len(page2) != 3 || page2[2].ID != "NOC-00" {
			t.Errorf("page 2: %d orders", len(page2))
		}
		byTotal, _, _ := s.Orders(ctx, shop.OrderQuery{UserID: "u1", Sort: "total", Page: 1})
		for i := 1; i < len(byTotal); i++ {
			if byTotal[i].Total < byTotal[i-1].Total {
				t.Errorf("by total: %d after %d", byTotal[i].Total, byTotal[i-1].Total)
			}
		}
		shipped, total, _ := s.Orders(ctx, shop.OrderQuery{UserID: "u1", Status: shop.StatusShipped, Page: 1})
		if total != 3 || len(shipped) != 3 {
			t.Errorf("shipped: %d of %d, want 3", len(shipped), total)
		}
		for _, o := range shipped {
			if o.Status != shop.StatusShipped || o.UserID != "u1" {
				t.Errorf("filter let through %+v", o)
			}
		}
		o, err := s.Order(ctx, "NOC-01")
		want := order("NOC-01", "u1", statuses[1], 0, clock.Now().Add(time.Hour))
		if err != nil || o.ShipTo != want.ShipTo || o.PaymentMethod != want.PaymentMethod || !o.CreatedAt.Equal(want.CreatedAt) ||
			len(o.Lines) != 1 || o.Lines[0].Name != want.Lines[0].Name || o.Lines[0].Image != "img/x.svg" {
			t.Errorf("order: %+v, %v", o, err)
		}
	})

	t.Run("SavedCard", func(t *testing.T) {
		s, _, _ := b.open(t)
		newUser(t, s, "u1", "owl@example.com")
		if c, err := s.SavedCard(ctx, "u1"); err != nil || c != nil {
			t.Errorf("no card: %+v, %v", c, err)
		}
		first := shop.SavedCard{Brand: "Visa", Last4: "4242", ExpMonth: 12, ExpYear: 2030, Name: "Night Owl"}
		second := shop.SavedCard{Brand: "Mastercard", Last4: "4444", ExpMonth: 1, ExpYear: 2031, Name: "Owl"}
		must(t, s.SaveCard(ctx, "u1", first))
		must(t, s.SaveCard(ctx, "u1", second))
		if c, err := s.SavedCard(ctx, "u1"); err != nil || c == nil || *c != second {
			t.Errorf("card: %+v, %v, want %+v", c, err, second)
		}
	})
}

// testCharges covers the simulated gateway's records: the first outcome
// for a key wins, even when two instances record at once.
func testCharges(t *testing.T, b Backend) {
	ctx := context.Background()
	s, _, clock := b.open(t)
	_, err := s.ChargeByKey(ctx, "k1")
	wantCode(t, "unknown charge", err, shop.ENOTFOUND, shop.MsgNoCharge)
	c, err := s.RecordCharge(ctx, shop.Charge{Key: "k1", Amount: 500, Outcome: shop.ChargeSucceeded})
	if err != nil || c.Outcome != shop.ChargeSucceeded || !c.CreatedAt.Equal(clock.Now()) {
		t.Errorf("record: %+v, %v", c, err)
	}
	c, err = s.RecordCharge(ctx, shop.Charge{Key: "k1", Amount: 999, Outcome: shop.ChargeDeclined})
	if err != nil || c.Outcome != shop.ChargeSucceeded || c.Amount != 500 {
		t.Errorf("second record: %+v, %v, want the first", c, err)
	}
	if got, err := s.ChargeByKey(ctx, "k1"); err != nil || *got != c {
		t.Errorf("by key: %+v, %v", got, err)
	}
	outcomes := make([]string, 20)
	errs := parallel(20, func(i int) error {
		outcome := shop.ChargeDeclined
		if i%2 == 0 {
			outcome = shop.ChargeSucceeded
		}
		c, err := s.RecordCharge(ctx, shop.Charge{Key: "race", Amount: 100, Outcome: outcome})
		outcomes[i] = c.Outcome
		return err
	})
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if strings.Count(strings.Join(outcomes, " "), outcomes[0]) != 20 {
		t.Errorf("parallel records disagree: %v", outcomes)
	}
}
