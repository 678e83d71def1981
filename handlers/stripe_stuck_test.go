package handlers_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/nocturne/storefront/internal/checkout"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/stripepay"
)

// errBlip is the database going away for a moment.
var errBlip = errors.New("database unavailable")

// blipOrders fail releasing an order while down is set.
type blipOrders struct {
	shop.OrderStore
	down *atomic.Bool
}

func (b blipOrders) ReleaseOrder(ctx context.Context, id string) error {
	if b.down.Load() {
		return errBlip
	}
	return b.OrderStore.ReleaseOrder(ctx, id)
}

// blipPayments fail recording a payment page while down is set.
type blipPayments struct {
	stripepay.Orders
	down *atomic.Bool
}

func (b blipPayments) SetPaymentRef(ctx context.Context, id, ref string) error {
	if b.down.Load() {
		return errBlip
	}
	return b.Orders.SetPaymentRef(ctx, id, ref)
}

// stuckStripeOrder has the shopper press Place Order with Stripe while the
// database fails between making the page and recording it: the order is
// left pending with no page. It returns the order's id and the down switch.
func stuckStripeOrder(t *testing.T, b *backOffice) (string, *atomic.Bool) {
	t.Helper()
	down := &atomic.Bool{}
	m := b.app.checkout.Methods.For(stripepay.Name).(*stripepay.Method)
	m.Orders = blipPayments{Orders: m.Orders, down: down}
	b.app.checkout.Orders = blipOrders{OrderStore: b.app.checkout.Orders, down: down}
	c := b.shopper
	c.addToCart("/products", "nb-004", "2")
	c.postFrom("/checkout/shipping", "/checkout/shipping", shippingValues)
	c.postFrom("/checkout/payment", "/checkout/payment", url.Values{"method": {"stripe"}, "action": {"next"}})
	down.Store(true)
	res := placeOrder(t, c)
	down.Store(false)
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("place order while the database blips: %d to %q, want the review with why", res.StatusCode, res.Header.Get("Location"))
	}
	var id string
	for _, s := range b.app.stripe.Sessions() {
		id = s.OrderID
	}
	o, err := b.app.db.Order(context.Background(), id)
	if err != nil || o.Status != shop.StatusPending || o.PaymentRef != "" {
		t.Fatalf("after the blip: order %q %+v (%v), want pending with no page", id, o, err)
	}
	return id, down
}

// A press after the database is back opens the same Stripe page the
// failed press made, instead of "Processing your payment…" until the
// order's lease ends.
func TestStripe_PressAgainAfterBlipOpensTheSamePage(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t, withStripe())
	id, _ := stuckStripeOrder(t, b)
	res := placeOrder(t, b.shopper)
	loc := res.Header.Get("Location")
	if res.StatusCode != http.StatusSeeOther || !strings.Contains(loc, "/pay/cs_") {
		t.Fatalf("press again: %d to %q, want Stripe's page", res.StatusCode, loc)
	}
	if n := len(b.app.stripe.Sessions()); n != 1 {
		t.Errorf("%d Stripe pages made, want the same one again", n)
	}
	o, _ := b.app.db.Order(context.Background(), id)
	if o.PaymentRef == "" || !strings.HasSuffix(loc, o.PaymentRef) {
		t.Errorf("order's page %q, sent to %q", o.PaymentRef, loc)
	}
}

// Nobody presses again: the recovery sweep releases the order with no page
// once the checkout's short lease ends, not the page's half hour later, so
// its stock is back on sale and the cart as it was.
func TestStripe_SweepReleasesOrderWithNoPage(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t, withStripe())
	ctx := context.Background()
	before, _ := b.app.db.Stock(ctx, "nb-004")
	id, _ := stuckStripeOrder(t, b)
	if n, _ := b.app.db.Stock(ctx, "nb-004"); n != before-2 {
		t.Fatalf("stock while pending: %d, want %d", n, before-2)
	}
	b.app.clock.Advance(b.app.checkout.Lease() + checkout.DefaultPaymentTimeout/2)
	if _, released, err := b.app.checkout.Recover(ctx); err != nil || released != 1 {
		t.Fatalf("sweep: released %d (%v), want the order with no page", released, err)
	}
	if _, err := b.app.db.Order(ctx, id); shop.ErrorCode(err) != shop.ENOTFOUND {
		t.Errorf("order after the sweep: %v, want released", err)
	}
	if n, _ := b.app.db.Stock(ctx, "nb-004"); n != before {
		t.Errorf("stock after the sweep: %d, want %d", n, before)
	}
	u, _, _ := b.app.db.UserByEmail(ctx, "sam@example.com")
	if n, _ := b.app.db.CartCount(ctx, u.ID); n != 2 {
		t.Errorf("cart after the sweep: %d items, want 2", n)
	}
}
