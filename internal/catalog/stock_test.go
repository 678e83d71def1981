package catalog_test

import (
	"context"
	"testing"

	"github.com/nocturne/storefront/internal/catalog"
	"github.com/nocturne/storefront/internal/shop"
)

// Cards (listings from memory) catch up with stock taken by orders at the
// next refresh, without a reload of the catalogue.
func TestList_StockRefreshedWithoutReload(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpenDB(t)
	if err := db.ReplaceCatalog(ctx, "test", []string{"home"}, []shop.Product{{ID: "p1", Title: "Lamp", Category: "home", Price: 100, Stock: 3}}); err != nil {
		t.Fatal(err)
	}
	svc := catalog.NewService(db, quiet)
	svc.Stock = db
	stockOf := func() int {
		page, err := svc.List(ctx, shop.ProductFilter{Page: 1, PageSize: 12})
		if err != nil || len(page.Products) != 1 {
			t.Fatalf("list: %+v %v", page, err)
		}
		return page.Products[0].Stock
	}
	if got := stockOf(); got != 3 {
		t.Fatalf("stock %d", got)
	}
	version := svc.Version()
	if err := db.AddToCart(ctx, "guest_1", "p1", 2); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.ClaimCart(ctx, "guest_1", "k", func(c shop.Cart, _ int) (*shop.Order, error) {
		return &shop.Order{ID: "NOC-1", Lines: []shop.OrderLine{{ProductID: "p1", Name: "Lamp", Price: 100, Quantity: 2}}}, nil
	}); err != nil {
		t.Fatal(err)
	}
	if got := stockOf(); got != 3 {
		t.Errorf("before the refresh the card shows %d, want the snapshot's 3", got)
	}
	if err := svc.RefreshStock(ctx); err != nil {
		t.Fatal(err)
	}
	if got := stockOf(); got != 1 {
		t.Errorf("after the refresh the card shows %d, want 1", got)
	}
	if p, _ := svc.Product(ctx, "p1"); p.Stock != 1 {
		t.Errorf("product %d", p.Stock)
	}
	if svc.Version() != version {
		t.Error("the stock refresh reloaded the catalogue")
	}
}
