package handlers_test

import (
	"bytes"
	"context"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/nocturne/storefront/handlers"
)

// uploadCatalog posts a catalogue file from the back office's form, as a
// browser does.
func uploadCatalog(t *testing.T, c *client, name string, body []byte) (*http.Response, *goquery.Document) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	if name != "" {
		fw, _ := w.CreateFormFile("file", name)
		fw.Write(body)
	}
	w.Close()
	req := httptest.NewRequest(http.MethodPost, "/admin/catalog", &buf)
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.Header.Set("Origin", "http://"+req.Host)
	res := c.do(req)
	return res, c.parse(res)
}

// download fetches the export and returns its body.
func download(t *testing.T, c *client) (*http.Response, string) {
	t.Helper()
	res := c.do(httptest.NewRequest(http.MethodGet, "/admin/catalog/export.csv", nil))
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(body)
}

// An admin uploads a catalogue file: the answer is the report (new
// products, the skipped line and why), the product is on sale at once
// with its variants, the import is in the audit log, and its photos are
// fetched after the answer and served from the shop.
func TestAdminCatalog_UploadShowsReport(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	withGalleryPhotos(b)
	photos := lampPhotos(t)

	res, doc := b.admin.get("/admin/catalog")
	if res.StatusCode != http.StatusOK || doc.Find(`[data-testid="catalog-import-form"] input[type=file][name=file]`).Length() != 1 ||
		doc.Find(`a[href="/admin/catalog/export.csv"]`).Length() != 1 {
		t.Fatalf("catalogue page: %d", res.StatusCode)
	}
	if doc.Find(`.admin-nav a[href="/admin/catalog"][aria-current="page"]`).Length() != 1 {
		t.Errorf("the back office's menu does not show the catalogue file as the current page")
	}

	res, doc = uploadCatalog(t, b.admin, "lamps.csv", []byte(lampFile(photos.URL)))
	if res.StatusCode != http.StatusOK {
		t.Fatalf("upload: %d %s", res.StatusCode, text(doc, "main"))
	}
	if got := text(doc, `[data-testid="import-summary"]`); got != "1 product new, 0 products updated, 1 line skipped." {
		t.Errorf("summary %q", got)
	}
	row := doc.Find(`[data-testid="import-skipped"] tbody tr`)
	if row.Length() != 1 || row.Find("th").Text() != "5" || !strings.Contains(row.Text(), "Variant Price is empty") {
		t.Errorf("skipped rows: %q", row.Text())
	}
	if doc.Find(`[data-testid="import-created"] a[href="/admin/products/moon-lamp"]`).Length() != 1 {
		t.Errorf("no link to the new product")
	}
	if !strings.Contains(text(doc, "h1"), "lamps.csv") {
		t.Errorf("heading %q", text(doc, "h1"))
	}

	// On sale at once, with the description's text.
	res, page := b.app.client(t).get("/product/moon-lamp")
	if res.StatusCode != http.StatusOK || !strings.Contains(page.Text(), "Moon Lamp") || !strings.Contains(page.Text(), "A warm lamp.") ||
		strings.Contains(page.Text(), "x()") {
		t.Errorf("product page: %d", res.StatusCode)
	}
	ctx := context.Background()
	c, err := b.app.db.Choices(ctx, "moon-lamp")
	if err != nil || len(c.Variants) != 8 || len(c.Options) != 2 {
		t.Errorf("variants: %+v, %v", c, err)
	}
	entries, _, err := b.app.db.AuditLog(ctx, 1)
	if err != nil || len(entries) == 0 || entries[0].Action != "catalog.import" || entries[0].Actor != "admin@example.com" ||
		entries[0].Subject != "lamps.csv" || !strings.Contains(entries[0].After, `"created":["moon-lamp"]`) || !strings.Contains(entries[0].After, "line 5") {
		t.Errorf("audit log: %+v, %v", entries, err)
	}

	// The photos, fetched after the answer: the cover and the gallery.
	b.app.catalog.WaitPhotos()
	_, page = b.app.client(t).get("/product/moon-lamp")
	if src := page.Find(`[data-testid="product-detail"] img`).AttrOr("src", ""); !strings.HasPrefix(src, "/img/moon-lamp/") {
		t.Errorf("product image %q", src)
	}
	gallery, err := b.app.catalog.Gallery(ctx, "moon-lamp")
	if err != nil || len(gallery) != 2 || !gallery[1].Photo.Ready() || gallery[1].Alt != "Moon Lamp" {
		t.Fatalf("gallery: %+v, %v", gallery, err)
	}
}

// An upload without a file, of a file that is not a product CSV, or over
// the size limit, is refused next to the field, and writes nothing.
func TestAdminCatalog_RefusedUploads(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	ctx := context.Background()
	before, _ := b.app.db.CountProducts(ctx)
	for _, tc := range []struct {
		name, file string
		body       []byte
		want       string
	}{
		{"no file", "", nil, "Choose a product CSV file to import."},
		{"empty file", "empty.csv", nil, "Choose a product CSV file to import."},
		{"not a product CSV", "orders.csv", []byte("order,total\nNOC-1,5\n"), "is this a Shopify product CSV?"},
		{"too large", "huge.csv", append([]byte("Handle,Title,Variant Price\n"), bytes.Repeat([]byte("x"), handlers.MaxUpload)...), "larger than 8 MB"},
	} {
		res, doc := uploadCatalog(t, b.admin, tc.file, tc.body)
		if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(text(doc, "#file-error"), tc.want) ||
			doc.Find(`#file[aria-invalid="true"]`).Length() != 1 {
			t.Errorf("%s: %d %q", tc.name, res.StatusCode, text(doc, "#file-error"))
		}
	}
	if after, _ := b.app.db.CountProducts(ctx); after != before {
		t.Errorf("products: %d, were %d", after, before)
	}
	if entries, _, _ := b.app.db.AuditLog(ctx, 1); len(entries) > 0 && entries[0].Action == "catalog.import" {
		t.Errorf("a refused upload is in the audit log: %+v", entries[0])
	}
}

// The download is the catalogue as the export command writes it, named
// by the day; downloading it and uploading it back changes nothing, so
// the next download is the same bytes. Only admins may.
func TestAdminCatalog_DownloadAndUploadBack(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	res, first := download(t, b.admin)
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/csv; charset=utf-8" ||
		res.Header.Get("Content-Disposition") != `attachment; filename="catalogue-2026-11-21.csv"` ||
		res.Header.Get("Cache-Control") != "private, no-store" {
		t.Fatalf("download: %d %v", res.StatusCode, res.Header)
	}
	var want bytes.Buffer
	if _, err := b.app.catalog.ExportCSV(context.Background(), &want); err != nil {
		t.Fatal(err)
	}
	if first != want.String() || !strings.HasPrefix(first, "Handle,Title,") || strings.Count(first, "\nnb-0") < 50 {
		t.Errorf("download differs from the export (%d bytes, %d)", len(first), want.Len())
	}

	_, doc := uploadCatalog(t, b.admin, "back.csv", []byte(first))
	if got := text(doc, `[data-testid="import-summary"]`); !strings.HasPrefix(got, "0 products new, 52 products updated, 0 lines skipped") ||
		doc.Find(`[data-testid="import-conflicts"]`).Length() != 0 {
		t.Errorf("upload of the download: %q", got)
	}
	if _, second := download(t, b.admin); second != first {
		t.Errorf("the download changed after uploading it back")
	}

	for who, c := range map[string]*client{"fulfilment": b.fulfi, "shopper": b.shopper, "signed out": b.app.client(t)} {
		if res, _ := download(t, c); res.StatusCode != http.StatusNotFound {
			t.Errorf("%s download: %d", who, res.StatusCode)
		}
		if res, _ := uploadCatalog(t, c, "x.csv", []byte(first)); res.StatusCode != http.StatusNotFound {
			t.Errorf("%s upload: %d", who, res.StatusCode)
		}
		if res, _ := c.get("/admin/catalog"); res.StatusCode != http.StatusNotFound {
			t.Errorf("%s page: %d", who, res.StatusCode)
		}
	}
	// A fulfilment member's menu has no link to it.
	if _, doc := b.fulfi.get("/admin"); doc.Find(`a[href="/admin/catalog"]`).Length() != 0 {
		t.Errorf("fulfilment staff see the catalogue file in their menu")
	}
}

// A shopper's page shows no sign of the import's HTML being unsafe: the
// body's script is gone before it is stored.
func TestAdminCatalog_BodyIsSanitised(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	file := "Handle,Title,Body (HTML),Variant Price\n" +
		`evil,Evil,"<p onclick=""steal()"">Hi</p><img src=x onerror=alert(1)><a href=""javascript:alert(1)"">x</a><script>alert(1)</script>",5` + "\n"
	if res, doc := uploadCatalog(t, b.admin, "evil.csv", []byte(file)); res.StatusCode != http.StatusOK {
		t.Fatalf("upload: %d %s", res.StatusCode, text(doc, "main"))
	}
	p, err := b.app.db.AdminProduct(context.Background(), "evil")
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"onclick", "onerror", "javascript:", "<script", "<img"} {
		if strings.Contains(p.DescriptionHTML, bad) {
			t.Errorf("stored HTML %q has %s", p.DescriptionHTML, bad)
		}
	}
	if p.Description != "Hi\nx" {
		t.Errorf("text %q", p.Description)
	}
}
