package postgres_test

import (
	"context"
	"slices"
	"testing"

	"github.com/nocturne/storefront/internal/shop"
)

// What a shopper notices of search on PostgreSQL: every word as a prefix,
// plurals, short words whole, title above description, filters, sorting
// and paging, accents ignored.
func TestSearch(t *testing.T) {
	t.Parallel() // on a database of its own
	db := MustOpenDB(t)
	ctx := context.Background()
	products := []shop.Product{
		{ID: "a", Title: "Walnut desk lamp", Description: "Warm light", Category: "home", Price: 4000, Rating: 4.5},
		{ID: "b", Title: "Reading light", Description: "Clamps to a walnut shelf", Category: "home", Price: 2000, Rating: 3},
		{ID: "c", Title: "Wireless headphones", Description: "Noise cancelling", Category: "audio", Price: 9000, Rating: 4.8},
		{ID: "d", Title: "TV stand", Description: "For a 4 foot TV", Category: "home", Price: 15000, Rating: 4},
		{ID: "e", Title: "Television", Description: "Big", Category: "home", Price: 30000, Rating: 4},
		{ID: "f", Title: "Crème brûlée torch", Description: "Kitchen", Category: "kitchen", Price: 2500, Rating: 4.1},
	}
	if err := db.ReplaceCatalog(ctx, "file", nil, products); err != nil {
		t.Fatal(err)
	}
	ids := func(page shop.ProductPage) []string {
		var out []string
		for _, p := range page.Products {
			out = append(out, p.ID)
		}
		return out
	}
	tests := []struct {
		name  string
		f     shop.ProductFilter
		want  []string
		total int
	}{
		{"TitleAboveDescription", shop.ProductFilter{Query: "walnut"}, []string{"a", "b"}, 2},
		{"Plural", shop.ProductFilter{Query: "walnuts"}, []string{"a", "b"}, 2},
		{"Prefix", shop.ProductFilter{Query: "head"}, []string{"c"}, 1},
		{"EveryWord", shop.ProductFilter{Query: "walnut lamp"}, []string{"a"}, 1},
		{"ShortWordWhole", shop.ProductFilter{Query: "tv"}, []string{"d"}, 1},
		{"Accents", shop.ProductFilter{Query: "creme brulee"}, []string{"f"}, 1},
		{"NoMatch", shop.ProductFilter{Query: "zither"}, nil, 0},
		{"OperatorsAreText", shop.ProductFilter{Query: "lamp & !light | ("}, []string{"a"}, 1},
		{"Category", shop.ProductFilter{Query: "light", Category: "home"}, []string{"b", "a"}, 2},
		{"PriceSort", shop.ProductFilter{Query: "walnut", Sort: shop.SortPriceAsc}, []string{"b", "a"}, 2},
		{"PriceDesc", shop.ProductFilter{Query: "walnut", Sort: shop.SortPriceDesc}, []string{"a", "b"}, 2},
		{"MaxPrice", shop.ProductFilter{Query: "walnut", MaxPrice: 3000}, []string{"b"}, 1},
		{"Rating", shop.ProductFilter{MinRating: 4, Category: "home"}, []string{"a", "d", "e"}, 3},
		{"ListingPage2", shop.ProductFilter{Page: 2, PageSize: 2}, []string{"a", "c"}, 6},
		{"ListingDesc", shop.ProductFilter{Sort: shop.SortPriceDesc, PageSize: 2}, []string{"e", "d"}, 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := tt.f
			if f.Page == 0 {
				f.Page = 1
			}
			if f.PageSize == 0 {
				f.PageSize = 10
			}
			page, err := db.Search(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(page); !slices.Equal(got, tt.want) || page.Total != tt.total {
				t.Errorf("got %v (total %d), want %v (total %d)", got, page.Total, tt.want, tt.total)
			}
		})
	}
}
