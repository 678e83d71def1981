package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/nocturne/storefront/handlers/admin"
	"github.com/nocturne/storefront/internal/shop"
)

// Staff reorder a product's photos, describe them, remove one and add one
// by its address, with plain forms; a bad address is refused next to its
// field with what was typed kept; the cover follows photo 1; each save is
// in the audit log; fulfilment staff have no such page.
func TestAdminPhotos_ReorderDescribeRemoveAdd(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	ctx := context.Background()
	const path = "/admin/products/nb-001/photos"
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(b.app.db.SetPhotos(ctx, "nb-001", []shop.GalleryPhoto{
		{URL: "https://img.example/front.jpg", Alt: "Front"},
		{URL: "https://img.example/side.jpg", Alt: "Side"},
		{URL: "https://img.example/back.jpg", Alt: ""},
	}))
	gallery := func() string {
		photos, err := b.app.db.Photos(ctx, "nb-001")
		must(err)
		var out []string
		for _, ph := range photos {
			out = append(out, strings.TrimPrefix(ph.URL, "https://img.example/")+"="+ph.Alt)
		}
		return strings.Join(out, " ")
	}

	if res, _ := b.fulfi.get(path); res.StatusCode != http.StatusNotFound {
		t.Errorf("fulfilment staff: %d, want 404", res.StatusCode)
	}
	res, doc := b.admin.get(path)
	if res.StatusCode != http.StatusOK || doc.Find(`[data-testid="photo-row"]`).Length() != 3 {
		t.Fatalf("editor: %d with %d rows", res.StatusCode, doc.Find(`[data-testid="photo-row"]`).Length())
	}

	// The back view first, described; the side view removed.
	res, _ = b.admin.post(path, url.Values{"pos_0": {"2"}, "alt_0": {"Front"}, "pos_1": {"3"}, "alt_1": {"Side"}, "remove_1": {"1"},
		"pos_2": {"1"}, "alt_2": {"Back, with the strap"}})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != path {
		t.Fatalf("save: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	if got := gallery(); got != "back.jpg=Back, with the strap front.jpg=Front" {
		t.Errorf("gallery %q", got)
	}
	if p, _ := b.app.db.AdminProduct(ctx, "nb-001"); p.Image != "https://img.example/back.jpg" {
		t.Errorf("cover %q, want photo 1", p.Image)
	}
	_, doc = b.admin.get(path)
	if got := text(doc, `[data-testid="flash"]`); got != admin.MsgPhotosSaved {
		t.Errorf("flash %q", got)
	}

	// An address that is not a web address is refused by its field.
	res, doc = b.admin.post(path, url.Values{"pos_0": {"1"}, "alt_0": {"Back"}, "pos_1": {"2"}, "alt_1": {"Front"},
		"new_url": {"ftp://img.example/top.jpg"}, "new_alt": {"Top"}})
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(text(doc, "#new_url-error"), "web address") {
		t.Errorf("bad address: %d %q", res.StatusCode, text(doc, "#new_url-error"))
	}
	if doc.Find(`#new_alt`).AttrOr("value", "") != "Top" || doc.Find(`#alt_0`).AttrOr("value", "") != "Back" {
		t.Error("what was typed is lost")
	}
	if got := gallery(); got != "back.jpg=Back, with the strap front.jpg=Front" {
		t.Errorf("a refused save changed the gallery: %q", got)
	}

	// A new photo goes at the end.
	res, _ = b.admin.post(path, url.Values{"pos_0": {"1"}, "alt_0": {"Back"}, "pos_1": {"2"}, "alt_1": {"Front"},
		"new_url": {"https://img.example/top.jpg"}, "new_alt": {"Top"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("add: %d", res.StatusCode)
	}
	if got := gallery(); got != "back.jpg=Back front.jpg=Front top.jpg=Top" {
		t.Errorf("gallery %q", got)
	}
	entries, _, err := b.app.db.AuditLog(ctx, 1)
	must(err)
	saves := 0
	for _, e := range entries {
		if e.Action == "product.photos" && e.Subject == "nb-001" && e.Actor == "admin@example.com" {
			saves++
		}
	}
	if saves != 2 {
		t.Errorf("%d photo saves in the audit log, want 2", saves)
	}
}
