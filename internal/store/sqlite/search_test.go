package sqlite

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/store/storetest"
)

// These tests pin what SQLite's own way of searching promises beyond the
// conformance suite: a query composed from kept word hits ranks exactly as
// FTS5 ranks the whole query.

func openTestDB(tb testing.TB) *DB {
	tb.Helper()
	db, err := Open(context.Background(), ":memory:")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// searchFixture is a 3,000-product synthetic catalogue, warmed (every title
// and category word in 30 products or more is kept), plus the catalogue's
// facets by id for writing expectations.
func searchFixture(t *testing.T) (*DB, map[string]productFacet) {
	t.Helper()
	db := openTestDB(t)
	ctx := context.Background()
	if err := db.ReplaceCatalog(ctx, "test", storetest.SyntheticCategories, storetest.SyntheticProducts(3000)); err != nil {
		t.Fatal(err)
	}
	db.SetWarmMinProducts(30)
	if err := db.WarmSearch(ctx); err != nil {
		t.Fatal(err)
	}
	facets, err := db.allFacets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]productFacet{}
	for _, f := range facets {
		byID[f.ID] = f
	}
	return db, byID
}

// dropSearch forgets what search kept, as a new catalogue version would.
func (db *DB) dropSearch() {
	db.search.mu.Lock()
	db.search.version = -1
	db.search.mu.Unlock()
}

// storeRanking is the store's own ranking of a whole query: every match
// scored by FTS5 in one go, most relevant first, id breaking ties.
func storeRanking(t *testing.T, store *DB, q string) (ids []string, score map[string]float64) {
	t.Helper()
	ctx := context.Background()
	hits, err := store.searchHits(ctx, shop.SearchWords(q))
	if err != nil {
		t.Fatal(err)
	}
	keys := make([]int64, len(hits))
	for i, h := range hits {
		keys[i] = h.Key
	}
	score = map[string]float64{}
	for start := 0; start < len(keys); start += 500 {
		ps, err := store.productsByKey(ctx, keys[start:min(start+500, len(keys))])
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range ps {
			score[p.ID] = hits[start+i].Score
			ids = append(ids, p.ID)
		}
	}
	slices.SortFunc(ids, func(a, b string) int { return cmp.Or(cmp.Compare(score[a], score[b]), strings.Compare(a, b)) })
	return ids, score
}

func listAll(t *testing.T, svc *DB, f shop.ProductFilter) (ids []string, total int) {
	t.Helper()
	f.PageSize = shop.CataloguePageSize
	for f.Page = 1; ; f.Page++ {
		page, err := svc.Search(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		if f.Page == 1 {
			total = page.Total
		} else if page.Total != total {
			t.Fatalf("%q page %d: total %d, page 1 said %d", f.Query, f.Page, page.Total, total)
		}
		for _, p := range page.Products {
			ids = append(ids, p.ID)
		}
		if len(page.Products) < f.PageSize {
			return ids, total
		}
	}
}

// A search of several words is composed from each word's kept hits; a
// shopper must get the ranking FTS5 gives the whole query, on every page.
func TestSearch_ComposedRankingIsTheStoreRanking(t *testing.T) {
	t.Parallel()
	store, _ := searchFixture(t)
	svc := store
	for _, q := range []string{
		"walnut",
		"walnut lamp",
		"Leather BOOTS",
		"wireless headphones home",
		"lamp walnut walnut", // a repeated word counts once
		"vintage 123",        // a kept word and a prefix the store scores live
		"a walnut",           // a one-character word: a whole word ("A walnut lamp with…")
		"wirel headph",       // prefixes, sharing the hits of wireless and headphones
		"walnuts lamps",      // other forms of warmed words
		"electronics",
	} {
		want, score := storeRanking(t, store, strings.Join(shop.SearchWords(q), " "))
		if len(want) == 0 {
			t.Fatalf("%q: the fixture has no match; the test proves nothing", q)
		}
		before := store.search.scored.Load()
		got, total := listAll(t, svc, shop.ProductFilter{Query: q})
		if total != len(want) || len(got) != len(want) {
			t.Fatalf("%q: %d results (total %d), the store matches %d", q, len(got), total, len(want))
		}
		for i := range want {
			// Equal up to rounding: two sums of the same scores in another
			// order may differ in the last bit, and only exact ties flip.
			if got[i] != want[i] && math.Abs(score[got[i]]-score[want[i]]) > 1e-9 {
				t.Fatalf("%q result %d: got %s (score %g), want %s (score %g)", q, i+1, got[i], score[got[i]], want[i], score[want[i]])
			}
		}
		if q == "walnut lamp" && store.search.scored.Load() != before {
			t.Errorf("%q: the store scored a search of two warmed words", q)
		}
	}
}

// Filters and price orders apply to search results, the count is of all
// filtered matches, and every page holds the right slice.
func TestSearch_FiltersSortsAndPages(t *testing.T) {
	t.Parallel()
	store, facets := searchFixture(t)
	svc := store
	for _, f := range []shop.ProductFilter{
		{Query: "walnut", Category: "home"},
		{Query: "leather", Sort: shop.SortPriceAsc, MinPrice: 50_000, MaxPrice: 150_000},
		{Query: "lamp", Sort: shop.SortPriceDesc, MinRating: 4},
		{Query: "ring", Category: "jewelery", Sort: shop.SortPriceAsc, MinRating: 3},
		{Query: "ring", Category: shop.FeaturedCategory},
		{Query: "necklace", Category: "fashion", MinPrice: 199_000, MinRating: 4},
	} {
		all, _ := storeRanking(t, store, f.Query)
		var want []string
		for _, id := range all {
			p := facets[id]
			if p.matches(&f) {
				want = append(want, id)
			}
		}
		switch f.Sort {
		case shop.SortPriceAsc:
			slices.SortFunc(want, func(a, b string) int {
				return cmp.Or(cmp.Compare(facets[a].Price, facets[b].Price), strings.Compare(a, b))
			})
		case shop.SortPriceDesc:
			slices.SortFunc(want, func(a, b string) int {
				return cmp.Or(cmp.Compare(facets[b].Price, facets[a].Price), strings.Compare(b, a))
			})
		}
		got, total := listAll(t, svc, f)
		if total != len(want) || strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%+v: got %d (total %d) %v…, want %d %v…", f, len(got), total, got[:min(5, len(got))], len(want), want[:min(5, len(want))])
		}
		for _, id := range got {
			p := facets[id]
			if !p.matches(&f) {
				t.Errorf("%+v: %s does not pass the filters", f, id)
			}
		}
	}
	// A page past the end is empty but still counts the matches.
	page, err := svc.Search(context.Background(), shop.ProductFilter{Query: "walnut", Page: 10_000, PageSize: 12})
	if err != nil || len(page.Products) != 0 || page.Total == 0 {
		t.Errorf("page past the end: %d products, total %d, %v", len(page.Products), page.Total, err)
	}
}

// Kept hits belong to one catalogue: after an import, search finds the new
// products and no longer the removed ones, with no call but the import.
func TestSearch_FollowsTheCatalogue(t *testing.T) {
	t.Parallel()
	db := openTestDB(t)
	ctx := context.Background()
	svc := db
	old := []shop.Product{
		{ID: "t-1", Title: "Walnut desk lamp", Category: "home", Price: 4500, Rating: 4},
		{ID: "t-2", Title: "Walnut serving board", Category: "home", Price: 2500, Rating: 4},
	}
	if err := db.ReplaceCatalog(ctx, "test", []string{"home"}, old); err != nil {
		t.Fatal(err)
	}
	search := func() string {
		page, err := svc.Search(ctx, shop.ProductFilter{Query: "walnut", Sort: shop.SortPriceAsc, Page: 1, PageSize: 12})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, p := range page.Products {
			ids = append(ids, p.ID)
		}
		return strings.Join(ids, ",")
	}
	if got := search(); got != "t-2,t-1" {
		t.Fatalf("before the import: %q", got)
	}
	renewed := []shop.Product{old[0], {ID: "t-3", Title: "Walnut bookends", Category: "home", Price: 3000, Rating: 5}}
	if err := db.ReplaceCatalog(ctx, "test", []string{"home"}, renewed); err != nil {
		t.Fatal(err)
	}
	if got := search(); got != "t-3,t-1" {
		t.Errorf("after the import: %q, want t-3,t-1", got)
	}
}

// Searches running while the caches are dropped and rebuilt (an import)
// all get the full answer.
func TestSearch_WhileWarming(t *testing.T) {
	t.Parallel()
	store, _ := searchFixture(t)
	svc := store
	want, _ := storeRanking(t, store, "walnut lamp")
	ctx := context.Background()
	done := make(chan struct{})
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			for {
				select {
				case <-done:
					errs <- nil
					return
				default:
				}
				page, err := svc.Search(ctx, shop.ProductFilter{Query: "walnut lamp", Page: 1, PageSize: 12})
				if err == nil && page.Total != len(want) {
					err = fmt.Errorf("total %d, want %d", page.Total, len(want))
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for range 5 {
		svc.dropSearch()
		if err := svc.WarmSearch(ctx); err != nil {
			t.Error(err)
		}
	}
	close(done)
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// A word of one or two characters matches whole words only: "7" finds the
// product numbered 7, not 70 or 700, and "70" finds 70, not 700 (as a
// prefix it would match a large part of the catalogue in no useful order);
// from three characters on, a word is a prefix again.
func TestSearch_ShortWordsAreWholeWords(t *testing.T) {
	t.Parallel()
	svc, _ := searchFixture(t)
	number := func(title string) string { return title[strings.LastIndex(title, " ")+1:] }
	for _, tt := range []struct {
		q    string
		want func(n string) bool
	}{
		{"7", func(n string) bool { return n == "7" }},
		{"70", func(n string) bool { return n == "70" }},
		{"700", func(n string) bool { return strings.HasPrefix(n, "700") }},
	} {
		page, err := svc.Search(context.Background(), shop.ProductFilter{Query: tt.q, Page: 1, PageSize: 100})
		if err != nil {
			t.Fatal(err)
		}
		if page.Total == 0 {
			t.Fatalf("%q: nothing found", tt.q)
		}
		for _, p := range page.Products {
			if !tt.want(number(p.Title)) {
				t.Errorf("%q found %q", tt.q, p.Title)
			}
		}
	}
}
