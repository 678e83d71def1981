package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/store/storetest"
)

var (
	benchOnce sync.Once
	benchDB   *DB
	benchErr  error
)

// benchStore builds, once per run, a file database with 100,000 synthetic
// products, warmed as the shop does after start.
func benchStore(b *testing.B) *DB {
	benchOnce.Do(func() {
		dir, err := os.MkdirTemp("", "nocturne-bench")
		if err != nil {
			benchErr = err
			return
		}
		db, err := Open(context.Background(), filepath.Join(dir, "bench.db"))
		if err != nil {
			benchErr = err
			return
		}
		if benchErr = db.ReplaceCatalog(context.Background(), "bench", storetest.SyntheticCategories, storetest.SyntheticProducts(100_000)); benchErr != nil {
			return
		}
		benchDB = db
		benchErr = db.WarmSearch(context.Background())
		os.RemoveAll(dir) // the open file lives on until the process ends
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchDB
}

// forgetWord drops what search keeps of a word: its key and, with hits, the
// hits kept under that key.
func (db *DB) forgetWord(word string, hits bool) {
	s := db.search
	s.mu.Lock()
	defer s.mu.Unlock()
	if key, ok := s.keys[word]; ok && hits {
		if e := s.words[key]; e != nil {
			s.wordHits -= len(e.hits)
			delete(s.words, key)
		}
	}
	delete(s.keys, word)
}

// BenchmarkSearchFirstTime measures the first search for a word after
// warm-up (page 1). Another form or an unambiguous prefix of a warmed word
// only costs finding its key; a rare word is scored live, cheaply; a
// word of one or two characters matches whole words ("4", not 40 or 400;
// "wa" is not a prefix of walnut and watch).
func BenchmarkSearchFirstTime(b *testing.B) {
	db := benchStore(b)
	ctx := context.Background()
	for _, tt := range []struct {
		name, word string
		unscored   bool // no hits kept for its key either
	}{
		{"other-form-of-warmed-word", "walnuts", false},
		{"prefix-of-warmed-word", "wirel", false},
		{"rare-word", "4242", true},
		{"one-character", "4", true},
		{"two-characters", "42", true},
		{"three-character-prefix", "424", true},
	} {
		b.Run(tt.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				db.forgetWord(tt.word, tt.unscored)
				page, err := db.Search(ctx, shop.ProductFilter{Query: tt.word, Page: 1, PageSize: shop.CataloguePageSize})
				if err != nil || len(page.Products) == 0 {
					b.Fatal(page.Total, err)
				}
			}
		})
	}
}

// BenchmarkWarm measures the warm-up after start or an import at 100,000
// products: loading the facets and scoring the frequent words.
func BenchmarkWarm(b *testing.B) {
	db := benchStore(b)
	for i := 0; i < b.N; i++ {
		db.dropSearch()
		if err := db.WarmSearch(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
