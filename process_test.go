package main

import (
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestMain lets a test run this test binary as the real server in a child
// process (STOREFRONT_TEST_SERVE=1), so tests can kill -9 it, signal it or
// lower its limits without building anything else.
func TestMain(m *testing.M) {
	if os.Getenv("STOREFRONT_TEST_SERVE") == "1" {
		main()
		return
	}
	// This package's parallel tests spend their time waiting on servers
	// in child processes (and on PostgreSQL), not on this process's CPU,
	// so more of them run at once than -parallel's default (the number of
	// CPUs) would let; a -parallel given on the command line still wins.
	flag.Parse()
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "test.parallel" })
	if !explicit {
		_ = flag.Set("test.parallel", strconv.Itoa(max(6, runtime.GOMAXPROCS(0))))
	}
	os.Exit(m.Run())
}

type server struct {
	cmd  *exec.Cmd
	base string
	addr string
	dir  string
	done chan error
	logs *syncBuffer
}

// syncBuffer collects a child's stderr while a test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// handedOut holds the ports freePort gave: the kernel may offer a port
// again once its probe is closed, before the child that was given it has
// bound it, and two servers of parallel tests on one port would answer
// each other's requests.
var handedOut sync.Map

// freePort returns a loopback port nothing listens on and no other test
// of this process was given.
func freePort(t *testing.T) int {
	t.Helper()
	for {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := ln.Addr().(*net.TCPAddr).Port
		ln.Close()
		if _, taken := handedOut.LoadOrStore(port, true); !taken {
			return port
		}
	}
}

// restartEnv starts a server after a crash or cut-off payment: its own
// payments are instant and it sweeps at start and then every second (half
// its lease), so it resolves the pending order soon after the lease the
// first process wrote runs out.
var restartEnv = []string{"PAYMENT_DELAY=0s", "PAYMENT_TIMEOUT=1s"}

// endlessPayment makes the simulated card take a minute (the longest
// PAYMENT_DELAY), far longer than the tests that use it run: a kill or a
// shutdown meets the payment under way however slow the machine, where a
// short delay could end before the signal.
var endlessPayment = []string{"PAYMENT_DELAY=1m", "PAYMENT_TIMEOUT=2m"}

// endLeases ends the lease of every pending order in dir's database, as
// if its time had passed: a lease is twice the payment timeout from the
// claim, four minutes after endlessPayment, longer than a test can wait.
// The sweep's respect for a lease that has not ended is checked by
// internal/checkout's recovery tests, on a clock they control.
func endLeases(t *testing.T, dir string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "nocturne.db")+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	res, err := db.Exec(`UPDATE orders SET lease_until = 1 WHERE status = 'pending'`)
	if err != nil {
		t.Fatalf("end the leases: %v", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		t.Fatalf("ended %d leases, want the one pending order's", n)
	}
}

// startServer runs the shop in a child process on dir's database and
// waits until it answers.
func startServer(t *testing.T, dir string, env ...string) *server {
	t.Helper()
	return startBinary(t, os.Args[0], dir, append([]string{"STOREFRONT_TEST_SERVE=1"}, env...)...)
}

// startBinary runs the shop binary bin (this test binary, or another
// release's) in a child process on dir, and waits until it answers.
func startBinary(t *testing.T, bin, dir string, env ...string) *server {
	t.Helper()
	port := freePort(t)
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port), "DATA_DIR="+dir,
		"LOG_LEVEL=warn", "SESSION_SECRET="+strings.Repeat("s", 40))
	cmd.Env = append(cmd.Env, env...)
	logs := &syncBuffer{}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd, base: fmt.Sprintf("http://127.0.0.1:%d", port), addr: fmt.Sprintf("127.0.0.1:%d", port),
		dir: dir, done: make(chan error, 1), logs: logs}
	go func() { s.done <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-s.done
		}
	})
	// Until it answers or exits; the minute only bounds a broken start, so
	// a busy machine's slow start still passes.
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		if res, err := http.Get(s.base + "/healthz"); err == nil {
			res.Body.Close()
			return s
		}
		select {
		case err := <-s.done:
			t.Fatalf("server exited: %v\n%s", err, logs)
		case <-time.After(25 * time.Millisecond):
		}
	}
	t.Fatalf("server did not answer\n%s", logs)
	return nil
}

// shopper is a browser stand-in against a real server: cookies, same-origin
// fetch metadata on POSTs, no redirects followed.
type shopper struct {
	t    *testing.T
	base string
	hc   *http.Client
}

func newShopper(t *testing.T, base string) *shopper {
	jar, _ := cookiejar.New(nil)
	return &shopper{t: t, base: base, hc: &http.Client{Jar: jar, Timeout: 60 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

func (s *shopper) post(path string, form url.Values) (*http.Response, string) {
	s.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, s.base+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.Header.Set("Origin", s.base)
	res, err := s.hc.Do(req)
	if err != nil {
		s.t.Fatalf("POST %s: %v", path, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

func (s *shopper) get(path string) string {
	s.t.Helper()
	res, err := s.hc.Get(s.base + path)
	if err != nil {
		s.t.Fatalf("GET %s: %v", path, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return string(b)
}

var keyField = regexp.MustCompile(`name="key" value="([^"]+)"`)

// toReview registers, fills the cart and goes to the review, paying by
// the demo card; it returns the Place Order key.
func (s *shopper) toReview(email string) string {
	s.t.Helper()
	s.register(email)
	return s.checkoutToReview(email, "nb-001", "2", url.Values{"cardNumber": {"4242424242424242"}, "cardName": {"Ada"},
		"expiryDate": {"12/30"}, "cvv": {"123"}})
}

// register makes an account and signs the shopper in.
func (s *shopper) register(email string) {
	s.t.Helper()
	s.post("/register", url.Values{"displayName": {"Ada"}, "email": {email}, "password": {"Nocturne-Test-9"}, "confirmPassword": {"Nocturne-Test-9"}})
}

// checkoutToReview adds qty of product to the cart, gives the shipping
// address and the Payment step's form, and returns the review's Place
// Order key.
func (s *shopper) checkoutToReview(email, product, qty string, payment url.Values) string {
	s.t.Helper()
	s.post("/cart/items", url.Values{"product_id": {product}, "quantity": {qty}})
	if res, _ := s.post("/checkout/shipping", url.Values{"firstName": {"Ada"}, "lastName": {"L"}, "email": {email}, "phone": {"020 7946 0958"},
		"address": {"1 St"}, "city": {"London"}, "state": {"LDN"}, "zipCode": {"SW1A 1AA"}, "country": {"United Kingdom"}}); res.Header.Get("Location") != "/checkout/payment" {
		s.t.Fatalf("shipping: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	if res, _ := s.post("/checkout/payment", payment); res.Header.Get("Location") != "/checkout/review" {
		s.t.Fatalf("payment: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	m := keyField.FindStringSubmatch(s.get("/checkout/review"))
	if m == nil {
		s.t.Fatal("no key on the review")
	}
	return m[1]
}

// orderStates reads the orders' statuses straight from the database file.
func orderStates(t *testing.T, dir string) map[string]int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "nocturne.db")+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT status, COUNT(*) FROM orders GROUP BY status`)
	if err != nil {
		return map[string]int{}
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var s string
		var n int
		_ = rows.Scan(&s, &n)
		out[s] = n
	}
	return out
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for i := 0; i < 1200; i++ {
		if cond() {
			return
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatalf("gave up waiting for %s", what)
}

// Kill -9 during a payment leaves a pending order; the
// next start's recovery sweep releases it (nothing was charged) and the
// cart is intact.
func TestProcess_KillDuringPaymentIsRecovered(t *testing.T) {
	t.Parallel() // each starts its own servers on their own ports and data
	if testing.Short() {
		t.Skip("starts the server twice")
	}
	dir := t.TempDir()
	srv := startServer(t, dir, endlessPayment...)
	sh := newShopper(t, srv.base)
	key := sh.toReview("kill@example.com")
	// Place Order answers before the charge runs, so the shopper holds the
	// status page's address when the process dies mid-charge.
	if res, _ := sh.post("/checkout/place", url.Values{"key": {key}}); !strings.HasPrefix(res.Header.Get("Location"), "/orders/NOC-") {
		t.Fatalf("place: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	waitFor(t, "a pending order", func() bool { return orderStates(t, dir)["pending"] == 1 })
	_ = srv.cmd.Process.Signal(syscall.SIGKILL)
	<-srv.done

	// The next start sweeps at once (its own payments take no time), and
	// finds the lease the killed process wrote over.
	endLeases(t, dir)
	srv = startServer(t, dir, restartEnv...)
	sh.base = srv.base
	waitFor(t, "the recovery sweep", func() bool { return orderStates(t, dir)["pending"] == 0 })
	if got := orderStates(t, dir); got["processing"] != 0 {
		t.Errorf("orders %v, want the uncharged one released", got)
	}
	// The status page offers to pay again; the cart is intact (the review
	// shows it) and the order can be placed.
	if res, _ := sh.post("/checkout/retry", nil); res.Header.Get("Location") != "/checkout/payment" {
		t.Fatalf("pay again after recovery went to %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	if res, _ := sh.post("/checkout/payment", url.Values{"cardNumber": {"4242424242424242"}, "cardName": {"Ada"},
		"expiryDate": {"12/30"}, "cvv": {"123"}}); res.Header.Get("Location") != "/checkout/review" {
		t.Fatalf("payment after recovery: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	m := keyField.FindStringSubmatch(sh.get("/checkout/review"))
	if m == nil {
		t.Fatal("no review after recovery: the cart was lost with the released order")
	}
	key = m[1]
	if res, _ := sh.post("/checkout/place", url.Values{"key": {key}}); !strings.HasPrefix(res.Header.Get("Location"), "/orders/NOC-") {
		t.Fatalf("place after recovery: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
}

// SIGTERM during a payment waits for it (SHUTDOWN_GRACE),
// the order is placed and the process exits 0.
func TestProcess_SigtermWaitsForPayment(t *testing.T) {
	t.Parallel() // each starts its own servers on their own ports and data
	if testing.Short() {
		t.Skip("starts the server")
	}
	dir := t.TempDir()
	srv := startServer(t, dir, "PAYMENT_DELAY=2s", "PAYMENT_TIMEOUT=5s", "SHUTDOWN_GRACE=20s")
	sh := newShopper(t, srv.base)
	key := sh.toReview("term@example.com")
	if res, _ := sh.post("/checkout/place", url.Values{"key": {key}}); !strings.HasPrefix(res.Header.Get("Location"), "/orders/NOC-") {
		t.Fatalf("place: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	waitFor(t, "a pending order", func() bool { return orderStates(t, dir)["pending"] == 1 })
	_ = srv.cmd.Process.Signal(syscall.SIGTERM)
	if err := <-srv.done; err != nil {
		t.Errorf("exit: %v\n%s", err, srv.logs)
	}
	if got := orderStates(t, dir); got["processing"] != 1 || got["pending"] != 0 {
		t.Errorf("orders %v, want one processing", got)
	}
}

// With its open-file limit lowered while it runs (prlimit)
// and flooded with idle connections past that limit, the server runs out
// of descriptors (EMFILE), sheds connections instead of exiting, and
// answers again once the flood is gone.
func TestProcess_SurvivesDescriptorExhaustion(t *testing.T) {
	t.Parallel() // each starts its own servers on their own ports and data
	if testing.Short() {
		t.Skip("floods a server")
	}
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skip("prlimit (util-linux) is not installed")
	}
	srv := startServer(t, t.TempDir())
	const limit, flood = 128, 400
	if out, err := exec.Command(prlimit, "--pid", fmt.Sprint(srv.cmd.Process.Pid), fmt.Sprintf("--nofile=%d:%d", limit, limit)).CombinedOutput(); err != nil {
		t.Fatalf("prlimit: %v %s", err, out)
	}

	var conns []net.Conn
	for i := 0; i < flood; i++ {
		c, err := net.DialTimeout("tcp", srv.addr, 2*time.Second)
		if err != nil {
			break // the backlog is full: refused, as it should be
		}
		conns = append(conns, c)
	}
	waitFor(t, "the server to run out of descriptors", func() bool {
		return strings.Contains(srv.logs.String(), "too many open files")
	})
	// Connections the server could not keep were closed, not left hanging.
	// Every connection is read at once; a read that ends other than by the
	// deadline below was closed by the server. When all were accepted, the
	// reads run until the first such close (the minute only bounds a
	// server that never drops one), then the deadline ends the others.
	var dropped atomic.Int64
	firstDrop := make(chan struct{}, len(conns))
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.Read(make([]byte, 1)); err != nil {
				var ne net.Error
				if !(errors.As(err, &ne) && ne.Timeout()) {
					dropped.Add(1)
					firstDrop <- struct{}{}
				}
			}
		}()
	}
	if len(conns) == flood {
		select {
		case <-firstDrop:
		case <-time.After(time.Minute):
		}
	}
	for _, c := range conns {
		_ = c.SetReadDeadline(time.Now())
	}
	wg.Wait()
	for _, c := range conns {
		c.Close()
	}
	if dropped.Load() == 0 && len(conns) == flood {
		t.Errorf("no connection was refused or dropped: the limit was never reached")
	}
	select {
	case err := <-srv.done:
		t.Fatalf("the server exited under the flood: %v\n%s", err, srv.logs)
	default:
	}
	hc := &http.Client{Timeout: 5 * time.Second}
	waitFor(t, "the server to answer again", func() bool {
		res, err := hc.Get(srv.base + "/healthz")
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == http.StatusOK
	})
	t.Logf("flood: %d connections opened, %d dropped by the server", len(conns), dropped.Load())
}

// A payment longer than the shutdown grace: the process still exits 0 at
// the end of the grace, the order is left pending, and the next start's
// recovery sweep resolves it (released: the charge never completed), so
// nothing stays stuck.
func TestProcess_GraceShorterThanPaymentIsRecovered(t *testing.T) {
	t.Parallel() // each starts its own servers on their own ports and data
	if testing.Short() {
		t.Skip("starts the server twice")
	}
	dir := t.TempDir()
	srv := startServer(t, dir, append(endlessPayment, "SHUTDOWN_GRACE=300ms")...)
	sh := newShopper(t, srv.base)
	key := sh.toReview("grace@example.com")
	if res, _ := sh.post("/checkout/place", url.Values{"key": {key}}); !strings.HasPrefix(res.Header.Get("Location"), "/orders/NOC-") {
		t.Fatalf("place: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	waitFor(t, "a pending order", func() bool { return orderStates(t, dir)["pending"] == 1 })
	_ = srv.cmd.Process.Signal(syscall.SIGTERM)
	if err := <-srv.done; err != nil {
		t.Fatalf("exit after the grace: %v\n%s", err, srv.logs)
	}
	if !strings.Contains(srv.logs.String(), "payments still under way") {
		t.Errorf("no warning about the payment cut by the grace:\n%s", srv.logs)
	}
	endLeases(t, dir)
	startServer(t, dir, restartEnv...)
	waitFor(t, "the recovery sweep", func() bool { return orderStates(t, dir)["pending"] == 0 })
}

// SHOP_CURRENCY and SHOP_LOCALE reach every amount the server writes: a
// yen shop for Japan opens with the built-in catalogue in whole yen, and
// an order is placed and kept in yen.
func TestProcess_ShopCurrency(t *testing.T) {
	t.Parallel() // each starts its own servers on their own ports and data
	if testing.Short() {
		t.Skip("starts the server")
	}
	dir := t.TempDir()
	srv := startServer(t, dir, "SHOP_CURRENCY=JPY", "SHOP_LOCALE=ja-JP", "PAYMENT_DELAY=0s")
	sh := newShopper(t, srv.base)
	// nb-001 is 229.0 in the seed; Japanese writes the yen sign full-width.
	if page := sh.get("/product/nb-001"); !strings.Contains(page, "￥229<") {
		t.Errorf("product page has no ￥229:\n%.2000s", page)
	}
	key := sh.toReview("yen@example.com")
	if res, _ := sh.post("/checkout/place", url.Values{"key": {key}}); !strings.HasPrefix(res.Header.Get("Location"), "/orders/NOC-") {
		t.Fatalf("place: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	waitFor(t, "the order to be paid", func() bool { return orderStates(t, dir)["processing"] == 1 })
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "nocturne.db")+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var currency string
	var subtotal int64
	if err := db.QueryRow(`SELECT currency, subtotal_cents FROM orders`).Scan(&currency, &subtotal); err != nil {
		t.Fatal(err)
	}
	// Two of nb-001 at ¥229.
	if currency != "jpy" || subtotal != 458 {
		t.Errorf("order: %d %s, want 458 jpy", subtotal, currency)
	}
}
