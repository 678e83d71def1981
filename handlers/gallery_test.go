package handlers_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/nocturne/storefront/handlers"
	"github.com/nocturne/storefront/internal/images"
	"github.com/nocturne/storefront/internal/images/imagestest"
	"github.com/nocturne/storefront/static"
)

// lampFile is a product with two options of three values each, its photos
// on base, and a bad row (line 5, no price).
func lampFile(base string) string {
	var b strings.Builder
	b.WriteString("Handle,Title,Body (HTML),Type,Tags,Published,Option1 Name,Option1 Value,Option2 Name,Option2 Value,Variant SKU,Variant Price,Variant Inventory Qty,Image Src,Image Position,Image Alt Text,Variant Image,Status\n")
	b.WriteString(`moon-lamp,Moon Lamp,"<p>A <em>warm</em> lamp.</p><script>x()</script>",Home,night,TRUE,Size,Small,Finish,Brass,ML-S-B,40,3,` +
		base + "/lamp-brass.png,1,Moon lamp in brass,,active\n") // line 2
	rows := 0
	for _, size := range []string{"Small", "Medium", "Large"} {
		for _, finish := range []string{"Brass", "Steel", "Walnut"} {
			rows++
			if rows == 1 {
				continue
			}
			price := "40"
			if rows == 4 {
				price = "" // line 5
			}
			image := ""
			if finish == "Steel" {
				image = base + "/lamp-steel.png"
			}
			fmt.Fprintf(&b, "moon-lamp,,,,,,,%s,,%s,ML-%d,%s,2,,,,%s,\n", size, finish, rows, price, image)
		}
	}
	return b.String()
}

func lampPhotos(t *testing.T) *imagestest.Server {
	return imagestest.NewServer(t, map[string]imagestest.File{
		"/lamp-brass.png": {ContentType: "image/png", Body: imagestest.PNG(t, 600, 400)},
		"/lamp-steel.png": {ContentType: "image/png", Body: imagestest.PNG(t, 300, 300)},
	})
}

// withGalleryPhotos lets the app's catalogue fetch photos from loopback.
func withGalleryPhotos(b *backOffice) {
	b.app.catalog.Images = &images.Service{Store: b.app.db, Fetcher: images.NewFetcher(true, images.DefaultTimeout),
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
}

// The gallery's photos are served from the shop by position, each with
// its alt text; a width a photo lacks is sent to its nearest width, and a
// photo that is not stored is not found.
func TestGalleryImages_Served(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	withGalleryPhotos(b)
	photos := lampPhotos(t)
	ctx := context.Background()
	// Photo 2 is gone from its host; photo 3 is the steel variant's.
	file := lampFile(photos.URL) + "moon-lamp,,,,,,,,,,,,," + photos.URL + "/gone.png,2,Gone,,\n"
	rep, err := b.app.catalog.ImportCSV(ctx, strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.app.catalog.FetchPhotos(ctx, rep.PhotoURLs); err != nil {
		t.Fatal(err)
	}
	gallery, err := b.app.catalog.Gallery(ctx, "moon-lamp")
	if err != nil || len(gallery) != 3 {
		t.Fatalf("gallery: %+v, %v", gallery, err)
	}
	p, err := b.app.catalog.StoredProduct(ctx, "moon-lamp")
	if err != nil {
		t.Fatal(err)
	}
	set, _ := static.Load(testAssets)
	pics := handlers.GalleryPictures(set, *p, gallery)
	if len(pics) != 2 || pics[0].Alt != "Moon lamp in brass" || pics[1].Alt != "Moon Lamp" {
		t.Fatalf("pictures: %+v", pics)
	}
	shopper := b.app.client(t)
	for _, pic := range pics {
		for _, u := range append(strings.Split(pic.WebPSrcset, ", "), pic.Src) {
			u = strings.Fields(u)[0]
			res := shopper.do(httptest.NewRequest(http.MethodGet, u, nil))
			res.Body.Close()
			if res.StatusCode != http.StatusOK || res.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" ||
				!strings.HasPrefix(res.Header.Get("Content-Type"), "image/") {
				t.Errorf("GET %s: %d %s %s", u, res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Cache-Control"))
			}
		}
	}
	if !strings.HasPrefix(pics[1].Src, "/img/moon-lamp/3/") {
		t.Errorf("photo 3 at %q", pics[1].Src)
	}

	// The product page shows the gallery without JavaScript: thumbnails
	// link to the page showing each photo, the steel variant shows its
	// own, and the imported description is the sanitised HTML.
	for _, tt := range []struct{ query, main, current string }{
		{"", "/img/moon-lamp/600.jpg", "1"}, // the cover, at its own address
		{"?photo=2", "/img/moon-lamp/3/", "2"},
		{"?variant=moon-lamp-small-steel", "/img/moon-lamp/3/", "2"},
		{"?photo=9", "/img/moon-lamp/600.jpg", "1"},
	} {
		_, doc := shopper.get("/product/moon-lamp" + tt.query)
		if src := doc.Find(`#photo img`).AttrOr("src", ""); !strings.HasPrefix(src, tt.main) {
			t.Errorf("%q: photo shown %q, want %s…", tt.query, src, tt.main)
		}
		thumbs := doc.Find(`[data-testid="gallery-thumb"]`)
		if thumbs.Length() != 2 {
			t.Errorf("%q: %d thumbnails, want 2 (photo 2 is not stored)", tt.query, thumbs.Length())
		}
		if got := strings.TrimPrefix(text(doc, `[data-testid="gallery-thumb"][aria-current="true"] .sr-only`), "Photo "); got != tt.current {
			t.Errorf("%q: current thumbnail %q, want %s", tt.query, got, tt.current)
		}
		// A thumbnail offers its smallest width only, whatever the screen's
		// density: the first screen's image bytes stay within budget.
		thumbs.Find("source, img").Each(func(_ int, el *goquery.Selection) {
			if set := el.AttrOr("srcset", ""); strings.Contains(set, ",") || !strings.HasSuffix(set, " 160w") {
				t.Errorf("%q: thumbnail srcset %q, want one 160 px candidate", tt.query, set)
			}
		})
		if href := thumbs.Eq(1).AttrOr("href", ""); !strings.HasPrefix(href, "/product/moon-lamp?photo=2") {
			t.Errorf("%q: thumbnail link %q", tt.query, href)
		}
		if full := doc.Find(`[data-testid="full-size"]`).AttrOr("href", ""); !strings.HasPrefix(full, tt.main) {
			t.Errorf("%q: full size %q", tt.query, full)
		}
	}
	_, doc := shopper.get("/product/moon-lamp")
	if html, _ := doc.Find(`[data-testid="description"]`).Html(); strings.TrimSpace(html) != "<p>A <em>warm</em> lamp.</p>" {
		t.Errorf("description %q", html)
	}
	for path, want := range map[string]int{
		"/img/moon-lamp/3/960.jpg": http.StatusFound,    // 300 px wide: its own width instead
		"/img/moon-lamp/2/160.jpg": http.StatusNotFound, // its fetch failed
		"/img/moon-lamp/9/160.jpg": http.StatusNotFound,
		"/img/moon-lamp/0/160.jpg": http.StatusNotFound,
		"/img/moon-lamp/x/160.jpg": http.StatusNotFound,
		"/img/moon-lamp/3/160.gif": http.StatusNotFound,
		"/img/nothing/1/160.jpg":   http.StatusNotFound,
	} {
		res := shopper.do(httptest.NewRequest(http.MethodGet, path, nil))
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("GET %s: %d, want %d", path, res.StatusCode, want)
		}
		if want == http.StatusFound && !strings.HasPrefix(res.Header.Get("Location"), "/img/moon-lamp/3/300.jpg?v=") {
			t.Errorf("GET %s: to %q", path, res.Header.Get("Location"))
		}
	}
}
