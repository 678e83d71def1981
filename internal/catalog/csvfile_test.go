package catalog_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/catalog"
	"github.com/nocturne/storefront/internal/images/imagestest"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/store/postgres"
	"github.com/nocturne/storefront/internal/store/postgres/pgtest"
	"github.com/nocturne/storefront/internal/store/sqlstore"
)

// fileStore is what these tests use of a backend: every store, on SQLite
// or PostgreSQL.
type fileStore interface {
	sqlstore.Stores
	shop.VariantStore
}

// backends are the stores the file tests run on: SQLite always,
// PostgreSQL when TEST_POSTGRES_URL names a server.
func backends(t *testing.T) map[string]func(t *testing.T) fileStore {
	out := map[string]func(t *testing.T) fileStore{
		"SQLite": func(t *testing.T) fileStore { return MustOpenDB(t) },
	}
	if os.Getenv(pgtest.EnvURL) != "" {
		out["PostgreSQL"] = func(t *testing.T) fileStore {
			db, err := postgres.Open(context.Background(), pgtest.NewDatabase(t), postgres.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			return db
		}
	}
	return out
}

// shopifyFile is testdata/shopify.csv with its images on base.
func shopifyFile(t *testing.T, base string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/shopify.csv")
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(b), "{{img}}", base)
}

// photoServer serves the file's photos on loopback.
func photoServer(t *testing.T) *imagestest.Server {
	files := map[string]imagestest.File{}
	for i, name := range []string{"shirt-black", "shirt-ivory", "shirt-detail", "shirt-sand", "mug"} {
		files["/"+name+".png"] = imagestest.File{ContentType: "image/png", Body: imagestest.PNG(t, 200+40*i, 300)}
	}
	return imagestest.NewServer(t, files)
}

func importCSV(t *testing.T, svc *catalog.Service, file string) catalog.CSVReport {
	t.Helper()
	rep, err := svc.ImportCSV(context.Background(), strings.NewReader(file))
	if err != nil {
		t.Fatalf("import: %v (report %+v)", err, rep)
	}
	return rep
}

func exportCSV(t *testing.T, svc *catalog.Service) string {
	t.Helper()
	var b bytes.Buffer
	if _, err := svc.ExportCSV(context.Background(), &b); err != nil {
		t.Fatalf("export: %v", err)
	}
	return b.String()
}

// A Shopify file becomes the shop's products: the handle is the id, Type
// the category, the body sanitised HTML with its text for search,
// Published and Status whether it is on sale, options and variants (ids
// from the handle and the values), the images a gallery with the variant
// images in it, and a negative quantity 0 with a note.
func TestImportCSV_Mapping(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpenDB(t)
	svc := catalog.NewService(db, quiet)
	file := shopifyFile(t, "https://img.example")
	rep := importCSV(t, svc, file)
	if got := fmt.Sprint(rep.Created, rep.Updated, rep.Skipped, rep.Conflicts, rep.StockKept); got != "[linen-shirt ceramic-mug wool-scarf] [] [] [] 0" {
		t.Errorf("report: %s", got)
	}
	if len(rep.Notes) != 1 || rep.Notes[0].Line != 10 || !strings.Contains(rep.Notes[0].Msg, "below 0") {
		t.Errorf("notes: %v", rep.Notes)
	}

	shirt, err := db.Product(ctx, "linen-shirt")
	if err != nil {
		t.Fatal(err)
	}
	wantHTML := "<p>Loose-fit shirt in <strong>washed linen</strong>.</p>\n" +
		`<ul><li>100% linen</li><li>See the <a href="https://nocturne.test/care" rel="nofollow noopener">care guide</a></li></ul>`
	if shirt.DescriptionHTML != wantHTML || shirt.Description != "Loose-fit shirt in washed linen.\n100% linen\nSee the care guide" ||
		shirt.Category != "shirts" || shirt.Price != 4500 || shirt.Original != 0 || shirt.PriceMax != 4850 ||
		shirt.Stock != 5+3+0+8+2+1+2+0+4 || shirt.Image != "https://img.example/shirt-black.png" {
		t.Errorf("shirt: %+v", shirt)
	}
	c, err := db.Choices(ctx, "linen-shirt")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, v := range c.Variants {
		ids = append(ids, v.ID)
	}
	if got := strings.Join(ids, " "); got != "linen-shirt-s-black linen-shirt-s-ivory linen-shirt-s-sand linen-shirt-m-black linen-shirt-m-ivory "+
		"linen-shirt-m-sand linen-shirt-l-black linen-shirt-l-ivory linen-shirt-l-sand" {
		t.Errorf("variant ids: %s", got)
	}
	if v, _ := c.Variant("linen-shirt-l-ivory"); v.Price != 4850 || v.Original != 5500 || v.Stock != 0 || v.SKU != "LS-L-IVO" {
		t.Errorf("L / Ivory: %+v", v)
	}
	if v, _ := c.Variant("linen-shirt-m-sand"); v.Image != "https://img.example/shirt-sand.png" {
		t.Errorf("M / Sand image: %q", v.Image)
	}
	if len(c.Options) != 2 || c.Options[1].Name != "Colour" || len(c.Options[1].Values) != 3 || c.Options[1].Values[2].Value != "Sand" {
		t.Errorf("options: %+v", c.Options)
	}
	photos, err := svc.Gallery(ctx, "linen-shirt")
	if err != nil {
		t.Fatal(err)
	}
	var gallery []string
	for _, ph := range photos {
		gallery = append(gallery, fmt.Sprintf("%d %s %s", ph.Position, strings.TrimPrefix(ph.URL, "https://img.example/"), ph.Alt))
	}
	if got, want := strings.Join(gallery, "; "), "1 shirt-black.png Linen shirt in black; 2 shirt-ivory.png Linen shirt in ivory; "+
		"3 shirt-detail.png Close-up of the collar, stitched; 4 shirt-sand.png Linen Shirt"; got != want {
		t.Errorf("gallery:\n got %s\nwant %s", got, want)
	}
	if len(rep.PhotoURLs) != 5 {
		t.Errorf("photos to fetch: %v", rep.PhotoURLs)
	}

	// Drafts, archived and unpublished products are hidden; a product
	// without a Type is in "other".
	for _, id := range []string{"ceramic-mug", "wool-scarf"} {
		if _, err := db.Product(ctx, id); shop.ErrorCode(err) != shop.ENOTFOUND {
			t.Errorf("%s on sale: %v", id, err)
		}
	}
	if mug, _ := db.AdminProduct(ctx, "ceramic-mug"); mug.Description != "Stoneware & glaze." || mug.Category != "kitchen" || mug.Stock != 40 {
		t.Errorf("mug: %+v", mug)
	}
	if scarf, _ := db.AdminProduct(ctx, "wool-scarf"); scarf.Category != catalog.DefaultCategory || scarf.DescriptionHTML != "" {
		t.Errorf("scarf: %+v", scarf)
	}
	// The catalogue in memory shows the new product at once.
	page, err := svc.List(ctx, shop.ProductFilter{Category: "shirts", Page: 1, PageSize: 12})
	if err != nil || len(page.Products) != 1 || page.Products[0].ID != "linen-shirt" {
		t.Errorf("listing after the import: %+v, %v", page, err)
	}
}

// A file the shop exported imports back without changing anything, and
// exports again byte for byte: products from a file, from the built-in
// catalogue (plain-text descriptions, illustrations no file can carry)
// and their stock.
func TestImportCSV_ExportImportExportIsIdentical(t *testing.T) {
	t.Parallel()
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db := open(t)
			svc := catalog.NewService(db, quiet)
			if err := svc.LoadBuiltin(ctx); err != nil {
				t.Fatal(err)
			}
			importCSV(t, svc, shopifyFile(t, "https://img.example"))
			builtin, _ := db.AdminProduct(ctx, "nb-001")

			first := exportCSV(t, svc)
			rep := importCSV(t, svc, first)
			if len(rep.Created) != 0 || len(rep.Skipped) != 0 || len(rep.Conflicts) != 0 || rep.StockKept != 0 || len(rep.Notes) != 0 {
				t.Errorf("re-import of the export: %v", rep.Lines())
			}
			if n, _ := db.CountProducts(ctx); len(rep.Updated) != n {
				t.Errorf("%d products updated of %d", len(rep.Updated), n)
			}
			second := exportCSV(t, svc)
			if first != second {
				t.Errorf("export -> import -> export changed the file:\n%s", firstDifference(first, second))
			}
			// A built-in product keeps its illustration, price and stock.
			after, _ := db.AdminProduct(ctx, "nb-001")
			if after.Image != builtin.Image || after.Price != builtin.Price || after.Stock != builtin.Stock || after.Title != builtin.Title {
				t.Errorf("built-in product after the round trip:\n%+v\nwas\n%+v", after, builtin)
			}
			if !strings.HasPrefix(first, "Handle,Title,Body (HTML),") || !strings.Contains(strings.SplitN(first, "\n", 2)[0], ",Status,Exported Inventory Qty") {
				t.Errorf("header: %s", strings.SplitN(first, "\n", 2)[0])
			}
		})
	}
}

// firstDifference shows the first line two files differ on.
func firstDifference(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n%s\n%s", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("%d lines, then %d", len(al), len(bl))
}

// setColumn sets a column of the row whose Variant SKU is sku.
func setColumn(t *testing.T, file, sku, column, value string) string {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(file)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := slices.Index(rows[0], column)
	sk := slices.Index(rows[0], "Variant SKU")
	for _, r := range rows {
		if r[sk] == sku {
			r[col] = value
			var b strings.Builder
			w := csv.NewWriter(&b)
			must(t, w.WriteAll(rows))
			return b.String()
		}
	}
	t.Fatalf("no row with SKU %s", sku)
	return ""
}

// lineOf is the line the row whose Variant SKU is sku starts on.
func lineOf(t *testing.T, file, sku string) int {
	t.Helper()
	r := csv.NewReader(strings.NewReader(file))
	head, err := r.Read()
	must(t, err)
	sk := slices.Index(head, "Variant SKU")
	for {
		rec, err := r.Read()
		if err != nil {
			t.Fatalf("no row with SKU %s: %v", sku, err)
		}
		if rec[sk] == sku {
			line, _ := r.FieldPos(0)
			return line
		}
	}
}

// Stock edited in an exported file is applied as a change from what was
// exported, while the stock still is that: a variant sold (or edited in
// the back office) since the export is reported as a conflict with its
// line, and its stock stays as the sale left it; the other edits apply.
func TestImportCSV_StockConflict(t *testing.T) {
	t.Parallel()
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db := open(t)
			svc := catalog.NewService(db, quiet)
			importCSV(t, svc, shopifyFile(t, "https://img.example"))
			file := exportCSV(t, svc)

			// After the export: a shopper buys 2 of M / Black (8 -> 6) and
			// staff count the mugs again in the editor (40 -> 38).
			must(t, db.AddToCart(ctx, "guest_1", "linen-shirt-m-black", 2))
			if _, _, err := db.ClaimCart(ctx, "guest_1", "k1", func(c shop.Cart, _ int) (*shop.Order, error) {
				o := &shop.Order{ID: "NOC-1", UserID: "guest_1", Email: "g@example.com", ShipTo: shop.Address{Name: "G"},
					PaymentMethod: "Visa ending 4242", ChargeKey: "chg_1", LeaseUntil: time.Now().Add(time.Minute)}
				for _, l := range c.Lines {
					o.Lines = append(o.Lines, shop.OrderLine{ProductID: l.Product.ID, VariantID: l.VariantID, Name: l.Product.Title, Price: l.Product.Price, Quantity: l.Quantity})
					o.Subtotal += l.Total()
				}
				o.Total = o.Subtotal
				return o, nil
			}); err != nil {
				t.Fatal(err)
			}
			mug, _ := db.AdminProduct(ctx, "ceramic-mug")
			edit := shop.ProductEdit{Product: *mug, StockWas: 40}
			edit.Stock = 38
			must(t, db.SaveProduct(ctx, edit))

			// Meanwhile the file is edited: more of M / Black, of S / Sand
			// and of mugs.
			file = setColumn(t, file, "LS-M-BLK", "Variant Inventory Qty", "20")
			file = setColumn(t, file, "LS-S-SND", "Variant Inventory Qty", "7")
			file = setColumn(t, file, "MUG-01", "Variant Inventory Qty", "100")
			rep := importCSV(t, svc, file)
			want := []string{ // in file order: the export's is by id
				fmt.Sprintf("line %d (ceramic-mug): stock moved from 40 to 38 since the export; left at 38", lineOf(t, file, "MUG-01")),
				fmt.Sprintf("line %d (linen-shirt-m-black): stock moved from 8 to 6 since the export; left at 6", lineOf(t, file, "LS-M-BLK")),
			}
			var got []string
			for _, c := range rep.Conflicts {
				got = append(got, c.String())
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("conflicts:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			for id, want := range map[string]int{"linen-shirt-m-black": 6, "linen-shirt-s-sand": 7, "ceramic-mug": 38, "linen-shirt-s-black": 5} {
				if n := variantStock(t, db, id); n != want {
					t.Errorf("stock of %s: %d, want %d", id, n, want)
				}
			}
			if !strings.Contains(strings.Join(rep.Lines(), "\n"), "stock conflict line") {
				t.Errorf("the printed report does not show the conflicts:\n%s", strings.Join(rep.Lines(), "\n"))
			}
		})
	}
}

// variantStock is a variant's stock, of a hidden product too (the
// shoppers' Stock counts a hidden product's as none).
func variantStock(t *testing.T, db fileStore, variantID string) int {
	t.Helper()
	entries, err := db.CatalogEntries(context.Background())
	must(t, err)
	for _, e := range entries {
		for _, v := range e.Variants {
			if v.ID == variantID {
				return v.Stock
			}
		}
	}
	t.Fatalf("no variant %s", variantID)
	return 0
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A file from another tool, without the Exported Inventory Qty column,
// cannot say what changed since it was made: the stock of variants the
// shop has is left alone, and the report says so; new variants take its
// quantity.
func TestImportCSV_ForeignFileLeavesStock(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	svc := catalog.NewService(db, quiet)
	file := shopifyFile(t, "https://img.example")
	importCSV(t, svc, file)
	file = setColumn(t, file, "LS-M-BLK", "Variant Inventory Qty", "99")
	file = strings.Replace(file, "wool-scarf,Wool Scarf", "wool-hat,Wool Hat", 1)
	rep := importCSV(t, svc, file)
	if rep.StockKept != 10 || len(rep.Conflicts) != 0 || !strings.Contains(rep.StockKeptText(), "10 variants") ||
		!strings.Contains(rep.StockKeptText(), "no Exported Inventory Qty") {
		t.Errorf("report: %v", rep.Lines())
	}
	if n := variantStock(t, db, "linen-shirt-m-black"); n != 8 {
		t.Errorf("stock of M / Black: %d, want 8 kept", n)
	}
	if n := variantStock(t, db, "wool-hat-charcoal"); n != 12 {
		t.Errorf("stock of a new product: %d, want the file's 12", n)
	}
}

// Rows a file gets wrong are reported with their line and skipped, and
// never half imported: a bad row alone goes; a product the shop cannot
// take goes with all its rows; the rest of the file is imported.
func TestImportCSV_MalformedRows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpenDB(t)
	svc := catalog.NewService(db, quiet)
	const head = "Handle,Title,Body (HTML),Type,Published,Option1 Name,Option1 Value,Option2 Name,Option2 Value,Variant SKU,Variant Price,Variant Inventory Qty,Status\n"
	file := head +
		"lamp,Lamp,,Home,TRUE,Size,S,,,L-S,20,3,active\n" + // 2
		"lamp,,,,,,M,,,L-M,,3,\n" + // 3: no price
		"lamp,,,,,,L,,,L-L,22,3,\n" + // 4
		"Big_Lamp,Big Lamp,,Home,TRUE,,,,,BL,30,1,active\n" + // 5: not a slug
		"feat,Featured,,Featured,TRUE,,,,,F,30,1,active\n" + // 6: reserved category
		"tee,Tee,,Shirts,TRUE,Size,M/L,,,T-1,10,1,active\n" + // 7
		"tee,,,,,,M L,,,T-2,10,1,\n" + // 8: the same variant id as line 7
		"vase,Vase,,Home,TRUE,,,,,V,abc,1,active\n" + // 9: the first row refused
		"vase,,,,,,,,,,,,\n" + // 10: adds nothing
		"bowl,Bowl,,Home,TRUE,,,,,B,5,1,active,extra\n" + // 11: a column too many
		"cup,Cup,,Home,TRUE,,,,,C,4,2,active\n" // 12
	rep := importCSV(t, svc, file)
	var got []string
	for _, p := range rep.Skipped {
		got = append(got, fmt.Sprintf("%d %s", p.Line, p.Handle))
	}
	if want := "3 lamp,5 Big_Lamp,6 feat,7 tee,8 tee,9 vase,10 vase,11 bowl"; strings.Join(got, ",") != want {
		t.Errorf("skipped lines: %s, want %s\n%s", strings.Join(got, ","), want, strings.Join(rep.Lines(), "\n"))
	}
	for _, want := range []string{
		`line 3 (lamp): Variant Price is empty`,
		`line 5 (Big_Lamp): Handle "Big_Lamp" is not one the shop takes`,
		`line 6 (feat): Type "Featured" cannot be a category`,
		`line 7 (tee): The variants on lines 7 and 8 would both have the id tee-m-l`,
		`line 8 (tee): Skipped with product "tee" (line 7)`,
	} {
		if !strings.Contains(strings.Join(rep.Lines(), "\n"), want) {
			t.Errorf("the report has no %q:\n%s", want, strings.Join(rep.Lines(), "\n"))
		}
	}
	if strings.Join(rep.Created, ",") != "lamp,cup" {
		t.Errorf("created: %v", rep.Created)
	}
	if c, _ := db.Choices(ctx, "lamp"); len(c.Variants) != 2 {
		t.Errorf("lamp's variants: %+v", c.Variants)
	}
	for _, id := range []string{"Big_Lamp", "big_lamp", "feat", "tee", "vase", "bowl"} {
		if _, err := db.AdminProduct(ctx, id); shop.ErrorCode(err) != shop.ENOTFOUND {
			t.Errorf("%s was imported: %v", id, err)
		}
	}
	// A file that is not a product CSV at all is an error, and imports
	// nothing.
	if _, err := svc.ImportCSV(ctx, strings.NewReader("name,price\nlamp,5\n")); err == nil || !strings.Contains(err.Error(), "Shopify product CSV") {
		t.Errorf("not a product CSV: %v", err)
	}
}

// The gallery's photos go through the image pipeline: fetched once from
// their host, stored, and served by position; a failed one stays out of
// what the page can show.
func TestImportCSV_FetchesGalleryPhotos(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpenDB(t)
	imgs := photoServer(t)
	svc := withImages(catalog.NewService(db, quiet), db)
	file := shopifyFile(t, imgs.URL)
	file = strings.ReplaceAll(file, "/shirt-detail.png", "/missing.png")
	rep := importCSV(t, svc, file)
	got, err := svc.FetchPhotos(ctx, rep.PhotoURLs)
	if err != nil || got.Fetched != 4 || got.Failed != 1 {
		t.Fatalf("photos: %+v, %v", got, err)
	}
	photos, err := svc.Gallery(ctx, "linen-shirt")
	if err != nil || len(photos) != 4 {
		t.Fatalf("gallery: %+v, %v", photos, err)
	}
	for i, ready := range []bool{true, true, false, true} {
		if photos[i].Photo.Ready() != ready {
			t.Errorf("photo %d ready %v: %+v", i+1, !ready, photos[i])
		}
	}
	if photos[3].Photo.Width != 320 {
		t.Errorf("photo 4 is %+v, want the 320 px sand photo", photos[3].Photo)
	}
	if data, hash, err := db.GalleryImage(ctx, "linen-shirt", 4, 160, shop.PhotoWebP); err != nil || len(data) == 0 || hash != photos[3].Photo.Hash {
		t.Errorf("photo 4 served: %d bytes, %q, %v", len(data), hash, err)
	}
	// The cover is photo 1 for cards too.
	if p, _ := svc.StoredProduct(ctx, "linen-shirt"); p.Photo != photos[0].Photo {
		t.Errorf("cover %+v, photo 1 %+v", p.Photo, photos[0].Photo)
	}
	// A second import fetches nothing again.
	if again, err := svc.FetchPhotos(ctx, importCSV(t, svc, file).PhotoURLs); err != nil || again.Fetched != 0 || again.Unchanged != 4 {
		t.Errorf("second fetch: %+v, %v", again, err)
	}
	if hits, _ := imgs.Hits("/shirt-black.png"); hits != 2 {
		t.Errorf("the cover was asked for %d times, want 2 (the second conditional)", hits)
	}
}

// Photos fetched in the background for the back office are stored once
// WaitPhotos returns.
func TestFetchPhotosLater(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpenDB(t)
	imgs := photoServer(t)
	svc := withImages(catalog.NewService(db, quiet), db)
	rep := importCSV(t, svc, shopifyFile(t, imgs.URL))
	svc.FetchPhotosLater(rep.PhotoURLs, time.Minute)
	svc.WaitPhotos()
	if p, _ := db.AdminProduct(ctx, "ceramic-mug"); !p.Photo.Ready() {
		t.Errorf("mug's photo not stored: %+v", p.Photo)
	}
}

// StopPhotos (shutdown) stops a background fetch under way, a photo host
// that never answers included, and waits for it: the store can close.
func TestStopPhotos(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpenDB(t)
	asked := make(chan struct{}, 1)
	hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case asked <- struct{}{}:
		default:
		}
		<-r.Context().Done() // never answers
	}))
	defer hung.Close()
	svc := withImages(catalog.NewService(db, quiet), db)
	rep := importCSV(t, svc, shopifyFile(t, hung.URL))
	svc.FetchPhotosLater(rep.PhotoURLs, time.Hour)
	<-asked
	svc.StopPhotos()
	if p, _ := db.AdminProduct(ctx, "ceramic-mug"); p.Photo.Ready() {
		t.Errorf("a photo was stored: %+v", p.Photo)
	}
	// Once stopped, a later import's fetch ends at once.
	svc.FetchPhotosLater(rep.PhotoURLs, time.Hour)
	svc.WaitPhotos()
}

// The text of a sanitised description: tags out, entities decoded, a line
// per block; and plain text as HTML for an export, which reads back as the
// same text.
func TestDescriptionText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ html, text string }{
		{"", ""},
		{"<p>One &amp; two</p><p>Three</p>", "One & two\nThree"},
		{"<ul><li>a</li><li><strong>b</strong> c</li></ul>", "a\nb c"},
		{"Line<br/>break  and   spaces", "Line\nbreak and spaces"},
		{`<a href="https://x.test/?a=1&amp;b=2" rel="nofollow noopener">link</a> &lt;b&gt;`, "link <b>"},
		{"<h2>Care</h2>\n<blockquote>Wash cold</blockquote>", "Care\nWash cold"},
		{"broken <p", "broken <p"},
	} {
		if got := catalog.TextOfHTML(tc.html); got != tc.text {
			t.Errorf("TextOfHTML(%q) = %q, want %q", tc.html, got, tc.text)
		}
	}
	for _, tc := range []struct{ text, html, back string }{
		{"", "", ""},
		{"Warm & <soft>", "<p>Warm &amp; &lt;soft&gt;</p>", "Warm & <soft>"},
		{"One\ntwo\r\n\r\nThree", "<p>One<br>two</p>\n<p>Three</p>", "One\ntwo\nThree"},
	} {
		got := catalog.HTMLOfText(tc.text)
		if got != tc.html {
			t.Errorf("HTMLOfText(%q) = %q, want %q", tc.text, got, tc.html)
		}
		if back := catalog.TextOfHTML(got); back != tc.back {
			t.Errorf("TextOfHTML(HTMLOfText(%q)) = %q, want %q", tc.text, back, tc.back)
		}
	}
}
