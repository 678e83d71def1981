package images_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/jpeg"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/images"
	"github.com/nocturne/storefront/internal/images/imagestest"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/store/sqlite"
	"github.com/nocturne/storefront/internal/store/sqlite/sqlitetest"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func openDB(t *testing.T) *sqlite.DB {
	t.Helper()
	db, err := sqlite.Open(context.Background(), sqlitetest.Path(t, t.TempDir(), "i.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// newService fetches with the production timeout: only the test about a
// source that never answers needs a short one, and a short one would fail
// the other fixtures whenever the machine is busy.
func newService(db *sqlite.DB) *images.Service {
	return &images.Service{Store: db, Fetcher: images.NewFetcher(true, images.DefaultTimeout), Log: quiet}
}

// silent is a source that never answers: it holds each request until the
// client gives up on it.
func silent(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }

// sources is one of each kind of image a catalogue may point at.
func sources(t *testing.T) map[string]imagestest.File {
	jpg := imagestest.JPEG(t, 1200, 800)
	return map[string]imagestest.File{
		"/big.jpg":       {ContentType: "image/jpeg", Body: jpg},
		"/square.png":    {ContentType: "image/png", Body: imagestest.PNG(t, 700, 700)},
		"/tiny.png":      {ContentType: "image/png", Body: imagestest.PNG(t, 100, 50)},
		"/truncated.jpg": {ContentType: "image/jpeg", Body: jpg[:len(jpg)/2]},
		"/page.jpg":      {ContentType: "image/jpeg", Body: []byte("<!doctype html><html><body><h1>Not found</h1></body></html>")},
		"/bomb.png":      {ContentType: "image/png", Body: imagestest.PNGHeader(10000, 5000)},
		"/loop.jpg": {Handler: func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/loop.jpg?again="+r.URL.Query().Get("again")+"x", http.StatusFound)
		}},
		"/gone.jpg": {Handler: func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) }},
	}
}

func TestSync(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openDB(t)
	srv := imagestest.NewServer(t, sources(t))
	svc := newService(db)
	var last [3]int
	svc.Progress = func(done, total, failed int) { last = [3]int{done, total, failed} }

	url := func(p string) string { return srv.URL + p }
	paths := []string{"/big.jpg", "/square.png", "/tiny.png", "/truncated.jpg", "/page.jpg", "/bomb.png", "/loop.jpg", "/gone.jpg"}
	var urls []string
	for _, p := range paths {
		urls = append(urls, url(p))
	}
	urls = append(urls, url("/big.jpg"), "img/products/nb-001.svg") // a duplicate and a built-in asset
	rep, err := svc.Sync(ctx, urls)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Total != 8 || rep.Fetched != 3 || rep.Failed != 5 {
		t.Fatalf("report: %+v", rep)
	}
	if last != [3]int{8, 8, 5} {
		t.Errorf("last progress: %v", last)
	}
	recs, err := db.ImageRecords(ctx, urls)
	if err != nil {
		t.Fatal(err)
	}
	wantErr := map[string]string{
		"/truncated.jpg": "decode image",
		"/page.jpg":      "text/html",
		"/bomb.png":      "megapixel",
		"/loop.jpg":      "redirects",
		"/gone.jpg":      "status 404",
	}
	for p, want := range wantErr {
		r := recs[url(p)]
		if r.Hash != "" || !strings.Contains(r.Error, want) {
			t.Errorf("%s: hash %q, error %q, want an error with %q", p, r.Hash, r.Error, want)
		}
		if strings.Contains(r.Error, "127.0.0.1") { // a URL's query may hold a token
			t.Errorf("%s: the stored error repeats the URL: %q", p, r.Error)
		}
	}
	for _, tc := range []struct {
		path          string
		width, height int
		widths        []int
	}{
		{"/big.jpg", 1200, 800, []int{160, 320, 480, 640, 960}},
		{"/square.png", 700, 700, []int{160, 320, 480, 640, 700}},
		{"/tiny.png", 100, 50, []int{100}}, // never enlarged
	} {
		r := recs[url(tc.path)]
		if r.Hash == "" || r.Error != "" || r.Width != tc.width || r.Height != tc.height {
			t.Errorf("%s: record %+v", tc.path, r)
			continue
		}
		if got := r.Photo().Widths(); !slices.Equal(got, tc.widths) {
			t.Errorf("%s: widths %v, want %v", tc.path, got, tc.widths)
		}
	}

	// The variants are real images of the promised sizes, served by product.
	if err := db.ReplaceCatalog(ctx, "file", []string{"home"}, []shop.Product{
		{ID: "1", Title: "Lamp", Category: "home", Price: 100, Image: url("/big.jpg")},
	}); err != nil {
		t.Fatal(err)
	}
	p, err := db.Product(ctx, "1")
	if err != nil || p.Photo != recs[url("/big.jpg")].Photo() {
		t.Fatalf("product photo: %+v, %v", p, err)
	}
	for _, w := range p.Photo.Widths() {
		data, hash, err := db.ProductImage(ctx, "1", w, shop.PhotoJPEG)
		if err != nil || hash != p.Photo.Hash {
			t.Fatalf("jpg %d: %v", w, err)
		}
		m, err := jpeg.Decode(bytes.NewReader(data))
		if err != nil || m.Bounds().Dx() != w || m.Bounds().Dy() != p.Photo.HeightAt(w) {
			t.Errorf("jpg %d: %v %v", w, m.Bounds(), err)
		}
		data, _, err = db.ProductImage(ctx, "1", w, shop.PhotoWebP)
		if err != nil {
			t.Fatal(err)
		}
		cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
		if err != nil || format != "webp" || cfg.Width != w {
			t.Errorf("webp %d: %s %dx%d %v", w, format, cfg.Width, cfg.Height, err)
		}
	}
	if _, _, err := db.ProductImage(ctx, "1", 123, shop.PhotoWebP); shop.ErrorCode(err) != shop.ENOTFOUND {
		t.Errorf("unknown width: %v", err)
	}
}

func TestSyncAgainSkipsUnchangedAndRetriesFailures(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openDB(t)
	files := sources(t)
	srv := imagestest.NewServer(t, files)
	svc := newService(db)
	good, broken := srv.URL+"/big.jpg", srv.URL+"/truncated.jpg"
	if rep, err := svc.Sync(ctx, []string{good, broken}); err != nil || rep.Fetched != 1 || rep.Failed != 1 {
		t.Fatalf("first sync: %+v %v", rep, err)
	}
	before, _ := db.ImageRecords(ctx, []string{good})

	// The source fixes the broken image; the next sync fetches it again and
	// only revalidates the good one (a 304, no body).
	srv.Set("/truncated.jpg", imagestest.File{ContentType: "image/jpeg", Body: imagestest.JPEG(t, 400, 300)})
	rep, err := svc.Sync(ctx, []string{good, broken})
	if err != nil || rep.Fetched != 1 || rep.Unchanged != 1 || rep.Failed != 0 {
		t.Fatalf("second sync: %+v %v", rep, err)
	}
	if hits, bodies := srv.Hits("/big.jpg"); hits != 2 || bodies != 1 {
		t.Errorf("unchanged image: %d requests, %d bodies; want 2 and 1", hits, bodies)
	}
	after, _ := db.ImageRecords(ctx, []string{good, broken})
	if after[good].Hash != before[good].Hash || after[broken].Hash == "" || after[broken].Error != "" {
		t.Errorf("records after retry: %+v", after)
	}

	// A source that goes away later keeps the photo we already have.
	srv.Set("/big.jpg", imagestest.File{Handler: func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusServiceUnavailable) }})
	rep, err = svc.Sync(ctx, []string{good})
	if err != nil || rep.Kept != 1 || rep.Failed != 0 {
		t.Fatalf("third sync: %+v %v", rep, err)
	}
	kept, _ := db.ImageRecords(ctx, []string{good})
	if kept[good].Hash != before[good].Hash || !strings.Contains(kept[good].Error, "503") {
		t.Errorf("kept record: %+v", kept[good])
	}
}

func TestFetcherRefusesPrivateAddresses(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openDB(t)
	srv := imagestest.NewServer(t, sources(t))
	svc := &images.Service{Store: db, Fetcher: images.NewFetcher(false, images.DefaultTimeout), Log: quiet}
	// localhost resolves to loopback: refused when dialled, so a name that
	// resolves differently later (DNS rebinding) is caught too.
	u := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1) + "/big.jpg"
	rep, err := svc.Sync(ctx, []string{u, srv.URL + "/big.jpg"})
	if err != nil || rep.Failed != 2 {
		t.Fatalf("report %+v, %v", rep, err)
	}
	if hits, _ := srv.Hits("/big.jpg"); hits != 0 {
		t.Errorf("the loopback server got %d requests", hits)
	}
	recs, _ := db.ImageRecords(ctx, []string{u})
	if !strings.Contains(recs[u].Error, images.ErrBlockedAddress.Error()) {
		t.Errorf("error: %q", recs[u].Error)
	}
}

// A source that never answers is given up on after the fetcher's timeout:
// the import goes on, and the record says the fetch timed out without
// repeating the URL, whose query may hold a token. The source never
// answers, so the outcome is the same however busy the machine is; the
// short timeout only keeps the test quick.
func TestSync_GivesUpOnASilentSource(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openDB(t)
	srv := imagestest.NewServer(t, map[string]imagestest.File{
		"/silent.jpg": {Handler: silent},
		"/big.jpg":    {ContentType: "image/jpeg", Body: imagestest.JPEG(t, 400, 300)},
	})
	svc := &images.Service{Store: db, Fetcher: images.NewFetcher(true, 50*time.Millisecond), Log: quiet}
	silentURL := srv.URL + "/silent.jpg?sig=s3cret"
	rep, err := svc.Sync(ctx, []string{silentURL})
	if err != nil || rep.Total != 1 || rep.Failed != 1 {
		t.Fatalf("report %+v, %v; want 1 failed", rep, err)
	}
	recs, err := db.ImageRecords(ctx, []string{silentURL})
	if err != nil {
		t.Fatal(err)
	}
	r := recs[silentURL]
	if r.Hash != "" || !strings.Contains(strings.ToLower(r.Error), "timeout") {
		t.Errorf("record: hash %q, error %q; want no photo and an error that says timeout", r.Hash, r.Error)
	}
	if strings.Contains(r.Error, "s3cret") || strings.Contains(r.Error, "silent.jpg") {
		t.Errorf("the stored error repeats the URL: %q", r.Error)
	}
}

// Sync stops when its context ends, even while a source holds a request,
// and leaves that source's record as it was (not marked failed): the next
// run fetches it again. The test ends the context itself once the source
// has the request, so no clock is involved.
func TestSync_StopsWhenCancelled(t *testing.T) {
	t.Parallel()
	db := openDB(t)
	arrived := make(chan struct{})
	srv := imagestest.NewServer(t, map[string]imagestest.File{
		"/held.jpg": {Handler: func(w http.ResponseWriter, r *http.Request) {
			close(arrived)
			<-r.Context().Done()
		}},
	})
	svc := newService(db)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { <-arrived; cancel() }()
	u := srv.URL + "/held.jpg"
	if _, err := svc.Sync(ctx, []string{u}); !errors.Is(err, context.Canceled) {
		t.Fatalf("Sync: %v, want context.Canceled", err)
	}
	recs, err := db.ImageRecords(context.Background(), []string{u})
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := recs[u]; ok && (r.Error != "" || r.Hash != "") {
		t.Errorf("record after a cancelled sync: %+v, want none", r)
	}
}

func TestPublicAddr(t *testing.T) {
	t.Parallel()
	for addr, want := range map[string]bool{
		"93.184.216.34": true, "2606:4700::1111": true,
		"127.0.0.1": false, "10.1.2.3": false, "172.16.0.1": false, "192.168.1.1": false,
		"169.254.169.254": false, "100.64.0.1": false, "0.0.0.0": false, "::1": false,
		"fe80::1": false, "fc00::1": false, "::ffff:127.0.0.1": false, "::ffff:10.0.0.1": false,
		"224.0.0.1": false, "64:ff9b::a00:1": false,
		// IPv4-compatible IPv6 wraps any IPv4 address, private ones too.
		"::127.0.0.1": false, "::10.0.0.1": false, "::192.168.1.1": false, "::93.184.216.34": false,
		// Local-use NAT64 translates to whatever IPv4 its site chooses.
		"64:ff9b:1::a00:1": false, "64:ff9b:1::c0a8:101": false, "64:ff9b:1:ffff:ffff:ffff:ffff:ffff": false,
	} {
		if got := images.PublicAddr(netip.MustParseAddr(addr)); got != want {
			t.Errorf("%s: got %v, want %v", addr, got, want)
		}
	}
}

func TestBlockedErrorWraps(t *testing.T) {
	t.Parallel()
	f := images.NewFetcher(false, images.DefaultTimeout)
	_, err := f.Client.Get("http://127.0.0.1:1/")
	if !errors.Is(err, images.ErrBlockedAddress) {
		t.Errorf("got %v", err)
	}
}

func TestRedactURL(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"https://img.example/a.jpg":                    "https://img.example/a.jpg",
		"https://user:secret@img.example/a.jpg":        "https://user:xxxxx@img.example/a.jpg",
		"https://img.example/a.jpg?sig=secret&exp=1#x": "https://img.example/a.jpg?…",
	} {
		if got := images.RedactURL(in); got != want || strings.Contains(got, "secret") {
			t.Errorf("%s: got %q, want %q", in, got, want)
		}
	}
}
