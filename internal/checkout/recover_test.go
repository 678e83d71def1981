package checkout_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/catalog"
	"github.com/nocturne/storefront/internal/checkout"
	"github.com/nocturne/storefront/internal/democard"
	"github.com/nocturne/storefront/internal/mail"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/store/sqlite"
)

// lostGateway charges (or not) and then loses the answer, as when the shop
// is killed during the payment: the shop never learns what happened.
type lostGateway struct {
	democard.SimulatedGateway
	charge bool
}

var errLost = errors.New("connection lost")

func (g *lostGateway) Charge(ctx context.Context, token string, amount shop.Cents, key string) error {
	if g.charge {
		_ = g.SimulatedGateway.Charge(ctx, token, amount, key)
	}
	return errLost
}

func (g *lostGateway) Lookup(ctx context.Context, key string) (string, error) { return "", errLost }

type fixture struct {
	db  *sqlite.DB
	now time.Time
	svc func(democard.Gateway) *checkout.Service
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if err := catalog.NewService(db, log).LoadBuiltin(ctx); err != nil {
		t.Fatal(err)
	}
	f := &fixture{db: db, now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	db.SetClock(func() time.Time { return f.now })
	f.svc = func(g democard.Gateway) *checkout.Service {
		methods, err := checkout.NewMethods([]string{democard.Name}, &democard.Method{Gateway: g})
		if err != nil {
			t.Fatal(err)
		}
		return &checkout.Service{Orders: db, Carts: db, Methods: methods, Mailer: &mail.Outbox{Store: db, Log: log},
			Prices: &checkout.Prices{Settings: db, Promos: db, Now: func() time.Time { return f.now }, Location: time.UTC},
			Now:    func() time.Time { return f.now }, Log: log, PaymentTimeout: 10 * time.Second}
	}
	return f
}

func (f *fixture) place(t *testing.T, svc *checkout.Service, owner string) checkout.Result {
	t.Helper()
	ctx := context.Background()
	if err := f.db.CreateUser(ctx, &shop.User{ID: owner, Email: owner + "@example.com"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := f.db.AddToCart(ctx, owner, "nb-001", 2); err != nil {
		t.Fatal(err)
	}
	cart, _ := f.db.Cart(ctx, owner)
	key, err := svc.ReviewKey(ctx, owner, cart, checkout.Choice{Country: shop.DefaultCountry})
	if err != nil {
		t.Fatal(err)
	}
	res, err := svc.Place(ctx, checkout.PlaceInput{UserID: owner, CartOwner: owner, Key: key, Choice: checkout.Choice{Country: shop.DefaultCountry},
		Shipping: checkout.Shipping{FirstName: "A", Email: owner + "@example.com"}, Method: democard.Name, Card: checkout.Card{Brand: "Visa", Last4: "4242", Token: "tok_" + owner}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// placePaid places as place does and waits for the charge that runs after
// Place has answered.
func (f *fixture) placePaid(t *testing.T, svc *checkout.Service, owner string) checkout.Result {
	t.Helper()
	res := f.place(t, svc, owner)
	svc.Wait(context.Background())
	return res
}

// Orders left pending by a crash are resolved once their
// lease ends: completed when the gateway charged them, released with the
// cart intact when it did not; never while the lease runs.
func TestRecover_ResolvesStuckOrders(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	charged := f.placePaid(t, f.svc(&lostGateway{SimulatedGateway: democard.SimulatedGateway{Charges: f.db}, charge: true}), "usr_charged")
	unpaid := f.placePaid(t, f.svc(&lostGateway{SimulatedGateway: democard.SimulatedGateway{Charges: f.db}}), "usr_unpaid")
	if charged.State != checkout.Processing || unpaid.State != checkout.Processing {
		t.Fatalf("lost answers: states %v %v, want processing", charged.State, unpaid.State)
	}

	svc := f.svc(&democard.SimulatedGateway{Charges: f.db})
	if c, r, err := svc.Recover(ctx); err != nil || c+r != 0 {
		t.Fatalf("within the lease: completed %d released %d (%v), want nothing touched", c, r, err)
	}
	f.now = f.now.Add(svc.Lease() + time.Second)
	if c, r, err := svc.Recover(ctx); err != nil || c != 1 || r != 1 {
		t.Fatalf("after the lease: completed %d released %d (%v), want 1 and 1", c, r, err)
	}
	o, err := f.db.Order(ctx, charged.Order.ID)
	if err != nil || o.Status != shop.StatusProcessing || len(o.Lines) != 1 {
		t.Fatalf("charged order %+v (%v), want processing with its line", o, err)
	}
	if n, _ := f.db.CartCount(ctx, "usr_charged"); n != 0 {
		t.Errorf("charged cart still has %d items", n)
	}
	if _, err := f.db.Order(ctx, unpaid.Order.ID); shop.ErrorCode(err) != shop.ENOTFOUND {
		t.Errorf("unpaid order still there: %v", err)
	}
	if n, _ := f.db.CartCount(ctx, "usr_unpaid"); n != 2 {
		t.Errorf("released cart has %d items, want 2", n)
	}
	if c, r, _ := svc.Recover(ctx); c+r != 0 {
		t.Error("a second sweep resolved something again")
	}
}

// Two instances sweeping at once resolve a stuck order once: the lease is
// taken before the gateway is asked.
func TestRecover_LeaseIsTakenOnce(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.placePaid(t, f.svc(&lostGateway{SimulatedGateway: democard.SimulatedGateway{Charges: f.db}, charge: true}), "usr_a")
	svc := f.svc(&democard.SimulatedGateway{Charges: f.db})
	f.now = f.now.Add(svc.Lease() + time.Second)
	stale, _ := f.db.ExpiredClaims(ctx, f.now)
	if len(stale) != 1 {
		t.Fatalf("%d stale claims", len(stale))
	}
	ok1, _ := f.db.TakeLease(ctx, stale[0].ID, stale[0].LeaseUntil, f.now.Add(time.Minute))
	ok2, _ := f.db.TakeLease(ctx, stale[0].ID, stale[0].LeaseUntil, f.now.Add(time.Minute))
	if !ok1 || ok2 {
		t.Errorf("take lease twice: %v %v, want true then false", ok1, ok2)
	}
}

// heldGateway holds each charge until the test releases it, so a test can
// act while a payment is under way without racing the clock.
type heldGateway struct {
	democard.SimulatedGateway
	entered  chan struct{} // closed when the charge starts
	release  chan struct{} // closed by the test to let it finish
	finished atomic.Bool   // the charge has returned
}

func (g *heldGateway) Charge(ctx context.Context, token string, amount shop.Cents, key string) error {
	close(g.entered)
	<-g.release
	defer g.finished.Store(true)
	return g.SimulatedGateway.Charge(ctx, token, amount, key)
}

// Shutdown waits for payments under way: while one is held, Wait with an
// ended context reports that not all finished; once it is released, Wait
// returns only after the charge has, and the order is placed.
func TestWait_PaymentsInFlight(t *testing.T) {
	f := newFixture(t)
	g := &heldGateway{SimulatedGateway: democard.SimulatedGateway{Charges: f.db}, entered: make(chan struct{}), release: make(chan struct{})}
	svc := f.svc(g)
	// Place answers before the charge ends: the charge runs on after it.
	r := f.place(t, svc, "usr_w")
	if r.State != checkout.Processing || !r.Fresh {
		t.Fatalf("Place answered %v, want Processing", r.State)
	}
	<-g.entered

	ended, cancel := context.WithCancel(context.Background())
	cancel()
	if svc.Wait(ended) {
		t.Fatal("Wait reported every payment finished while one was held")
	}
	close(g.release)
	if !svc.Wait(context.Background()) {
		t.Fatal("Wait gave up")
	}
	if !g.finished.Load() {
		t.Error("Wait returned before the payment finished")
	}
	if o, err := f.db.Order(context.Background(), r.Order.ID); err != nil || o.Status != shop.StatusProcessing {
		t.Errorf("order after Wait: %+v, %v; want paid and processing", o, err)
	}
}
