package storetest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/nocturne/storefront/internal/shop"
)

// A listing or search filtered by option values keeps the products with an
// enabled variant that has them all, whatever their case; the facets list
// every enabled variant by its values.
func optionFilter(t *testing.T, s BackOfficeStore) {
	ctx := context.Background()
	must(t, s.ReplaceCatalog(ctx, "builtin", []string{"fashion"}, []shop.Product{
		{ID: "shirt", Title: "Linen shirt", Category: "fashion", Price: 4000, Stock: 1},
		{ID: "scarf", Title: "Wool scarf", Category: "fashion", Price: 3000, Stock: 1},
		{ID: "tie", Title: "Wool tie", Category: "fashion", Price: 2000, Stock: 5},
	}))
	size := func(vals ...string) shop.Option {
		o := shop.Option{Name: "Size"}
		for _, v := range vals {
			o.Values = append(o.Values, shop.OptionValue{Value: v})
		}
		return o
	}
	must(t, s.SetChoices(ctx, "shirt", shop.Choices{
		Options: []shop.Option{size("S", "M"), {Name: "Colour", Values: []shop.OptionValue{{Value: "Black"}, {Value: "Ivory"}}}},
		Variants: []shop.Variant{
			{ID: "shirt-s-black", Values: []string{"S", "Black"}, Stock: 2, Enabled: true},
			{ID: "shirt-m-ivory", Values: []string{"M", "Ivory"}, Stock: 2, Enabled: true},
			{ID: "shirt-m-black", Values: []string{"M", "Black"}, Stock: 2, Enabled: false},
		},
	}))
	must(t, s.SetChoices(ctx, "scarf", shop.Choices{
		Options:  []shop.Option{{Name: "Colour", Values: []shop.OptionValue{{Value: "Black"}}}},
		Variants: []shop.Variant{{ID: "scarf-black", Values: []string{"Black"}, Stock: 4, Enabled: true}},
	}))
	for _, tt := range []struct {
		name  string
		pairs []shop.OptionPair
		query string
		want  string
	}{
		{"one value", []shop.OptionPair{{Name: "Colour", Value: "Black"}}, "", "scarf,shirt"},
		{"any case", []shop.OptionPair{{Name: "colour", Value: "BLACK"}}, "", "scarf,shirt"},
		{"two values on one variant", []shop.OptionPair{{Name: "Size", Value: "M"}, {Name: "Colour", Value: "Ivory"}}, "", "shirt"},
		{"a disabled variant is not sold", []shop.OptionPair{{Name: "Size", Value: "M"}, {Name: "Colour", Value: "Black"}}, "", ""},
		{"a search without", nil, "wool", "scarf,tie"},
		{"with a search", []shop.OptionPair{{Name: "Colour", Value: "Black"}}, "wool", "scarf"},
		{"an option no product has", []shop.OptionPair{{Name: "Material", Value: "Silk"}}, "", ""},
	} {
		f := shop.ProductFilter{Query: tt.query, Page: 1, PageSize: 10}
		copy(f.Options[:], tt.pairs)
		if tt.query != "" {
			f.Sort = shop.SortRelevance
		}
		page, err := s.Search(ctx, f)
		must(t, err)
		var ids []string
		for _, p := range page.Products {
			ids = append(ids, p.ID)
		}
		if got := strings.Join(ids, ","); got != tt.want || page.Total != len(ids) {
			t.Errorf("%s: %q (total %d), want %q", tt.name, got, page.Total, tt.want)
		}
	}
	all, err := s.AllChoices(ctx)
	must(t, err)
	var got []string
	for _, id := range []string{"scarf", "shirt", "tie"} {
		for _, v := range all[id].Variants {
			got = append(got, id+":"+strings.Join(v.Values, "/"))
		}
	}
	if strings.Join(got, " ") != "scarf:Black shirt:S/Black shirt:M/Ivory shirt:M/Black" || len(all) != 2 {
		t.Errorf("all choices %v (%d products)", got, len(all))
	}
	stock, err := s.VariantStock(ctx, "shirt")
	must(t, err)
	if fmt.Sprint(stock) != "[2 2 0]" {
		t.Errorf("variant stock %v, want [2 2 0] (the disabled one has none to sell)", stock)
	}
}
