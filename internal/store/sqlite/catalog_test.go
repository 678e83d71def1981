package sqlite

import (
	"cmp"
	"context"
	"slices"
	"testing"

	"github.com/nocturne/storefront/internal/shop"
)

func searchCatalog(t *testing.T) *DB {
	t.Helper()
	db := openTestDB(t)
	products := []shop.Product{
		{ID: "p1", Title: "Walnut desk lamp", Description: "A lamp of oiled walnut.", Category: "home", Price: 4500},
		{ID: "p2", Title: "Walnuts in a jar", Description: "Snack.", Category: "home", Price: 900},
		{ID: "p3", Title: "Wireless headphones", Description: "Over-ear headphones.", Category: "electronics", Price: 9900},
		{ID: "p4", Title: "Headphone stand", Description: "Walnut base.", Category: "electronics", Price: 2900},
		{ID: "p5", Title: "Wall clock", Description: "Quiet.", Category: "home", Price: 3900},
		{ID: "p6", Title: "Café au lait mug", Description: "Stoneware.", Category: "home", Price: 1500},
	}
	if err := db.ReplaceCatalog(context.Background(), "test", []string{"home", "electronics"}, products); err != nil {
		t.Fatal(err)
	}
	return db
}

// Words with one WordKey must match the same products with the same scores
// (search shares their hits), and words that match differently must not
// share a key.
func TestWordKey(t *testing.T) {
	t.Parallel()
	db := searchCatalog(t)
	ctx := context.Background()
	tests := []struct {
		a, b string
		same bool
	}{
		{"walnut", "walnuts", true},       // one stem
		{"walnut", "WALNUT", true},        // case
		{"wirel", "wireless", true},       // the only term starting "wirel"
		{"headphones", "headphone", true}, // stems
		{"cafe", "café", true},            // diacritics
		{"wal", "walnut", false},          // "wal" also matches "wall"
		{"wall", "walnut", false},
		{"lamp", "lamps", true},
		{"zzz", "qqq", true}, // neither matches anything
	}
	for _, tt := range tests {
		ka, err := db.wordKey(ctx, tt.a)
		if err != nil {
			t.Fatal(err)
		}
		kb, err := db.wordKey(ctx, tt.b)
		if err != nil {
			t.Fatal(err)
		}
		if (ka == kb) != tt.same {
			t.Errorf("WordKey(%q) = %q, WordKey(%q) = %q; same = %v, want %v", tt.a, ka, tt.b, kb, ka == kb, tt.same)
		}
		ha, _ := db.searchHits(ctx, []string{tt.a})
		hb, _ := db.searchHits(ctx, []string{tt.b})
		slices.SortFunc(ha, func(x, y searchHit) int { return cmp.Compare(x.Key, y.Key) })
		slices.SortFunc(hb, func(x, y searchHit) int { return cmp.Compare(x.Key, y.Key) })
		if sameHits := slices.Equal(ha, hb); ka == kb && !sameHits {
			t.Errorf("%q and %q share a key but match differently: %v vs %v", tt.a, tt.b, ha, hb)
		}
	}
}

// bm25 over several words is the sum of its scores for each word: search
// builds multi-word results from single-word hits on this.
func TestSearchHits_ScoresAddUp(t *testing.T) {
	t.Parallel()
	db := searchCatalog(t)
	ctx := context.Background()
	score := func(words ...string) map[int64]float64 {
		hits, err := db.searchHits(ctx, words)
		if err != nil {
			t.Fatal(err)
		}
		m := map[int64]float64{}
		for _, h := range hits {
			m[h.Key] = h.Score
		}
		return m
	}
	walnut, lamp, both := score("walnut"), score("lamp"), score("walnut", "lamp")
	if len(both) == 0 {
		t.Fatal("no product matches walnut lamp")
	}
	for key, s := range both {
		if sum := walnut[key] + lamp[key]; sum != s {
			t.Errorf("product %d: score %v for both words, %v + %v = %v for each", key, s, walnut[key], lamp[key], sum)
		}
	}
	for key := range walnut {
		if _, ok := lamp[key]; ok {
			if _, ok := both[key]; !ok {
				t.Errorf("product %d matches each word but not both", key)
			}
		}
	}
}

func TestFrequentTerms(t *testing.T) {
	t.Parallel()
	db := searchCatalog(t)
	got, err := db.frequentTerms(context.Background(), 3, 10)
	if err != nil {
		t.Fatal(err)
	}
	// home (4 products: category), walnut (p1, p2, p4); stems, most frequent first.
	if want := []string{"home", "walnut"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
