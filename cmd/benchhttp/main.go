// Command benchhttp measures the shop's HTTP throughput against a bare Fiber
// hello-world, both run one after the other in one run on this machine, so
// that a figure is read as a ratio to the machine's ceiling rather than as an
// absolute number on a shared, noisy machine.
//
//	go tool task bench:http            # builds bin/storefront first
//	go run ./cmd/benchhttp -bin bin/storefront -d 10s -c 64
//
// The load comes from wrk when it is installed (Debian package wrk), else
// from a closed-loop Go generator on fasthttp's client. Every request asks
// for gzip, as browsers do. For each row it prints requests per second, the
// ratio to hello-world, p50 and p99 latency and the server's resident memory
// after the row.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"github.com/nocturne/storefront/internal/catalog"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/store/postgres"
	"github.com/nocturne/storefront/internal/store/sqlite"
)

func main() {
	if len(os.Args) == 3 && os.Args[1] == "hello" {
		hello(os.Args[2])
		return
	}
	bin := flag.String("bin", "bin/storefront", "the shop binary to measure")
	dur := flag.Duration("d", 10*time.Second, "duration of each row")
	conns := flag.Int("c", 64, "concurrent connections")
	gen := flag.String("gen", "auto", "load generator: auto, wrk or go")
	dbURL := flag.String("db", "", "DATABASE_URL for the shop (default: SQLite in a temporary directory)")
	only := flag.String("only", "", "measure only the rows whose name holds one of these comma-separated words (e.g. /cart,/checkout)")
	flag.Parse()
	if err := run(*bin, *dur, *conns, *gen, *dbURL, picker(*only)); err != nil {
		fmt.Fprintln(os.Stderr, "benchhttp:", err)
		os.Exit(1)
	}
}

// hello serves the reference: Fiber's hello-world, nothing else.
func hello(addr string) {
	app := fiber.New(fiber.Config{DisableStartupMessage: true})
	app.Get("/", func(c *fiber.Ctx) error { return c.SendString("Hello, World!") })
	if err := app.Listen(addr); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

type row struct {
	name    string
	path    string
	headers []string
	// unique makes every request's URL different (so no cache answers it).
	unique bool
}

type result struct {
	rps      float64
	p50, p99 time.Duration
	rssKB    int64
	errors   int64
	// cpu is the server's CPU time (user + system) per request: on a
	// shared, noisy machine it moves less than req/s does, since it does
	// not count the time the server waited for a core.
	cpu time.Duration
}

// picker keeps the rows whose name holds one of only's words; all when
// only is empty.
func picker(only string) func(name string) bool {
	words := strings.FieldsFunc(only, func(r rune) bool { return r == ',' })
	return func(name string) bool {
		if len(words) == 0 {
			return true
		}
		for _, w := range words {
			if strings.Contains(name, strings.TrimSpace(w)) {
				return true
			}
		}
		return false
	}
}

func run(bin string, dur time.Duration, conns int, gen, dbURL string, pick func(name string) bool) error {
	gen = generator(gen)
	self, err := os.Executable()
	if err != nil {
		return err
	}
	fmt.Printf("load: %s, %d connections, %s per row, Accept-Encoding: gzip\n\n", gen, conns, dur)
	fmt.Printf("%-44s %10s %8s %9s %9s %8s %9s %9s\n", "row", "req/s", "ratio", "p50", "p99", "RSS", "CPU/req", "CPU ratio")

	base, err := measureHello(self, gen, dur, conns)
	if err != nil {
		return err
	}
	printRow("fiber hello-world /", base, base)

	// The shop, on a fresh database with its built-in catalogue.
	addr, err := freeAddr()
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "benchhttp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	shop, err := startShop(bin, addr, dir, dbURL)
	if err != nil {
		return fmt.Errorf("shop: %w", err)
	}
	defer func() { stop(shop) }()
	shopURL := "http://" + addr
	cookie, err := signedInWithCart(shopURL)
	if err != nil {
		return fmt.Errorf("sign in for the bench: %w", err)
	}
	var picked []row
	for _, r := range shopRows(cookie) {
		if pick(r.name) {
			picked = append(picked, r)
		}
	}
	if err := measureRows(gen, shopURL, picked, dur, conns, shop.Process.Pid, base); err != nil {
		return err
	}

	// The listings again once half the products have options: the shop is
	// stopped, every other product given three sizes, and started again.
	if !pick("half with variants") {
		return nil
	}
	stop(shop)
	if err := halfWithVariants(context.Background(), filepath.Join(dir, "nocturne.db"), dbURL); err != nil {
		return fmt.Errorf("variants for the bench: %w", err)
	}
	if shop, err = startShop(bin, addr, dir, dbURL); err != nil {
		return fmt.Errorf("shop with variants: %w", err)
	}
	return measureRows(gen, shopURL, []row{
		{name: "/products, half with variants", path: "/products"},
		{name: "/products?maxPrice=N, half with variants", path: "/products?maxPrice=", unique: true},
	}, dur, conns, shop.Process.Pid, base)
}

// generator resolves "auto" to wrk when it is installed, else the Go
// load generator.
func generator(gen string) string {
	if gen != "auto" {
		return gen
	}
	if _, err := exec.LookPath("wrk"); err == nil {
		return "wrk"
	}
	return "go"
}

// measureHello measures the reference, Fiber's hello-world, served by this
// program (self) itself.
func measureHello(self, gen string, dur time.Duration, conns int) (result, error) {
	helloAddr, err := freeAddr()
	if err != nil {
		return result{}, err
	}
	ref, err := start(exec.Command(self, "hello", helloAddr), helloAddr, "/")
	if err != nil {
		return result{}, fmt.Errorf("hello-world: %w", err)
	}
	base, err := measure(gen, "http://"+helloAddr, row{path: "/"}, dur, conns, ref.Process.Pid)
	stop(ref)
	if err != nil {
		return result{}, fmt.Errorf("hello-world: %w", err)
	}
	return base, nil
}

// startShop starts the shop's binary on addr with its data in dir, on the
// PostgreSQL database dbURL when set, and waits until it is healthy.
func startShop(bin, addr, dir, dbURL string) (*exec.Cmd, error) {
	cmd := exec.Command(bin)
	_, port, _ := net.SplitHostPort(addr)
	cmd.Env = append(os.Environ(), "PORT="+port, "DATA_DIR="+dir, "BASE_URL=http://"+addr, "CATALOG_URL=", "DEMO=")
	if dbURL != "" {
		cmd.Env = append(cmd.Env, "DATABASE_URL="+dbURL)
	}
	return start(cmd, addr, "/healthz")
}

// shopRows are the pages measured, some signed in with a cart (cookie).
func shopRows(cookie string) []row {
	return []row{
		{name: "/", path: "/"},
		{name: "/products", path: "/products"},
		{name: "/products?category=…&sort=desc&minPrice=20", path: "/products?category=electronics&minPrice=20&sort=desc"},
		{name: "/product/nb-001", path: "/product/nb-001"},
		{name: "/product/nb-014 (4 sizes × 2 colours)", path: "/product/nb-014?variant=nb-014-m-black"},
		{name: "/search?q=lamp", path: "/search?q=lamp"},
		{name: "/faq", path: "/faq"},
		{name: "/products signed in, with a cart", path: "/products", headers: []string{"Cookie", cookie}},
		{name: "/cart", path: "/cart", headers: []string{"Cookie", cookie}},
		{name: "/checkout/shipping", path: "/checkout/shipping", headers: []string{"Cookie", cookie}},
		{name: "/checkout/payment", path: "/checkout/payment", headers: []string{"Cookie", cookie}},
		{name: "/checkout/review", path: "/checkout/review", headers: []string{"Cookie", cookie}},
		{name: "/products?maxPrice=N, every URL new", path: "/products?maxPrice=", unique: true},
	}
}

// measureRows measures each row against the shop (process pid) and
// prints it beside the reference base.
func measureRows(gen, shopURL string, rows []row, dur time.Duration, conns, pid int, base result) error {
	for _, r := range rows {
		res, err := measure(gen, shopURL, r, dur, conns, pid)
		if err != nil {
			return fmt.Errorf("%s: %w", r.name, err)
		}
		printRow(r.name, res, base)
	}
	return nil
}

// variantStore is what halfWithVariants needs of either store.
type variantStore interface {
	AllProducts(ctx context.Context) ([]shop.Product, error)
	SetChoices(ctx context.Context, productID string, c shop.Choices) error
	Close() error
}

// halfWithVariants gives every other product without options sizes S, M
// and L (L a little dearer, so its card says "from"), in the shop's
// database: the SQLite file at path, or dbURL.
func halfWithVariants(ctx context.Context, path, dbURL string) error {
	var db variantStore
	var err error
	if dbURL != "" {
		db, err = postgres.Open(ctx, dbURL, postgres.Options{})
	} else {
		db, err = sqlite.Open(ctx, path)
	}
	if err != nil {
		return err
	}
	defer db.Close()
	products, err := db.AllProducts(ctx)
	if err != nil {
		return err
	}
	for i, p := range products {
		if i%2 == 1 || p.HasOptions() {
			continue
		}
		c := shop.Choices{Options: []shop.Option{{Name: "Size", Values: []shop.OptionValue{{Value: "S"}, {Value: "M"}, {Value: "L"}}}}}
		for _, size := range []string{"S", "M", "L"} {
			v := shop.Variant{ID: catalog.VariantID(p.ID, []string{size}), Values: []string{size}, Stock: 10, Enabled: true}
			if size == "L" {
				v.Price = p.Price + 500
			}
			c.Variants = append(c.Variants, v)
		}
		if err := db.SetChoices(ctx, p.ID, c); err != nil {
			return err
		}
	}
	return nil
}

// printRow prints a row with its ratios to hello-world: throughput, and
// hello-world's CPU per request over the row's.
func printRow(name string, r result, base result) {
	errs := ""
	if r.errors > 0 {
		errs = fmt.Sprintf("  (%d errors)", r.errors)
	}
	cpuRatio := 0.0
	if r.cpu > 0 {
		cpuRatio = 100 * float64(base.cpu) / float64(r.cpu)
	}
	fmt.Printf("%-44s %10.0f %7.1f%% %9s %9s %6.0fMB %9s %8.1f%%%s\n", name, r.rps, 100*r.rps/base.rps,
		r.p50.Round(10*time.Microsecond), r.p99.Round(10*time.Microsecond), float64(r.rssKB)/1024,
		r.cpu.Round(100*time.Nanosecond), cpuRatio, errs)
}

func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// start runs cmd and waits until path answers 200.
func start(cmd *exec.Cmd, addr, path string) (*exec.Cmd, error) {
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		res, err := http.Get("http://" + addr + path)
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return cmd, nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	stop(cmd)
	return nil, fmt.Errorf("%s did not answer on %s", cmd.Path, addr)
}

func stop(cmd *exec.Cmd) {
	_ = cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
	}
}

// signedInWithCart registers an account, adds a product to its cart and
// returns the session cookie, for the signed-in row.
func signedInWithCart(base string) (string, error) {
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	post := func(path string, form url.Values, cookie string) (*http.Response, error) {
		req, _ := http.NewRequest(http.MethodPost, base+path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", base)
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		if cookie != "" {
			req.Header.Set("Cookie", cookie)
		}
		res, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		res.Body.Close()
		return res, nil
	}
	email := fmt.Sprintf("bench-%d@example.com", time.Now().UnixNano())
	res, err := post("/register", url.Values{"displayName": {"Bench"}, "email": {email}, "password": {"bench-password-1"}, "confirmPassword": {"bench-password-1"}}, "")
	if err != nil {
		return "", err
	}
	var cookie string
	for _, c := range res.Cookies() {
		if c.Name == "nocturne_session" {
			cookie = c.Name + "=" + c.Value
		}
	}
	if cookie == "" {
		return "", fmt.Errorf("registration answered %d without a session", res.StatusCode)
	}
	if res, err = post("/cart/items", url.Values{"product_id": {"nb-001"}, "quantity": {"2"}}, cookie); err != nil {
		return "", err
	}
	if res.StatusCode != http.StatusSeeOther {
		return "", fmt.Errorf("add to cart answered %d", res.StatusCode)
	}
	// Through the shipping and payment steps, so the checkout's pages
	// (which price the cart) can be measured too.
	if res, err = post("/checkout/shipping", url.Values{"firstName": {"Bench"}, "lastName": {"Mark"}, "email": {email},
		"phone": {"(217) 555-0100"}, "address": {"1 Main St"}, "city": {"Springfield"}, "state": {"IL"}, "zipCode": {"62701"},
		"country": {"United States"}}, cookie); err != nil {
		return "", err
	}
	if res.StatusCode != http.StatusSeeOther {
		return "", fmt.Errorf("shipping step answered %d", res.StatusCode)
	}
	if res, err = post("/checkout/payment", url.Values{"method": {"demo"}, "cardNumber": {"4242 4242 4242 4242"}, "cardName": {"Bench Mark"},
		"expiryDate": {"12/30"}, "cvv": {"123"}, "action": {"next"}}, cookie); err != nil {
		return "", err
	}
	if res.StatusCode != http.StatusSeeOther {
		return "", fmt.Errorf("payment step answered %d", res.StatusCode)
	}
	return cookie, nil
}

func measure(gen, base string, r row, dur time.Duration, conns, pid int) (result, error) {
	var res result
	var err error
	cpu0 := cpuTime(pid)
	if gen == "wrk" {
		res, err = measureWrk(base, r, dur, conns)
	} else {
		res, err = measureGo(base, r, dur, conns)
	}
	res.rssKB = rss(pid)
	if n := res.rps * dur.Seconds(); n > 0 {
		res.cpu = time.Duration(float64(cpuTime(pid)-cpu0) / n)
	}
	return res, err
}

var (
	wrkRPS     = regexp.MustCompile(`Requests/sec:\s+([0-9.]+)`)
	wrkLatency = regexp.MustCompile(`(?m)^\s+(50|99)(?:\.000)?%\s+([0-9.]+)(us|ms|s)`)
	wrkErrors  = regexp.MustCompile(`Non-2xx or 3xx responses: (\d+)|Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)`)
)

// wrkScript sets the headers and, for unique rows, a new URL per request.
const wrkScript = `
local n = 0
local unique = %t
local path = %q
wrk.headers["Accept-Encoding"] = "gzip"
%s
request = function()
  if unique then
    n = n + 1
    return wrk.format("GET", path .. tostring(1000 + n))
  end
  return wrk.format("GET", path)
end
`

func measureWrk(base string, r row, dur time.Duration, conns int) (result, error) {
	var hdrs strings.Builder
	for i := 0; i+1 < len(r.headers); i += 2 {
		fmt.Fprintf(&hdrs, "wrk.headers[%q] = %q\n", r.headers[i], r.headers[i+1])
	}
	f, err := os.CreateTemp("", "benchhttp-*.lua")
	if err != nil {
		return result{}, err
	}
	defer os.Remove(f.Name())
	fmt.Fprintf(f, wrkScript, r.unique, r.path, hdrs.String())
	f.Close()
	out, err := exec.Command("wrk", "-t2", "-c"+strconv.Itoa(conns), "-d"+dur.String(), "--latency",
		"-s", f.Name(), base+"/").CombinedOutput()
	if err != nil {
		return result{}, fmt.Errorf("wrk: %w: %s", err, out)
	}
	var res result
	m := wrkRPS.FindSubmatch(out)
	if m == nil {
		return result{}, fmt.Errorf("wrk printed no rate: %s", out)
	}
	res.rps, _ = strconv.ParseFloat(string(m[1]), 64)
	for _, m := range wrkLatency.FindAllSubmatch(out, -1) {
		v, _ := strconv.ParseFloat(string(m[2]), 64)
		d := time.Duration(v * float64(map[string]time.Duration{"us": time.Microsecond, "ms": time.Millisecond, "s": time.Second}[string(m[3])]))
		if string(m[1]) == "50" {
			res.p50 = d
		} else {
			res.p99 = d
		}
	}
	for _, m := range wrkErrors.FindAllSubmatch(out, -1) {
		for _, g := range m[1:] {
			n, _ := strconv.ParseInt(string(g), 10, 64)
			res.errors += n
		}
	}
	return res, nil
}

// measureGo is the fallback generator: conns workers, each with its own
// keep-alive connection, sending one request after another.
func measureGo(base string, r row, dur time.Duration, conns int) (result, error) {
	u, err := url.Parse(base)
	if err != nil {
		return result{}, err
	}
	client := &fasthttp.HostClient{Addr: u.Host, MaxConns: conns, ReadTimeout: 10 * time.Second}
	var (
		n, errs atomic.Int64
		mu      sync.Mutex
		lat     []time.Duration
		wg      sync.WaitGroup
	)
	ctx, cancel := context.WithTimeout(context.Background(), dur)
	defer cancel()
	start := time.Now()
	for range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, res := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
			defer fasthttp.ReleaseRequest(req)
			defer fasthttp.ReleaseResponse(res)
			var mine []time.Duration
			for ctx.Err() == nil {
				path := r.path
				if r.unique {
					path += strconv.FormatInt(1000+n.Load(), 10)
				}
				req.Reset()
				req.SetRequestURI(base + path)
				req.Header.Set("Accept-Encoding", "gzip")
				for i := 0; i+1 < len(r.headers); i += 2 {
					req.Header.Set(r.headers[i], r.headers[i+1])
				}
				t0 := time.Now()
				err := client.Do(req, res)
				mine = append(mine, time.Since(t0))
				n.Add(1)
				if err != nil || res.StatusCode() >= 400 {
					errs.Add(1)
				}
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if len(lat) == 0 {
		return result{}, errors.New("no request completed")
	}
	slices.Sort(lat)
	return result{
		rps:    float64(n.Load()) / elapsed.Seconds(),
		p50:    lat[len(lat)/2],
		p99:    lat[len(lat)*99/100],
		errors: errs.Load(),
	}, nil
}

// cpuTime reads the CPU time (user + system) a process has used from
// /proc/PID/stat, whose 14th and 15th fields count clock ticks (100 a
// second on Linux).
func cpuTime(pid int) time.Duration {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0
	}
	// The command name (field 2) may hold spaces: count from after it.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:])) // f[0] is field 3
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// rss reads a process's resident set size in KB from /proc.
func rss(pid int) int64 {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb
		}
	}
	return 0
}
