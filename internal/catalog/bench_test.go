package catalog_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/nocturne/storefront/internal/catalog"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/store/sqlite"
)

const benchProducts = 100_000

var (
	benchOnce sync.Once
	benchSvc  *catalog.Service
	benchErr  error
)

// benchCatalog builds, once per run, a file database with 100,000 synthetic
// products whose words come from a shop-like vocabulary.
func benchCatalog(b *testing.B) *catalog.Service {
	benchOnce.Do(func() {
		dir, err := os.MkdirTemp("", "nocturne-bench")
		if err != nil {
			benchErr = err
			return
		}
		db, err := sqlite.Open(context.Background(), filepath.Join(dir, "bench.db"))
		if err != nil {
			benchErr = err
			return
		}
		adjectives := []string{"wireless", "merino", "ceramic", "walnut", "sterling", "vintage", "compact", "leather", "linen", "smart", "portable", "handmade", "organic", "brushed", "classic"}
		nouns := []string{"headphones", "keyboard", "lamp", "mug", "ring", "necklace", "jacket", "boots", "scarf", "speaker", "monitor", "throw", "kettle", "bracelet", "backpack", "candle", "watch", "camera"}
		cats := []string{"electronics", "fashion", "jewelery", "home"}
		r := rand.New(rand.NewPCG(1, 2))
		ps := make([]shop.Product, benchProducts)
		for i := range ps {
			a, n := adjectives[r.IntN(len(adjectives))], nouns[r.IntN(len(nouns))]
			ps[i] = shop.Product{
				ID:          fmt.Sprintf("bench-%06d", i),
				Title:       fmt.Sprintf("%s %s %d", a, n, i),
				Description: fmt.Sprintf("A %s %s with %s details, made to last.", a, n, adjectives[r.IntN(len(adjectives))]),
				Category:    cats[r.IntN(len(cats))],
				Price:       shop.Cents(500 + r.IntN(200_000)),
				Rating:      float64(10+r.IntN(41)) / 10,
				ReviewCount: r.IntN(5000),
				Featured:    i%12_500 == 0,
			}
		}
		if benchErr = db.ReplaceCatalog(context.Background(), "bench", cats, ps); benchErr != nil {
			return
		}
		benchSvc = catalog.NewService(db, quiet)
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchSvc
}

// BenchmarkListing measures one page of the catalogue at 100,000 products,
// as the products page asks for it (the match count is cached per filter
// until the catalogue changes; BenchmarkCount measures it uncached).
func BenchmarkListing(b *testing.B) {
	svc := benchCatalog(b)
	ctx := context.Background()
	cases := map[string]shop.ProductFilter{
		"All/asc/page1":           {Sort: "asc"},
		"All/desc/page40":         {Sort: "desc", Page: 40},
		"Category+price+rating":   {Category: "home", MinPrice: 2000, MaxPrice: 50000, MinRating: 4, Sort: "asc", Page: 3},
		"Category/desc/page5":     {Category: "jewelery", Sort: "desc", Page: 5},
		"Featured":                {Category: shop.FeaturedCategory},
		"Search/one-word":         {Query: "walnut"},
		"Search/prefix+two-words": {Query: "wirel headphones"},
		"Search+filters+price":    {Query: "leather boots", Category: "fashion", MinRating: 3, Sort: "asc", Page: 2},
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

// BenchmarkCount measures counting the matches of a filter without the cache.
func BenchmarkCount(b *testing.B) {
	svc := benchCatalog(b)
	ctx := context.Background()
	for name, f := range map[string]shop.ProductFilter{
		"All":                   {},
		"Category+price+rating": {Category: "home", MinPrice: 2000, MaxPrice: 50000, MinRating: 4},
		"Search":                {Query: "walnut"},
	} {
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := svc.Store.CountMatching(ctx, f); err != nil {
					b.Fatal(err)
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

// BenchmarkSearchCold measures a search nobody has made before: ranking
// every match of a word that one product in eight contains. Invalidate
// empties the caches before each query.
func BenchmarkSearchCold(b *testing.B) {
	svc := benchCatalog(b)
	ctx := context.Background()
	for name, q := range map[string]string{"common-word": "walnut", "two-words": "walnut lamp", "rare-word": "bench 4242"} {
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				svc.Invalidate()
				if _, err := svc.List(ctx, shop.ProductFilter{Query: q, Page: 1, PageSize: shop.CataloguePageSize}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
