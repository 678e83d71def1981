package catalog_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/catalog"
	"github.com/nocturne/storefront/internal/shop"
)

// Listings served from memory are exactly the store's SQL listings: same
// products, same order (ties broken by id), same counts, every page.
func TestList_FromMemoryMatchesTheStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpenDB(t)
	r := rand.New(rand.NewPCG(1, 2))
	cats := []string{"electronics", "fashion", "home", "jewelery"}
	var products []shop.Product
	for i := range 300 {
		products = append(products, shop.Product{
			ID:       fmt.Sprintf("p-%03d", i),
			Title:    fmt.Sprintf("Product %d", i),
			Category: cats[r.IntN(len(cats))],
			// Few distinct prices, so ties (broken by id) are common.
			Price:    shop.Cents(100 * (1 + r.IntN(40))),
			Rating:   float64(r.IntN(51)) / 10,
			Featured: r.IntN(5) == 0,
		})
	}
	if err := db.ReplaceCatalog(ctx, "test", cats, products); err != nil {
		t.Fatal(err)
	}
	svc := catalog.NewService(db, quiet)
	for _, f := range []shop.ProductFilter{
		{},
		{Sort: shop.SortPriceDesc},
		{Category: "home"},
		{Category: "fashion", Sort: shop.SortPriceDesc, MinPrice: 1000},
		{Category: shop.FeaturedCategory},
		{MinPrice: 500, MaxPrice: 2500},
		{MaxPrice: 100},
		{MinPrice: 5000},
		{MinRating: 4},
		{Category: "electronics", MinRating: 3, MinPrice: 800, MaxPrice: 3200, Sort: shop.SortPriceDesc},
		{Category: "weapons"},
	} {
		t.Run(fmt.Sprintf("%+v", f), func(t *testing.T) {
			for _, size := range []int{12, 7} {
				for page := 1; page <= 30; page++ {
					f.Page, f.PageSize = page, size
					stored, err := db.Search(ctx, f)
					if err != nil {
						t.Fatal(err)
					}
					want, wantTotal := stored.Products, stored.Total
					got, err := svc.List(ctx, f)
					if err != nil {
						t.Fatal(err)
					}
					if got.Total != wantTotal {
						t.Fatalf("page %d: total %d, want %d", page, got.Total, wantTotal)
					}
					if !slices.EqualFunc(got.Products, want, func(a, b shop.Product) bool { return a == b }) {
						t.Fatalf("page %d of %d: got %v, want %v", page, size, ids(got.Products), ids(want))
					}
				}
			}
		})
	}
}

// An import made by another process (the `catalog import` command, another
// instance) reaches a running server's memory through the catalogue
// version, without a restart.
func TestWatch_ReloadsAnotherProcesssImport(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	db := MustOpenDB(t)
	server := catalog.NewService(db, quiet)
	if err := server.LoadBuiltin(ctx); err != nil {
		t.Fatal(err)
	}
	before := server.Version()
	if _, err := server.Product(ctx, "cli-1"); shop.ErrorCode(err) != shop.ENOTFOUND {
		t.Fatalf("before the import: %v", err)
	}
	go server.Watch(ctx, 10*time.Millisecond)

	// The command line writes through its own connection to the database.
	if err := db.ReplaceCatalog(ctx, catalog.SourceFile, []string{"home"}, []shop.Product{{ID: "cli-1", Title: "Imported lamp", Category: "home", Price: 1234}}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		p, err := server.Product(ctx, "cli-1")
		if err == nil {
			if p.Title != "Imported lamp" || server.Version() == before {
				t.Fatalf("got %+v at version %d (was %d)", p, server.Version(), before)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the running service never saw the other process's import")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func ids(ps []shop.Product) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.ID
	}
	return out
}
