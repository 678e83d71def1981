package catalog_test

import (
	"bytes"
	"io"
	"log/slog"
	"net/url"
	"testing"
	"unicode/utf8"

	"github.com/nocturne/storefront/internal/catalog"
)

// FuzzParseFilter: any query string parses without panicking into a filter
// whose canonical query parses back to the same filter (else the listing's
// canonical redirect would loop), with a sane page.
// Longer run: go test ./internal/catalog -run '^$' -fuzz FuzzParseFilter -fuzztime 5m
func FuzzParseFilter(f *testing.F) {
	for _, seed := range []string{
		"", "category=electronics&sort=price_desc&minPrice=10&maxPrice=5&rating=4&page=3",
		"q=moon+lamp&sort=price_asc", "minPrice=$19.99&maxPrice=-3", "page=99999999999999999999",
		"category=%ff%fe", "q=" + string(bytes.Repeat([]byte("é"), 150)), "minPrice=NaN&maxPrice=1e308",
		"rating=5&rating=2", "q=%00%01&category=FEATURED",
	} {
		f.Add(seed)
	}
	cats := []string{"electronics", "fashion", "jewelery"}
	f.Fuzz(func(t *testing.T, raw string) {
		v, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		got := catalog.ParseFilter(v.Get, cats)
		if got.Page < 1 || got.MinPrice < 0 || got.MaxPrice < 0 {
			t.Fatalf("filter %+v out of range", got)
		}
		again, err := url.ParseQuery(got.Query(got.Page))
		if err != nil {
			t.Fatalf("canonical query %q does not parse: %v", got.Query(got.Page), err)
		}
		if back := catalog.ParseFilter(again.Get, cats); back != got {
			t.Fatalf("not canonical:\n%+v\n%+v (query %q)", got, back, got.Query(got.Page))
		}
	})
}

// FuzzImport: any bytes given as a catalogue either fail as a whole or
// give products that are each valid, with unique ids and valid UTF-8 text.
// Longer run: go test ./internal/catalog -run '^$' -fuzz FuzzImport -fuzztime 5m
func FuzzImport(f *testing.F) {
	for _, seed := range []string{
		`[]`, `[{"id":1,"title":"Lamp","price":19.99,"description":"d","category":"electronics","image":"https://x.test/a.png","rating":{"rate":4.5,"count":3}}]`,
		`[{"id":"a","title":"","price":-1}]`, `[{"id":1,"price":1e400}]`, `{"not":"an array"}`, `[null, 7, "x", {"id":[]}]`,
		`[{"id":1,"title":"A","price":1,"image":"javascript:alert(1)"},{"id":1,"title":"B","price":2}]`,
		"[{\"id\":2,\"title\":\"\xff\",\"price\":3}]", `[{"id":"../../etc","title":"x","price":1}]`,
	} {
		f.Add([]byte(seed))
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		parsed, err := catalog.Parse(bytes.NewReader(data), "fz-", log)
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, p := range parsed.Products {
			if seen[p.ID] {
				t.Fatalf("duplicate id %q", p.ID)
			}
			seen[p.ID] = true
			if err := p.Validate(); err != nil {
				t.Fatalf("invalid product %+v: %v", p, err)
			}
			if !utf8.ValidString(p.Title) || !utf8.ValidString(p.Description) {
				t.Fatalf("invalid UTF-8 in %+v", p)
			}
			if p.Price < 0 {
				t.Fatalf("negative price %+v", p)
			}
		}
	})
}
