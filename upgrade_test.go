package main

import (
	"context"
	"database/sql"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/store/postgres/pgtest"
)

// previousBinEnv names the previous release's binary for the upgrade
// smoke; scripts/upgrade-smoke.sh builds it and sets it.
const previousBinEnv = "STOREFRONT_PREVIOUS_BIN"

// The previous release serves a shopper and a member of staff on the
// schema this release migrates to, as it does during a rolling upgrade
// while instances not yet replaced share the database with new ones
// (decision 0018): browse, add to the cart, check out as a guest with the
// demo card, and ship the order from the back office. Run it with
// `go tool task test:upgrade`.
func TestUpgrade_PreviousReleaseOnNewSchema(t *testing.T) {
	bin := os.Getenv(previousBinEnv)
	if bin == "" {
		// `go test ./...` (test:go) skips it, CI included: test:upgrade,
		// which CI runs next, builds the binary and fails when it can't.
		t.Skipf("upgrade smoke skipped: go tool task test:upgrade builds the previous release and sets %s", previousBinEnv)
	}
	t.Run("SQLite", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		upgradeSmoke(t, bin, dir, map[string]string{"DATA_DIR": dir})
	})
	t.Run("Postgres", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		upgradeSmoke(t, bin, dir, map[string]string{"DATA_DIR": dir, "DATABASE_URL": pgtest.EmptyDatabase(t)})
	})
}

// smoke runs the upgrade smoke's steps and says which one failed.
type smoke struct {
	t    *testing.T
	step string
	db   *sql.DB
}

func (s *smoke) begin(step string) {
	s.step = step
	s.t.Logf("step: %s", step)
}

func (s *smoke) fatalf(format string, args ...any) {
	s.t.Helper()
	s.t.Fatalf("upgrade smoke, step %q: "+format, append([]any{s.step}, args...)...)
}

// exec runs a statement the previous release has no page for.
func (s *smoke) exec(q string) {
	s.t.Helper()
	if _, err := s.db.Exec(q); err != nil {
		s.fatalf("%s: %v", q, err)
	}
}

// orderStatus reads an order's status (id is NOC-… from a redirect, so
// it is safe in the statement's text, which both dialects then accept).
func (s *smoke) orderStatus(id string) string {
	var status string
	if err := s.db.QueryRow(`SELECT status FROM orders WHERE id = '` + id + `'`).Scan(&status); err != nil {
		s.fatalf("read order %s: %v", id, err)
	}
	return status
}

var (
	productLink    = regexp.MustCompile(`href="/product/([a-z0-9-]+)"`)
	orderIDPattern = regexp.MustCompile(`^/orders/(NOC-[A-Z0-9-]+)`)
	carrierOption  = regexp.MustCompile(`(?s)name="carrier".*?<option[^>]*value="([^"]+)"`)
)

func upgradeSmoke(t *testing.T, bin, dir string, env map[string]string) {
	start := time.Now()
	env["SESSION_SECRET"] = strings.Repeat("s", 40)
	cfg := loadConfig(t, env)
	s := &smoke{t: t}

	s.begin("migrate a fresh database with this release")
	var out strings.Builder
	if err := dbMigrateCommand(context.Background(), cfg, &out); err != nil {
		s.fatalf("%v", err)
	}
	t.Logf("%s", strings.TrimSpace(out.String()))
	driver, source := "sqlite", "file:"+cfg.SQLitePath()+"?_pragma=busy_timeout(5000)"
	if cfg.Postgres() {
		driver, source = "pgx", cfg.DatabaseURL
	}
	db, err := sql.Open(driver, source)
	if err != nil {
		s.fatalf("%v", err)
	}
	defer db.Close()
	s.db = db

	s.begin("start the previous release on it")
	var extra []string
	for k, v := range env {
		extra = append(extra, k+"="+v)
	}
	srv := startBinary(t, bin, dir, append(extra, "PAYMENT_DELAY=0s")...)
	defer func() {
		if t.Failed() {
			t.Logf("previous release's log:\n%s", srv.logs)
		}
	}()

	shopper := newShopper(t, srv.base)
	orderID := s.guestOrder(shopper)
	s.shipAsStaff(bin, srv, env, orderID)
	t.Logf("upgrade smoke passed in %s", time.Since(start).Round(time.Millisecond))
}

// guestOrder browses, fills a cart and checks out as a guest with the
// demo card; it returns the order's id once it is charged.
func (s *smoke) guestOrder(sh *shopper) string {
	s.begin("browse /products and a product page")
	link := productLink.FindStringSubmatch(sh.get("/products"))
	if link == nil {
		s.fatalf("/products links no product")
	}
	product := link[1]
	if page := sh.get("/product/" + product); !strings.Contains(page, `name="product_id"`) {
		s.fatalf("the page of %s has no add-to-cart form", product)
	}

	s.begin("add to the cart")
	if res, _ := sh.post("/cart/items", url.Values{"product_id": {product}, "quantity": {"1"}}); res.StatusCode >= 400 {
		s.fatalf("POST /cart/items: %d", res.StatusCode)
	}
	if page := sh.get("/cart"); !strings.Contains(page, `/product/`+product+`"`) {
		s.fatalf("the cart does not hold %s", product)
	}

	s.begin("check out as a guest: continue as guest, shipping, payment, review")
	if res, _ := sh.post("/guest", url.Values{"from": {"/checkout"}}); res.StatusCode != 303 {
		s.fatalf("continue as guest: %d", res.StatusCode)
	}
	if res, _ := sh.post("/checkout/shipping", url.Values{"firstName": {"Ada"}, "lastName": {"L"}, "email": {"guest@example.com"}, "phone": {"020 7946 0958"},
		"address": {"1 St"}, "city": {"London"}, "state": {"LDN"}, "zipCode": {"SW1A 1AA"}, "country": {"United Kingdom"}}); res.Header.Get("Location") != "/checkout/payment" {
		s.fatalf("shipping: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	if res, _ := sh.post("/checkout/payment", url.Values{"cardNumber": {"4242424242424242"}, "cardName": {"Ada"},
		"expiryDate": {"12/30"}, "cvv": {"123"}}); res.Header.Get("Location") != "/checkout/review" {
		s.fatalf("payment: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	m := keyField.FindStringSubmatch(sh.get("/checkout/review"))
	if m == nil {
		s.fatalf("no Place Order key on the review")
	}

	s.begin("place the order and see it charged")
	res, _ := sh.post("/checkout/place", url.Values{"key": {m[1]}})
	id := orderIDPattern.FindStringSubmatch(res.Header.Get("Location"))
	if id == nil {
		s.fatalf("place: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	s.waitStatus(id[1], string(shop.StatusProcessing))
	return id[1]
}

// shipAsStaff makes a member of staff with the previous release's own
// command and ships the order from its back office.
func (s *smoke) shipAsStaff(bin string, srv *server, env map[string]string, orderID string) {
	s.begin("make a staff account with the previous release's staff add")
	staff := newShopper(s.t, srv.base)
	staff.post("/register", url.Values{"displayName": {"Grace"}, "email": {"staff@example.com"},
		"password": {"Nocturne-Test-9"}, "confirmPassword": {"Nocturne-Test-9"}})
	// The confirmation link goes to a mailbox this test has not got.
	s.exec(`UPDATE users SET email_verified = TRUE WHERE email = 'staff@example.com'`)
	cmd := exec.Command(bin, "staff", "add", "staff@example.com", "--role", "admin")
	cmd.Env = os.Environ()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	if b, err := cmd.CombinedOutput(); err != nil {
		s.fatalf("%v\n%s", err, b)
	}

	s.begin("sign in as staff and ship the order from /admin")
	staff = newShopper(s.t, srv.base)
	if res, _ := staff.post("/login", url.Values{"email": {"staff@example.com"}, "password": {"Nocturne-Test-9"}}); res.StatusCode != 303 {
		s.fatalf("sign-in: %d", res.StatusCode)
	}
	c := carrierOption.FindStringSubmatch(staff.get("/admin/orders/" + orderID))
	if c == nil {
		s.fatalf("the admin order page has no carrier to ship with")
	}
	res, _ := staff.post("/admin/orders/"+orderID+"/ship", url.Values{"carrier": {c[1]}, "tracking": {"TRACK123456"}})
	if res.StatusCode != 303 {
		s.fatalf("ship: %d", res.StatusCode)
	}
	if got := s.orderStatus(orderID); got != string(shop.StatusShipped) {
		s.fatalf("order %s is %q after shipping, want shipped", orderID, got)
	}
}

// waitStatus waits, up to 30 seconds, for the order to reach want.
func (s *smoke) waitStatus(id, want string) {
	s.t.Helper()
	got := ""
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if got = s.orderStatus(id); got == want {
			return
		}
	}
	s.fatalf("order %s is %q, want %q", id, got, want)
}
