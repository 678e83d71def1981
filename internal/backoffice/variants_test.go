package backoffice_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/shop"
)

func opts(spec ...string) []shop.Option {
	var out []shop.Option
	for _, s := range spec {
		name, values, _ := strings.Cut(s, ":")
		o := shop.Option{Name: name}
		for _, v := range strings.Split(values, ",") {
			if v != "" {
				o.Values = append(o.Values, shop.OptionValue{Value: v})
			}
		}
		out = append(out, o)
	}
	return out
}

func TestMissing(t *testing.T) {
	sm := shop.Choices{Options: opts("Size:S,M", "Colour:Black,White")}
	sm.Variants = []shop.Variant{{ID: "p-s-black", Values: []string{"S", "Black"}}}
	for _, tt := range []struct {
		name string
		c    shop.Choices
		want string // ids, or the refusal
	}{
		{"every combination but one", sm, "p-s-white p-m-black p-m-white"},
		{"named as the catalogue names variants", shop.Choices{Options: opts("Colour:Grün,Night Blue")}, "p-grün p-night-blue"},
		{"no options", shop.Choices{}, backoffice.MsgNoOptions},
		{"an option without values", shop.Choices{Options: opts("Size:S", "Colour:")}, fmt.Sprintf(backoffice.MsgOptionEmpty, "Colour")},
		{"too many", shop.Choices{Options: opts("A:1,2,3,4,5", "B:1,2,3,4,5", "C:1,2,3,4,5")},
			fmt.Sprintf(backoffice.MsgTooManyCombinations, 125, shop.MaxVariants)},
		{"the default variant is no combination", shop.Choices{Options: opts("Size:S"), Variants: []shop.Variant{{ID: "p", Values: []string{""}}}}, "p-s"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			vs, err := backoffice.Missing("p", tt.c)
			got := shop.ErrorMessage(err)
			if err == nil {
				var ids []string
				for _, v := range vs {
					ids = append(ids, v.ID)
					if !v.Enabled || v.Stock != 0 || v.Price != 0 {
						t.Errorf("%s starts as %+v, want enabled, no stock, the product's price", v.ID, v)
					}
				}
				got = strings.Join(ids, " ")
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParseVariant(t *testing.T) {
	ok := backoffice.VariantInput{Stock: "5", StockWas: "5", Enabled: true}
	with := func(f func(*backoffice.VariantInput)) backoffice.VariantInput { in := ok; f(&in); return in }
	for _, tt := range []struct {
		name  string
		in    backoffice.VariantInput
		field string // the error's field, "" for none
		want  shop.VariantEdit
	}{
		{"as shown", ok, "", shop.VariantEdit{Variant: shop.Variant{ID: "v", Stock: 5, Enabled: true}, StockWas: 5}},
		{"own prices", with(func(in *backoffice.VariantInput) { in.Price, in.Original, in.SKU = "$1,250.50", "1300", " A-1 " }), "",
			shop.VariantEdit{Variant: shop.Variant{ID: "v", SKU: "A-1", Price: 125050, Original: 130000, Stock: 5, Enabled: true}, StockWas: 5}},
		{"compare-at against the product's price", with(func(in *backoffice.VariantInput) { in.Original = "9.99" }), "original", shop.VariantEdit{}},
		{"compare-at against its own price", with(func(in *backoffice.VariantInput) { in.Price, in.Original = "20", "19.99" }), "original", shop.VariantEdit{}},
		{"a float's price", with(func(in *backoffice.VariantInput) { in.Price = "1e2" }), "price", shop.VariantEdit{}},
		{"a zero price", with(func(in *backoffice.VariantInput) { in.Price = "0" }), "price", shop.VariantEdit{}},
		{"stock not a number", with(func(in *backoffice.VariantInput) { in.Stock = "five" }), "stock", shop.VariantEdit{}},
		{"stock too large", with(func(in *backoffice.VariantInput) { in.Stock = "1000001" }), "stock", shop.VariantEdit{}},
		{"no stock shown", with(func(in *backoffice.VariantInput) { in.StockWas = "" }), "stock", shop.VariantEdit{}},
		{"a photo elsewhere", with(func(in *backoffice.VariantInput) { in.Image = "javascript:alert(1)" }), "image", shop.VariantEdit{}},
		{"a photo", with(func(in *backoffice.VariantInput) { in.Image = "https://img.example/a.jpg" }), "",
			shop.VariantEdit{Variant: shop.Variant{ID: "v", Stock: 5, Image: "https://img.example/a.jpg", Enabled: true}, StockWas: 5}},
		{"an SKU too long", with(func(in *backoffice.VariantInput) { in.SKU = strings.Repeat("A", 65) }), "sku", shop.VariantEdit{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e, errs := backoffice.ParseVariant("v", tt.in, 1000)
			if tt.field != "" {
				if errs[tt.field] == "" || len(errs) != 1 {
					t.Errorf("errors %v, want one for %s", errs, tt.field)
				}
				return
			}
			if errs != nil {
				t.Fatalf("errors %v", errs)
			}
			if fmt.Sprint(e) != fmt.Sprint(tt.want) {
				t.Errorf("got %+v, want %+v", e, tt.want)
			}
		})
	}
}

func TestParseBulk(t *testing.T) {
	for _, tt := range []struct {
		name   string
		in     backoffice.BulkInput
		fields string // the errors' fields, sorted
		stock  func(was int) int
	}{
		{"a price", backoffice.BulkInput{Selected: []string{"a"}, Price: "12"}, "", nil},
		{"set the stock", backoffice.BulkInput{Selected: []string{"a"}, StockMode: "set", Stock: "0"}, "", func(int) int { return 0 }},
		{"add to the stock", backoffice.BulkInput{Selected: []string{"a"}, StockMode: "add", Stock: "3"}, "", func(w int) int { return w + 3 }},
		{"nothing selected", backoffice.BulkInput{Price: "12"}, "selected", nil},
		{"nothing to give", backoffice.BulkInput{Selected: []string{"a"}}, "price", nil},
		{"add nothing", backoffice.BulkInput{Selected: []string{"a"}, StockMode: "add", Stock: "0"}, "stock", nil},
		{"set a negative stock", backoffice.BulkInput{Selected: []string{"a"}, StockMode: "set", Stock: "-2"}, "stock", nil},
		{"both wrong", backoffice.BulkInput{Selected: []string{"a"}, Price: "free", StockMode: "add", Stock: "x"}, "price stock", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, errs := backoffice.ParseBulk(tt.in)
			var fields []string
			for _, f := range []string{"price", "selected", "stock"} {
				if errs[f] != "" {
					fields = append(fields, f)
				}
			}
			if got := strings.Join(fields, " "); got != tt.fields {
				t.Fatalf("errors %v, want fields %q", errs, tt.fields)
			}
			if tt.stock != nil {
				for _, was := range []int{0, 7} {
					if got, err := b.StockTo(was); err != nil || got != tt.stock(was) {
						t.Errorf("StockTo(%d): %d, %v; want %d", was, got, err, tt.stock(was))
					}
				}
			}
		})
	}
	b, _ := backoffice.ParseBulk(backoffice.BulkInput{Selected: []string{"a"}, StockMode: "add", Stock: "10"})
	if _, err := b.StockTo(backoffice.MaxStock - 5); shop.ErrorCode(err) != shop.EINVALID {
		t.Errorf("adding past the most stock: %v", err)
	}
}

func TestParseOptionValue(t *testing.T) {
	for _, tt := range []struct {
		value, swatch string
		want          shop.OptionValue
		fields        string
	}{
		{" XL ", "", shop.OptionValue{Value: "XL"}, ""},
		{"Midnight", " #1E1B4B ", shop.OptionValue{Value: "Midnight", Swatch: "#1e1b4b"}, ""},
		{"", "", shop.OptionValue{}, "value"},
		{"Red", "red", shop.OptionValue{}, "swatch"},
		{"Red", "#f00", shop.OptionValue{}, "swatch"},
		{"Tab\there", "", shop.OptionValue{}, "value"},
		{strings.Repeat("é", 41), "", shop.OptionValue{}, "value"},
	} {
		v, errs := backoffice.ParseOptionValue(tt.value, tt.swatch)
		var fields []string
		for _, f := range []string{"swatch", "value"} {
			if errs[f] != "" {
				fields = append(fields, f)
			}
		}
		if got := strings.Join(fields, " "); got != tt.fields {
			t.Errorf("%q %q: errors %v, want %q", tt.value, tt.swatch, errs, tt.fields)
		} else if got == "" && v != tt.want {
			t.Errorf("%q %q: got %+v, want %+v", tt.value, tt.swatch, v, tt.want)
		}
	}
}
