package components_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/components"
)

// BenchmarkProductCards measures a grid page's twelve cards, the largest part of
// rendering a listing.
func BenchmarkProductCards(b *testing.B) {
	cards := make([]components.Card, 12)
	for i := range cards {
		cards[i] = components.Card{Product: shop.Product{ID: "nb-001", Title: "Walnut desk lamp", Price: 4599, Rating: 4.3, ReviewCount: 120}, Image: components.Picture{Src: "/static/img/x.svg", Width: 400, Height: 400}, ReturnTo: "/products"}
	}
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := components.ProductCards(cards).Render(context.Background(), &buf); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes")
}
