package storetest

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/nocturne/storefront/internal/shop"
)

// fixture is a small catalogue whose words the search tests rely on; each
// product has stock for the order tests, since a claim takes stock.
var fixture = []shop.Product{
	{ID: "board-1", Title: "Serving board", Description: "Made of oiled walnut wood.", Category: "home", Price: 2500, Rating: 4, ReviewCount: 3, Stock: 10},
	{ID: "lamp-1", Title: "Walnut desk lamp", Description: "Warm light for late nights.", Category: "home", Price: 4500, Rating: 4.5, ReviewCount: 10, Stock: 10},
	{ID: "lamp-2", Title: "Brass floor lamp", Description: "A tall lamp.", Category: "home", Price: 12000, Rating: 3.5, Featured: true, Stock: 10},
	{ID: "phones-1", Title: "Wireless headphones", Description: "Over-ear and quiet.", Category: "electronics", Price: 9900, Rating: 4.8, Featured: true, Stock: 10},
	{ID: "stand-1", Title: "Headphone stand", Description: "Holds them up.", Category: "electronics", Price: 2900, Rating: 3, Stock: 10},
	{ID: "tv-1", Title: "Compact TV", Description: "A small screen.", Category: "electronics", Price: 30000, Rating: 4.2, Image: "img/products/tv.svg", Stock: 10},
}

// seed fills s with the fixture catalogue (source "test").
func seed(t *testing.T, s Store) {
	t.Helper()
	must(t, s.ReplaceCatalog(context.Background(), "test", []string{"home", "electronics"}, fixture))
}

func ids(ps []shop.Product) string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.ID
	}
	return strings.Join(out, ",")
}

// testCatalog covers reading and replacing the catalogue.
func testCatalog(t *testing.T, b Backend) {
	ctx := context.Background()

	t.Run("Read", func(t *testing.T) {
		s, _, _ := b.open(t)
		if n, err := s.CountProducts(ctx); err != nil || n != 0 {
			t.Fatalf("empty store: %d products, %v", n, err)
		}
		seed(t, s)
		p, err := s.Product(ctx, "tv-1")
		if want := fixture[5]; err != nil || !sameProduct(*p, want) {
			t.Errorf("product: got %+v, %v, want %+v", p, err, want)
		}
		_, err = s.Product(ctx, "nope")
		wantCode(t, "unknown product", err, shop.ENOTFOUND, shop.MsgProductNotFound)
		if n, err := s.CountProducts(ctx); err != nil || n != len(fixture) {
			t.Errorf("count: got %d, %v, want %d", n, err, len(fixture))
		}
		all, err := s.AllProducts(ctx)
		if err != nil || ids(all) != "board-1,lamp-1,lamp-2,phones-1,stand-1,tv-1" {
			t.Errorf("all products: got %s, %v, want id order", ids(all), err)
		}
		if cats, err := s.Categories(ctx); err != nil || strings.Join(cats, ",") != "electronics,home" {
			t.Errorf("categories: got %v, %v", cats, err)
		}
	})

	t.Run("Replace", func(t *testing.T) {
		s, _, _ := b.open(t)
		v0, err := s.CatalogVersion(ctx)
		must(t, err)
		seed(t, s)
		must(t, s.ReplaceCatalog(ctx, "other", []string{"garden"}, []shop.Product{
			{ID: "rake-1", Title: "Rake", Category: "garden", Price: 1500},
		}))
		v1, _ := s.CatalogVersion(ctx)
		if v1 == v0 {
			t.Errorf("version unchanged by imports: %d", v1)
		}
		// The test source again: lamp-1 changes, lamp-2 is gone, rake-1 of
		// the other source stays, and a category no product uses goes.
		renewed := slices.Clone(fixture[:2])
		renewed[1].Price = 4000
		must(t, s.ReplaceCatalog(ctx, "test", []string{"home", "electronics"}, renewed))
		if v2, _ := s.CatalogVersion(ctx); v2 == v1 {
			t.Errorf("version unchanged by the second import: %d", v2)
		}
		all, _ := s.AllProducts(ctx)
		if ids(all) != "board-1,lamp-1,rake-1" {
			t.Errorf("after the import: %s, want board-1,lamp-1,rake-1", ids(all))
		}
		if p, _ := s.Product(ctx, "lamp-1"); p == nil || p.Price != 4000 {
			t.Errorf("updated product: %+v", p)
		}
		if cats, _ := s.Categories(ctx); strings.Join(cats, ",") != "garden,home" {
			t.Errorf("categories: got %v, want garden,home", cats)
		}
		// Search follows the catalogue at once.
		page, err := s.Search(ctx, shop.ProductFilter{Query: "lamp", Page: 1, PageSize: 12})
		if err != nil || ids(page.Products) != "lamp-1" || page.Total != 1 {
			t.Errorf("search after the import: %s (%d), %v", ids(page.Products), page.Total, err)
		}
	})
}

// searchWarmed checks a backend that warms its search (shop.SearchWarmer):
// warming changes no answer, not even after an import, and changes no
// catalogue version. A backend with nothing to warm is skipped.
func searchWarmed(t *testing.T, b Backend) {
	ctx := context.Background()
	s, _, _ := b.open(t)
	w, ok := s.(shop.SearchWarmer)
	if !ok {
		t.Skipf("%T keeps no search work to warm", s)
	}
	seed(t, s)
	queries := []shop.ProductFilter{
		{Query: "walnut"}, {Query: "head"}, {Query: "lamp", MaxPrice: 5000}, {Category: "home"}, {Query: "zebra"},
	}
	answers := func() []string {
		t.Helper()
		var out []string
		for _, f := range queries {
			f.Page, f.PageSize = 1, 12
			page, err := s.Search(ctx, f)
			must(t, err)
			out = append(out, fmt.Sprintf("%s (%d)", ids(page.Products), page.Total))
		}
		return out
	}
	cold := answers()
	v, _ := s.CatalogVersion(ctx)
	must(t, w.WarmSearch(ctx))
	if warm := answers(); !slices.Equal(warm, cold) {
		t.Errorf("after warming: %q, before: %q", warm, cold)
	}
	if after, _ := s.CatalogVersion(ctx); after != v {
		t.Errorf("warming changed the catalogue version: %d, then %d", v, after)
	}
	// An import after warming: the warmed words answer from the new
	// catalogue (lamp-2 is gone, lamp-1 renamed).
	renewed := slices.Clone(fixture[:2])
	renewed[1].Title = "Walnut reading light"
	must(t, s.ReplaceCatalog(ctx, "test", []string{"home"}, renewed))
	must(t, w.WarmSearch(ctx))
	for _, tt := range []struct{ q, want string }{{"walnut", "lamp-1,board-1"}, {"lamp", ""}, {"light", "lamp-1"}} {
		page, err := s.Search(ctx, shop.ProductFilter{Query: tt.q, Page: 1, PageSize: 12})
		must(t, err)
		if got := ids(page.Products); got != tt.want {
			t.Errorf("%q after an import and warming: %s, want %s", tt.q, got, tt.want)
		}
	}
}

// testSearch pins what a shopper notices of search: which products match,
// title matches before description-only ones, filters, sorts and paging,
// and the "Did you mean" candidates. Scores are the backend's own.
func testSearch(t *testing.T, b Backend) {
	ctx := context.Background()
	s, _, _ := b.open(t)
	seed(t, s)
	search := func(f shop.ProductFilter) shop.ProductPage {
		t.Helper()
		if f.Page == 0 {
			f.Page = 1
		}
		if f.PageSize == 0 {
			f.PageSize = 12
		}
		page, err := s.Search(ctx, f)
		if err != nil {
			t.Fatalf("%+v: %v", f, err)
		}
		return page
	}
	sorted := func(ps []shop.Product) string {
		out := strings.Split(ids(ps), ",")
		slices.Sort(out)
		return strings.Join(out, ",")
	}

	for _, tt := range []struct{ name, q, want string }{
		{"Word", "walnut", "board-1,lamp-1"},
		{"CaseFolded", "WALNUT", "board-1,lamp-1"},
		{"Plural", "walnuts", "board-1,lamp-1"},
		{"Prefix", "head", "phones-1,stand-1"},
		{"PluralOfPrefixWord", "headphones", "phones-1,stand-1"},
		{"EveryWord", "walnut lamp", "lamp-1"},
		{"EveryWordPrefixes", "wire head", "phones-1"},
		{"Category", "electronics", "phones-1,stand-1,tv-1"},
		{"ShortWordIsWholeWord", "tv", "tv-1"},
		{"ShortWordNotPrefix", "wa", ""},
		{"Punctuation", `lamp" OR "x`, ""},
		{"NoMatch", "zebra", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			page := search(shop.ProductFilter{Query: tt.q})
			if got := sorted(page.Products); got != tt.want || page.Total != len(page.Products) {
				t.Errorf("%q: got %s (total %d), want %s", tt.q, got, page.Total, tt.want)
			}
		})
	}

	t.Run("TitleAboveDescription", func(t *testing.T) {
		// lamp-1 has walnut in its title, board-1 only in its description.
		if got := ids(search(shop.ProductFilter{Query: "walnut"}).Products); got != "lamp-1,board-1" {
			t.Errorf("got %s, want lamp-1,board-1", got)
		}
	})

	t.Run("Filters", func(t *testing.T) {
		for _, tt := range []struct {
			f    shop.ProductFilter
			want string
		}{
			{shop.ProductFilter{Query: "lamp", MinPrice: 5000}, "lamp-2"},
			{shop.ProductFilter{Query: "lamp", MaxPrice: 5000}, "lamp-1"},
			{shop.ProductFilter{Query: "lamp", MinRating: 4}, "lamp-1"},
			{shop.ProductFilter{Query: "head", Category: "electronics", MaxPrice: 3000}, "stand-1"},
			{shop.ProductFilter{Query: "head", Category: "home"}, ""},
			{shop.ProductFilter{Query: "lamp", Category: shop.FeaturedCategory}, "lamp-2"},
			{shop.ProductFilter{Query: "head", Sort: shop.SortPriceAsc}, "stand-1,phones-1"},
			{shop.ProductFilter{Query: "head", Sort: shop.SortPriceDesc}, "phones-1,stand-1"},
		} {
			page := search(tt.f)
			if got := ids(page.Products); got != tt.want || page.Total != len(page.Products) {
				t.Errorf("%+v: got %s (total %d), want %s", tt.f, got, page.Total, tt.want)
			}
		}
	})

	t.Run("Paging", func(t *testing.T) {
		var got []string
		for p := 1; p <= 3; p++ {
			page := search(shop.ProductFilter{Query: "electronics", Sort: shop.SortPriceDesc, Page: p, PageSize: 2})
			if page.Total != 3 {
				t.Errorf("page %d: total %d, want 3", p, page.Total)
			}
			got = append(got, ids(page.Products))
		}
		if strings.Join(got, "|") != "tv-1,phones-1|stand-1|" {
			t.Errorf("pages: got %q, want tv-1,phones-1|stand-1|", got)
		}
	})

	t.Run("Listing", func(t *testing.T) {
		for _, tt := range []struct {
			f     shop.ProductFilter
			want  string
			total int
		}{
			{shop.ProductFilter{Sort: shop.SortPriceAsc}, "board-1,stand-1,lamp-1,phones-1,lamp-2,tv-1", 6},
			{shop.ProductFilter{Sort: shop.SortPriceDesc, PageSize: 2, Page: 2}, "phones-1,lamp-1", 6},
			{shop.ProductFilter{Category: "home", MinRating: 4}, "board-1,lamp-1", 2},
			{shop.ProductFilter{Category: shop.FeaturedCategory}, "phones-1,lamp-2", 2},
			{shop.ProductFilter{MinPrice: 4000, MaxPrice: 10000}, "lamp-1,phones-1", 2},
			{shop.ProductFilter{Category: "garden"}, "", 0},
		} {
			page := search(tt.f)
			if got := ids(page.Products); got != tt.want || page.Total != tt.total {
				t.Errorf("%+v: got %s (total %d), want %s (total %d)", tt.f, got, page.Total, tt.want, tt.total)
			}
		}
	})

	t.Run("SearchTerms", func(t *testing.T) {
		terms, err := s.SearchTerms(ctx)
		must(t, err)
		// From titles and categories: "walnut" is in one title (board-1
		// has it only in its description), "home" in three categories.
		for w, n := range map[string]int{"walnut": 1, "lamp": 2, "headphones": 1, "headphone": 1, "home": 3, "electronics": 3} {
			if terms[w] != n {
				t.Errorf("%q: got %d products, want %d", w, terms[w], n)
			}
		}
		for _, w := range []string{"tv", "oiled", "Walnut"} {
			if _, ok := terms[w]; ok {
				t.Errorf("%q should not be a candidate (short, description-only or not lower case)", w)
			}
		}
	})
	t.Run("Warmed", func(t *testing.T) { searchWarmed(t, b) })
}

// sameProduct reports whether a product read back is the one stored: a
// product sold as its one default variant spans no prices but its own,
// and its gallery is its image, if it has one.
func sameProduct(got, want shop.Product) bool {
	photos := 0
	if want.Image != "" {
		photos = 1
	}
	if got.PriceMin != got.Price || got.PriceMax != got.Price || got.PhotoCount != photos {
		return false
	}
	got.PriceMin, got.PriceMax, got.PhotoCount = want.PriceMin, want.PriceMax, want.PhotoCount
	return reflect.DeepEqual(got, want)
}
