package catalog_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/catalog"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/store/sqlite"
	"github.com/nocturne/storefront/internal/store/sqlite/sqlitetest"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func MustOpenDB(tb testing.TB) *sqlite.DB {
	tb.Helper()
	db, err := sqlite.Open(context.Background(), sqlitetest.Path(tb, tb.TempDir(), "c.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

func TestParseFilter(t *testing.T) {
	t.Parallel()
	cats := []string{"electronics", "fashion", "home", "jewelery"}
	tests := []struct {
		name  string
		query map[string]string
		want  string // canonical query
		check func(t *testing.T, f catalog.Filter)
	}{
		{"Default", nil, "", func(t *testing.T, f catalog.Filter) {
			if f.Sort != "asc" || f.Page != 1 || f.PageSize != 12 {
				t.Errorf("got %+v", f)
			}
		}},
		{"Everything", map[string]string{"category": "home", "sort": "desc", "minPrice": "10", "maxPrice": "99.5", "rating": "4", "page": "2"},
			"category=home&maxPrice=99.50&minPrice=10&page=2&rating=4&sort=desc", nil},
		{"PriceNotNumber", map[string]string{"minPrice": "abc", "maxPrice": "1e999"}, "", nil},
		{"NegativePrice", map[string]string{"minPrice": "-5"}, "", nil},
		{"MinAboveMaxSwapped", map[string]string{"minPrice": "100", "maxPrice": "20"}, "maxPrice=100&minPrice=20", nil},
		{"UnknownCategory", map[string]string{"category": "weapons"}, "", nil},
		{"CategoryCase", map[string]string{"category": " Home "}, "category=home", nil},
		{"Featured", map[string]string{"category": "featured"}, "category=featured", nil},
		{"RatingOutOfRange", map[string]string{"rating": "9"}, "", nil},
		{"RatingOne", map[string]string{"rating": "1"}, "", nil},
		{"UnknownSort", map[string]string{"sort": "popular"}, "", nil},
		{"BadPage", map[string]string{"page": "-3"}, "", nil},
		{"SearchDefaultsToRelevance", map[string]string{"q": "  desk   lamp "}, "q=desk+lamp", func(t *testing.T, f catalog.Filter) {
			if f.Sort != shop.SortRelevance {
				t.Errorf("sort: got %q", f.Sort)
			}
		}},
		{"SearchSortedByPrice", map[string]string{"q": "lamp", "sort": "asc"}, "q=lamp&sort=asc", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := catalog.ParseFilter(func(k string) string { return tt.query[k] }, cats)
			if got := f.Query(f.Page); got != tt.want {
				t.Errorf("canonical query: got %q, want %q", got, tt.want)
			}
			if tt.check != nil {
				tt.check(t, f)
			}
		})
	}
}

func TestParse_SkipsMalformedItems(t *testing.T) {
	t.Parallel()
	doc := `[
		{"id": 1, "title": "Good", "price": 9.99, "description": "d", "category": "Home", "image": "https://img.example/1.png", "rating": {"rate": 4.1, "count": 3}},
		{"id": 2, "title": "", "price": 5, "category": "home"},
		{"id": 3, "title": "Free", "price": 0, "category": "home"},
		{"id": 4, "title": "Negative", "price": -1, "category": "home"},
		{"id": "x/y", "title": "Bad id", "price": 1, "category": "home"},
		{"id": 6, "title": "Bad rating", "price": 1, "category": "home", "rating": {"rate": 7}},
		{"id": 7, "title": "Bad image", "price": 1, "category": "home", "image": "javascript:alert(1)"},
		{"id": 8, "title": 42, "price": 1, "category": "home"},
		"not an object",
		{"id": 1, "title": "Duplicate", "price": 2, "category": "home"},
		{"id": 10, "title": "Also good", "price": 19.9, "category": "electronics"},
		{"id": 11, "title": "Rounds to nothing", "price": 0.001, "category": "home"},
		{"id": 12, "title": "Sub-cent", "price": 1.005, "category": "home"},
		{"id": 13, "title": "Exponent", "price": 5e2, "category": "home"},
		{"id": 14, "title": "Too dear", "price": 1000000.01, "category": "home"}
	]`
	got, err := catalog.Parse(strings.NewReader(doc), "fs-", quiet)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Products) != 2 || got.Skipped != 13 {
		t.Fatalf("got %d products, %d skipped; want 2 and 13", len(got.Products), got.Skipped)
	}
	p := got.Products[0]
	if p.ID != "fs-1" || p.Category != "home" || p.Price != 999 || p.Rating != 4.1 {
		t.Errorf("got %+v", p)
	}
	if got.Products[1].Price != 1990 {
		t.Errorf("19.9 dollars: got %d cents, want 1990", got.Products[1].Price)
	}
}

func TestParse_NotAnArray(t *testing.T) {
	t.Parallel()
	for _, doc := range []string{`[{"id": 1, "title": "cut`, `<html>502 Bad Gateway</html>`, `{"products": []}`, ``} {
		if _, err := catalog.Parse(strings.NewReader(doc), "", quiet); err == nil {
			t.Errorf("accepted %q", doc)
		}
	}
}

func TestLoadBuiltin(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	svc := catalog.NewService(db, quiet)
	ctx := context.Background()
	if err := svc.LoadBuiltin(ctx); err != nil {
		t.Fatal(err)
	}
	n, _ := db.CountProducts(ctx)
	if n < 48 {
		t.Fatalf("built-in catalogue has %d products, want at least 48", n)
	}
	cats, _ := db.Categories(ctx)
	if strings.Join(cats, ",") != "electronics,fashion,home,jewelery" {
		t.Errorf("categories: %v", cats)
	}
	featured, _ := svc.Featured(ctx, 100)
	if len(featured) != 8 {
		t.Errorf("featured: got %d, want 8", len(featured))
	}
	// A second start leaves an existing catalogue alone.
	if err := svc.LoadBuiltin(ctx); err != nil {
		t.Fatal(err)
	}
	if m, _ := db.CountProducts(ctx); m != n {
		t.Errorf("second load changed the count: %d to %d", n, m)
	}
}

// useCurrency makes code the shop's currency until the test ends. Tests
// that call it must not be parallel: every amount in the process is
// written in it meanwhile.
func useCurrency(t *testing.T, code string) {
	t.Helper()
	c, err := shop.NewCurrency(code, "en-US")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(shop.SetCurrency(c))
}

// A yen shop opens with the whole built-in catalogue: its prices, written
// with cents, are read as yen and rounded to whole yen, and so are its
// variants' own prices.
func TestLoadBuiltin_InYen(t *testing.T) {
	useCurrency(t, "JPY")
	raw, err := os.ReadFile("seed/products.json")
	if err != nil {
		t.Fatal(err)
	}
	var seed []struct {
		ID    string      `json:"id"`
		Price json.Number `json:"price"`
	}
	if err := json.Unmarshal(raw, &seed); err != nil {
		t.Fatal(err)
	}
	db := MustOpenDB(t)
	svc := catalog.NewService(db, quiet)
	ctx := context.Background()
	if err := svc.LoadBuiltin(ctx); err != nil {
		t.Fatal(err)
	}
	if n, err := db.CountProducts(ctx); err != nil || n != 52 || len(seed) != 52 {
		t.Fatalf("got %d products (%v) of %d in the seed, want 52", n, err, len(seed))
	}
	for _, it := range seed {
		f, err := it.Price.Float64()
		if err != nil {
			t.Fatal(err)
		}
		// The seed's prices have at most two decimals, so a float
		// rounds them as the money parser does.
		want := shop.Cents(math.Floor(f + 0.5))
		p, err := db.Product(ctx, it.ID)
		if err != nil {
			t.Fatalf("product %s: %v", it.ID, err)
		}
		if p.Price != want {
			t.Errorf("product %s: got %d yen for %s, want %d", it.ID, p.Price, it.Price, want)
		}
	}
	for _, tt := range []struct {
		id   string
		want shop.Cents
		text string
	}{
		{"nb-002", 140, "¥140"}, // 139.99
		{"nb-001", 229, "¥229"}, // 229.0
	} {
		p, err := db.Product(ctx, tt.id)
		if err != nil || p.Price != tt.want || p.Price.String() != tt.text {
			t.Errorf("%s: got %v (%v), want %d, %s", tt.id, p, err, tt.want, tt.text)
		}
	}
	c, err := svc.Choices(ctx, "nb-014")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, v := range c.Variants {
		if strings.Join(v.Values, " ") == "XL Black" {
			found = true
			if v.Price != 199 {
				t.Errorf("nb-014 XL Black: got %d yen, want 199 (199.00 in the seed)", v.Price)
			}
		}
	}
	if !found {
		t.Error("nb-014 has no XL Black variant")
	}
}

// An imported catalogue is read exactly in the shop's currency: in yen a
// price with decimals is skipped, never rounded.
func TestParse_InYen(t *testing.T) {
	useCurrency(t, "JPY")
	got, err := catalog.Parse(strings.NewReader(fakeProducts), "fs-", quiet)
	if err != nil {
		t.Fatal(err)
	}
	// 109.95 and 22.3 have decimals; item 3 has no title.
	if got.Skipped != 3 || len(got.Products) != 1 || got.Products[0].ID != "fs-4" || got.Products[0].Price != 695 {
		t.Errorf("got %d skipped and %+v, want 3 skipped and fs-4 at 695 yen", got.Skipped, got.Products)
	}
}

// fakeStore mimics the FakeStore API; its behaviour can be switched.
type fakeStore struct {
	mode  atomic.Value // "ok", "500", "partial", "silent", "malformed", "down"
	calls atomic.Int32
	// arrived hears of each request the silent service holds.
	arrived chan struct{}
}

const fakeProducts = `[
	{"id": 1, "title": "Backpack", "price": 109.95, "description": "Fits 15 inch laptops", "category": "men's clothing", "image": "https://fakestore.example/img/1.jpg", "rating": {"rate": 3.9, "count": 120}},
	{"id": 2, "title": "Slim Fit T-Shirt", "price": 22.3, "description": "Slim-fitting style", "category": "men's clothing", "image": "https://fakestore.example/img/2.jpg", "rating": {"rate": 4.1, "count": 259}},
	{"id": 3, "title": "", "price": 1, "category": "broken"},
	{"id": 4, "title": "Silver Dragon Bracelet", "price": 695, "description": "Chain bracelet", "category": "jewelery", "image": "https://fakestore.example/img/4.jpg", "rating": {"rate": 4.6, "count": 400}}
]`

func (f *fakeStore) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.calls.Add(1)
	switch f.mode.Load().(string) {
	case "500":
		http.Error(w, "boom", http.StatusInternalServerError)
		return
	case "silent": // never answers: holds the request until the client gives up
		select {
		case f.arrived <- struct{}{}:
		case <-r.Context().Done():
		}
		<-r.Context().Done()
		return
	case "partial":
		if r.URL.Path == "/products" {
			w.Write([]byte(fakeProducts[:120]))
			return
		}
	case "malformed":
		w.Write([]byte("<html>not json</html>"))
		return
	}
	switch r.URL.Path {
	case "/products/categories":
		w.Write([]byte(`["electronics","jewelery","men's clothing","women's clothing"]`))
	case "/products":
		w.Write([]byte(fakeProducts))
	default:
		http.NotFound(w, r)
	}
}

// newSyncer's client has a generous timeout: no test here is about the
// timeout, and a short one fails good syncs whenever the machine is busy.
func newSyncer(t *testing.T, url string, db *sqlite.DB) *catalog.Syncer {
	return &catalog.Syncer{
		Service: catalog.NewService(db, quiet), BaseURL: url, Interval: time.Hour,
		Client: &http.Client{Timeout: time.Minute}, Retries: 2, Backoff: time.Millisecond, Log: quiet,
	}
}

// giveUpOnArrival stands in for the client's timeout against a service that
// never answers, without a clock: each request is abandoned as soon as the
// service holds it (arrived), so every try reaches the service and fails
// however busy the machine is.
type giveUpOnArrival struct{ arrived <-chan struct{} }

func (g giveUpOnArrival) RoundTrip(r *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	type result struct {
		res *http.Response
		err error
	}
	out := make(chan result, 1)
	go func() {
		res, err := http.DefaultTransport.RoundTrip(r.WithContext(ctx))
		out <- result{res, err}
	}()
	select {
	case <-g.arrived:
		cancel()
	case o := <-out: // failed before the service had it
		return nil, o.err
	}
	o := <-out
	if o.err == nil {
		o.res.Body.Close()
		return nil, errors.New("the silent service answered")
	}
	return nil, fmt.Errorf("gave up waiting for an answer: %w", o.err)
}

func TestSync(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	fs := &fakeStore{arrived: make(chan struct{})}
	fs.mode.Store("ok")
	srv := httptest.NewServer(fs)
	defer srv.Close()
	db := MustOpenDB(t)
	y := newSyncer(t, srv.URL, db)

	if err := y.SyncOnce(ctx); err != nil {
		t.Fatalf("sync: %v", err)
	}
	assertProducts := func(want int) {
		t.Helper()
		if n, _ := db.CountProducts(ctx); n != want {
			t.Fatalf("products: got %d, want %d", n, want)
		}
	}
	assertProducts(3) // the item without a title is skipped
	p, err := db.Product(ctx, "fs-4")
	if err != nil || p.Price != 69500 || p.Category != "jewelery" {
		t.Fatalf("got %+v, %v", p, err)
	}
	if featured, _ := db.Search(ctx, shop.ProductFilter{Category: shop.FeaturedCategory, Page: 1, PageSize: 10}); featured.Total != 3 {
		t.Errorf("featured after sync: %d, want all 3 (the best rated, up to 8)", featured.Total)
	}

	silent := newSyncer(t, srv.URL, db)
	silent.Client = &http.Client{Transport: giveUpOnArrival{fs.arrived}}
	for _, mode := range []string{"500", "silent", "partial", "malformed"} {
		t.Run("Err"+mode, func(t *testing.T) {
			fs.mode.Store(mode)
			before := fs.calls.Load()
			sy := y
			if mode == "silent" {
				sy = silent
			}
			if err := sy.SyncOnce(ctx); err == nil {
				t.Fatal("sync succeeded against a failing service")
			}
			want := int32(3) // one try and two retries
			if mode == "partial" {
				want = 4 // the categories arrive; the products are retried
			}
			if calls := fs.calls.Load() - before; calls != want {
				t.Errorf("requests: got %d, want %d", calls, want)
			}
			assertProducts(3) // the last good catalogue is still served
		})
	}

	t.Run("ServiceDown", func(t *testing.T) {
		srv.Close()
		if err := y.SyncOnce(ctx); err == nil {
			t.Fatal("sync succeeded against a stopped service")
		}
		assertProducts(3)
	})
}

func TestSync_RemovesVanishedProducts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	body := fakeProducts
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/products/categories" {
			w.Write([]byte(`[]`))
			return
		}
		w.Write([]byte(body))
	}))
	defer srv.Close()
	db := MustOpenDB(t)
	if err := catalog.NewService(db, quiet).LoadBuiltin(ctx); err != nil {
		t.Fatal(err)
	}
	builtin, _ := db.CountProducts(ctx)
	y := newSyncer(t, srv.URL, db)
	if err := y.SyncOnce(ctx); err != nil {
		t.Fatal(err)
	}
	body = `[{"id": 2, "title": "Slim Fit T-Shirt", "price": 25, "category": "men's clothing"}]`
	if err := y.SyncOnce(ctx); err != nil {
		t.Fatal(err)
	}
	if n, _ := db.CountProducts(ctx); n != builtin+1 {
		t.Errorf("products: got %d, want the built-in %d plus 1", n, builtin)
	}
	if p, _ := db.Product(ctx, "fs-2"); p == nil || p.Price != 2500 {
		t.Errorf("price not updated: %+v", p)
	}
	if _, err := db.Product(ctx, "fs-4"); shop.ErrorCode(err) != shop.ENOTFOUND {
		t.Errorf("vanished product still served: %v", err)
	}
}

func TestSuggest(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	svc := catalog.NewService(db, quiet)
	ctx := context.Background()
	if err := svc.LoadBuiltin(ctx); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ q, want string }{
		{"headphnoes", "headphones"},
		{"wirless headphones", "wireless headphones"},
		{"wireles", ""}, // a prefix: search already finds "wireless"
		{"headphones", ""},
		{"head", ""}, // a prefix of a known word is not a typo
		{"qzxv", ""},
	}
	for _, tt := range tests {
		got, err := svc.Suggest(ctx, tt.q)
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("Suggest(%q): got %q, want %q", tt.q, got, tt.want)
		}
	}
}
