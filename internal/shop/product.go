package shop

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"
)

// Product is one catalogue item (spec §3). Derived fields are methods, so
// they are computed in exactly one place.
type Product struct {
	ID          string
	Title       string
	Description string
	Category    string
	Price       Cents
	// Image is a logical asset name ("img/products/nb-001.svg") for built-in
	// products, or an absolute URL for imported ones.
	Image       string
	Rating      float64 // 0 to 5
	ReviewCount int
	Featured    bool
	// Photo is the stored photo of an imported Image; zero when none is
	// stored (yet, or its fetch failed).
	Photo Photo
}

// Seller is who sells a product; the spec fixes the rating.
type Seller struct {
	Name   string
	Rating float64
}

// OriginalPrice is the struck-through price: price × 1.2, rounded to cents.
func (p Product) OriginalPrice() Cents { return Cents((int64(p.Price)*12 + 5) / 10) }

// Discount is the percentage shown on the badge.
func (p Product) Discount() int { return DiscountPercent }

// Shipping is the shipping text on cards and the product page: the spec's
// fixed "Free Shipping" would promise what the cart does not do below $50.
func (p Product) Shipping() string { return ShippingPromise() }

// Seller returns the product's seller.
func (p Product) Seller() Seller { return Seller{Name: "Nocturne", Rating: 4.5} }

// Validate rejects products that would show badly or break sums; imports
// skip such items instead of failing.
func (p Product) Validate() error {
	switch {
	case strings.TrimSpace(p.ID) == "":
		return fmt.Errorf("product has no id")
	case strings.TrimSpace(p.Title) == "":
		return fmt.Errorf("product %s has no title", p.ID)
	case strings.TrimSpace(p.Category) == "":
		return fmt.Errorf("product %s has no category", p.ID)
	case p.Price <= 0 || p.Price > 100_000_000:
		return fmt.Errorf("product %s has an impossible price %d", p.ID, p.Price)
	case math.IsNaN(p.Rating) || p.Rating < 0 || p.Rating > 5:
		return fmt.Errorf("product %s has a rating outside 0-5", p.ID)
	case p.ReviewCount < 0:
		return fmt.Errorf("product %s has a negative review count", p.ID)
	case len(p.Title) > 300 || len(p.Description) > 10_000:
		return fmt.Errorf("product %s has an oversized text", p.ID)
	}
	return nil
}

// DollarsToCents converts a price in dollars (as catalogue services send it)
// to cents, rounding to the nearest cent.
func DollarsToCents(d float64) Cents { return Cents(math.Round(d * 100)) }

// Sort orders of the catalogue (spec §2).
const (
	SortPriceAsc  = "asc"
	SortPriceDesc = "desc"
	// SortRelevance is search's default order.
	SortRelevance = ""
)

// FeaturedCategory is the pseudo-category of the featured products.
const FeaturedCategory = "featured"

// ProductFilter selects and orders a page of products. Zero values mean "no
// constraint": MaxPrice 0 is no upper bound.
type ProductFilter struct {
	Category  string // "" all, FeaturedCategory the featured ones
	Query     string // full-text search, "" none
	Sort      string
	MinPrice  Cents
	MaxPrice  Cents
	MinRating int
	Page      int // 1-based
	PageSize  int
}

// Offset is the number of rows before the page.
func (f ProductFilter) Offset() int { return (f.Page - 1) * f.PageSize }

// SearchHit is a product a search matched: its key in the store (stable
// until the catalogue changes) and its relevance score, lower is more
// relevant (SQLite FTS5's bm25 sign).
type SearchHit struct {
	Key   int64
	Score float64
}

// ProductFacet is what the filters and sort orders need of a product.
type ProductFacet struct {
	Key      int64 // as in SearchHit
	ID       string
	Category string
	Price    Cents
	Rating   float64
	Featured bool
}

// Matches reports whether the product passes f's category, price and
// rating constraints (not its Query).
func (p *ProductFacet) Matches(f *ProductFilter) bool {
	switch {
	case f.Category == FeaturedCategory && !p.Featured,
		f.Category != "" && f.Category != FeaturedCategory && f.Category != p.Category,
		f.MinPrice > 0 && p.Price < f.MinPrice,
		f.MaxPrice > 0 && p.Price > f.MaxPrice,
		f.MinRating > 0 && p.Rating < float64(f.MinRating):
		return false
	}
	return true
}

// SearchWords splits what a shopper typed into search words: lower-case
// runs of letters and digits, each once, in the order typed.
func SearchWords(q string) []string {
	var words []string
	for _, w := range strings.FieldsFunc(strings.ToLower(q), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if !slices.Contains(words, w) {
			words = append(words, w)
		}
	}
	return words
}

// ProductPage is one page of a listing.
type ProductPage struct {
	Products []Product
	Total    int
}

// CatalogStore keeps the catalogue.
type CatalogStore interface {
	Product(ctx context.Context, id string) (*Product, error)
	// ListProducts lists one page of products. It does not search: a
	// filter with a Query is an error (searches go through SearchHits).
	ListProducts(ctx context.Context, f ProductFilter) ([]Product, error)
	// CountMatching counts every product the filter matches, on all pages
	// (no Query either).
	CountMatching(ctx context.Context, f ProductFilter) (int, error)
	// SearchHits finds every product that matches all of words, each word
	// as a prefix, and scores it, in no particular order. Scores add up
	// across words: a product's score for [a b] is its score for [a] plus
	// its score for [b], so the hits of a query can be composed from the
	// hits of its words.
	SearchHits(ctx context.Context, words []string) ([]SearchHit, error)
	// WordKey names what a search word matches: two words with the same
	// key match the same products with the same scores ("walnuts" and
	// "walnut" once stemmed), so they can share their hits.
	WordKey(ctx context.Context, word string) (string, error)
	// FrequentTerms lists words (index terms) that at least minProducts
	// products hold, at most limit, the most frequent first.
	FrequentTerms(ctx context.Context, minProducts, limit int) ([]string, error)
	// ProductFacets returns, for every product, what filters and sorting
	// look at, ordered by product id.
	ProductFacets(ctx context.Context) ([]ProductFacet, error)
	// ProductsByKey returns the products with these search keys, in the
	// order given; keys of products that no longer exist are skipped.
	ProductsByKey(ctx context.Context, keys []int64) ([]Product, error)
	Categories(ctx context.Context) ([]string, error)
	// AllProducts returns every product in id order.
	AllProducts(ctx context.Context) ([]Product, error)
	// CatalogVersion changes whenever ReplaceCatalog changes the catalogue,
	// in whichever process: servers poll it to refresh what they keep.
	CatalogVersion(ctx context.Context) (int64, error)
	FeaturedProducts(ctx context.Context, limit int) ([]Product, error)
	CountProducts(ctx context.Context) (int, error)
	// ReplaceCatalog upserts products and categories of one source in one
	// transaction and removes that source's products missing from the list.
	ReplaceCatalog(ctx context.Context, source string, categories []string, products []Product) error
	// SearchTerms returns the indexed vocabulary with document counts, for
	// "Did you mean" suggestions.
	SearchTerms(ctx context.Context) (map[string]int, error)
	AllProductIDs(ctx context.Context) ([]string, error)
}
