package storetest

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/nocturne/storefront/internal/shop"
)

// FileStore is what the catalogue-file checks need of a backend: whole
// products in and out, and the back office's stores to sell and edit.
type FileStore interface {
	BackOfficeStore
	shop.GalleryStore
	shop.CatalogFileStore
}

// testCatalogFiles covers importing and exporting products whole: what an
// entry writes and reads back, stock moving only by checked changes from
// the exported quantity, variants matched by their values, ids that are
// taken, photos no file can carry, and the editor's plain text.
func testCatalogFiles(t *testing.T, b Backend) {
	open := func(t *testing.T) FileStore {
		s, _, _ := b.open(t)
		fs, ok := s.(FileStore)
		if !ok {
			t.Skipf("%T does not implement the catalogue-file store", s)
		}
		return fs
	}
	t.Run("CreateAndReadBack", func(t *testing.T) { entryReadBack(t, open(t)) })
	t.Run("StockRule", func(t *testing.T) { entryStockRule(t, open(t)) })
	t.Run("StockRuleRacesSales", func(t *testing.T) { entryStockRace(t, open(t)) })
	t.Run("VariantsMatchedByValues", func(t *testing.T) { entryVariantsByValues(t, open(t)) })
	t.Run("VariantIDTaken", func(t *testing.T) { entryIDTaken(t, open(t)) })
	t.Run("PhotosNoFileCarries", func(t *testing.T) { entryLocalPhotos(t, open(t)) })
	t.Run("EditorAndImports", func(t *testing.T) { entryEditorAndImports(t, open(t)) })
}

func exported(n int) *int { return &n }

// shirtEntry is a product with two options of two values each, a variant
// with a price and compare-at price of its own, tags, HTML and photos.
func shirtEntry() shop.CatalogEntry {
	v := func(id, size, colour string, price, original shop.Cents, stock int, image string) shop.EntryVariant {
		return shop.EntryVariant{Variant: shop.Variant{ID: id, SKU: "SKU-" + id, Values: []string{size, colour},
			Price: price, Original: original, Stock: stock, Image: image, Enabled: true}}
	}
	return shop.CatalogEntry{
		Product: shop.Product{ID: "shirt", Title: "Linen Shirt", Description: "Loose fit.", DescriptionHTML: "<p>Loose <em>fit</em>.</p>",
			Category: "shirts", Price: 4500, Original: 5500},
		Tags: []string{"linen", "summer"},
		Options: []shop.Option{
			{Name: "Size", Values: []shop.OptionValue{{Value: "M"}, {Value: "L"}}},
			{Name: "Colour", Values: []shop.OptionValue{{Value: "Black"}, {Value: "Ivory"}}},
		},
		Variants: []shop.EntryVariant{
			v("shirt-m-black", "M", "Black", 4500, 5500, 5, "https://img.example/black.jpg"),
			v("shirt-m-ivory", "M", "Ivory", 4500, 5500, 3, "https://img.example/ivory.jpg"),
			v("shirt-l-black", "L", "Black", 4850, 0, 0, ""),
			v("shirt-l-ivory", "L", "Ivory", 4850, 6000, 1, ""),
		},
		Photos: []shop.GalleryPhoto{
			{URL: "https://img.example/black.jpg", Alt: "In black"},
			{URL: "https://img.example/ivory.jpg", Alt: "In ivory"},
		},
	}
}

// entry returns the stored entry of id.
func entry(t *testing.T, s FileStore, id string) shop.CatalogEntry {
	t.Helper()
	all, err := s.CatalogEntries(context.Background())
	must(t, err)
	for _, e := range all {
		if e.Product.ID == id {
			return e
		}
	}
	t.Fatalf("no entry %s", id)
	return shop.CatalogEntry{}
}

// stocks is each variant's stock, in order.
func stocks(t *testing.T, s FileStore, id string) string {
	t.Helper()
	var out []string
	for _, v := range entry(t, s, id).Variants {
		out = append(out, fmt.Sprintf("%s=%d", v.ID, v.Stock))
	}
	return strings.Join(out, " ")
}

// An entry is written whole and read back as it was given: fields, tags,
// options, variants with their prices (a variant's own compare-at price
// of 0 stays 0 beside the product's), stock and images, and the gallery
// whose first photo is the cover.
func entryReadBack(t *testing.T, s FileStore) {
	ctx := context.Background()
	in := shirtEntry()
	res, err := s.ImportEntry(ctx, "csv", in)
	if err != nil || !res.Created || len(res.Conflicts) > 0 || res.StockKept != 0 {
		t.Fatalf("import: %+v, %v", res, err)
	}
	got := entry(t, s, "shirt")
	p := got.Product
	if p.Title != "Linen Shirt" || p.Description != "Loose fit." || p.DescriptionHTML != "<p>Loose <em>fit</em>.</p>" ||
		p.Category != "shirts" || p.Price != 4500 || p.Original != 5500 || p.Hidden || p.Image != "https://img.example/black.jpg" ||
		p.OptionCount != 2 || p.Stock != 9 || p.PriceMin != 4500 || p.PriceMax != 4850 {
		t.Errorf("product: %+v", p)
	}
	if !reflect.DeepEqual(got.Tags, in.Tags) || !reflect.DeepEqual(got.Options, in.Options) {
		t.Errorf("tags %v and options %+v, want %v and %+v", got.Tags, got.Options, in.Tags, in.Options)
	}
	for i := range in.Variants {
		in.Variants[i].ProductID = "shirt"
	}
	if !reflect.DeepEqual(got.Variants, in.Variants) {
		t.Errorf("variants:\n got %+v\nwant %+v", got.Variants, in.Variants)
	}
	if len(got.Photos) != 2 || got.Photos[0].URL != in.Photos[0].URL || got.Photos[1].Alt != "In ivory" || got.Photos[1].Position != 2 {
		t.Errorf("photos: %+v", got.Photos)
	}
	// The shop sees it: on sale, with its variants and its category.
	if sold, err := s.Product(ctx, "shirt"); err != nil || sold.DescriptionHTML != p.DescriptionHTML {
		t.Errorf("product on sale: %+v, %v", sold, err)
	}
	if c, err := s.Choices(ctx, "shirt"); err != nil || len(c.Variants) != 4 || c.Variants[3].Original != 6000 || c.Variants[2].Original != 0 {
		t.Errorf("choices: %+v, %v", c, err)
	}
	if cats, err := s.Categories(ctx); err != nil || !strings.Contains(strings.Join(cats, ","), "shirts") {
		t.Errorf("categories: %v, %v", cats, err)
	}

	// Hidden: off the shop, still exported.
	in.Product.Hidden = true
	in.Variants[0].Exported = exported(5)
	in.Variants[0].Stock = 5
	if res, err := s.ImportEntry(ctx, "csv", in); err != nil || res.Created {
		t.Fatalf("second import: %+v, %v", res, err)
	}
	if _, err := s.Product(ctx, "shirt"); shop.ErrorCode(err) != shop.ENOTFOUND {
		t.Errorf("hidden product on sale: %v", err)
	}
	if got := entry(t, s, "shirt"); !got.Product.Hidden {
		t.Errorf("hidden product exported as %+v", got.Product)
	}

	// Entries the store refuses before writing anything.
	for _, tc := range []struct {
		name   string
		change func(e *shop.CatalogEntry)
	}{
		{"no variants", func(e *shop.CatalogEntry) { e.Variants = nil }},
		{"four options", func(e *shop.CatalogEntry) { e.Options = append(e.Options, e.Options[0], e.Options[1]) }},
		{"values for other options", func(e *shop.CatalogEntry) { e.Variants[0].Values = []string{"M"} }},
		{"variant without an id", func(e *shop.CatalogEntry) { e.Variants[0].ID = "" }},
	} {
		e := shirtEntry()
		e.Product.ID = "refused"
		tc.change(&e)
		_, err := s.ImportEntry(ctx, "csv", e)
		wantCode(t, tc.name, err, shop.EINVALID, "")
	}
	if _, err := s.AdminProduct(ctx, "refused"); shop.ErrorCode(err) != shop.ENOTFOUND {
		t.Errorf("a refused entry was written: %v", err)
	}
}

// Stock of a variant the shop has changes only as a change from the
// exported quantity, made while the stock still is what was exported: a
// file that does not say leaves it, an unchanged quantity leaves it, and
// a sale since the export makes the change a conflict that leaves the
// stock as the sale left it.
func entryStockRule(t *testing.T, s FileStore) {
	ctx := context.Background()
	e := shirtEntry()
	_, err := s.ImportEntry(ctx, "csv", e) // black M: 5, ivory M: 3, black L: 0, ivory L: 1
	must(t, err)

	for _, tc := range []struct {
		name      string
		qty       [4]int
		exported  [4]*int
		want      string
		kept      int
		conflicts string
	}{
		{"the file does not say", [4]int{50, 50, 50, 50}, [4]*int{}, "shirt-m-black=5 shirt-m-ivory=3 shirt-l-black=0 shirt-l-ivory=1", 4, ""},
		{"quantities as exported", [4]int{5, 3, 0, 1}, [4]*int{exported(5), exported(3), exported(0), exported(1)},
			"shirt-m-black=5 shirt-m-ivory=3 shirt-l-black=0 shirt-l-ivory=1", 0, ""},
		{"quantities changed in the file", [4]int{8, 0, 4, 1}, [4]*int{exported(5), exported(3), exported(0), nil},
			"shirt-m-black=8 shirt-m-ivory=0 shirt-l-black=4 shirt-l-ivory=1", 1, ""},
		{"an old file", [4]int{20, 20, 20, 20}, [4]*int{exported(5), exported(0), exported(4), exported(1)},
			"shirt-m-black=8 shirt-m-ivory=20 shirt-l-black=20 shirt-l-ivory=20", 0, "shirt-m-black:5->8"},
	} {
		in := shirtEntry()
		for i := range in.Variants {
			in.Variants[i].Stock, in.Variants[i].Exported = tc.qty[i], tc.exported[i]
		}
		res, err := s.ImportEntry(ctx, "csv", in)
		must(t, err)
		var conflicts []string
		for _, c := range res.Conflicts {
			if c.VariantID != in.Variants[c.Index].ID {
				t.Errorf("%s: conflict %+v names variant %d", tc.name, c, c.Index)
			}
			conflicts = append(conflicts, fmt.Sprintf("%s:%d->%d", c.VariantID, c.Exported, c.Now))
		}
		if got := stocks(t, s, "shirt"); got != tc.want || res.StockKept != tc.kept || strings.Join(conflicts, " ") != tc.conflicts {
			t.Errorf("%s: stock %s, %d kept, conflicts %q; want %s, %d kept, conflicts %q",
				tc.name, got, res.StockKept, conflicts, tc.want, tc.kept, tc.conflicts)
		}
	}

	// A sale after the export: the file's change is refused and the sale
	// stands.
	must(t, s.AddToCart(ctx, "guest_stock", "shirt-m-black", 2))
	if _, err := claim(ctx, s, "guest_stock", "stock-1"); err != nil {
		t.Fatal(err)
	}
	in := shirtEntry()
	for i, q := range []int{8, 20, 20, 20} {
		in.Variants[i].Exported, in.Variants[i].Stock = exported(q), q
	}
	in.Variants[0].Stock = 12
	res, err := s.ImportEntry(ctx, "csv", in)
	must(t, err)
	if len(res.Conflicts) != 1 || res.Conflicts[0] != (shop.StockConflict{Index: 0, VariantID: "shirt-m-black", Exported: 8, Now: 6}) {
		t.Errorf("conflicts after a sale: %+v", res.Conflicts)
	}
	if got, want := stocks(t, s, "shirt"), "shirt-m-black=6 shirt-m-ivory=20 shirt-l-black=20 shirt-l-ivory=20"; got != want {
		t.Errorf("stock after a refused change: %s, want %s", got, want)
	}
	// The other fields of the entry were written all the same.
	if p, _ := s.AdminProduct(ctx, "shirt"); p.Title != "Linen Shirt" {
		t.Errorf("product after a conflict: %+v", p)
	}
}

// An import whose exported quantity matches, racing sales of the same
// variant, ends either applied before the sales or refused after one:
// the stock is never the file's quantity with a sale lost.
func entryStockRace(t *testing.T, s FileStore) {
	ctx := context.Background()
	e := shirtEntry()
	e.Variants[0].Stock = 10
	_, err := s.ImportEntry(ctx, "csv", e)
	must(t, err)
	start := stocksOf(t, s, "shirt-m-black")
	if start != 10 {
		t.Fatalf("start stock %d", start)
	}
	const sales = 6
	for i := range sales {
		must(t, s.AddToCart(ctx, fmt.Sprintf("guest_race_%d", i), "shirt-m-black", 1))
	}
	in := shirtEntry()
	in.Variants[0].Exported, in.Variants[0].Stock = exported(10), 30
	var wg sync.WaitGroup
	var res shop.EntryResult
	var importErr error
	errs := make([]error, sales)
	begin := make(chan struct{})
	for i := range sales {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-begin
			_, errs[i] = claim(ctx, s, fmt.Sprintf("guest_race_%d", i), fmt.Sprintf("race-%d", i))
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		<-begin
		res, importErr = s.ImportEntry(ctx, "csv", in)
	}()
	close(begin)
	wg.Wait()
	must(t, importErr)
	for i, err := range errs {
		if err != nil {
			t.Errorf("sale %d: %v", i, err)
		}
	}
	got := stocksOf(t, s, "shirt-m-black")
	switch len(res.Conflicts) {
	case 0: // the change went first: 30, then every sale
		if got != 30-sales {
			t.Errorf("import applied: stock %d, want %d", got, 30-sales)
		}
	case 1: // a sale went first: the change was refused
		if c := res.Conflicts[0]; got != 10-sales || c.Exported != 10 || c.Now >= 10 {
			t.Errorf("import refused (%+v): stock %d, want %d", c, got, 10-sales)
		}
	default:
		t.Errorf("conflicts: %+v", res.Conflicts)
	}
}

// stocksOf is one variant's stock now.
func stocksOf(t *testing.T, s FileStore, variantID string) int {
	t.Helper()
	n, err := s.Stock(context.Background(), variantID)
	must(t, err)
	return n
}

// A variant is the same variant when its option values are: it keeps the
// id it has (and so its cart lines) whatever id the entry would give it.
// A variant the entry no longer lists goes; a new one starts with the
// entry's stock even when the file says what it exported.
func entryVariantsByValues(t *testing.T, s FileStore) {
	ctx := context.Background()
	must(t, s.ReplaceCatalog(ctx, "builtin", []string{"home"}, []shop.Product{{ID: "shirt", Title: "Shirt", Category: "home", Price: 4500, Stock: 3}}))
	must(t, s.SetChoices(ctx, "shirt", shop.Choices{
		Options: []shop.Option{{Name: "Size", Values: []shop.OptionValue{{Value: "M"}, {Value: "S"}}},
			{Name: "Colour", Values: []shop.OptionValue{{Value: "Black"}}}},
		Variants: []shop.Variant{
			{ID: "made-in-editor", Values: []string{"M", "Black"}, Stock: 4, Enabled: true},
			{ID: "shirt-s", Values: []string{"S", "Black"}, Stock: 2, Enabled: false},
		},
	}))
	must(t, s.AddToCart(ctx, "guest_keep", "made-in-editor", 1))
	in := shirtEntry()
	in.Variants[0].Exported, in.Variants[0].Stock = exported(4), 7 // M / Black
	in.Variants[1].Exported = exported(99)                         // new, despite the column
	res, err := s.ImportEntry(ctx, "csv", in)
	if err != nil || res.Created || len(res.Conflicts) > 0 {
		t.Fatalf("import: %+v, %v", res, err)
	}
	if got, want := stocks(t, s, "shirt"), "made-in-editor=7 shirt-m-ivory=3 shirt-l-black=0 shirt-l-ivory=1"; got != want {
		t.Errorf("variants: %s, want %s", got, want)
	}
	if c, err := s.Cart(ctx, "guest_keep"); err != nil || len(c.Lines) != 1 || c.Lines[0].VariantID != "made-in-editor" {
		t.Errorf("cart line of the kept variant: %+v, %v", c, err)
	}
}

// A new variant's id that another product's variant (or a variant of this
// product kept under other values) holds is refused, and the entry writes
// nothing.
func entryIDTaken(t *testing.T, s FileStore) {
	ctx := context.Background()
	must(t, s.ReplaceCatalog(ctx, "builtin", []string{"home"}, []shop.Product{{ID: "shirt-m-black", Title: "Other", Category: "home", Price: 100, Stock: 1}}))
	_, err := s.ImportEntry(ctx, "csv", shirtEntry())
	wantCode(t, "id of another product", err, shop.ECONFLICT, "")
	if !strings.Contains(shop.ErrorMessage(err), "shirt-m-black") {
		t.Errorf("message %q does not name the id", shop.ErrorMessage(err))
	}
	if _, err := s.AdminProduct(ctx, "shirt"); shop.ErrorCode(err) != shop.ENOTFOUND {
		t.Errorf("the refused entry was written: %v", err)
	}

	e := shirtEntry()
	e.Product.ID = "tee"
	for i := range e.Variants {
		e.Variants[i].ID = strings.Replace(e.Variants[i].ID, "shirt", "tee", 1)
	}
	_, err = s.ImportEntry(ctx, "csv", e)
	must(t, err)
	// M / Black is renamed to M / Navy, whose new id is the one L / Black,
	// kept, holds.
	e.Options[1].Values = append(e.Options[1].Values, shop.OptionValue{Value: "Navy"})
	e.Variants[0].Values, e.Variants[0].ID = []string{"M", "Navy"}, "tee-l-black"
	e.Product.Title = "Renamed"
	_, err = s.ImportEntry(ctx, "csv", e)
	wantCode(t, "id of a kept variant", err, shop.ECONFLICT, "")
	if p, _ := s.AdminProduct(ctx, "tee"); p.Title != "Linen Shirt" {
		t.Errorf("a refused entry changed the product: %+v", p)
	}
}

// Photos no file can carry (uploaded in the editor, built in) stay in
// front of the file's, and a variant's such photo stays when the file
// gives none.
func entryLocalPhotos(t *testing.T, s FileStore) {
	ctx := context.Background()
	_, err := s.ImportEntry(ctx, "csv", shirtEntry())
	must(t, err)
	p, err := s.AdminProduct(ctx, "shirt")
	must(t, err)
	edit := shop.ProductEdit{Product: *p, StockWas: p.Stock}
	edit.Image = "upload:cafe"
	must(t, s.SaveProduct(ctx, edit))
	c, err := s.Choices(ctx, "shirt")
	must(t, err)
	for i := range c.Variants {
		if c.Variants[i].ID == "shirt-l-black" {
			c.Variants[i].Image = "upload:cafe"
		}
	}
	must(t, s.SetChoices(ctx, "shirt", c))

	in := shirtEntry()
	in.Photos = append(in.Photos[1:], shop.GalleryPhoto{URL: "https://img.example/detail.jpg", Alt: "Detail"})
	_, err = s.ImportEntry(ctx, "csv", in)
	must(t, err)
	var urls []string
	for _, ph := range entry(t, s, "shirt").Photos {
		urls = append(urls, ph.URL)
	}
	if got, want := strings.Join(urls, " "), "upload:cafe https://img.example/ivory.jpg https://img.example/detail.jpg"; got != want {
		t.Errorf("gallery: %s, want %s", got, want)
	}
	for _, v := range entry(t, s, "shirt").Variants {
		if v.ID == "shirt-l-black" && v.Image != "upload:cafe" {
			t.Errorf("variant's uploaded photo: %q", v.Image)
		}
	}
}

// The editor shows an imported description as text: saving it unchanged
// keeps the HTML, changing it makes the description plain text. An import
// from a JSON source leaves a product written from a file alone.
func entryEditorAndImports(t *testing.T, s FileStore) {
	ctx := context.Background()
	_, err := s.ImportEntry(ctx, "csv", shirtEntry())
	must(t, err)
	must(t, s.ReplaceCatalog(ctx, "file", []string{"home"}, []shop.Product{{ID: "shirt", Title: "From JSON", Category: "home", Price: 100, Stock: 50}}))
	p, err := s.AdminProduct(ctx, "shirt")
	must(t, err)
	if p.Title != "Linen Shirt" || p.DescriptionHTML == "" {
		t.Errorf("a JSON import changed a product from a file: %+v", p)
	}
	edit := shop.ProductEdit{Product: *p, StockWas: p.Stock}
	edit.Title = "Linen Shirt, washed"
	must(t, s.SaveProduct(ctx, edit))
	if p, _ := s.AdminProduct(ctx, "shirt"); p.DescriptionHTML != "<p>Loose <em>fit</em>.</p>" {
		t.Errorf("saved with the same text: HTML %q", p.DescriptionHTML)
	}
	edit.Description = "Loose fit. Typed in the editor."
	must(t, s.SaveProduct(ctx, edit))
	if p, _ := s.AdminProduct(ctx, "shirt"); p.DescriptionHTML != "" || p.Description != edit.Description {
		t.Errorf("saved with new text: %q / HTML %q", p.Description, p.DescriptionHTML)
	}
}
