package storetest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/nocturne/storefront/internal/shop"
)

// PhotoStore is what the gallery checks need of a backend: the gallery,
// and the editor and variants that also name images.
type PhotoStore interface {
	Store
	shop.GalleryStore
	shop.ProductAdminStore
	shop.VariantStore
}

// testPhotos covers products' galleries: order, the cover kept equal to
// photo 1 by every writer, stored photos served by position, what a
// refused gallery leaves, and pruning that spares every image in use.
func testPhotos(t *testing.T, b Backend) {
	open := func(t *testing.T) PhotoStore {
		s, _, _ := b.open(t)
		ps, ok := s.(PhotoStore)
		if !ok {
			t.Skipf("%T does not implement the gallery store", s)
		}
		must(t, ps.ReplaceCatalog(context.Background(), "file", []string{"home"}, []shop.Product{
			{ID: "lamp", Title: "Desk lamp", Category: "home", Price: 1000, Image: "https://img.example/lamp-1.jpg", Stock: 2},
			{ID: "rug", Title: "Rug", Category: "home", Price: 2000, Stock: 1},
		}))
		return ps
	}
	t.Run("ImportedCoverIsPhotoOne", func(t *testing.T) { importedCover(t, open(t)) })
	t.Run("SetAndRead", func(t *testing.T) { setAndRead(t, open(t)) })
	t.Run("Refused", func(t *testing.T) { refusedGalleries(t, open(t)) })
	t.Run("CoverWriters", func(t *testing.T) { coverWriters(t, open(t)) })
	t.Run("ServedByPosition", func(t *testing.T) { servedByPosition(t, open(t)) })
	t.Run("Prune", func(t *testing.T) { prunePhotos(t, open(t)) })
	t.Run("RacingGalleries", func(t *testing.T) { racingGalleries(t, open(t)) })
}

// gallery is photos as "url|alt" in order, checking positions run 1, 2, 3.
func gallery(t *testing.T, s PhotoStore, id string) string {
	t.Helper()
	photos, err := s.Photos(context.Background(), id)
	must(t, err)
	out := make([]string, len(photos))
	for i, ph := range photos {
		if ph.Position != i+1 {
			t.Errorf("%s: photo %d has position %d", id, i+1, ph.Position)
		}
		out[i] = ph.URL + "|" + ph.Alt
	}
	return strings.Join(out, " ")
}

// cover is the product's image as cards read it.
func cover(t *testing.T, s PhotoStore, id string) string {
	t.Helper()
	p, err := s.AdminProduct(context.Background(), id)
	must(t, err)
	return p.Image
}

func photos(urls ...string) []shop.GalleryPhoto {
	out := make([]shop.GalleryPhoto, len(urls))
	for i, u := range urls {
		out[i] = shop.GalleryPhoto{URL: u, Alt: fmt.Sprintf("view %d", i+1)}
	}
	return out
}

// An imported product's image is its only photo, described by its title;
// a product without an image has none.
func importedCover(t *testing.T, s PhotoStore) {
	if got, want := gallery(t, s, "lamp"), "https://img.example/lamp-1.jpg|Desk lamp"; got != want {
		t.Errorf("imported product: got %q, want %q", got, want)
	}
	if got := gallery(t, s, "rug"); got != "" {
		t.Errorf("product without an image: got %q, want no photo", got)
	}
	if got := gallery(t, s, "nope"); got != "" {
		t.Errorf("unknown product: got %q, want no photo", got)
	}
}

// A gallery is kept in the order given, renumbered from 1, and its first
// photo becomes the product's image in the same call; the catalogue
// version moves so every instance reloads.
func setAndRead(t *testing.T, s PhotoStore) {
	ctx := context.Background()
	before, err := s.CatalogVersion(ctx)
	must(t, err)
	in := photos("https://img.example/b.jpg", "https://img.example/a.jpg", "https://img.example/c.jpg")
	in[0].Position, in[1].Position, in[2].Position = 7, 3, 3 // ignored: the order given counts
	must(t, s.SetPhotos(ctx, "rug", in))
	want := "https://img.example/b.jpg|view 1 https://img.example/a.jpg|view 2 https://img.example/c.jpg|view 3"
	if got := gallery(t, s, "rug"); got != want {
		t.Errorf("gallery: got %q, want %q", got, want)
	}
	if got := cover(t, s, "rug"); got != "https://img.example/b.jpg" {
		t.Errorf("cover: got %q, want photo 1", got)
	}
	if v, _ := s.CatalogVersion(ctx); v <= before {
		t.Errorf("catalogue version %d after a gallery change, was %d", v, before)
	}
	// The shop's in-memory catalogue reads the new cover.
	if p, err := s.Product(ctx, "rug"); err != nil || p.Image != "https://img.example/b.jpg" {
		t.Errorf("product after the gallery change: %+v, %v", p, err)
	}

	must(t, s.SetPhotos(ctx, "rug", nil))
	if got, img := gallery(t, s, "rug"), cover(t, s, "rug"); got != "" || img != "" {
		t.Errorf("emptied gallery: %q with cover %q, want none", got, img)
	}
}

// A gallery the store cannot keep is refused whole, and what was there
// stays.
func refusedGalleries(t *testing.T, s PhotoStore) {
	ctx := context.Background()
	must(t, s.SetPhotos(ctx, "lamp", photos("https://img.example/lamp-1.jpg", "https://img.example/lamp-2.jpg")))
	want := gallery(t, s, "lamp")
	tooMany := make([]string, shop.MaxGalleryPhotos+1)
	for i := range tooMany {
		tooMany[i] = fmt.Sprintf("https://img.example/%d.jpg", i)
	}
	longAlt := photos("https://img.example/x.jpg")
	longAlt[0].Alt = strings.Repeat("a", 513)
	for _, tc := range []struct {
		name   string
		id     string
		photos []shop.GalleryPhoto
		code   string
	}{
		{"unknown product", "nope", photos("https://img.example/x.jpg"), shop.ENOTFOUND},
		{"empty address", "lamp", photos("https://img.example/x.jpg", " "), shop.EINVALID},
		{"the same photo twice", "lamp", photos("https://img.example/x.jpg", "https://img.example/x.jpg"), shop.EINVALID},
		{"too many photos", "lamp", photos(tooMany...), shop.EINVALID},
		{"alt text too long", "lamp", longAlt, shop.EINVALID},
	} {
		err := s.SetPhotos(ctx, tc.id, tc.photos)
		wantCode(t, tc.name, err, tc.code, "")
		if got := gallery(t, s, "lamp"); got != want {
			t.Errorf("%s: gallery became %q, want %q kept", tc.name, got, want)
		}
	}
	if got := cover(t, s, "lamp"); got != "https://img.example/lamp-1.jpg" {
		t.Errorf("cover after refusals: %q", got)
	}
}

// Whoever sets a product's image sets photo 1 with it, and leaves the
// rest of the gallery: an import (whose photo is described by the title)
// and the product editor (a photo uploaded there).
func coverWriters(t *testing.T, s PhotoStore) {
	ctx := context.Background()
	must(t, s.SetPhotos(ctx, "lamp", photos("https://img.example/lamp-1.jpg", "https://img.example/lamp-2.jpg")))

	// An import that brings the same image and title changes nothing.
	imported := []shop.Product{
		{ID: "lamp", Title: "Desk lamp", Category: "home", Price: 1000, Image: "https://img.example/lamp-1.jpg"},
		{ID: "rug", Title: "Rug", Category: "home", Price: 2000},
	}
	must(t, s.ReplaceCatalog(ctx, "file", []string{"home"}, imported))
	if got, want := gallery(t, s, "lamp"), "https://img.example/lamp-1.jpg|view 1 https://img.example/lamp-2.jpg|view 2"; got != want {
		t.Errorf("unchanged import: got %q, want %q", got, want)
	}
	// A new image from the import replaces photo 1 only.
	imported[0].Image, imported[0].Title = "https://img.example/lamp-new.jpg", "Brass desk lamp"
	imported[1].Image = "https://img.example/rug.jpg"
	must(t, s.ReplaceCatalog(ctx, "file", []string{"home"}, imported))
	if got, want := gallery(t, s, "lamp"), "https://img.example/lamp-new.jpg|Brass desk lamp https://img.example/lamp-2.jpg|view 2"; got != want {
		t.Errorf("import with a new image: got %q, want %q", got, want)
	}
	if got, want := gallery(t, s, "rug"), "https://img.example/rug.jpg|Rug"; got != want {
		t.Errorf("import giving a product its first image: got %q, want %q", got, want)
	}
	// An import that takes the image away takes the gallery with it.
	imported[1].Image = ""
	must(t, s.ReplaceCatalog(ctx, "file", []string{"home"}, imported))
	if got := gallery(t, s, "rug"); got != "" {
		t.Errorf("import without an image: got %q, want no photo", got)
	}

	// The editor: a new photo becomes photo 1; saving without a new photo
	// keeps the gallery as it is.
	p, err := s.AdminProduct(ctx, "lamp")
	must(t, err)
	edit := shop.ProductEdit{Product: *p, StockWas: p.Stock}
	edit.Image = "upload:0123abcd"
	must(t, s.SaveProduct(ctx, edit))
	if got, want := gallery(t, s, "lamp"), "upload:0123abcd|Brass desk lamp https://img.example/lamp-2.jpg|view 2"; got != want {
		t.Errorf("editor with a new photo: got %q, want %q", got, want)
	}
	edit.Title = "Lamp"
	must(t, s.SaveProduct(ctx, edit))
	if got, want := gallery(t, s, "lamp"), "upload:0123abcd|Brass desk lamp https://img.example/lamp-2.jpg|view 2"; got != want {
		t.Errorf("editor without a new photo: got %q, want %q", got, want)
	}
	// A product made in the editor with a photo has it as photo 1.
	must(t, s.SaveProduct(ctx, shop.ProductEdit{New: true, Product: shop.Product{ID: "vase", Title: "Vase", Category: "home", Price: 900, Image: "upload:feed"}}))
	if got, want := gallery(t, s, "vase"), "upload:feed|Vase"; got != want {
		t.Errorf("new product with a photo: got %q, want %q", got, want)
	}
	// Once the import drops a product it owned, its gallery goes with it.
	must(t, s.ReplaceCatalog(ctx, "file", []string{"home"}, imported[:1]))
	if got := gallery(t, s, "rug"); got != "" {
		t.Errorf("removed product: got %q, want no photo", got)
	}
}

// A stored photo is served by its product and position, with its hash;
// one not stored yet, or of a width it lacks, is not found.
func servedByPosition(t *testing.T, s PhotoStore) {
	ctx := context.Background()
	must(t, s.SetPhotos(ctx, "lamp", photos("https://img.example/lamp-1.jpg", "https://img.example/lamp-2.jpg", "https://img.example/lamp-3.jpg")))
	rec := shop.ImageRecord{URL: "https://img.example/lamp-2.jpg", Hash: "h2", Width: 800, Height: 600}
	must(t, s.SaveImage(ctx, rec, []shop.ImageVariant{{Width: 160, Format: shop.PhotoWebP, Data: []byte("w160")}}))
	// A failed fetch leaves a record without a hash: nothing to serve.
	must(t, s.SaveImage(ctx, shop.ImageRecord{URL: "https://img.example/lamp-3.jpg", Error: "status 404"}, nil))

	got, err := s.Photos(ctx, "lamp")
	must(t, err)
	if len(got) != 3 || got[0].Photo.Ready() || got[1].Photo != (shop.Photo{Hash: "h2", Width: 800, Height: 600}) || got[2].Photo.Ready() {
		t.Errorf("photos: %+v", got)
	}
	if data, hash, err := s.GalleryImage(ctx, "lamp", 2, 160, shop.PhotoWebP); err != nil || string(data) != "w160" || hash != "h2" {
		t.Errorf("photo 2: %q %q %v", data, hash, err)
	}
	for _, tc := range []struct {
		id              string
		position, width int
		format          string
	}{
		{"lamp", 1, 160, shop.PhotoWebP}, // not fetched yet
		{"lamp", 3, 160, shop.PhotoWebP}, // its fetch failed
		{"lamp", 2, 320, shop.PhotoWebP}, // no such width
		{"lamp", 2, 160, shop.PhotoJPEG}, // no such format
		{"lamp", 4, 160, shop.PhotoWebP}, // no such photo
		{"rug", 2, 160, shop.PhotoWebP},  // another product's position
	} {
		_, _, err := s.GalleryImage(ctx, tc.id, tc.position, tc.width, tc.format)
		wantCode(t, fmt.Sprintf("%s photo %d at %d.%s", tc.id, tc.position, tc.width, tc.format), err, shop.ENOTFOUND, "")
	}
}

// Pruning keeps an image any gallery photo or variant still names, and
// deletes it once none does.
func prunePhotos(t *testing.T, s PhotoStore) {
	ctx := context.Background()
	const second, variantOnly = "https://img.example/lamp-2.jpg", "https://img.example/lamp-blue.jpg"
	must(t, s.SetPhotos(ctx, "lamp", photos("https://img.example/lamp-1.jpg", second)))
	must(t, s.SetChoices(ctx, "lamp", shop.Choices{
		Options:  []shop.Option{{Name: "Colour", Values: []shop.OptionValue{{Value: "Blue"}}}},
		Variants: []shop.Variant{{ID: "lamp-blue", Values: []string{"Blue"}, Stock: 1, Image: variantOnly, Enabled: true}},
	}))
	for _, u := range []string{second, variantOnly, "https://img.example/orphan.jpg"} {
		must(t, s.SaveImage(ctx, shop.ImageRecord{URL: u, Hash: "h"}, nil))
	}
	if n, err := s.PruneImages(ctx); err != nil || n != 1 {
		t.Errorf("prune with photos in use: %d deleted, %v; want the orphan only", n, err)
	}
	if recs, _ := s.ImageRecords(ctx, []string{second, variantOnly}); len(recs) != 2 {
		t.Errorf("images in use after pruning: %+v", recs)
	}
	must(t, s.SetPhotos(ctx, "lamp", photos("https://img.example/lamp-1.jpg")))
	must(t, s.SetChoices(ctx, "lamp", shop.Choices{Variants: []shop.Variant{{ID: "lamp", Stock: 1, Enabled: true}}}))
	if n, err := s.PruneImages(ctx); err != nil || n != 2 {
		t.Errorf("prune once nothing names them: %d deleted, %v; want 2", n, err)
	}
}

// Galleries set at once by many writers, with the editor saving a new
// photo meanwhile, end as one of them whole, with the cover equal to its
// first photo: the two are never written apart.
func racingGalleries(t *testing.T, s PhotoStore) {
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make([]error, 9)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.SetPhotos(ctx, "lamp", photos(fmt.Sprintf("https://img.example/set-%d-a.jpg", i), fmt.Sprintf("https://img.example/set-%d-b.jpg", i)))
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		p, err := s.AdminProduct(ctx, "lamp")
		if err != nil {
			errs[8] = err
			return
		}
		edit := shop.ProductEdit{Product: *p, StockWas: p.Stock}
		edit.Image = "upload:racer"
		errs[8] = s.SaveProduct(ctx, edit)
	}()
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("writer %d: %v", i, err)
		}
	}
	photos, err := s.Photos(ctx, "lamp")
	must(t, err)
	if len(photos) != 2 || photos[0].URL != cover(t, s, "lamp") {
		t.Fatalf("after the race: cover %q, gallery %+v", cover(t, s, "lamp"), photos)
	}
	var n int
	if _, err := fmt.Sscanf(photos[1].URL, "https://img.example/set-%d-b.jpg", &n); err != nil {
		t.Errorf("photo 2 %q is from no single writer", photos[1].URL)
	} else if a := fmt.Sprintf("https://img.example/set-%d-a.jpg", n); photos[0].URL != a && photos[0].URL != "upload:racer" {
		t.Errorf("photo 1 %q belongs neither to writer %d nor to the editor", photos[0].URL, n)
	}
}
