package handlers_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// prices reads the card prices of a page, in order, in cents.
func prices(t *testing.T, doc *goquery.Document) []int {
	t.Helper()
	var out []int
	doc.Find(`[data-testid="product-card"] [data-testid="price"]`).Each(func(_ int, s *goquery.Selection) {
		v := strings.NewReplacer("$", "", ",", "", ".", "").Replace(s.Text())
		n, err := strconv.Atoi(v)
		if err != nil {
			t.Fatalf("price %q: %v", s.Text(), err)
		}
		out = append(out, n)
	})
	return out
}

func TestProducts(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.client(t)

	t.Run("AllSortedAscending", func(t *testing.T) {
		res, doc := c.get("/products")
		if res.StatusCode != 200 {
			t.Fatalf("status %d", res.StatusCode)
		}
		if got := text(doc, "main h1"); got != "All Products" {
			t.Errorf("heading: %q", got)
		}
		ps := prices(t, doc)
		if len(ps) != 12 || !sort.IntsAreSorted(ps) {
			t.Errorf("want 12 cards sorted by price, got %v", ps)
		}
		if got := text(doc, `[data-testid="result-count"]`); got != "52 products" {
			t.Errorf("count: %q", got)
		}
	})
	t.Run("Descending", func(t *testing.T) {
		_, doc := c.get("/products?sort=desc")
		ps := prices(t, doc)
		if !sort.SliceIsSorted(ps, func(i, j int) bool { return ps[i] > ps[j] }) {
			t.Errorf("not descending: %v", ps)
		}
	})
	t.Run("CategoryAndFilters", func(t *testing.T) {
		_, doc := c.get("/products?category=jewelery&maxPrice=100&minPrice=20&rating=4")
		if got := text(doc, "main h1"); got != "Jewelry Products" {
			t.Errorf("heading: %q", got)
		}
		ps := prices(t, doc)
		if len(ps) == 0 {
			t.Fatal("no products")
		}
		for _, p := range ps {
			if p < 2000 || p > 10000 {
				t.Errorf("price %d outside $20-$100", p)
			}
		}
		doc.Find(`[data-testid="product-card"] .stars`).Each(func(_ int, s *goquery.Selection) {
			label := s.AttrOr("aria-label", "")
			var r float64
			if _, err := fmtSscanf(label, &r); err != nil || r < 4 {
				t.Errorf("rating %q below 4", label)
			}
		})
		if got := doc.Find(`#filter-category option[selected]`).AttrOr("value", ""); got != "jewelery" {
			t.Errorf("form shows category %q", got)
		}
		if got := doc.Find(`#filter-rating option[selected]`).AttrOr("value", ""); got != "4" {
			t.Errorf("form shows rating %q", got)
		}
	})
	t.Run("Featured", func(t *testing.T) {
		_, doc := c.get("/products?category=featured")
		if got := text(doc, "main h1"); got != "Featured Products" {
			t.Errorf("heading: %q", got)
		}
		if n := doc.Find(`[data-testid="product-card"]`).Length(); n != 8 {
			t.Errorf("featured: %d, want 8", n)
		}
	})
	t.Run("Empty", func(t *testing.T) {
		_, doc := c.get("/products?minPrice=100000")
		if got := text(doc, `[data-testid="catalog-empty"] p`); got != "No products found matching your criteria." {
			t.Errorf("empty state: %q", got)
		}
	})

	redirects := []struct{ from, to string }{
		{"/products?minPrice=abc&maxPrice=&rating=&category=&sort=asc", "/products"},
		{"/products?minPrice=-5", "/products"},
		{"/products?minPrice=100&maxPrice=20", "/products?maxPrice=100&minPrice=20"},
		{"/products?category=weapons", "/products"},
		{"/products?rating=9", "/products"},
		{"/products?page=1", "/products"},
		{"/products?page=99", "/products?page=5"},
	}
	for _, r := range redirects {
		t.Run("Normalised "+r.from, func(t *testing.T) {
			res, _ := c.get(r.from)
			if res.StatusCode != http.StatusFound || res.Header.Get("Location") != r.to {
				t.Errorf("got %d to %q, want 302 to %q", res.StatusCode, res.Header.Get("Location"), r.to)
			}
		})
	}

	t.Run("Pagination", func(t *testing.T) {
		seen := map[string]bool{}
		for page := 1; page <= 5; page++ {
			path := "/products"
			if page > 1 {
				path += "?page=" + strconv.Itoa(page)
			}
			_, doc := c.get(path)
			cards := doc.Find(`[data-testid="product-card"]`)
			want := 12
			if page == 5 {
				want = 4
			}
			if cards.Length() != want {
				t.Errorf("page %d: %d cards, want %d", page, cards.Length(), want)
			}
			cards.Each(func(_ int, s *goquery.Selection) {
				id := s.AttrOr("data-product-id", "")
				if seen[id] {
					t.Errorf("product %s on two pages", id)
				}
				seen[id] = true
			})
			next := doc.Find(`a[rel="next"]`).AttrOr("href", "")
			if (page < 5) != (next != "") {
				t.Errorf("page %d: next link %q", page, next)
			}
			if cur := doc.Find(`[aria-current="page"]`).Text(); cur != strconv.Itoa(page) {
				t.Errorf("page %d: current link %q", page, cur)
			}
		}
		if len(seen) != 52 {
			t.Errorf("saw %d products over 5 pages, want 52", len(seen))
		}
	})

	t.Run("API", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodGet, "/api/products?page=5", nil)
		res := c.do(req)
		var body struct {
			HTML    string `json:"html"`
			Count   int    `json:"count"`
			Page    int    `json:"page"`
			HasMore bool   `json:"hasMore"`
			PageURL string `json:"pageUrl"`
		}
		b, _ := io.ReadAll(res.Body)
		if err := json.Unmarshal(b, &body); err != nil {
			t.Fatalf("not JSON: %s", b)
		}
		if body.Count != 4 || body.HasMore || body.PageURL != "/products?page=5" || strings.Count(body.HTML, `data-testid="product-card"`) != 4 {
			t.Errorf("got count %d more %v url %q", body.Count, body.HasMore, body.PageURL)
		}
		if !strings.Contains(body.HTML, `name="return_to" value="/products?page=5"`) {
			t.Error("appended cards' forms do not return to the listing")
		}
	})
}

var fmtSscanf = func(label string, r *float64) (int, error) {
	return sscanf(strings.TrimPrefix(label, "Rated "), r)
}

func sscanf(s string, r *float64) (int, error) {
	f, err := strconv.ParseFloat(strings.Fields(s)[0], 64)
	*r = f
	return 1, err
}

func TestProductPage(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.client(t)
	res, doc := c.get("/product/nb-001")
	if res.StatusCode != 200 {
		t.Fatalf("status %d", res.StatusCode)
	}
	if got := text(doc, `[data-testid="product-title"]`); got == "" {
		t.Error("no title")
	}
	if !strings.HasPrefix(text(doc, `[data-testid="review-count"]`), "(") || !strings.HasSuffix(text(doc, `[data-testid="review-count"]`), " reviews)") {
		t.Errorf("reviews: %q", text(doc, `[data-testid="review-count"]`))
	}
	if got := doc.Find(`[data-testid="category-link"]`).AttrOr("href", ""); got != "/products?category=electronics" {
		t.Errorf("category link %q", got)
	}
	q := doc.Find(`input[name="quantity"]`)
	if q.AttrOr("type", "") != "number" || q.AttrOr("min", "") != "1" || q.AttrOr("step", "") != "1" {
		t.Errorf("quantity input: %v", q.Nodes)
	}
	if got := doc.Find(`link[rel="canonical"]`).AttrOr("href", ""); got != "http://localhost:3000/product/nb-001" {
		t.Errorf("canonical %q", got)
	}
	if doc.Find(`meta[property="og:image"]`).Length() != 1 || doc.Find(`meta[name="description"]`).Length() != 1 {
		t.Error("missing OpenGraph image or meta description")
	}
	var ld map[string]any
	if err := json.Unmarshal([]byte(doc.Find(`script[type="application/ld+json"]`).Text()), &ld); err != nil || ld["@type"] != "Product" {
		t.Errorf("JSON-LD: %v %v", err, ld)
	}
	price := text(doc, `.product-info [data-testid="price"]`)
	was := text(doc, `.product-info .price-was`)
	if price == "" || !strings.Contains(was, "$") {
		t.Errorf("price %q, original %q", price, was)
	}

	res, doc = c.get("/product/does-not-exist")
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("unknown product: %d", res.StatusCode)
	}
	if got := text(doc, `[data-testid="product-error"] .lead`); got != "Failed to load product details. Please try again later." {
		t.Errorf("message %q", got)
	}
	if doc.Find(`a[href="/products"]:contains("Return to Products")`).Length() != 1 {
		t.Error("no Return to Products link")
	}
}

func TestSearchResults(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.client(t)
	tests := []struct {
		q          string
		min        int
		first      string // a word the first result's title must contain
		suggestion string
	}{
		{"headphnoes&exact=1", 0, "", "headphones"}, // as typed: nothing, and "Did you mean"
		{"headphones", 1, "Headphones", ""},
		{"headph", 1, "Headphones", ""}, // prefix
		{"sterling silver", 1, "", ""},
		{"headphnoes", 1, "Headphones", ""}, // corrected: shows the results for "headphones"
		{"zzzzqqq", 0, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			q, exact, _ := strings.Cut(tt.q, "&")
			path := "/search?q=" + url.QueryEscape(q)
			if exact != "" {
				path += "&" + exact
			}
			res, doc := c.get(path)
			if res.StatusCode != 200 {
				t.Fatalf("status %d", res.StatusCode)
			}
			n := doc.Find(`[data-testid="product-card"]`).Length()
			if n < tt.min || (tt.min == 0 && n != 0) {
				t.Errorf("results: %d", n)
			}
			if tt.first != "" && !strings.Contains(doc.Find(`[data-testid="product-card"] .product-title`).First().Text(), tt.first) {
				t.Errorf("first result %q lacks %q", doc.Find(`.product-title`).First().Text(), tt.first)
			}
			if got := text(doc, `[data-testid="suggestion"] a`); got != tt.suggestion {
				t.Errorf("suggestion: got %q, want %q", got, tt.suggestion)
			}
			if n == 0 && doc.Find(`[data-testid="search-empty"]`).Length() != 1 {
				t.Error("no empty state")
			}
		})
	}
}

func TestSitemapAndRobots(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.client(t)
	req, _ := http.NewRequest(http.MethodGet, "/sitemap.xml", nil)
	res := c.do(req)
	b, _ := io.ReadAll(res.Body)
	s := string(b)
	if n := strings.Count(s, "<loc>http://localhost:3000/product/"); n != 52 {
		t.Errorf("sitemap lists %d products, want 52", n)
	}
	if !strings.Contains(s, "<loc>http://localhost:3000/products?category=jewelery</loc>") {
		t.Error("sitemap lacks a category page")
	}
	req, _ = http.NewRequest(http.MethodGet, "/robots.txt", nil)
	res = c.do(req)
	b, _ = io.ReadAll(res.Body)
	if !strings.Contains(string(b), "Sitemap: http://localhost:3000/sitemap.xml") {
		t.Errorf("robots.txt: %s", b)
	}
}

func TestLandingCarousel(t *testing.T) {
	t.Parallel()
	_, doc := newTestApp(t).client(t).get("/")
	if n := doc.Find(`[data-testid="carousel-track"] [data-testid="product-card"]`).Length(); n != 8 {
		t.Errorf("carousel: %d cards, want 8", n)
	}
}
