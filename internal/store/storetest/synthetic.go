package storetest

import (
	"fmt"
	"math/rand/v2"

	"github.com/nocturne/storefront/internal/shop"
)

// SyntheticCategories are the categories of SyntheticProducts.
var SyntheticCategories = []string{"electronics", "fashion", "jewelery", "home"}

// SyntheticProducts makes n products whose words come from a shop-like
// vocabulary, the same every run: each adjective is in about one title in
// eight and one description in eight, each noun in one title in eighteen.
// Benchmarks and search tests of every backend share it, so their figures
// compare.
func SyntheticProducts(n int) []shop.Product {
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
			Category:    SyntheticCategories[r.IntN(len(SyntheticCategories))],
			Price:       shop.Cents(500 + r.IntN(200_000)),
			Rating:      float64(10+r.IntN(41)) / 10,
			ReviewCount: r.IntN(5000),
			Featured:    i%12_500 == 0,
		}
	}
	return ps
}
