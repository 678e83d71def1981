// Package catalog owns the product catalogue's rules: how the filters in a
// URL become a query, the built-in starter catalogue, imports from a
// FakeStore-shaped service or a file, and "Did you mean" suggestions.
package catalog

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/nocturne/storefront/internal/images"
	"github.com/nocturne/storefront/internal/money"
	"github.com/nocturne/storefront/internal/shop"
)

// Service answers catalogue questions for the handlers. It keeps the whole
// catalogue in memory for listings (snapshot.go) and the "Did you mean"
// vocabulary; searches go to the store, which answers them its own best
// way. An import calls Reload, then Warm.
type Service struct {
	Store shop.CatalogStore
	// Variants sets the built-in products' options and variants; nil when
	// the store has none.
	Variants shop.VariantStore
	Log      *slog.Logger
	// Images fetches imported products' photos at import and sync; nil
	// leaves them unfetched (they show their category's illustration).
	Images *images.Service
	// DefaultStock is the stock an imported product starts with when its
	// source gives none (IMPORT_DEFAULT_STOCK; NewService sets
	// DefaultImportStock).
	DefaultStock int
	// Stock, when set, keeps the cards' stock fresh between reloads
	// (stock.go).
	Stock shop.StockStore
	stock atomic.Pointer[stockOverlay]

	// snap is the catalogue in memory (snapshot.go); loadMu orders reloads.
	snap   atomic.Pointer[snapshot]
	loadMu sync.Mutex

	mu      sync.Mutex
	version int
	terms   map[string]int

	// fetching counts the photo fetches FetchPhotosLater runs; bgStop
	// cancels them (csvfile.go).
	fetching sync.WaitGroup
	bgOnce   sync.Once
	bgCtx    context.Context
	bgStop   context.CancelFunc
}

// DefaultImportStock is DefaultStock unless configured.
const DefaultImportStock = 25

// NewService returns a Service on store; a store that keeps variants
// (both of the shop's do) gets the built-in products' variants too.
func NewService(store shop.CatalogStore, log *slog.Logger) *Service {
	variants, _ := store.(shop.VariantStore)
	return &Service{Store: store, Variants: variants, Log: log, DefaultStock: DefaultImportStock}
}

// Invalidate drops the vocabulary after the catalogue changed.
func (s *Service) Invalidate() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.version++
	s.terms = nil
}

// List returns the page of products f selects and how many match in all.
// Listings come from the in-memory catalogue; searches from the store.
func (s *Service) List(ctx context.Context, f shop.ProductFilter) (shop.ProductPage, error) {
	if f.Query != "" {
		q := f.Query
		// The store searches the catalogue's own spelling of each word.
		f.Query = strings.Join(searchWords(q), " ")
		if f.Query == "" {
			return shop.ProductPage{}, nil // only punctuation: nothing to find
		}
		page, err := s.Store.Search(ctx, f)
		if err != nil {
			return shop.ProductPage{}, fmt.Errorf("search %q: %w", q, err)
		}
		return page, nil
	}
	snap, err := s.current(ctx)
	if err != nil {
		return shop.ProductPage{}, fmt.Errorf("list products: %w", err)
	}
	page := snap.list(f)
	page.Products = s.withStock(page.Products)
	return page, nil
}

// Choices returns a product's options and variants from memory, with
// each variant's stock read live (a product page must never offer what
// sold out meanwhile). Products without options have none.
func (s *Service) Choices(ctx context.Context, productID string) (shop.Choices, error) {
	snap, err := s.current(ctx)
	if err != nil || s.Variants == nil {
		return shop.Choices{}, err
	}
	c, ok := snap.choices[productID]
	if !ok {
		return shop.Choices{}, nil
	}
	stock, err := s.Variants.VariantStock(ctx, productID)
	if err != nil {
		return shop.Choices{}, err
	}
	if len(stock) != len(c.Variants) {
		// Staff changed the variants since the catalogue was loaded; its
		// reload is on its way, and the store has them now.
		return s.Variants.Choices(ctx, productID)
	}
	c.Variants = slices.Clone(c.Variants)
	for i := range c.Variants {
		c.Variants[i].Stock = stock[i]
	}
	return c, nil
}

// Facets are the options listings can be filtered by (o.Size=M), with the
// values the catalogue's variants have; none when no product has options.
func (s *Service) Facets(ctx context.Context) ([]shop.Option, error) {
	snap, err := s.current(ctx)
	if err != nil {
		return nil, err
	}
	return snap.facets, nil
}

// Suggest proposes a corrected query when some of q's words are unknown to
// the catalogue: each unknown word becomes the closest known word (edit
// distance at most suggestDistance, the more common word on ties). It returns "" when
// there is nothing to correct.
func (s *Service) Suggest(ctx context.Context, q string) (string, error) {
	terms, err := s.vocabulary(ctx)
	if err != nil {
		return "", err
	}
	words := strings.Fields(strings.ToLower(q))
	changed := false
	for i, w := range words {
		if len(w) < 3 || hasPrefixTerm(terms, w) || knownVariant(w) {
			continue
		}
		maxDist := suggestDistance(w)
		best, bestDist, bestCount := "", maxDist+1, 0
		for t, n := range terms {
			if abs(len(t)-len(w)) > maxDist {
				continue
			}
			d := editDistance(w, t, maxDist+1)
			if d > maxDist {
				continue
			}
			if d < bestDist || (d == bestDist && (n > bestCount || (n == bestCount && t < best))) {
				best, bestDist, bestCount = t, d, n
			}
		}
		if best != "" {
			words[i], changed = suggestionWord(best), true
		}
	}
	if !changed {
		return "", nil
	}
	return strings.Join(words, " "), nil
}

// maxSuggestDistance is how many typos a suggestion may fix in one word.
const maxSuggestDistance = 2

func hasPrefixTerm(terms map[string]int, w string) bool {
	if _, ok := terms[w]; ok {
		return true
	}
	for t := range terms {
		if strings.HasPrefix(t, w) {
			return true
		}
	}
	return false
}

func (s *Service) vocabulary(ctx context.Context) (map[string]int, error) {
	s.mu.Lock()
	terms, version := s.terms, s.version
	s.mu.Unlock()
	if terms != nil {
		return terms, nil
	}
	terms, err := s.Store.SearchTerms(ctx)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.version == version {
		s.terms = terms
	}
	s.mu.Unlock()
	return terms, nil
}

// editDistance is the Levenshtein distance of a and b, giving up (returning
// max) once it cannot be below max.
func editDistance(a, b string, max int) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin >= max {
			return max
		}
		prev, cur = cur, prev
	}
	return min(prev[len(rb)], max)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// Filter is a parsed, normalised filter with what the form should show.
type Filter struct {
	shop.ProductFilter
	// MinPriceText and MaxPriceText are the applied bounds as the form
	// shows them ("" when none).
	MinPriceText, MaxPriceText string
}

// ParseFilter reads the catalogue's query parameters (the spec's routes: category,
// sort, minPrice, maxPrice, rating; plus q, page and one o.{Option} per
// option of facets, such as o.Size=M). Nothing a shopper types is an error:
// unknown or malformed values are dropped, negative prices are ignored, and
// a minimum above the maximum swaps them.
func ParseFilter(get func(string) string, categories []string, facets ...shop.Option) Filter {
	f := shop.ProductFilter{Page: 1, PageSize: shop.CataloguePageSize, Sort: shop.SortPriceAsc}
	f.Query = searchQuery(get("q"))
	if f.Query != "" {
		f.Sort = shop.SortRelevance
	}
	switch get("sort") {
	case shop.SortPriceAsc:
		f.Sort = shop.SortPriceAsc
	case shop.SortPriceDesc:
		f.Sort = shop.SortPriceDesc
	}
	f.Category = knownCategory(get("category"), categories)
	f.MinPrice, f.MaxPrice = priceRange(get("minPrice"), get("maxPrice"))
	switch get("rating") {
	case "2", "3", "4":
		f.MinRating = int(get("rating")[0] - '0')
	}
	if p, err := strconv.Atoi(get("page")); err == nil && p > 1 && p <= 100_000 {
		f.Page = p
	}
	chooseOptions(f.Options[:], get, facets)
	return Filter{ProductFilter: f, MinPriceText: priceText(f.MinPrice), MaxPriceText: priceText(f.MaxPrice)}
}

// searchQuery is the search box's text with its white space collapsed.
// Invalid UTF-8 is dropped and a long query is cut on a character boundary
// with no trailing space, so the canonical URL parses back to itself
// (found by FuzzParseFilter).
func searchQuery(raw string) string {
	q := strings.Join(strings.Fields(strings.ToValidUTF8(raw, "")), " ")
	if len(q) > 200 {
		cut := 200
		for cut > 0 && !utf8.RuneStart(q[cut]) {
			cut--
		}
		q = strings.TrimSpace(q[:cut])
	}
	return q
}

// knownCategory is raw when it names the featured products or one of the
// sorted categories (in any case), else "".
func knownCategory(raw string, categories []string) string {
	if c := strings.ToLower(strings.TrimSpace(raw)); c == shop.FeaturedCategory {
		return c
	} else if i := sort.SearchStrings(categories, c); c != "" && i < len(categories) && categories[i] == c {
		return c
	}
	return ""
}

// priceRange reads the price bounds, swapping a minimum above the maximum.
func priceRange(minRaw, maxRaw string) (lo, hi shop.Cents) {
	lo, hi = parsePrice(minRaw), parsePrice(maxRaw)
	if lo > 0 && hi > 0 && lo > hi {
		lo, hi = hi, lo
	}
	return lo, hi
}

// chooseOptions fills into with the option values asked for (o.Size=M),
// in the facets' order and spelling; a value no facet offers is dropped.
func chooseOptions(into []shop.OptionPair, get func(string) string, facets []shop.Option) {
	n := 0
	for _, o := range facets {
		want := strings.TrimSpace(get("o." + o.Name))
		for _, v := range o.Values {
			if want != "" && n < len(into) && strings.EqualFold(v.Value, want) {
				into[n] = shop.OptionPair{Name: o.Name, Value: v.Value}
				n++
				break
			}
		}
	}
}

// parsePrice reads an amount in the shop's currency such as "25" or
// "19.99"; anything the money parser refuses is no bound.
func parsePrice(s string) shop.Cents {
	c, err := money.Parse(s)
	if err != nil {
		return 0
	}
	return c
}

func priceText(c shop.Cents) string {
	if c <= 0 {
		return ""
	}
	return money.Text(c)
}

// Query returns the canonical query string of f with page set to page (1 is
// left out), so every listing has exactly one URL.
func (f Filter) Query(page int) string {
	v := url.Values{}
	if f.ProductFilter.Query != "" {
		v.Set("q", f.ProductFilter.Query)
	}
	if f.Category != "" {
		v.Set("category", f.Category)
	}
	if f.Sort == shop.SortPriceDesc || (f.ProductFilter.Query != "" && f.Sort == shop.SortPriceAsc) {
		v.Set("sort", f.Sort)
	}
	if f.MinPriceText != "" {
		v.Set("minPrice", f.MinPriceText)
	}
	if f.MaxPriceText != "" {
		v.Set("maxPrice", f.MaxPriceText)
	}
	if f.MinRating > 0 {
		v.Set("rating", strconv.Itoa(f.MinRating))
	}
	for _, o := range f.Options {
		if o.Name != "" {
			v.Set("o."+o.Name, o.Value)
		}
	}
	if page > 1 {
		v.Set("page", strconv.Itoa(page))
	}
	return v.Encode()
}

// Warm lets the store prepare its search for the current catalogue (when it
// has anything to prepare), so that the first search is as fast as the
// next. It runs in the background after start and after each import. A
// failure is logged as well as returned: searches then do the work live.
func (s *Service) Warm(ctx context.Context) error {
	w, ok := s.Store.(shop.SearchWarmer)
	if !ok {
		return nil
	}
	start := time.Now()
	if err := w.WarmSearch(ctx); err != nil {
		if ctx.Err() == nil {
			s.Log.Warn("search warm-up failed; searches score live", "err", err)
		}
		return err
	}
	s.Log.Info("search warmed", "took", time.Since(start).Round(time.Millisecond).String())
	return nil
}

// StoredProduct reads one product from the store rather than from memory:
// its photo may have been stored since the catalogue was loaded (photos
// are fetched after an import, and by other instances).
func (s *Service) StoredProduct(ctx context.Context, id string) (*shop.Product, error) {
	return s.Store.Product(ctx, id)
}
