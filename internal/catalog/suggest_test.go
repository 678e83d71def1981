package catalog_test

import (
	"context"
	"testing"

	"github.com/nocturne/storefront/internal/catalog"
	"github.com/nocturne/storefront/internal/shop"
)

func builtinService(t *testing.T) *catalog.Service {
	t.Helper()
	svc := catalog.NewService(MustOpenDB(t), quiet)
	if err := svc.LoadBuiltin(context.Background()); err != nil {
		t.Fatal(err)
	}
	return svc
}

// Category names as the shop shows them, their spelling variants and the
// words of the landing page's copy find products: a shopper who types what
// the shop shows them must not get an empty page.
func TestSearch_CategoryNamesAndVariants(t *testing.T) {
	t.Parallel()
	svc := builtinService(t)
	ctx := context.Background()
	count := func(q string) int {
		t.Helper()
		page, err := svc.List(ctx, shop.ProductFilter{Query: q, Page: 1, PageSize: 12})
		if err != nil {
			t.Fatal(err)
		}
		return page.Total
	}
	tests := []struct {
		q    string
		want int // 0: at least one
	}{
		{"jewelry", 13}, {"Jewelry", 13}, {"jewellery", 13}, {"jewelery", 13},
		{"electronics", 13}, {"fashion", 13}, {"home", 0},
		{"gold jewelry", 0},
		// The landing page promises these.
		{"headphones", 0}, {"cameras", 0}, {"keyboards", 0}, {"monitors", 0},
		{"lamps", 0}, {"linens", 0}, {"mugs", 0},
		{"jackets", 0}, {"boots", 0}, {"backpacks", 0},
	}
	for _, tt := range tests {
		got := count(tt.q)
		switch {
		case tt.want > 0 && got != tt.want:
			t.Errorf("%q: got %d products, want %d", tt.q, got, tt.want)
		case tt.want == 0 && got == 0:
			t.Errorf("%q: found nothing", tt.q)
		}
	}
}

func TestSuggest_ShopperDistances(t *testing.T) {
	t.Parallel()
	svc := builtinService(t)
	tests := []struct{ q, want string }{
		{"hedphones", "headphones"},
		{"cheap", ""},     // not "cap": two edits in five letters is another word
		{"jewelry", ""},   // the shop's own spelling is no typo
		{"jewellery", ""}, // nor is the British one
		{"keybord", "keyboard"},
		{"moniter", "monitor"},
		{"jewelery", ""},
		{"jewelerry", "jewelry"}, // shown as the shop spells it
	}
	for _, tt := range tests {
		got, err := svc.Suggest(context.Background(), tt.q)
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("Suggest(%q): got %q, want %q", tt.q, got, tt.want)
		}
	}
}
