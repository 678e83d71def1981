package catalog_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nocturne/storefront/internal/catalog"
	"github.com/nocturne/storefront/internal/images"
	"github.com/nocturne/storefront/internal/images/imagestest"
	"github.com/nocturne/storefront/internal/store/sqlite"
)

func withImages(s *catalog.Service, db *sqlite.DB) *catalog.Service {
	// The production timeout: these tests are not about it, and a short one
	// fails good fetches whenever the machine is busy.
	s.Images = &images.Service{Store: db, Fetcher: images.NewFetcher(true, images.DefaultTimeout), Log: quiet}
	return s
}

func catalogueJSON(imageURLs ...string) string {
	items := make([]string, len(imageURLs))
	for i, u := range imageURLs {
		items[i] = fmt.Sprintf(`{"id": %d, "title": "Item %d", "price": 10, "category": "home", "image": %q, "rating": {"rate": 4, "count": 1}}`, i+1, i+1, u)
	}
	return "[" + strings.Join(items, ",") + "]"
}

// An import fetches each product's photo, counts the ones that failed, and
// a later import fetches only those again.
func TestImportFile_FetchesImages(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpenDB(t)
	imgs := imagestest.NewServer(t, map[string]imagestest.File{
		"/a.jpg":   {ContentType: "image/jpeg", Body: imagestest.JPEG(t, 800, 600)},
		"/b.png":   {ContentType: "image/png", Body: imagestest.PNG(t, 300, 400)},
		"/bad.jpg": {ContentType: "image/jpeg", Body: []byte("<html>nope</html>")},
	})
	path := filepath.Join(t.TempDir(), "c.json")
	os.WriteFile(path, []byte(catalogueJSON(imgs.URL+"/a.jpg", imgs.URL+"/b.png", imgs.URL+"/bad.jpg")), 0o600)
	svc := withImages(catalog.NewService(db, quiet), db)

	parsed, err := svc.ImportFile(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if len(parsed.Products) != 3 || parsed.Images.Fetched != 2 || parsed.Images.Failed != 1 {
		t.Fatalf("got %d products, images %+v", len(parsed.Products), parsed.Images)
	}
	for id, want := range map[string][2]int{"1": {800, 600}, "2": {300, 400}, "3": {0, 0}} {
		p, err := db.Product(ctx, id)
		if err != nil || p.Photo.Width != want[0] || p.Photo.Height != want[1] || p.Photo.Ready() != (want[0] > 0) {
			t.Errorf("product %s photo: %+v %v", id, p.Photo, err)
		}
	}

	imgs.Set("/bad.jpg", imagestest.File{ContentType: "image/jpeg", Body: imagestest.JPEG(t, 200, 200)})
	parsed, err = svc.ImportFile(ctx, path)
	if err != nil || parsed.Images.Fetched != 1 || parsed.Images.Unchanged != 2 || parsed.Images.Failed != 0 {
		t.Fatalf("second import: %+v %v", parsed.Images, err)
	}
	if _, bodies := imgs.Hits("/a.jpg"); bodies != 1 {
		t.Errorf("unchanged photo downloaded %d times", bodies)
	}
	if p, _ := db.Product(ctx, "3"); !p.Photo.Ready() {
		t.Errorf("retried photo not stored: %+v", p.Photo)
	}
}

// The CATALOG_URL sync fetches photos the same way and retries failures on
// its next run.
func TestSync_FetchesImagesAndRetries(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpenDB(t)
	var srv *imagestest.Server
	products := func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(catalogueJSON(srv.URL+"/img/1.jpg", srv.URL+"/img/2.jpg")))
	}
	srv = imagestest.NewServer(t, map[string]imagestest.File{
		"/products/categories": {Handler: func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`["home"]`)) }},
		"/products":            {Handler: products},
		"/img/1.jpg":           {ContentType: "image/jpeg", Body: imagestest.JPEG(t, 640, 640)},
		"/img/2.jpg":           {Handler: func(w http.ResponseWriter, r *http.Request) { http.Error(w, "busy", http.StatusServiceUnavailable) }},
	})
	y := newSyncer(t, srv.URL, db)
	withImages(y.Service, db)
	if err := y.SyncOnce(ctx); err != nil {
		t.Fatal(err)
	}
	if p, _ := db.Product(ctx, "fs-2"); p.Photo.Ready() {
		t.Fatal("a failed photo is marked ready")
	}
	srv.Set("/img/2.jpg", imagestest.File{ContentType: "image/jpeg", Body: imagestest.JPEG(t, 500, 500)})
	if err := y.SyncOnce(ctx); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"fs-1", "fs-2"} {
		if p, _ := db.Product(ctx, id); !p.Photo.Ready() {
			t.Errorf("%s: photo not stored after the second sync", id)
		}
	}
}

// Another instance that reloaded while the photos were still being fetched
// learns of them: storing photos bumps the catalogue version it watches.
func TestSyncImages_BumpsCatalogueVersion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpenDB(t)
	imgs := imagestest.NewServer(t, map[string]imagestest.File{
		"/a.jpg": {ContentType: "image/jpeg", Body: imagestest.JPEG(t, 400, 300)},
	})
	path := filepath.Join(t.TempDir(), "c.json")
	os.WriteFile(path, []byte(catalogueJSON(imgs.URL+"/a.jpg")), 0o600)
	importer := catalog.NewService(db, quiet) // no Images: products only
	parsed, err := importer.ImportFile(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	server := catalog.NewService(db, quiet)
	if err := server.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	before := server.Version()

	if err := withImages(importer, db).SyncImages(ctx, &parsed); err != nil || parsed.Images.Fetched != 1 {
		t.Fatalf("photos: %+v %v", parsed.Images, err)
	}
	after, err := db.CatalogVersion(ctx)
	if err != nil || after <= before {
		t.Fatalf("catalogue version %d after the photos, %d before (%v)", after, before, err)
	}
	if err := server.Reload(ctx); err != nil { // what Watch does on a new version
		t.Fatal(err)
	}
	if p, err := server.Product(ctx, "1"); err != nil || !p.Photo.Ready() {
		t.Errorf("the other instance's product: %+v %v", p, err)
	}
}
