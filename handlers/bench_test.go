package handlers_test

import (
	"context"
	"net/url"
	"slices"
	"strconv"
	"testing"

	"github.com/nocturne/storefront/internal/catalog"
	"github.com/nocturne/storefront/internal/shop"

	"github.com/valyala/fasthttp"
)

// BenchmarkPages measures server time per page: the request goes straight
// into Fiber's handler (no network), through every middleware, including
// gzip compression. Visitors without a session are mostly answered from the
// page cache; the signed-in shopper (with a cart) never is.
func BenchmarkPages(b *testing.B) {
	app := newTestApp(b)
	shopper := app.register(b, "Ada", "ada@example.com", "night-owl-41")
	shopper.addToCart("/products", "nb-001", "2")
	var cookie string
	for k, v := range shopper.cookies {
		cookie += k + "=" + v + "; "
	}
	handler := app.app.Handler()
	for _, who := range []struct{ name, cookie string }{{"visitor", ""}, {"signed-in", cookie}} {
		for _, path := range []string{"/", "/faq", "/shipping", "/returns", "/contact", "/missing", "/products", "/products?category=home&sort=desc", "/product/nb-001", "/product/nb-014?variant=nb-014-m-black", "/search?q=lamp", "/login", "/cart"} {
			b.Run(who.name+path, func(b *testing.B) { benchGet(b, handler, path, who.cookie, 200, 404, 302) })
		}
	}
}

// BenchmarkUncachedListing is a crawler's walk through filter URLs: every
// request is a new URL, so the page cache never answers and each page is
// rendered and compressed.
func BenchmarkUncachedListing(b *testing.B) {
	uncachedListing(b, newTestApp(b))
}

// BenchmarkUncachedListingHalfVariants is the same walk once every other
// product is sold in three sizes.
func BenchmarkUncachedListingHalfVariants(b *testing.B) {
	app := newTestApp(b)
	ctx := context.Background()
	products, err := app.db.AllProducts(ctx)
	if err != nil {
		b.Fatal(err)
	}
	for i, p := range products {
		if i%2 == 1 || p.HasOptions() {
			continue
		}
		c := shop.Choices{Options: []shop.Option{{Name: "Size", Values: []shop.OptionValue{{Value: "S"}, {Value: "M"}, {Value: "L"}}}}}
		for _, size := range []string{"S", "M", "L"} {
			c.Variants = append(c.Variants, shop.Variant{ID: catalog.VariantID(p.ID, []string{size}), Values: []string{size}, Stock: 10, Enabled: true})
		}
		if err := app.db.SetChoices(ctx, p.ID, c); err != nil {
			b.Fatal(err)
		}
	}
	if err := app.catalog.Reload(ctx); err != nil {
		b.Fatal(err)
	}
	uncachedListing(b, app)
}

func uncachedListing(b *testing.B, app *testApp) {
	handler := app.app.Handler()
	var ctx fasthttp.RequestCtx
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		ctx.ResetUserValues()
		ctx.Request.Reset()
		ctx.Response.Reset()
		ctx.Request.SetRequestURI("/products?maxPrice=" + strconv.Itoa(1000+i))
		ctx.Request.Header.SetMethod(fasthttp.MethodGet)
		ctx.Request.Header.Set("Accept-Encoding", "gzip")
		handler(&ctx)
		if code := ctx.Response.StatusCode(); code != 200 {
			b.Fatalf("status %d", code)
		}
	}
}

// BenchmarkCheckoutPages measures the pages that price a cart: the cart
// and the three checkout steps of a signed-in shopper with a US address
// and the demo card, none of which the page cache answers.
func BenchmarkCheckoutPages(b *testing.B) {
	app := newTestApp(b)
	shopper := app.register(b, "Ada", "ada@example.com", "night-owl-41")
	shopper.addToCart("/products", "nb-001", "2")
	shopper.addToCart("/products", "nb-042", "1")
	shopper.postFrom("/checkout/shipping", "/checkout/shipping", url.Values{"firstName": {"Ada"}, "lastName": {"Lovelace"},
		"email": {"ada@example.com"}, "phone": {"(217) 555-0100"}, "address": {"1 Main St"}, "city": {"Springfield"},
		"state": {"IL"}, "zipCode": {"62701"}, "country": {"United States"}})
	if res, _ := shopper.postFrom("/checkout/payment", "/checkout/payment", paymentValues(testCard)); res.Header.Get("Location") != "/checkout/review" {
		b.Fatalf("payment: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	var cookie string
	for k, v := range shopper.cookies {
		cookie += k + "=" + v + "; "
	}
	handler := app.app.Handler()
	for _, path := range []string{"/cart", "/checkout/shipping", "/checkout/payment", "/checkout/review"} {
		b.Run(path, func(b *testing.B) { benchGet(b, handler, path, cookie, 200) })
	}
}

// benchGet times GET path through handler, straight into Fiber (no
// network), asking for gzip as browsers do, with cookie when it is set;
// any status but those allowed fails the benchmark.
func benchGet(b *testing.B, handler fasthttp.RequestHandler, path, cookie string, allowed ...int) {
	var ctx fasthttp.RequestCtx
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		// As fasthttp's server does between requests (Fiber keeps the
		// request's context.Context in a user value).
		ctx.ResetUserValues()
		ctx.Request.Reset()
		ctx.Response.Reset()
		ctx.Request.SetRequestURI(path)
		ctx.Request.Header.SetMethod(fasthttp.MethodGet)
		ctx.Request.Header.Set("Accept-Encoding", "gzip")
		if cookie != "" {
			ctx.Request.Header.Set("Cookie", cookie)
		}
		handler(&ctx)
		if code := ctx.Response.StatusCode(); !slices.Contains(allowed, code) {
			b.Fatalf("%s: status %d", path, code)
		}
	}
}
