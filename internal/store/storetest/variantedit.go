package storetest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/nocturne/storefront/internal/shop"
)

// VariantEditorStore is what the back office's options and variants
// editor needs of a backend, beside the rest of the back office.
type VariantEditorStore interface {
	BackOfficeStore
	shop.VariantAdminStore
}

// testVariantEditor runs the editor's checks on a backend that offers it.
func testVariantEditor(t *testing.T, b Backend) {
	open := func(t *testing.T) VariantEditorStore {
		s, _, _ := b.open(t)
		vs, ok := s.(VariantEditorStore)
		if !ok {
			t.Skipf("%T does not implement the variant editor's store", s)
		}
		return vs
	}
	t.Run("ChangeVariantStock", func(t *testing.T) { changeVariantStock(t, open(t)) })
	t.Run("ChangeVariantStockRacesSales", func(t *testing.T) { changeVariantStockRacesSales(t, open(t)) })
	t.Run("UpdateVariant", func(t *testing.T) { updateVariant(t, open(t)) })
	t.Run("Options", func(t *testing.T) { editOptions(t, open(t)) })
	t.Run("GenerateMovesDefaultStock", func(t *testing.T) { generateMovesDefaultStock(t, open(t)) })
	t.Run("GenerateRacesSales", func(t *testing.T) { generateRacesSales(t, open(t)) })
	t.Run("SecondOption", func(t *testing.T) { secondOption(t, open(t)) })
	t.Run("RemoveValuesAndOptions", func(t *testing.T) { removeValuesAndOptions(t, open(t)) })
	t.Run("TakenIDs", func(t *testing.T) { takenVariantIDs(t, open(t)) })
}

// sizes gives product id the option Size with values and one variant per
// value, each with the given stock, through SetChoices.
func sizes(t *testing.T, s VariantEditorStore, id string, stock map[string]int, values ...string) {
	t.Helper()
	c := shop.Choices{Options: []shop.Option{{Name: "Size"}}}
	for _, v := range values {
		c.Options[0].Values = append(c.Options[0].Values, shop.OptionValue{Value: v})
		c.Variants = append(c.Variants, shop.Variant{ID: id + "-" + strings.ToLower(v), Values: []string{v}, Stock: stock[v], Enabled: true})
	}
	must(t, s.SetChoices(context.Background(), id, c))
}

// variantIDs lists a product's variants as "id=stock", in order.
func variantIDs(t *testing.T, s VariantEditorStore, id string) string {
	t.Helper()
	c, err := s.EditChoices(context.Background(), id)
	must(t, err)
	var out []string
	for _, v := range c.Variants {
		out = append(out, fmt.Sprintf("%s=%d", v.ID, v.Stock))
	}
	return strings.Join(out, " ")
}

// A stock change is applied only while the stock is what staff saw: a
// sale since then is never undone, and the refusal says the stock now.
func changeVariantStock(t *testing.T, s VariantEditorStore) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"tee": 0})
	sizes(t, s, "tee", map[string]int{"M": 5}, "M", "L")
	v0, err := s.CatalogVersion(ctx)
	must(t, err)
	must(t, s.ChangeVariantStock(ctx, "tee-m", 5, 8))
	if n, _ := s.Stock(ctx, "tee-m"); n != 8 {
		t.Errorf("stock after 5 → 8: %d", n)
	}
	if v, _ := s.CatalogVersion(ctx); v <= v0 {
		t.Errorf("catalogue version %d after a stock change, was %d", v, v0)
	}
	must(t, s.AddToCart(ctx, "guest_1", "tee-m", 2))
	if _, err := claim(ctx, s, "guest_1", "k1"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		id        string
		was, to   int
		code, msg string
		want      int // tee-m's stock afterwards
	}{
		{"over a sale", "tee-m", 8, 20, shop.ECONFLICT, "Stock changed while you were editing: it is now 6.", 6},
		{"checked against the stock now", "tee-m", 6, 20, "", "", 20},
		{"no change", "tee-m", 20, 20, "", "", 20},
		{"no change, stale", "tee-m", 3, 3, "", "", 20},
		{"negative", "tee-m", 20, -1, shop.EINVALID, "", 20},
		{"down to zero", "tee-m", 20, 0, "", "", 0},
		{"unknown variant", "tee-xl", 0, 4, shop.ENOTFOUND, shop.MsgVariantGone, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := s.ChangeVariantStock(ctx, tc.id, tc.was, tc.to)
			wantCode(t, tc.name, err, tc.code, tc.msg)
			if tc.code == shop.ECONFLICT && shop.ErrorField(err) != "stock" {
				t.Errorf("conflict's field %q, want stock", shop.ErrorField(err))
			}
			if n, _ := s.Stock(ctx, "tee-m"); n != tc.want {
				t.Errorf("stock %d, want %d", n, tc.want)
			}
		})
	}
	if n, _ := s.Stock(ctx, "tee-l"); n != 0 {
		t.Errorf("the other variant's stock moved: %d", n)
	}
}

// Shoppers buy one each while staff type a new stock over what they saw:
// whichever commits first, no sale is undone.
func changeVariantStockRacesSales(t *testing.T, s VariantEditorStore) {
	ctx := context.Background()
	const start, buyers = 10, 6
	seedStock(t, s, map[string]int{"tee": 0})
	sizes(t, s, "tee", map[string]int{"M": start}, "M")
	for i := range buyers {
		must(t, s.AddToCart(ctx, fmt.Sprintf("guest_%d", i), "tee-m", 1))
	}
	var wg sync.WaitGroup
	begin := make(chan struct{})
	sold := make([]error, buyers)
	for i := range buyers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-begin
			_, sold[i] = claim(ctx, s, fmt.Sprintf("guest_%d", i), fmt.Sprintf("k%d", i))
		}()
	}
	var restock error
	wg.Add(1)
	go func() { defer wg.Done(); <-begin; restock = s.ChangeVariantStock(ctx, "tee-m", start, 30) }()
	close(begin)
	wg.Wait()
	for i, err := range sold {
		if err != nil {
			t.Fatalf("sale %d: %v", i, err)
		}
	}
	want := start - buyers
	switch {
	case restock == nil:
		want = 30 - buyers // the restock went in before any sale
	case shop.ErrorCode(restock) != shop.ECONFLICT:
		t.Fatalf("the restock failed with %v, want success or the stock-moved conflict", restock)
	}
	if n, err := s.Stock(ctx, "tee-m"); err != nil || n != want {
		t.Errorf("stock after %d sales racing a restock (%v): %d, want %d", buyers, restock, n, want)
	}
}

// A variant's own fields are saved with its stock change, all or nothing;
// a price of 0 sells at the product's.
func updateVariant(t *testing.T, s VariantEditorStore) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"tee": 0, "mug": 3}) // priced 1000
	sizes(t, s, "tee", map[string]int{"M": 5}, "M", "L")
	e := shop.VariantEdit{Variant: shop.Variant{ID: "tee-m", SKU: "TEE-M", Price: 1500, Original: 2000, Stock: 7,
		Image: "https://img.example/tee-m.jpg", Enabled: true}, StockWas: 5}
	must(t, s.UpdateVariant(ctx, "tee", e))
	c, err := s.EditChoices(ctx, "tee")
	must(t, err)
	if got := c.Variants[0]; got.SKU != "TEE-M" || got.Price != 1500 || got.Original != 2000 || got.Stock != 7 || got.Image != e.Image || !got.Enabled {
		t.Errorf("saved variant: %+v", got)
	}
	// Disabled, at the product's price: shoppers see the product's price
	// and none of its stock.
	e.Price, e.Original, e.Enabled, e.StockWas = 0, 0, false, 7
	must(t, s.UpdateVariant(ctx, "tee", e))
	if c, _ := s.EditChoices(ctx, "tee"); c.Variants[0].Price != 0 || c.Variants[0].Enabled {
		t.Errorf("own price after clearing it: %+v", c.Variants[0])
	}
	if c, _ := s.Choices(ctx, "tee"); c.Variants[0].Price != 1000 {
		t.Errorf("a variant without a price of its own sells at %d, want the product's 1000", c.Variants[0].Price)
	}
	if n, _ := s.Stock(ctx, "tee-m"); n != 0 {
		t.Errorf("a disabled variant's stock for sale: %d", n)
	}
	if p, _ := s.AdminProduct(ctx, "tee"); p.Stock != 0 {
		t.Errorf("the product's stock counts a disabled variant: %d", p.Stock)
	}

	// A stale stock refuses the whole save.
	stale := shop.VariantEdit{Variant: shop.Variant{ID: "tee-m", SKU: "RENAMED", Stock: 9, Enabled: true}, StockWas: 5}
	err = s.UpdateVariant(ctx, "tee", stale)
	wantCode(t, "stale stock", err, shop.ECONFLICT, "Stock changed while you were editing: it is now 7.")
	if shop.ErrorField(err) != "stock" {
		t.Errorf("field %q", shop.ErrorField(err))
	}
	if c, _ := s.EditChoices(ctx, "tee"); c.Variants[0].SKU != "TEE-M" || c.Variants[0].Stock != 7 {
		t.Errorf("a refused save changed the variant: %+v", c.Variants[0])
	}
	// Another product's variant, or one that is gone.
	wantCode(t, "variant of another product", s.UpdateVariant(ctx, "mug", e), shop.ENOTFOUND, shop.MsgVariantGone)
	e.ID = "tee-xl"
	wantCode(t, "unknown variant", s.UpdateVariant(ctx, "tee", e), shop.ENOTFOUND, shop.MsgVariantGone)
	wantCode(t, "negative price", s.UpdateVariant(ctx, "tee", shop.VariantEdit{Variant: shop.Variant{ID: "tee-l", Price: -1}}), shop.EINVALID, "")

	n, err := s.SetVariantPrices(ctx, "tee", []string{"tee-m", "tee-l", "mug"}, 1250)
	if err != nil || n != 2 {
		t.Errorf("set prices: %d, %v; want 2 (the mug is another product)", n, err)
	}
	if c, _ := s.Choices(ctx, "tee"); c.Variants[0].Price != 1250 || c.Variants[1].Price != 1250 {
		t.Errorf("prices after a bulk edit: %+v", c.Variants)
	}
	if p, _ := s.AdminProduct(ctx, "tee"); p.PriceMin != 1250 || p.PriceMax != 1250 {
		t.Errorf("product's price span %d–%d", p.PriceMin, p.PriceMax)
	}
}

// Options are added (three at most, names once), renamed and named by
// their names: a name that is gone is a conflict.
func editOptions(t *testing.T, s VariantEditorStore) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"tee": 4})
	v0, _ := s.CatalogVersion(ctx)
	for _, name := range []string{"Size", "Colour", "Material"} {
		must(t, s.AddOption(ctx, "tee", name))
	}
	if v, _ := s.CatalogVersion(ctx); v <= v0 {
		t.Error("adding options left the catalogue version")
	}
	for _, tc := range []struct {
		name, code, field string
		err               error
	}{
		{"a fourth option", shop.EINVALID, "name", s.AddOption(ctx, "tee", "Fit")},
		{"a name used already", shop.ECONFLICT, "name", s.AddOption(ctx, "tee", "colour")},
		{"rename to another's name", shop.ECONFLICT, "name", s.RenameOption(ctx, "tee", "Size", "MATERIAL")},
		{"rename an option that is gone", shop.ECONFLICT, "", s.RenameOption(ctx, "tee", "Shape", "Form")},
		{"a value of an option that is gone", shop.ECONFLICT, "", s.AddOptionValue(ctx, "tee", "Shape", shop.OptionValue{Value: "Round"})},
		{"an unknown product", shop.ENOTFOUND, "", s.AddOption(ctx, "nope", "Size")},
	} {
		wantCode(t, tc.name, tc.err, tc.code, "")
		if shop.ErrorField(tc.err) != tc.field {
			t.Errorf("%s: field %q, want %q", tc.name, shop.ErrorField(tc.err), tc.field)
		}
	}
	must(t, s.RenameOption(ctx, "tee", "Colour", "Color"))
	must(t, s.RenameOption(ctx, "tee", "Size", "size")) // its own name in another case
	must(t, s.AddOptionValue(ctx, "tee", "size", shop.OptionValue{Value: "S"}))
	must(t, s.AddOptionValue(ctx, "tee", "size", shop.OptionValue{Value: "M"}))
	must(t, s.AddOptionValue(ctx, "tee", "Color", shop.OptionValue{Value: "Black", Swatch: "#111111"}))
	err := s.AddOptionValue(ctx, "tee", "size", shop.OptionValue{Value: "m"})
	wantCode(t, "a value twice", err, shop.ECONFLICT, "size has the value M already.")
	if shop.ErrorField(err) != "value" {
		t.Errorf("a value twice: field %q", shop.ErrorField(err))
	}
	must(t, s.MoveOptionValue(ctx, "tee", "size", "M", -1))
	must(t, s.MoveOptionValue(ctx, "tee", "size", "M", -1)) // past the top: nothing
	c, err := s.EditChoices(ctx, "tee")
	must(t, err)
	var got []string
	for _, o := range c.Options {
		var vals []string
		for _, v := range o.Values {
			vals = append(vals, v.Value+v.Swatch)
		}
		got = append(got, o.Name+":"+strings.Join(vals, ","))
	}
	if want := "size:M,S Color:Black#111111 Material:"; strings.Join(got, " ") != want {
		t.Errorf("options %q, want %q", strings.Join(got, " "), want)
	}
	// Until variants are generated the product is sold as its default
	// variant, with its stock.
	if ids := variantIDs(t, s, "tee"); ids != "tee=4" {
		t.Errorf("variants before generating: %s", ids)
	}
	p, err := s.AdminProduct(ctx, "tee")
	if err != nil || p.OptionCount != 3 {
		t.Errorf("option count %d, %v", p.OptionCount, err)
	}
	// An import no longer changes or removes the product staff edited.
	must(t, s.ReplaceCatalog(ctx, "builtin", []string{"home"}, []shop.Product{{ID: "other", Title: "Other", Category: "home", Price: 100}}))
	if _, err := s.AdminProduct(ctx, "tee"); err != nil {
		t.Errorf("an import removed a product whose options staff edited: %v", err)
	}
}

// Generating a product's first variants replaces its default variant,
// whose stock (after a sale made meanwhile) moves to the first of them.
func generateMovesDefaultStock(t *testing.T, s VariantEditorStore) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"tee": 7})
	must(t, s.AddOption(ctx, "tee", "Size"))
	for _, v := range []string{"S", "M"} {
		must(t, s.AddOptionValue(ctx, "tee", "Size", shop.OptionValue{Value: v}))
	}
	must(t, s.AddToCart(ctx, "guest_1", "tee", 2))
	if _, err := claim(ctx, s, "guest_1", "k1"); err != nil {
		t.Fatal(err)
	}
	v0, _ := s.CatalogVersion(ctx)
	vs := []shop.Variant{{ID: "tee-s", Values: []string{"S"}, Enabled: true}, {ID: "tee-m", Values: []string{"M"}, Enabled: true}}
	ch, err := s.AddVariants(ctx, "tee", vs)
	must(t, err)
	if len(ch.Created) != 2 || ch.Created[0].ID != "tee-s" || ch.Created[0].Stock != 5 || ch.MovedTo != "tee-s" || ch.Moved != 5 ||
		len(ch.Deleted) != 1 || ch.Deleted[0].ID != "tee" {
		t.Errorf("change: %+v", ch)
	}
	if ids := variantIDs(t, s, "tee"); ids != "tee-s=5 tee-m=0" {
		t.Errorf("variants: %s, want the default's 5 on the first", ids)
	}
	if v, _ := s.CatalogVersion(ctx); v <= v0 {
		t.Error("generating left the catalogue version")
	}
	if _, err := s.Stock(ctx, "tee"); shop.ErrorCode(err) != shop.ENOTFOUND {
		t.Errorf("the default variant is still sold: %v", err)
	}
	if p, _ := s.AdminProduct(ctx, "tee"); p.Stock != 5 {
		t.Errorf("product stock %d, want 5", p.Stock)
	}
	// Again: every combination is there, nothing is created.
	if ch, err := s.AddVariants(ctx, "tee", vs); err != nil || len(ch.Created) != 0 || ch.Moved != 0 {
		t.Errorf("generating twice: %+v, %v", ch, err)
	}
	// A value that is gone, or a combination of the wrong length, is a
	// conflict: the page was out of date.
	wantCode(t, "unknown value", errOnly(s.AddVariants(ctx, "tee", []shop.Variant{{ID: "tee-xl", Values: []string{"XL"}}})), shop.ECONFLICT, shop.MsgOptionsChanged)
	wantCode(t, "two values for one option", errOnly(s.AddVariants(ctx, "tee", []shop.Variant{{ID: "tee-s-s", Values: []string{"S", "S"}}})), shop.ECONFLICT, shop.MsgOptionsChanged)
	// Values reordered: the variants follow.
	must(t, s.MoveOptionValue(ctx, "tee", "Size", "M", -1))
	if ids := variantIDs(t, s, "tee"); ids != "tee-m=0 tee-s=5" {
		t.Errorf("variants after moving M up: %s", ids)
	}
}

// Shoppers buy the product's default variant while staff generate its
// variants: every sale that went through is off the stock the first
// variant gets, and no unit is made or lost.
func generateRacesSales(t *testing.T, s VariantEditorStore) {
	ctx := context.Background()
	const start, buyers = 10, 4
	seedStock(t, s, map[string]int{"tee": start})
	must(t, s.AddOption(ctx, "tee", "Size"))
	must(t, s.AddOptionValue(ctx, "tee", "Size", shop.OptionValue{Value: "S"}))
	must(t, s.AddOptionValue(ctx, "tee", "Size", shop.OptionValue{Value: "M"}))
	for i := range buyers {
		must(t, s.AddToCart(ctx, fmt.Sprintf("guest_%d", i), "tee", 1))
	}
	var wg sync.WaitGroup
	begin := make(chan struct{})
	orders := make([]*shop.Order, buyers)
	for i := range buyers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-begin
			// A claim after the default variant went finds its line gone
			// with it (checkout refuses such an empty cart) or the stock
			// gone: either way nothing is sold.
			orders[i], _ = claim(ctx, s, fmt.Sprintf("guest_%d", i), fmt.Sprintf("k%d", i))
		}()
	}
	var ch shop.VariantChange
	var genErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		<-begin
		ch, genErr = s.AddVariants(ctx, "tee", []shop.Variant{{ID: "tee-s", Values: []string{"S"}, Enabled: true}, {ID: "tee-m", Values: []string{"M"}, Enabled: true}})
	}()
	close(begin)
	wg.Wait()
	must(t, genErr)
	went := 0
	for _, o := range orders {
		if o != nil && len(o.Lines) > 0 {
			went++
		}
	}
	if ch.Moved != start-went {
		t.Errorf("%d of %d sales went through; %d units moved to %s, want %d", went, buyers, ch.Moved, ch.MovedTo, start-went)
	}
	if ids := variantIDs(t, s, "tee"); ids != fmt.Sprintf("tee-s=%d tee-m=0", start-went) {
		t.Errorf("variants %s after %d sales", ids, went)
	}
}

func errOnly(_ shop.VariantChange, err error) error { return err }

// A second option's first value becomes the existing variants' value for
// it; the new combinations start empty.
func secondOption(t *testing.T, s VariantEditorStore) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"tee": 0})
	sizes(t, s, "tee", map[string]int{"S": 2, "M": 3}, "S", "M")
	must(t, s.AddOption(ctx, "tee", "Colour"))
	must(t, s.AddOptionValue(ctx, "tee", "Colour", shop.OptionValue{Value: "Black", Swatch: "#000000"}))
	must(t, s.AddOptionValue(ctx, "tee", "Colour", shop.OptionValue{Value: "White", Swatch: "#ffffff"}))
	c, err := s.EditChoices(ctx, "tee")
	must(t, err)
	for _, v := range c.Variants {
		if len(v.Values) != 2 || v.Values[1] != "Black" {
			t.Errorf("variant %s values %q, want its size and Black", v.ID, v.Values)
		}
	}
	ch, err := s.AddVariants(ctx, "tee", []shop.Variant{
		{ID: "tee-s-black", Values: []string{"S", "Black"}, Enabled: true},
		{ID: "tee-s-white", Values: []string{"S", "White"}, Enabled: true},
		{ID: "tee-m-black", Values: []string{"M", "Black"}, Enabled: true},
		{ID: "tee-m-white", Values: []string{"M", "White"}, Enabled: true},
	})
	must(t, err)
	if len(ch.Created) != 2 || ch.Moved != 0 || len(ch.Deleted) != 0 {
		t.Errorf("change: %+v", ch)
	}
	if ids := variantIDs(t, s, "tee"); ids != "tee-s=2 tee-s-white=0 tee-m=3 tee-m-white=0" {
		t.Errorf("variants: %s", ids)
	}
}

// Removing a value deletes its variants; an option with several values
// cannot be removed; removing the last option brings the default variant
// back with the stock of the variant that was left.
func removeValuesAndOptions(t *testing.T, s VariantEditorStore) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"tee": 0})
	sizes(t, s, "tee", map[string]int{"S": 2, "M": 3, "L": 4}, "S", "M", "L")
	must(t, s.AddOption(ctx, "tee", "Colour"))
	must(t, s.AddOptionValue(ctx, "tee", "Colour", shop.OptionValue{Value: "Black"}))
	err := errOnly(s.RemoveOption(ctx, "tee", "Size"))
	wantCode(t, "an option with three values", err, shop.EINVALID, fmt.Sprintf(shop.MsgOptionHasValues, "Size"))
	wantCode(t, "a value that is gone", errOnly(s.RemoveOptionValue(ctx, "tee", "Size", "XL")), shop.ECONFLICT, shop.MsgOptionsChanged)
	for _, v := range []string{"S", "L"} {
		ch, err := s.RemoveOptionValue(ctx, "tee", "Size", v)
		must(t, err)
		if len(ch.Deleted) != 1 || ch.Deleted[0].ID != "tee-"+strings.ToLower(v) {
			t.Errorf("removing %s deleted %+v", v, ch.Deleted)
		}
	}
	// Size has one value left: it goes, and Colour moves up.
	if _, err := s.RemoveOption(ctx, "tee", "Size"); err != nil {
		t.Fatal(err)
	}
	c, err := s.EditChoices(ctx, "tee")
	must(t, err)
	if len(c.Options) != 1 || c.Options[0].Name != "Colour" || len(c.Variants) != 1 || !slices.Equal(c.Variants[0].Values, []string{"Black"}) {
		t.Errorf("after removing Size: %+v", c)
	}
	// The last option goes: the product is its default variant again, with
	// the stock that was left.
	ch, err := s.RemoveOption(ctx, "tee", "Colour")
	must(t, err)
	if ch.MovedTo != "tee" || ch.Moved != 3 || len(ch.Deleted) != 1 || ch.Deleted[0].ID != "tee-m" {
		t.Errorf("change: %+v", ch)
	}
	if ids := variantIDs(t, s, "tee"); ids != "tee=3" {
		t.Errorf("variants: %s", ids)
	}
	if p, _ := s.AdminProduct(ctx, "tee"); p.OptionCount != 0 || p.Stock != 3 {
		t.Errorf("product after its options went: %d options, stock %d", p.OptionCount, p.Stock)
	}
	// A product whose variants all went gets a default variant without
	// stock.
	seedStock(t, s, map[string]int{"mug": 0})
	sizes(t, s, "mug", map[string]int{"S": 6}, "S")
	if _, err := s.RemoveOptionValue(ctx, "mug", "Size", "S"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RemoveOption(ctx, "mug", "Size"); err != nil {
		t.Fatal(err)
	}
	if ids := variantIDs(t, s, "mug"); ids != "mug=0" {
		t.Errorf("variants: %s", ids)
	}
}

// A variant id another product holds (as a product or a variant) is not
// taken: the new variant gets the first free suffix.
func takenVariantIDs(t *testing.T, s VariantEditorStore) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"tee": 0, "tee-s": 1, "hat": 0})
	must(t, s.SetChoices(ctx, "hat", shop.Choices{
		Options:  []shop.Option{{Name: "Size", Values: []shop.OptionValue{{Value: "M"}}}},
		Variants: []shop.Variant{{ID: "tee-m", Values: []string{"M"}, Enabled: true}},
	}))
	must(t, s.AddOption(ctx, "tee", "Size"))
	for _, v := range []string{"S", "M"} {
		must(t, s.AddOptionValue(ctx, "tee", "Size", shop.OptionValue{Value: v}))
	}
	ch, err := s.AddVariants(ctx, "tee", []shop.Variant{{ID: "tee-s", Values: []string{"S"}, Enabled: true}, {ID: "tee-m", Values: []string{"M"}, Enabled: true}})
	must(t, err)
	if len(ch.Created) != 2 || ch.Created[0].ID != "tee-s-2" || ch.Created[1].ID != "tee-m-2" {
		t.Errorf("created %+v", ch.Created)
	}
	if ids := variantIDs(t, s, "tee-s"); ids != "tee-s=1" {
		t.Errorf("the product tee-s: %s", ids)
	}
	// Nor does a new product take a variant's id for its default variant.
	err = s.SaveProduct(ctx, shop.ProductEdit{New: true, Product: shop.Product{ID: "tee-m-2", Title: "Taken", Category: "home", Price: 100}})
	wantCode(t, "a new product with a variant's id", err, shop.ECONFLICT, fmt.Sprintf(shop.MsgIDTakenByVariant, "tee-m-2"))
	if _, err := s.AdminProduct(ctx, "tee-m-2"); shop.ErrorCode(err) != shop.ENOTFOUND {
		t.Errorf("the refused product was stored: %v", err)
	}
}
