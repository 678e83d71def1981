package handlers_test

import (
	"testing"

	"github.com/valyala/fasthttp"
)

// BenchmarkPages measures server time per page: the request goes straight
// into Fiber's handler (no network), through every middleware, including the
// CSRF token write to the database and gzip compression.
func BenchmarkPages(b *testing.B) {
	app := newTestApp(b)
	handler := app.app.Handler()
	for _, path := range []string{"/", "/faq", "/shipping", "/returns", "/contact", "/missing", "/products", "/products?category=home&sort=desc", "/product/nb-001", "/search?q=lamp", "/login", "/cart"} {
		b.Run(path, func(b *testing.B) {
			var ctx fasthttp.RequestCtx
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				ctx.Request.Reset()
				ctx.Response.Reset()
				ctx.Request.SetRequestURI(path)
				ctx.Request.Header.SetMethod(fasthttp.MethodGet)
				ctx.Request.Header.Set("Accept-Encoding", "gzip")
				handler(&ctx)
				if code := ctx.Response.StatusCode(); code != 200 && code != 404 && code != 302 {
					b.Fatalf("%s: status %d", path, code)
				}
			}
		})
	}
}
