package shop

import (
	"context"
	"fmt"
	"math"
	"strings"
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

// Shipping is the shipping text on cards and the product page.
func (p Product) Shipping() string { return "Free Shipping" }

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

// ProductPage is one page of a listing.
type ProductPage struct {
	Products []Product
	Total    int
}

// CatalogStore keeps the catalogue.
type CatalogStore interface {
	Product(ctx context.Context, id string) (*Product, error)
	// ListProducts lists (or, with a Query, searches) one page of products.
	ListProducts(ctx context.Context, f ProductFilter) ([]Product, error)
	// CountMatching counts every product the filter matches, on all pages.
	CountMatching(ctx context.Context, f ProductFilter) (int, error)
	Categories(ctx context.Context) ([]string, error)
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
