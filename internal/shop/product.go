package shop

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"
)

// Product is one catalogue item (the spec's entities). Derived fields are methods, so
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
	// Stock is how many the shop holds, of all enabled variants. Cards read it from the
	// in-memory catalogue (a few seconds old at most); the product page,
	// the cart and Place Order read it live.
	Stock int
	// Original is the struck-through price staff set; 0 means the spec's
	// price × 1.2.
	Original Cents
	// Hidden products are not sold: staff took them off the shop.
	Hidden bool
	// PriceMin and PriceMax span the prices of the enabled variants; a card
	// says "from PriceMin" when they differ.
	PriceMin, PriceMax Cents
	// OptionCount is how many options shoppers choose (0: the product is
	// sold as its one default variant). The options themselves are the
	// product's Choices, loaded for its page: a Product stays plain values,
	// so it can be compared and used as a key.
	OptionCount int
	// PhotoCount is how many photos its gallery has (the cover is one).
	PhotoCount int
	// DescriptionHTML is an imported description's HTML, sanitised when
	// it was imported (catalogcsv.SanitizeBody), which the product page
	// shows as HTML; Description then holds its text, for search and meta
	// descriptions. "" when the description is plain text (typed in the
	// back office, or from a JSON catalogue), which pages show escaped.
	DescriptionHTML string
	// FinalSale products can't be returned (staff mark them in the
	// product editor; the returns rules refuse them).
	FinalSale bool
}

// HasOptions reports whether shoppers choose a variant of the product.
func (p Product) HasOptions() bool { return p.OptionCount > 0 }

// PricesDiffer reports whether the variants are sold at different prices.
func (p Product) PricesDiffer() bool { return p.PriceMax > p.PriceMin }

// OnlyFewLeft is the stock at or below which a product says "Only N left".
const OnlyFewLeft = 5

// StockText is what cards and the product page say about stock.
func (p Product) StockText() string {
	switch {
	case p.Stock <= 0:
		return "Out of stock"
	case p.Stock <= OnlyFewLeft:
		return fmt.Sprintf("Only %d left", p.Stock)
	}
	return "In stock"
}

// InStock reports whether at least one can be bought.
func (p Product) InStock() bool { return p.Stock > 0 }

// MsgOutOfStock refuses an item that is sold out; MsgOnlyLeft one asked for
// in a larger quantity than the shop holds (%d: the stock, %s: the title).
const (
	MsgOutOfStock = "Sorry, %s is out of stock."
	MsgOnlyLeft   = "Sorry, only %d of %s left in stock."
)

// StockError is the message refusing quantity of p when stock are left.
func StockError(title string, stock int) *Error {
	if stock <= 0 {
		return Errorf(EINVALID, MsgOutOfStock, title)
	}
	return Errorf(EINVALID, MsgOnlyLeft, stock, title)
}

// Seller is who sells a product; the spec fixes the rating.
type Seller struct {
	Name   string
	Rating float64
}

// OriginalPrice is the struck-through price: price × 1.2, rounded to cents.
func (p Product) OriginalPrice() Cents {
	if p.Original > 0 {
		return p.Original
	}
	return Cents((int64(p.Price)*12 + 5) / 10)
}

// Discount is the percentage shown on the badge.
func (p Product) Discount() int {
	if p.Original > p.Price {
		return int((int64(p.Original-p.Price)*100 + int64(p.Original)/2) / int64(p.Original))
	} else if p.Original > 0 {
		return 0
	}
	return DiscountPercent
}

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

// Sort orders of the catalogue, by their names in the spec's query string.
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
	// Options keeps products with a variant that has every value given
	// ("Size" = "M"), compared without regard to case; unused pairs are
	// empty.
	Options  [MaxOptions]OptionPair
	Page     int // 1-based
	PageSize int
}

// OptionPair is an option's name and one of its values.
type OptionPair struct{ Name, Value string }

// HasOptions reports whether f filters by option values.
func (f ProductFilter) HasOptions() bool { return f.Options[0].Name != "" }

// Matches reports whether a variant's values (one per option of options)
// have every pair f asks for.
func (f ProductFilter) Matches(options []Option, values []string) bool {
	for _, want := range f.Options {
		if want.Name == "" {
			continue
		}
		found := false
		for i, o := range options {
			found = found || i < len(values) && strings.EqualFold(o.Name, want.Name) && strings.EqualFold(values[i], want.Value)
		}
		if !found {
			return false
		}
	}
	return true
}

// Offset is the number of rows before the page.
func (f ProductFilter) Offset() int { return (f.Page - 1) * f.PageSize }

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

// CatalogStore keeps the catalogue. Products are known by their id only:
// whatever key a backend uses inside (a rowid, a ctid) never leaves it.
type CatalogStore interface {
	// Product returns one product, or an ENOTFOUND.
	Product(ctx context.Context, id string) (*Product, error)
	// Search returns the page of products f selects and how many it
	// selects on all pages. With a Query, a product matches when it holds
	// every word of it (SearchWords), each as a word prefix ("head" finds
	// "headphones") and plurals as their singular ("walnuts" finds
	// "walnut"), except words of one or two characters, which match whole
	// words only ("tv", "4"). SortRelevance puts products that match in
	// their title above those that match only in their description, the
	// product id breaking ties; how relevance is scored beyond that is
	// the backend's own. The price sorts break ties by id (descending for
	// SortPriceDesc); without a Query every order but SortPriceDesc is
	// price ascending. Category, price and rating filters and paging apply
	// either way.
	Search(ctx context.Context, f ProductFilter) (ProductPage, error)
	// SearchTerms returns the candidates for "Did you mean": the words
	// (three characters or more, lower case) of product titles and
	// categories, each with the number of products using it.
	SearchTerms(ctx context.Context) (map[string]int, error)
	// Categories lists the category names, alphabetically.
	Categories(ctx context.Context) ([]string, error)
	// AllProducts returns every product in id order.
	AllProducts(ctx context.Context) ([]Product, error)
	// CountProducts counts the whole catalogue.
	CountProducts(ctx context.Context) (int, error)
	// CatalogVersion changes whenever ReplaceCatalog changes the catalogue,
	// in whichever process: servers poll it to refresh what they keep.
	CatalogVersion(ctx context.Context) (int64, error)
	// ReplaceCatalog upserts products and categories of one source in one
	// transaction and removes that source's products missing from the list;
	// categories no product uses any more are removed too.
	ReplaceCatalog(ctx context.Context, source string, categories []string, products []Product) error
}

// SearchWarmer is implemented by stores whose search keeps per-catalogue
// work worth doing before the first shopper asks (SQLite scores its
// frequent words in advance). The catalogue service calls it after start
// and after each import.
type SearchWarmer interface {
	WarmSearch(ctx context.Context) error
}
