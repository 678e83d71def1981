package handlers_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/nocturne/storefront/handlers"
	"github.com/nocturne/storefront/internal/images"
	"github.com/nocturne/storefront/internal/images/imagestest"
)

// withPhotos imports three products priced below the built-in ones (so
// they lead /products): two with photos on a loopback server and one whose
// photo is not an image.
func withPhotos(t *testing.T, app *testApp) {
	t.Helper()
	srv := imagestest.NewServer(t, map[string]imagestest.File{
		"/lamp.jpg":  {ContentType: "image/jpeg", Body: imagestest.JPEG(t, 1000, 750)},
		"/shirt.png": {ContentType: "image/png", Body: imagestest.PNG(t, 500, 600)},
		"/bad.jpg":   {ContentType: "image/jpeg", Body: []byte("<!doctype html><p>Not found</p>")},
	})
	doc := fmt.Sprintf(`[
		{"id": "p1", "title": "Photo Lamp", "price": 1.10, "category": "home", "image": %q, "rating": {"rate": 4, "count": 2}},
		{"id": "p2", "title": "Photo Shirt", "price": 1.20, "category": "men's clothing", "image": %q, "rating": {"rate": 4, "count": 2}},
		{"id": "p3", "title": "Broken Shirt", "price": 1.30, "category": "men's clothing", "image": %q, "rating": {"rate": 4, "count": 2}}
	]`, srv.URL+"/lamp.jpg", srv.URL+"/shirt.png", srv.URL+"/bad.jpg")
	path := filepath.Join(t.TempDir(), "c.json")
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	// The app's own catalogue service: it reloads after the products and
	// again after their photos are stored.
	cat := app.catalog
	cat.Images = &images.Service{Store: app.db, Fetcher: images.NewFetcher(true, 2*time.Second), Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	parsed, err := cat.ImportFile(context.Background(), path)
	if err != nil || parsed.Images.Fetched != 2 || parsed.Images.Failed != 1 {
		t.Fatalf("import: %+v, %v", parsed.Images, err)
	}
}

// The listing, the product page and the photo route only read, so they
// share one app with photos: importing them (decoding, scaling and
// encoding every variant) costs far more than the reads.
func TestProductImages(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	withPhotos(t, app)
	t.Run("Listing", func(t *testing.T) { t.Parallel(); productImagesListing(t, app) })
	t.Run("ProductPage", func(t *testing.T) { t.Parallel(); productImagesProductPage(t, app) })
	t.Run("Route", func(t *testing.T) { t.Parallel(); productImagesRoute(t, app) })
}

func productImagesListing(t *testing.T, app *testApp) {
	_, doc := app.client(t).get("/products")
	cards := doc.Find(`[data-testid="product-card"]`)
	card := func(id string) *goquery.Selection { return cards.Filter(`[data-product-id="` + id + `"]`) }

	lamp := card("p1")
	source := lamp.Find(`picture source[type="image/webp"]`)
	srcset := source.AttrOr("srcset", "")
	if !strings.Contains(srcset, "/img/p1/320.webp?v=") || !strings.Contains(srcset, " 640w") || strings.Contains(srcset, "960") || source.AttrOr("sizes", "") == "" {
		t.Errorf("webp srcset %q", srcset)
	}
	img := lamp.Find("picture img")
	if !strings.HasPrefix(img.AttrOr("src", ""), "/img/p1/640.jpg?v=") || img.AttrOr("width", "") != "640" || img.AttrOr("height", "") != "480" {
		t.Errorf("lamp img: %s", outer(img))
	}
	if !strings.Contains(img.AttrOr("srcset", ""), "/img/p1/160.jpg?v=") || !img.HasClass("photo") {
		t.Errorf("lamp img jpeg srcset or class: %s", outer(img))
	}
	// The image is inside the title's link, so its alt stays empty: the
	// link is named by the title alone.
	if a := lamp.Find(".product-title a"); a.Find("img").Length() != 1 || strings.TrimSpace(a.Text()) != "Photo Lamp" {
		t.Errorf("card link: %s", outer(a))
	}
	if alt, ok := img.Attr("alt"); !ok || alt != "" {
		t.Errorf("card alt %q", alt)
	}
	if _, lazy := img.Attr("loading"); lazy {
		t.Error("the first card's image is lazy")
	}
	if _, lazy := cards.Last().Find("img").Attr("loading"); !lazy {
		t.Error("the last card's image is not lazy")
	}
	// A photo narrower than 960 px is never enlarged.
	if srcset := card("p2").Find("source").AttrOr("srcset", ""); !strings.Contains(srcset, "/img/p2/500.webp") || strings.Contains(srcset, "640") {
		t.Errorf("shirt srcset %q", srcset)
	}
	// The photo that failed shows its category's illustration.
	broken := card("p3").Find("img")
	if card("p3").Find("picture").Length() != 0 || !strings.Contains(broken.AttrOr("src", ""), "/static/img/categories/fashion.") {
		t.Errorf("broken photo: %s", outer(broken))
	}
	// No page hot-links the source.
	if html, _ := doc.Html(); strings.Contains(html, "127.0.0.1") {
		t.Error("the page links the source's host")
	}
}

func productImagesProductPage(t *testing.T, app *testApp) {
	_, doc := app.client(t).get("/product/p1")
	img := doc.Find(`[data-testid="product-detail"] .product-media img`)
	if img.AttrOr("alt", "") != "Photo Lamp" || img.AttrOr("fetchpriority", "") != "high" {
		t.Errorf("main image: %s", outer(img))
	}
	if _, lazy := img.Attr("loading"); lazy {
		t.Error("the main image is lazy")
	}
	if srcset := doc.Find(`[data-testid="product-detail"] source`).AttrOr("srcset", ""); !strings.Contains(srcset, "/img/p1/960.webp?v=") {
		t.Errorf("the product page offers no 960 px variant: %q", srcset)
	}
	if og := doc.Find(`meta[property="og:image"]`).AttrOr("content", ""); !strings.HasPrefix(og, "http://localhost:3000/img/p1/640.jpg?v=") {
		t.Errorf("og:image %q", og)
	}
}

func productImagesRoute(t *testing.T, app *testApp) {
	c := app.client(t)
	_, doc := c.get("/products")
	src := doc.Find(`[data-product-id="p1"] picture img`).AttrOr("src", "")
	hash := src[strings.Index(src, "?v=")+3:]
	get := func(path string, headers ...string) *http.Response {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		res, err := app.app.Test(req, -1)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}

	res := get("/img/p1/320.webp?v=" + hash)
	body, _ := io.ReadAll(res.Body)
	cfg, format, err := image.DecodeConfig(bytes.NewReader(body))
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/webp" || err != nil || format != "webp" || cfg.Width != 320 || cfg.Height != 240 {
		t.Fatalf("webp: %d %s %s %dx%d %v", res.StatusCode, res.Header.Get("Content-Type"), format, cfg.Width, cfg.Height, err)
	}
	if cc := res.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
		t.Errorf("cache-control %q", cc)
	}
	if res.Header.Get("Set-Cookie") != "" || res.Header.Get("Content-Encoding") != "" {
		t.Error("an image response sets a cookie or is compressed again")
	}
	res = get("/img/p1/640.jpg?v=" + hash)
	if body, _ := io.ReadAll(res.Body); res.Header.Get("Content-Type") != "image/jpeg" || !bytes.HasPrefix(body, []byte{0xff, 0xd8}) {
		t.Errorf("jpeg: %s", res.Header.Get("Content-Type"))
	}
	// An outdated or missing hash is served but not cached for good.
	if res := get("/img/p1/320.webp?v=old"); res.StatusCode != 200 || strings.Contains(res.Header.Get("Cache-Control"), "immutable") {
		t.Errorf("old hash: %d %q", res.StatusCode, res.Header.Get("Cache-Control"))
	}
	if res := get("/img/p1/320.webp?v="+hash, "If-None-Match", `"`+hash+`"`); res.StatusCode != http.StatusNotModified {
		t.Errorf("revalidation: %d", res.StatusCode)
	}
	// A product whose photo failed is sent to its illustration.
	if res := get("/img/p3/320.webp"); res.StatusCode != http.StatusFound || !strings.Contains(res.Header.Get("Location"), "/static/img/categories/fashion.") {
		t.Errorf("failed photo: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	// A width the photo lacks (the shirt is 500 px wide) goes to its nearest.
	if res := get("/img/p2/960.webp"); res.StatusCode != http.StatusFound || !strings.HasPrefix(res.Header.Get("Location"), "/img/p2/500.webp?v=") {
		t.Errorf("missing width: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	for _, path := range []string{"/img/nope/320.webp", "/img/p1/abc.webp", "/img/p1/320.gif", "/img/p1/-5.jpg"} {
		if res := get(path); res.StatusCode != http.StatusNotFound {
			t.Errorf("%s: status %d", path, res.StatusCode)
		}
	}
}

// Photos are served from our own origin, so the CSP allows no other image
// host, also when a catalogue service is configured.
func TestProductImages_CSP(t *testing.T) {
	t.Parallel()
	for _, env := range []map[string]string{{}, {"CATALOG_URL": "https://fakestore.example"}} {
		app := newTestApp(t, func(e map[string]string, _ *handlers.Deps) {
			for k, v := range env {
				e[k] = v
			}
		})
		res, _ := app.client(t).get("/products")
		if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "img-src 'self' data:;") {
			t.Errorf("%v: CSP %q", env, csp)
		}
	}
}

func outer(s *goquery.Selection) string {
	h, _ := goquery.OuterHtml(s)
	return h
}

// Cart lines show a small stored variant, named by the title (the image is
// not inside the title's link).
func TestProductImages_CartThumbnail(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	withPhotos(t, app)
	c := app.client(t)
	c.addToCart("/products", "p1", "1")
	c.addToCart("/products", "p3", "1")
	_, doc := c.get("/cart")
	lamp := doc.Find(`[data-testid="cart-line"][data-product-id="p1"] img`)
	if !strings.HasPrefix(lamp.AttrOr("src", ""), "/img/p1/160.jpg?v=") || lamp.AttrOr("alt", "") != "Photo Lamp" {
		t.Errorf("cart thumbnail: %s", outer(lamp))
	}
	if src := doc.Find(`[data-testid="cart-line"][data-product-id="p3"] img`).AttrOr("src", ""); !strings.Contains(src, "/static/img/categories/fashion.") {
		t.Errorf("failed photo in the cart: %q", src)
	}
}

// Photos stored by a later import reach a listing the page cache already
// holds (the catalogue version is part of its key).
func TestProductImages_LaterPhotosReachCachedPages(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	srv := imagestest.NewServer(t, map[string]imagestest.File{
		"/lamp.jpg": {Handler: func(w http.ResponseWriter, r *http.Request) { http.Error(w, "busy", http.StatusServiceUnavailable) }},
	})
	path := filepath.Join(t.TempDir(), "c.json")
	doc := fmt.Sprintf(`[{"id": "p1", "title": "Photo Lamp", "price": 1.10, "category": "home", "image": %q}]`, srv.URL+"/lamp.jpg")
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	app.catalog.Images = &images.Service{Store: app.db, Fetcher: images.NewFetcher(true, 2*time.Second), Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if parsed, err := app.catalog.ImportFile(context.Background(), path); err != nil || parsed.Images.Failed != 1 {
		t.Fatalf("first import: %+v %v", parsed.Images, err)
	}
	c := app.client(t)
	for range 2 { // the second answer comes from the page cache
		if _, doc := c.get("/products"); doc.Find(`[data-product-id="p1"] picture`).Length() != 0 {
			t.Fatal("a photo before any was stored")
		}
	}
	srv.Set("/lamp.jpg", imagestest.File{ContentType: "image/jpeg", Body: imagestest.JPEG(t, 400, 400)})
	if parsed, err := app.catalog.ImportFile(context.Background(), path); err != nil || parsed.Images.Fetched != 1 {
		t.Fatalf("second import: %+v %v", parsed.Images, err)
	}
	if _, doc := c.get("/products"); doc.Find(`[data-product-id="p1"] picture source`).Length() != 1 {
		t.Error("the stored photo does not reach the cached listing")
	}
}
