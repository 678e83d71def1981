package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nocturne/storefront/internal/config"
	"github.com/nocturne/storefront/internal/store/postgres/pgtest"
)

// pgCount runs a COUNT query on the test database.
func pgCount(t *testing.T, dbURL, q string, args ...any) int {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var n int
	if err := conn.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

// Two instances of the shop (this binary, as child processes)
// on one fresh PostgreSQL database act as one shop.
func TestMultiInstance_ActAsOneShop(t *testing.T) {
	t.Parallel() // each starts its own servers on their own ports and data
	dbURL := pgtest.NewDatabase(t)
	if testing.Short() {
		t.Skip("starts two servers")
	}
	env := []string{"DATABASE_URL=" + dbURL, "DATABASE_MAX_CONNS=8", "PAYMENT_DELAY=300ms", "PAYMENT_TIMEOUT=3s"}
	a := startServer(t, t.TempDir(), env...)
	b := startServer(t, t.TempDir(), env...)

	t.Run("SessionAndFormsAcrossInstances", func(t *testing.T) {
		onA := newShopper(t, a.base)
		onA.post("/register", url.Values{"displayName": {"Ada"}, "email": {"ada@example.com"},
			"password": {"night-owl-41"}, "confirmPassword": {"night-owl-41"}})
		// The same browser (its cookie jar) now talks to B.
		onB := &shopper{t: t, base: b.base, hc: onA.hc}
		if page := onB.get("/profile"); !strings.Contains(page, "ada@example.com") {
			t.Fatalf("B does not know A's sign-in: /profile shows no account")
		}
		// A cart line added on A shows on B.
		onA.base = a.base
		if res, _ := onA.post("/cart/items", url.Values{"product_id": {"nb-001"}, "quantity": {"2"}}); res.StatusCode >= 400 {
			t.Fatalf("add on A: %d", res.StatusCode)
		}
		if page := onB.get("/cart"); !strings.Contains(page, `/product/nb-001"`) {
			t.Errorf("the cart line added on A is not on B's cart page")
		}
		// A form rendered by A (the contact form) is accepted by B.
		if page := onA.get("/contact"); !strings.Contains(page, `action="/contact"`) {
			t.Fatal("no contact form on A")
		}
		res, _ := onB.post("/contact", url.Values{"name": {"Ada"}, "email": {"ada@example.com"}, "subject": {"Hi"}, "message": {"From A's form"}})
		if res.StatusCode != http.StatusSeeOther && res.StatusCode != http.StatusFound {
			t.Errorf("B refused A's form: %d", res.StatusCode)
		}
		if n := pgCount(t, dbURL, `SELECT COUNT(*) FROM contact_messages WHERE message = 'From A''s form'`); n != 1 {
			t.Errorf("contact messages stored: %d, want 1", n)
		}
	})

	t.Run("FailedSignInsCountAcrossInstances", func(t *testing.T) {
		reg := newShopper(t, a.base)
		reg.post("/register", url.Values{"displayName": {"Bo"}, "email": {"bo@example.com"},
			"password": {"night-owl-41"}, "confirmPassword": {"night-owl-41"}})
		// Five failures (the per-account-and-address limit), alternating.
		for i := range 5 {
			s := newShopper(t, []string{a.base, b.base}[i%2])
			s.post("/login", url.Values{"email": {"bo@example.com"}, "password": {"wrong-guess-" + fmt.Sprint(i)}})
		}
		for _, base := range []string{a.base, b.base} {
			s := newShopper(t, base)
			res, body := s.post("/login", url.Values{"email": {"bo@example.com"}, "password": {"night-owl-41"}})
			if !strings.Contains(body, "Too many sign-in attempts") {
				t.Errorf("%s: after 5 failures spread over both instances the right password got %d without the throttle message", base, res.StatusCode)
			}
		}
	})

	// B serves the import without a restart. Shared databases are looked at
	// four times a second, so it takes well under a second on an idle
	// machine (logged below); the test bounds it by a minute only, because a
	// busy machine can take longer without anything being wrong.
	t.Run("ImportReachesOtherInstance", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "catalog.json")
		os.WriteFile(file, []byte(`[{"id": 901, "title": "Moonlit Zither", "price": 42.5, "description": "A zither for night owls",
			"category": "music", "image": "", "rating": {"rate": 4.5, "count": 3}}]`), 0o600)
		cmd := exec.Command(os.Args[0], "catalog", "import", file)
		cmd.Env = append(os.Environ(), "STOREFRONT_TEST_SERVE=1", "LOG_LEVEL=warn", "DATA_DIR="+t.TempDir(),
			"SESSION_SECRET="+strings.Repeat("s", 40), "DATABASE_URL="+dbURL)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("import: %v\n%s", err, out)
		}
		done := time.Now()
		s := newShopper(t, b.base)
		for !strings.Contains(s.get("/search?q=zither"), "Moonlit Zither") {
			if time.Since(done) > time.Minute {
				t.Fatalf("B does not list the product imported a minute ago")
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Logf("B listed the imported product %v after the import ended", time.Since(done).Round(time.Millisecond))
	})

	t.Run("SamePlaceOrderOnBothGivesOneOrder", func(t *testing.T) {
		onA := newShopper(t, a.base)
		key := onA.toReview("cy@example.com")
		onB := &shopper{t: t, base: b.base, hc: onA.hc}
		var wg sync.WaitGroup
		for _, s := range []*shopper{onA, onB} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s.post("/checkout/place", url.Values{"key": {key}})
			}()
		}
		wg.Wait()
		waitFor(t, "the payment to end", func() bool {
			return pgCount(t, dbURL, `SELECT COUNT(*) FROM orders WHERE email = 'cy@example.com' AND status = 'pending'`) == 0
		})
		if n := pgCount(t, dbURL, `SELECT COUNT(*) FROM orders WHERE email = 'cy@example.com'`); n != 1 {
			t.Errorf("orders: %d, want 1", n)
		}
		if n := pgCount(t, dbURL, `SELECT COUNT(*) FROM gateway_charges c JOIN orders o ON o.charge_key = c.idempotency_key
			WHERE o.email = 'cy@example.com'`); n != 1 {
			t.Errorf("charges: %d, want 1", n)
		}
	})
}

// Two instances on one database run a periodic job (the catalogue sync)
// once per interval between them, not once each: looks at the times each
// would make, 10 s apart, run it three times in 20 s.
func TestMultiInstance_PeriodicOncePerInterval(t *testing.T) {
	t.Parallel() // each starts its own servers on their own ports and data
	dbURL := pgtest.NewDatabase(t)
	ctx := context.Background()
	open := func() *backend {
		cfg, err := config.Load(func(k string) string {
			return map[string]string{"DATABASE_URL": dbURL, "DATA_DIR": t.TempDir(), "SESSION_SECRET": strings.Repeat("s", 40)}[k]
		})
		if err != nil {
			t.Fatal(err)
		}
		b, err := openDatabase(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		return b
	}
	a, b := open(), open()
	log := slog.New(slog.DiscardHandler)
	const interval = 10 * time.Second
	start := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	var runs atomic.Int32
	job := func(context.Context) { runs.Add(1) }
	for _, tt := range []struct {
		after time.Duration
		want  int // runs so far
	}{
		{0, 1},                       // the first look runs it, on one instance
		{time.Second, 1},             // a look 1 s later: done already
		{9 * time.Second, 1},         // not an interval yet
		{9500 * time.Millisecond, 2}, // within a sixteenth of the interval: due
		{10 * time.Second, 2},
		{15 * time.Second, 2},
		{20 * time.Second, 3},
	} {
		// Both instances look at the same moment, as their tickers may.
		now := start.Add(tt.after)
		var wg sync.WaitGroup
		for _, inst := range []*backend{a, b} {
			wg.Go(func() { inst.runIfDue(ctx, lockCatalogSync, interval, now, log, "catalog sync", job) })
		}
		wg.Wait()
		if got := runs.Load(); int(got) != tt.want {
			t.Fatalf("after %v: the job ran %d times on two instances, want %d", tt.after, got, tt.want)
		}
	}
}
