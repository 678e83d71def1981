// Package storetest is the conformance suite every store backend passes, so
// SQLite and (later) PostgreSQL behave the same behind package shop's
// interfaces.
package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// KV is the fiber.Storage shape plus expiry sweeping.
type KV interface {
	Get(key string) ([]byte, error)
	Set(key string, val []byte, exp time.Duration) error
	Delete(key string) error
	Reset() error
	DeleteExpired(ctx context.Context) (int64, error)
}

// Store is what a backend offers the suite: every store interface of
// package shop, plus a read of the contact messages.
type Store interface {
	shop.Pinger
	shop.CatalogStore
	shop.CartStore
	shop.WishlistStore
	shop.UserStore
	shop.PasswordResetStore
	shop.SignInLinkStore
	shop.EmailConfirmationStore
	shop.OutboxStore
	shop.MailQueueStore
	shop.OrderStore
	shop.ChargeStore
	shop.ThrottleStore
	shop.ContactStore
	shop.ImageStore
	ContactMessages(ctx context.Context) ([]shop.ContactMessage, error)
}

// Backend opens a fresh, empty store whose clock the suite controls.
type Backend struct {
	Open func(tb testing.TB, now func() time.Time) (Store, KV)
	// RefuseWrites makes s refuse writes as a full disk (SQLite) or a
	// read-only database (PostgreSQL) does, until restore is called.
	RefuseWrites func(tb testing.TB, s Store) (restore func())
	// Close closes s: the database is gone for it.
	Close func(s Store)
	// Unavailable is the backend's classifier of errors that say the
	// database cannot serve now.
	Unavailable func(err error) bool
}

// Clock is a test clock a store reads through its now function.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Add moves the clock forward.
func (c *Clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// open opens a fresh store on its own clock, which starts at a whole second.
func (b Backend) open(t *testing.T) (Store, KV, *Clock) {
	t.Helper()
	clock := &Clock{t: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	s, kv := b.Open(t, clock.Now)
	return s, kv, clock
}

// Run runs every conformance test against b. Each area is a file of this
// package (catalog.go, cart.go, wishlist.go, users.go, orders.go, misc.go,
// backoffice.go, variantedit.go, health.go, payments.go, photos.go,
// catalogfile.go, pricing.go, notes.go, customers.go, returns.go,
// states.go, refundintents.go)
// states.go, personaldata.go)
// with one function here; every test opens its own store, so the areas
// run in parallel (a database's round trips, not its CPU, are most of
// their time).
func Run(t *testing.T, b Backend) {
	t.Run("Catalog", func(t *testing.T) { t.Parallel(); testCatalog(t, b) })
	t.Run("Search", func(t *testing.T) { t.Parallel(); testSearch(t, b) })
	t.Run("Cart", func(t *testing.T) { t.Parallel(); testCart(t, b) })
	t.Run("Wishlist", func(t *testing.T) { t.Parallel(); testWishlist(t, b) })
	t.Run("Users", func(t *testing.T) { t.Parallel(); testUsers(t, b) })
	t.Run("Tokens", func(t *testing.T) { t.Parallel(); testTokens(t, b) })
	t.Run("Orders", func(t *testing.T) { t.Parallel(); testOrders(t, b) })
	t.Run("Charges", func(t *testing.T) { t.Parallel(); testCharges(t, b) })
	t.Run("Throttle", func(t *testing.T) { t.Parallel(); testThrottle(t, b) })
	t.Run("Misc", func(t *testing.T) { t.Parallel(); testMisc(t, b) })
	t.Run("ProductImages", func(t *testing.T) { t.Parallel(); productImages(t, b) })
	t.Run("BackOffice", func(t *testing.T) { t.Parallel(); testBackOffice(t, b) })
	t.Run("VariantEditor", func(t *testing.T) { t.Parallel(); testVariantEditor(t, b) })
	t.Run("Health", func(t *testing.T) { t.Parallel(); testHealth(t, b) })
	t.Run("Payments", func(t *testing.T) { t.Parallel(); testPayments(t, b) })
	t.Run("Photos", func(t *testing.T) { t.Parallel(); testPhotos(t, b) })
	t.Run("CatalogFiles", func(t *testing.T) { t.Parallel(); testCatalogFiles(t, b) })
	t.Run("Pricing", func(t *testing.T) { t.Parallel(); testPricing(t, b) })
	t.Run("OrderDesk", func(t *testing.T) { t.Parallel(); testOrderDesk(t, b) })
	t.Run("Customers", func(t *testing.T) { t.Parallel(); testCustomers(t, b) })
	t.Run("Returns", func(t *testing.T) { t.Parallel(); testReturns(t, b) })
	t.Run("States", func(t *testing.T) { t.Parallel(); testStates(t, b) })
	t.Run("Orphans", func(t *testing.T) { t.Parallel(); testOrphans(t, b) })
	t.Run("RefundIntents", func(t *testing.T) { t.Parallel(); testRefundIntents(t, b) })
	t.Run("PersonalData", func(t *testing.T) { t.Parallel(); testPersonalData(t, b) })
	t.Run("MailQueue", func(t *testing.T) { t.Parallel(); testMailQueue(t, b) })
}

// wantCode fails the test unless err carries the shop error code want
// (and, when msg is not empty, that message).
func wantCode(t *testing.T, what string, err error, want, msg string) {
	t.Helper()
	if got := shop.ErrorCode(err); got != want {
		t.Errorf("%s: got code %q (%v), want %q", what, got, err, want)
	} else if msg != "" && shop.ErrorMessage(err) != msg {
		t.Errorf("%s: got message %q, want %q", what, shop.ErrorMessage(err), msg)
	}
}

// must fails the test on an error.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// productImages checks the image store: records by URL, variants replaced
// as a set, a failed refresh keeping the variants, the product's photo on
// its listing, and pruning.
func productImages(t *testing.T, b Backend) {
	ctx := context.Background()
	s, _, clock := b.open(t)
	now := clock.Now
	const url = "https://img.example/lamp.jpg"
	if err := s.ReplaceCatalog(ctx, "file", []string{"home"}, []shop.Product{
		{ID: "1", Title: "Lamp", Category: "home", Price: 100, Image: url},
		{ID: "2", Title: "Same photo", Category: "home", Price: 200, Image: url},
	}); err != nil {
		t.Fatal(err)
	}
	if recs, err := s.ImageRecords(ctx, []string{url}); err != nil || len(recs) != 0 {
		t.Fatalf("before any fetch: %v, %v", recs, err)
	}
	if p, _ := s.Product(ctx, "1"); p.Photo.Ready() {
		t.Fatalf("photo before any fetch: %+v", p.Photo)
	}
	rec := shop.ImageRecord{URL: url, Hash: "h1", Width: 800, Height: 600, ETag: `"e1"`, CheckedAt: now()}
	v := func(w int, format, data string) shop.ImageVariant {
		return shop.ImageVariant{Width: w, Format: format, Data: []byte(data)}
	}
	if err := s.SaveImage(ctx, rec, []shop.ImageVariant{v(160, shop.PhotoWebP, "w160"), v(160, shop.PhotoJPEG, "j160")}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"1", "2"} {
		p, err := s.Product(ctx, id)
		if err != nil || p.Photo != (shop.Photo{Hash: "h1", Width: 800, Height: 600}) {
			t.Errorf("product %s photo: %+v, %v", id, p.Photo, err)
		}
		data, hash, err := s.ProductImage(ctx, id, 160, shop.PhotoWebP)
		if err != nil || string(data) != "w160" || hash != "h1" {
			t.Errorf("product %s variant: %q %q %v", id, data, hash, err)
		}
	}

	// A failed refresh records the error and keeps the variants.
	rec.Error = "status 503"
	if err := s.SaveImage(ctx, rec, nil); err != nil {
		t.Fatal(err)
	}
	if data, _, err := s.ProductImage(ctx, "1", 160, shop.PhotoJPEG); err != nil || string(data) != "j160" {
		t.Errorf("variant after a failed refresh: %q, %v", data, err)
	}
	recs, _ := s.ImageRecords(ctx, []string{url, "https://img.example/other.jpg"})
	if got := recs[url]; len(recs) != 1 || got.Error != "status 503" || got.ETag != `"e1"` || got.Hash != "h1" {
		t.Errorf("records: %+v", recs)
	}

	// New variants replace the old set.
	rec.Hash, rec.Error = "h2", ""
	if err := s.SaveImage(ctx, rec, []shop.ImageVariant{v(320, shop.PhotoWebP, "w320")}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.ProductImage(ctx, "1", 160, shop.PhotoWebP); shop.ErrorCode(err) != shop.ENOTFOUND {
		t.Errorf("old variant still served: %v", err)
	}
	if _, hash, err := s.ProductImage(ctx, "1", 320, shop.PhotoWebP); err != nil || hash != "h2" {
		t.Errorf("new variant: %q %v", hash, err)
	}
	if _, _, err := s.ProductImage(ctx, "nope", 320, shop.PhotoWebP); shop.ErrorCode(err) != shop.ENOTFOUND {
		t.Errorf("unknown product: %v", err)
	}

	// Once no product names the URL, pruning deletes it.
	if n, err := s.PruneImages(ctx); err != nil || n != 0 {
		t.Errorf("prune while used: %d, %v", n, err)
	}
	if err := s.ReplaceCatalog(ctx, "file", []string{"home"}, []shop.Product{
		{ID: "3", Title: "Other", Category: "home", Price: 100, Image: "https://img.example/other.jpg"},
	}); err != nil {
		t.Fatal(err)
	}
	if n, err := s.PruneImages(ctx); err != nil || n != 1 {
		t.Errorf("prune: %d, %v", n, err)
	}
	if recs, _ := s.ImageRecords(ctx, []string{url}); len(recs) != 0 {
		t.Errorf("pruned record still there: %+v", recs)
	}

	// Photos stored after an import are news to every other instance: the
	// catalogue version they watch moves on each time, and nothing else
	// about the catalogue changes.
	before, err := s.CatalogVersion(ctx)
	must(t, err)
	listed, _ := s.AllProducts(ctx)
	for i := range 2 {
		must(t, s.PhotosChanged(ctx))
		v, err := s.CatalogVersion(ctx)
		must(t, err)
		if v <= before {
			t.Errorf("photos changed %d times: catalogue version %d, was %d", i+1, v, before)
		}
		before = v
	}
	if after, _ := s.AllProducts(ctx); ids(after) != ids(listed) {
		t.Errorf("products after the photos changed: %s, were %s", ids(after), ids(listed))
	}
}
