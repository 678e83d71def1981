package handlers_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/nocturne/storefront/handlers"
	"github.com/nocturne/storefront/internal/shop"
)

// downCatalog is a catalogue whose store cannot answer: a database adds
// nothing to these tests, so they run on this fake (handlers.Catalog).
type downCatalog struct{ suggestErr error }

var errDown = errors.New("catalogue store down")

func (downCatalog) List(context.Context, shop.ProductFilter) (shop.ProductPage, error) {
	return shop.ProductPage{}, errDown
}
func (d downCatalog) Suggest(context.Context, string) (string, error) { return "", d.suggestErr }
func (downCatalog) Product(context.Context, string) (*shop.Product, error) {
	return nil, errDown
}
func (downCatalog) StoredProduct(context.Context, string) (*shop.Product, error) {
	return nil, errDown
}
func (downCatalog) Categories(context.Context) ([]string, error)                 { return nil, errDown }
func (downCatalog) Featured(context.Context, int) ([]shop.Product, error)        { return nil, errDown }
func (downCatalog) ProductIDs(context.Context) ([]string, error)                 { return nil, errDown }
func (downCatalog) Version() int64                                               { return 0 }
func (downCatalog) Facets(context.Context) ([]shop.Option, error)                { return nil, errDown }
func (downCatalog) Gallery(context.Context, string) ([]shop.GalleryPhoto, error) { return nil, errDown }

var _ handlers.Catalog = downCatalog{}

func withCatalog(c handlers.Catalog) testOption {
	return func(_ map[string]string, d *handlers.Deps) { d.Catalog = c }
}

// When the catalogue cannot be read, the listing and search pages say so
// with a way to try again (as the spec's error catalogue asks), the listing answers 503 rather than
// 500, and the shopper's filters are kept in the retry link.
func TestCatalogDown_ListingsSayTryAgain(t *testing.T) {
	t.Parallel()
	app := newTestApp(t, withCatalog(downCatalog{suggestErr: errDown}))
	c := app.client(t)
	for _, tt := range []struct{ path, status, retry string }{
		{"/products?sort=desc", "503", "/products?sort=desc"},
		{"/search?q=lamp", "", "/search?q=lamp"},
	} {
		res, doc := c.get(tt.path)
		if got := res.Status[:3]; tt.status != "" && got != tt.status {
			t.Errorf("%s: status %s, want %s", tt.path, got, tt.status)
		}
		if got := text(doc, `[data-testid="catalog-error"] .lead`); got != handlers.MsgProductsFailed {
			t.Errorf("%s: message %q, want %q", tt.path, got, handlers.MsgProductsFailed)
		}
		if href, _ := doc.Find(`[data-testid="catalog-error"] a`).Attr("href"); !strings.HasPrefix(href, tt.retry) {
			t.Errorf("%s: retry link %q, want %q", tt.path, href, tt.retry)
		}
	}
	res, _ := c.get("/product/nb-001")
	if res.StatusCode < http.StatusInternalServerError {
		t.Errorf("product page with the catalogue down: status %d, want a 5xx error page", res.StatusCode)
	}
}
