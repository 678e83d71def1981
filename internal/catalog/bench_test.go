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
		ps := syntheticProducts(benchProducts)
		if benchErr = db.ReplaceCatalog(context.Background(), "bench", syntheticCategories, ps); benchErr != nil {
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

var syntheticCategories = []string{"electronics", "fashion", "jewelery", "home"}

// syntheticProducts makes n products whose words come from a shop-like
// vocabulary, the same every run: each adjective is in about one title in
// eight and one description in eight, each noun in one title in eighteen.
func syntheticProducts(n int) []shop.Product {
	adjectives := []string{"wireless", "merino", "ceramic", "walnut", "sterling", "vintage", "compact", "leather", "linen", "smart", "portable", "handmade", "organic", "brushed", "classic"}
	nouns := []string{"headphones", "keyboard", "lamp", "mug", "ring", "necklace", "jacket", "boots", "scarf", "speaker", "monitor", "throw", "kettle", "bracelet", "backpack", "candle", "watch", "camera"}
	r := rand.New(rand.NewPCG(1, 2))
	ps := make([]shop.Product, n)
	for i := range ps {
		a, noun := adjectives[r.IntN(len(adjectives))], nouns[r.IntN(len(nouns))]
		ps[i] = shop.Product{
			ID:          fmt.Sprintf("bench-%06d", i),
			Title:       fmt.Sprintf("%s %s %d", a, noun, i),
			Description: fmt.Sprintf("A %s %s with %s details, made to last.", a, noun, adjectives[r.IntN(len(adjectives))]),
			Category:    syntheticCategories[r.IntN(len(syntheticCategories))],
			Price:       shop.Cents(500 + r.IntN(200_000)),
			Rating:      float64(10+r.IntN(41)) / 10,
			ReviewCount: r.IntN(5000),
			Featured:    i%12_500 == 0,
		}
	}
	return ps
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
		"Search/three-words+rare":           {Query: syntheticProducts(4243)[4242].Title}, // "<adjective> <noun> 4242"
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

// BenchmarkSearchFirstTime measures the first search for a word after
// warm-up (page 1). Another form or an unambiguous prefix of a warmed word
// only costs finding its key; a rare word is scored live, cheaply; a
// word of one or two characters matches whole words ("4", not 40 or 400;
// "wa" is not a prefix of walnut and watch).
func BenchmarkSearchFirstTime(b *testing.B) {
	svc := benchCatalog(b)
	ctx := context.Background()
	for _, tt := range []struct {
		name, word string
		unscored   bool // no hits kept for its key either
	}{
		{"other-form-of-warmed-word", "walnuts", false},
		{"prefix-of-warmed-word", "wirel", false},
		{"rare-word", "4242", true},
		{"one-character", "4", true},
		{"two-characters", "42", true},
		{"three-character-prefix", "424", true},
	} {
		b.Run(tt.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				svc.ForgetWord(tt.word, tt.unscored)
				page, err := svc.List(ctx, shop.ProductFilter{Query: tt.word, Page: 1, PageSize: shop.CataloguePageSize})
				if err != nil || len(page.Products) == 0 {
					b.Fatal(page.Total, err)
				}
			}
		})
	}
}

// BenchmarkWarm measures the warm-up after start or an import at 100,000
// products: loading the facets and scoring the frequent words.
func BenchmarkWarm(b *testing.B) {
	benchCatalog(b)
	for i := 0; i < b.N; i++ {
		if err := catalog.NewService(benchDB, quiet).Warm(context.Background()); err != nil {
			b.Fatal(err)
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
