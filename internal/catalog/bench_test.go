package catalog_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/nocturne/storefront/internal/catalog"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/store/sqlite"
	"github.com/nocturne/storefront/internal/store/storetest"
)

const benchProducts = 100_000

var (
	benchOnce sync.Once
	benchSvc  *catalog.Service
	benchDB   *sqlite.DB
	benchDir  string
	benchErr  error
)

// benchCatalog builds, once per run, a file database with 100,000 synthetic
// products whose words come from a shop-like vocabulary, and warms a
// Service on it as the shop does after start (TestMain removes it).
func benchCatalog(b *testing.B) *catalog.Service {
	benchOnce.Do(func() {
		var err error
		if benchDir, err = os.MkdirTemp("", "nocturne-bench"); err != nil {
			benchErr = err
			return
		}
		db, err := sqlite.Open(context.Background(), filepath.Join(benchDir, "bench.db"))
		if err != nil {
			benchErr = err
			return
		}
		ps := storetest.SyntheticProducts(benchProducts)
		if benchErr = db.ReplaceCatalog(context.Background(), "bench", storetest.SyntheticCategories, ps); benchErr != nil {
			return
		}
		benchDB = db
		benchSvc = catalog.NewService(db, quiet)
		benchErr = benchSvc.Warm(context.Background())
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchSvc
}

// BenchmarkListing measures one page of the catalogue at 100,000 products,
// as the products and search pages ask for it. Listing counts are cached
// per filter until the catalogue changes (BenchmarkCount measures them
// uncached). Searches keep no per-query result: each is composed afresh
// from its words' scored hits, so a search made of the catalogue's words
// costs the same the first time as the hundredth (the words outside the
// warmed set pay BenchmarkSearchUnkeptWord once).
func BenchmarkListing(b *testing.B) {
	svc := benchCatalog(b)
	ctx := context.Background()
	cases := map[string]shop.ProductFilter{
		"All/asc/page1":                     {Sort: "asc"},
		"All/desc/page40":                   {Sort: "desc", Page: 40},
		"Category+price+rating":             {Category: "home", MinPrice: 2000, MaxPrice: 50000, MinRating: 4, Sort: "asc", Page: 3},
		"Category/desc/page5":               {Category: "jewelery", Sort: "desc", Page: 5},
		"Featured":                          {Category: shop.FeaturedCategory},
		"Search/common-word":                {Query: "walnut"},
		"Search/common-word/page20":         {Query: "walnut", Page: 20},
		"Search/two-common-words":           {Query: "walnut lamp"},
		"Search/three-words+rare":           {Query: storetest.SyntheticProducts(4243)[4242].Title}, // "<adjective> <noun> 4242"
		"Search/category-word":              {Query: "home"},
		"Search+category+price+rating":      {Query: "leather boots", Category: "fashion", MinPrice: 5000, MinRating: 3, Page: 2},
		"Search+filters/sorted-by-price":    {Query: "leather boots", Category: "fashion", MinRating: 3, Sort: "asc", Page: 2},
		"Search/common-word/sorted-by-desc": {Query: "walnut", Sort: "desc", Page: 3},
	}
	for name, f := range cases {
		if f.Page == 0 {
			f.Page = 1
		}
		f.PageSize = shop.CataloguePageSize
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				page, err := svc.List(ctx, f)
				if err != nil {
					b.Fatal(err)
				}
				if len(page.Products) == 0 {
					b.Fatal("empty page")
				}
			}
		})
	}
}

// BenchmarkSuggest measures "Did you mean" over the 100,000-product vocabulary.
func BenchmarkSuggest(b *testing.B) {
	svc := benchCatalog(b)
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		if s, err := svc.Suggest(ctx, "headphnoes"); err != nil || s != "headphones" {
			b.Fatalf("got %q, %v", s, err)
		}
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}
