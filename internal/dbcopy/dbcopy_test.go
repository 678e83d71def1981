package dbcopy_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nocturne/storefront/internal/dbcopy"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/store/postgres"
	"github.com/nocturne/storefront/internal/store/postgres/pgtest"
	"github.com/nocturne/storefront/internal/store/sqlite"
)

func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.Cleanup()
	os.Exit(code)
}

// fillShop puts at least one row in every table a shop writes, through
// the store, as the shop would.
func fillShop(t *testing.T, path string) {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(db.ReplaceCatalog(ctx, "file", []string{"home"}, []shop.Product{
		{ID: "p1", Title: "Walnut lamp", Description: "Warm", Category: "home", Price: 4200, Image: "https://img.example/l.jpg", Rating: 4.5, Featured: true},
		{ID: "p2", Title: "Crème torch", Category: "home", Price: 999, Rating: 4},
	}))
	must(db.SaveImage(ctx, shop.ImageRecord{URL: "https://img.example/l.jpg", Hash: "h", Width: 8, Height: 6, CheckedAt: time.Now()},
		[]shop.ImageVariant{{Width: 160, Format: shop.PhotoWebP, Data: []byte{0, 1, 2}}}))
	must(db.CreateUser(ctx, &shop.User{ID: "usr_1", Email: "ada@example.com", DisplayName: "Ada", EmailVerified: true}, []byte("hash")))
	must(db.CreateUser(ctx, &shop.User{ID: "usr_2", Email: "bob@example.com", DisplayName: "Bob"}, []byte("hash")))
	must(db.CreateEmailConfirmation(ctx, "usr_2", "confirm-hash", "", time.Now().Add(time.Hour)))
	must(db.CreateUser(ctx, &shop.User{ID: "guest_1", IsGuest: true}, nil))
	must(db.CreatePasswordReset(ctx, "usr_1", "reset-hash", time.Now().Add(time.Hour)))
	must(db.CreateSignInLink(ctx, "usr_1", "link-hash", time.Now().Add(time.Hour)))
	must(db.AddToOutbox(ctx, shop.Email{To: "ada@example.com", Subject: "Hi", Body: "Hello"}))
	must(db.CreateContactMessage(ctx, &shop.ContactMessage{Name: "Ada", Email: "ada@example.com", Subject: "S", Message: "M"}))
	must(db.SetChoices(ctx, "p2", shop.Choices{
		Options:  []shop.Option{{Name: "Colour", Values: []shop.OptionValue{{Value: "Black", Swatch: "#111111"}}}},
		Variants: []shop.Variant{{ID: "p2-black", Values: []string{"Black"}, Stock: 4, Enabled: true}},
	}))
	must(db.AddToCart(ctx, "usr_1", "p1", 2))
	must(db.AddToCart(ctx, "usr_1", "p2-black", 1))
	must(db.AddToWishlist(ctx, "usr_1", "p2"))
	must(db.SaveCard(ctx, "usr_1", shop.SavedCard{Brand: "Visa", Last4: "4242", ExpMonth: 12, ExpYear: 2030, Name: "Ada"}))
	must(db.InsertOrder(ctx, &shop.Order{ID: "NOC-1", UserID: "usr_1", Email: "ada@example.com", Status: shop.StatusProcessing,
		Subtotal: 4200, Total: 4620, Tax: 420, IdempotencyKey: "k1", CreatedAt: time.Now(), PaymentMethod: "Visa ending 4242",
		TaxLines: []shop.TaxLine{{Name: "Tax", Rate: 1000, Base: 4200, Amount: 420}},
		Lines:    []shop.OrderLine{{ProductID: "p1", Name: "Walnut lamp", Price: 4200, Quantity: 1}}}))
	// The pricing settings' tables beyond the seeded rows: a zone with a
	// state, a promo code, and an order placed with it (its redemption).
	_, err = db.SaveShippingZone(ctx, shop.ShippingZone{Name: "California", Countries: []string{"United States"}, States: []string{"CA"}})
	must(err)
	_, err = db.SavePromoCode(ctx, shop.PromoCode{Code: "NIGHT10", Kind: shop.PromoPercent, Value: 1000})
	must(err)
	must(db.AddToCart(ctx, "usr_2", "p2-black", 1))
	_, _, err = db.ClaimCart(ctx, "usr_2", "k2", func(cart shop.Cart, _ int) (*shop.Order, error) {
		return &shop.Order{ID: "NOC-2", UserID: "usr_2", Email: "bob@example.com", Subtotal: 999, Discount: 100, Tax: 90, Total: 989,
			PromoCode: "NIGHT10", CreatedAt: time.Now(), LeaseUntil: time.Now().Add(time.Minute), PaymentMethod: "Visa ending 4242",
			Lines: []shop.OrderLine{{ProductID: "p2", VariantID: "p2-black", Name: "Crème torch", Price: 999, Quantity: 1}}}, nil
	})
	must(err)
	// The back office's tables: a role, an audit entry, an order event.
	_, err = db.GrantStaff(ctx, "ada@example.com", shop.RoleAdmin)
	must(err)
	must(db.RecordAudit(ctx, shop.AuditEntry{Actor: "cli", Action: "staff.add", Subject: "ada@example.com", After: "admin"}))
	_, err = db.TransitionOrder(ctx, shop.Transition{OrderID: "NOC-1", From: shop.StatusProcessing, To: shop.StatusShipped,
		Carrier: "UPS", Tracking: "1Z", Actor: "ada@example.com"})
	must(err)
	// A staff note, and a carrier beyond the seeded ones.
	must(db.AddOrderNote(ctx, "NOC-1", "Fragile", "ada@example.com", time.Now()))
	_, err = db.AddCarrier(ctx, shop.Carrier{Name: "Night Post", URLTemplate: "https://nightpost.example/{tracking}"})
	must(err)
	// Returns: the order delivered, and a request for its lamp.
	_, err = db.TransitionOrder(ctx, shop.Transition{OrderID: "NOC-1", From: shop.StatusShipped, To: shop.StatusDelivered, Actor: "ada@example.com"})
	must(err)
	must(db.CreateReturn(ctx, &shop.ReturnRequest{OrderID: "NOC-1", Reason: "doesnt_fit", Comment: "Too bright",
		Lines: []shop.ReturnLine{{Line: 0, Quantity: 1}}}))
	// A refund paid back by hand, still open: its intent (by_hand is an
	// integer in SQLite, a boolean in PostgreSQL).
	must(db.ClaimRefund(ctx, shop.RefundClaim{OrderID: "NOC-1", Was: 0, Amount: 100, Note: "Refunded $1.00", Actor: "ada@example.com", At: time.Now(),
		Intent: shop.RefundIntent{Key: "nocturne-refund-NOC-1-1", Method: "bank_transfer", ByHand: true, Actor: "ada@example.com",
			Reason: "Price match", LeaseUntil: time.Now()}}))
	_, err = db.RecordCharge(ctx, shop.Charge{Key: "k1", Amount: 4620, Outcome: shop.ChargeSucceeded})
	must(err)
	_, err = db.RecordPaymentEvent(ctx, "evt_1", "NOC-1", "checkout.session.completed", time.Now())
	must(err)
	_, err = db.RecordOrphan(ctx, shop.OrphanPayment{ID: "cs_gone", Method: "stripe", OrderID: "NOC-GONE", Amount: 999, Currency: "usd"})
	must(err)
	_, _, err = db.Hit(ctx, "signin-ip:203.0.113.9", time.Hour)
	must(err)
	must(db.KV().Set("session:abc", []byte(`{"u":"usr_1"}`), time.Hour))
	must(db.SaveCustomerNote(ctx, shop.CustomerNote{Key: "usr_2", Text: "Prefers e-mail.", By: "ada@example.com"}))
}

// Every table of the SQLite shop is copied: a table added by a later
// migration that db copy does not carry (no PostgreSQL counterpart, no
// row here) fails this test.
func TestCopy_EveryTable(t *testing.T) {
	t.Parallel() // each copies its own SQLite file into its own database
	pgURL := pgtest.EmptyDatabase(t)
	path := filepath.Join(t.TempDir(), "shop.db")
	fillShop(t, path)

	var out bytes.Buffer
	tables, err := dbcopy.Copy(context.Background(), path, pgURL, dbcopy.Options{Progress: &out})
	if err != nil {
		t.Fatalf("copy: %v\n%s", err, out.String())
	}
	copied := map[string]int64{}
	for _, tb := range tables {
		copied[tb.Name] = tb.Rows
	}
	// Every table SQLite holds (but its own and the search index's) was
	// copied, with rows.
	src, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	rows, err := src.Query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
		AND name NOT LIKE 'products_fts%' AND name NOT IN ('products_vocab', 'goose_db_version', 'heartbeat')`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		rows.Scan(&name)
		if copied[name] == 0 {
			t.Errorf("table %s: %d rows copied; db copy must carry every table (and this test must fill it)", name, copied[name])
		}
	}
	if !strings.Contains(out.String(), "every row count matches") {
		t.Errorf("no final check in the progress:\n%s", out.String())
	}

	// The copy is a working shop: the account signs in with its hash, the
	// cart and search work, and new rows get fresh ids.
	ctx := context.Background()
	pg, err := postgres.Open(ctx, pgURL, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	// The heartbeat is left out on purpose (dbcopy.Skipped): the target's
	// own row stays, so its monitor beats at once.
	if _, skipped := dbcopy.Skipped["heartbeat"]; !skipped {
		t.Error("the heartbeat table is neither copied nor skipped")
	}
	if err := pg.Heartbeat(ctx, time.Now()); err != nil {
		t.Errorf("heartbeat after copy: %v", err)
	}
	if u, hash, err := pg.UserByEmail(ctx, "ada@example.com"); err != nil || string(hash) != "hash" || u.IsGuest || !u.EmailVerified {
		t.Errorf("user: %+v %q %v", u, hash, err)
	}
	if u, _, err := pg.UserByEmail(ctx, "bob@example.com"); err != nil || u.EmailVerified {
		t.Errorf("unverified user: %+v %v", u, err)
	}
	if n, _ := pg.CartCount(ctx, "usr_1"); n != 3 {
		t.Errorf("cart count %d, want 3 (2 lamps, 1 black torch)", n)
	}
	if page, err := pg.Search(ctx, shop.ProductFilter{Query: "creme", Page: 1, PageSize: 5}); err != nil || page.Total != 1 {
		t.Errorf("search after copy: %+v %v", page, err)
	}
	if p, _ := pg.Product(ctx, "p1"); !p.Featured || p.Photo.Hash != "h" {
		t.Errorf("product after copy: %+v", p)
	}
	m := &shop.ContactMessage{Name: "B", Email: "b@example.com", Subject: "S", Message: "M"}
	if err := pg.CreateContactMessage(ctx, m); err != nil || m.ID != 2 {
		t.Errorf("new contact message: id %d, %v (want 2: the sequence moved past the copied ids)", m.ID, err)
	}
}

// A target with a shop in it is refused unless forced; a forced copy
// replaces it, and running it again gives the same result.
func TestCopy_RefusesNonEmptyTargetAndReruns(t *testing.T) {
	t.Parallel() // each copies its own SQLite file into its own database
	pgURL := pgtest.EmptyDatabase(t)
	path := filepath.Join(t.TempDir(), "shop.db")
	fillShop(t, path)
	ctx := context.Background()
	if _, err := dbcopy.Copy(ctx, path, pgURL, dbcopy.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := dbcopy.Copy(ctx, path, pgURL, dbcopy.Options{}); !errors.Is(err, dbcopy.ErrTargetNotEmpty) {
		t.Fatalf("second copy without --force: got %v, want ErrTargetNotEmpty", err)
	}
	for range 2 {
		if _, err := dbcopy.Copy(ctx, path, pgURL, dbcopy.Options{Force: true}); err != nil {
			t.Fatalf("forced copy: %v", err)
		}
	}
	conn, err := pgx.Connect(ctx, pgURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var users, orders int
	conn.QueryRow(ctx, `SELECT (SELECT COUNT(*) FROM users), (SELECT COUNT(*) FROM orders)`).Scan(&users, &orders)
	if users != 3 || orders != 2 {
		t.Errorf("after re-runs: %d users, %d orders, want 3 and 2", users, orders)
	}
}
