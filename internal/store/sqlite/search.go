package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/store/sqlstore"
)

// How a search is answered (DB.Search).
//
// FTS5 finds and scores the matches (bm25); this file filters, orders and
// pages them. bm25 scores every match before a LIMIT can apply, and a word
// that one product in eight contains means 12,500 scorings, about 22 ms at
// 100,000 products: too slow to do per search. Two facts make it cheap:
//
//   - a product's bm25 score for several words is the sum of its scores for
//     each word (bm25 adds one term per word, each with its own IDF), and the
//     products matching all the words are those matching each of them;
//   - the words shoppers search for are few and repeat.
//
// So the store keeps each searched word's scored hits, ordered by rowid
// (the catalogue's frequent words are scored in advance by WarmSearch), and
// a query is the intersection of its words' hits with their scores added:
// the same ranking FTS5 would give for the whole query, up to
// floating-point rounding. Hits are kept under the word's wordKey, so
// "walnuts" uses the hits of "walnut" and "wirel" those of "wireless".
// Words not kept yet are scored together in one FTS5 query. Filters, sort
// orders and pages then work in memory on a snapshot of every product's
// facets (rowid, id, category, price, rating, featured). All of it belongs
// to one catalogue version (catalog_version), read on every search, so an
// import by another process is noticed on the next search. rowids stay in
// here: a page is returned as products, known by their id.

const (
	// warmMinProducts: a word in fewer products is scored live in under
	// 2 ms at 100,000 products, so Warm leaves it for the first search.
	warmMinProducts = 1000
	warmMaxWords    = 300
	// The kept hits are bounded (16 bytes each: 32 MB at most); the words
	// used least recently go first.
	maxKeptHits  = 2_000_000
	maxKeptWords = 20_000
)

// searchHit is a product a search matched: its rowid and its bm25 score,
// lower is more relevant.
type searchHit struct {
	Key   int64
	Score float64
}

// productFacet is what the filters and sort orders need of a product.
type productFacet struct {
	Key      int64 // rowid
	ID       string
	Category string
	Price    shop.Cents
	Rating   float64
	Featured bool
}

// matches reports whether the product passes f's category, price and
// rating constraints (not its Query).
func (p *productFacet) matches(f *shop.ProductFilter) bool {
	switch {
	case f.Category == shop.FeaturedCategory && !p.Featured,
		f.Category != "" && f.Category != shop.FeaturedCategory && f.Category != p.Category,
		f.MinPrice > 0 && p.Price < f.MinPrice,
		f.MaxPrice > 0 && p.Price > f.MaxPrice,
		f.MinRating > 0 && p.Rating < float64(f.MinRating):
		return false
	}
	return true
}

// searchIndex is what search keeps between searches, for one catalogue
// version.
type searchIndex struct {
	// WarmMinProducts is how many products a word must be in for
	// WarmSearch to score it in advance (0: warmMinProducts).
	warmMinProducts int

	mu       sync.Mutex
	version  int64 // catalogue version the rest belongs to
	facets   *facetTable
	keys     map[string]string    // search word → its wordKey
	words    map[string]*wordHits // wordKey → its hits
	wordHits int                  // hits held in words
	tick     uint64               // use clock for evicting words
	facetsMu sync.Mutex
	// scored counts the FTS5 queries run, so tests can tell a search
	// composed from kept hits from one scored live.
	scored atomic.Int64
}

func newSearchIndex() *searchIndex {
	return &searchIndex{version: -1, keys: map[string]string{}, words: map[string]*wordHits{}}
}

// sync drops what was kept for another catalogue version and returns the
// current one.
func (db *DB) syncSearch(ctx context.Context) (int64, error) {
	v, err := db.CatalogVersion(ctx)
	if err != nil {
		return 0, err
	}
	s := db.search
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.version != v {
		s.version = v
		s.keys = map[string]string{}
		s.words = map[string]*wordHits{}
		s.wordHits = 0
		s.facets = nil
	}
	return v, nil
}

type wordHits struct {
	hits []searchHit // by key
	used uint64
}

// match is a hit that passed the filters, with what the sort orders need;
// rank is the product id's place in id order, the tie-break.
type match struct {
	key   int64
	score float64
	price shop.Cents
	rank  int32
}

// facetTable is the catalogue's facets in product id order, found by key
// through a slice when keys are dense (SQLite rowids are) or a map when not.
type facetTable struct {
	rows   []productFacet
	dense  []int32 // key → index+1, 0 when no product
	sparse map[int64]int32
}

func newFacetTable(rows []productFacet) *facetTable {
	t := &facetTable{rows: rows}
	var maxKey int64
	for _, r := range rows {
		maxKey = max(maxKey, r.Key)
	}
	if maxKey < 4*int64(len(rows))+1024 {
		t.dense = make([]int32, maxKey+1)
		for i, r := range rows {
			if r.Key >= 0 {
				t.dense[r.Key] = int32(i + 1)
			}
		}
		return t
	}
	t.sparse = make(map[int64]int32, len(rows))
	for i, r := range rows {
		t.sparse[r.Key] = int32(i + 1)
	}
	return t
}

// find returns the index of the product with key, or -1.
func (t *facetTable) find(key int64) int {
	if t.dense != nil {
		if key < 0 || key >= int64(len(t.dense)) {
			return -1
		}
		return int(t.dense[key]) - 1
	}
	return int(t.sparse[key]) - 1
}

// Search answers a filter: with a Query from the FTS index and the kept
// hits, without one by a plain query.
func (db *DB) Search(ctx context.Context, f shop.ProductFilter) (shop.ProductPage, error) {
	if f.Query == "" {
		return db.List(ctx, f, sqlstore.Clause{}, sqlstore.Clause{})
	}
	words := shop.SearchWords(f.Query)
	if len(words) == 0 {
		return shop.ProductPage{}, nil
	}
	version, err := db.syncSearch(ctx)
	if err != nil {
		return shop.ProductPage{}, fmt.Errorf("search: %w", err)
	}
	facets, err := db.productFacets(ctx, version)
	if err != nil {
		return shop.ProductPage{}, err
	}
	hits, err := db.hits(ctx, version, words)
	if err != nil {
		return shop.ProductPage{}, err
	}
	// The option filter is asked of the variants table: only searches
	// that use it pay for it.
	var withOptions map[int64]bool
	if f.HasOptions() {
		if withOptions, err = db.withOptions(ctx, f); err != nil {
			return shop.ProductPage{}, err
		}
	}
	matched := make([]match, 0, len(hits))
	for _, h := range hits {
		if withOptions != nil && !withOptions[h.Key] {
			continue
		}
		if i := facets.find(h.Key); i >= 0 && facets.rows[i].matches(&f) {
			matched = append(matched, match{key: h.Key, score: h.Score, price: facets.rows[i].Price, rank: int32(i)})
		}
	}
	page := shop.ProductPage{Total: len(matched)}
	lo := max(f.Offset(), 0)
	if lo >= len(matched) || f.PageSize <= 0 {
		return page, nil
	}
	hi := min(lo+f.PageSize, len(matched))
	top := firstK(matched, hi, order(f.Sort))
	keys := make([]int64, 0, hi-lo)
	for _, m := range top[lo:hi] {
		keys = append(keys, m.key)
	}
	// A product removed by an import that the facets have not seen yet is
	// skipped.
	page.Products, err = db.productsByKey(ctx, keys)
	if err != nil {
		return shop.ProductPage{}, err
	}
	return page, nil
}

// withOptions returns the keys of the products with a variant that has
// f's option values.
func (db *DB) withOptions(ctx context.Context, f shop.ProductFilter) (map[int64]bool, error) {
	cond, args := sqlstore.OptionMatch(f)
	rows, err := db.Query(ctx, `SELECT p.rowid FROM products p WHERE `+cond, args...)
	keys, err := sqlstore.Collect(db.Store, rows, err, "option filter", func(rows *sql.Rows) (k int64, err error) {
		err = rows.Scan(&k)
		return k, err
	})
	if err != nil {
		return nil, err
	}
	out := make(map[int64]bool, len(keys))
	for _, k := range keys {
		out[k] = true
	}
	return out, nil
}

// order is a sort order of the catalogue as a comparison; the product id
// breaks ties, as in listings, so every page has one answer.
func order(sort string) func(a, b match) int {
	switch sort {
	case shop.SortPriceAsc:
		return func(a, b match) int { return cmp.Or(cmp.Compare(a.price, b.price), cmp.Compare(a.rank, b.rank)) }
	case shop.SortPriceDesc:
		return func(a, b match) int { return cmp.Or(cmp.Compare(b.price, a.price), cmp.Compare(b.rank, a.rank)) }
	default:
		return func(a, b match) int { return cmp.Or(cmp.Compare(a.score, b.score), cmp.Compare(a.rank, b.rank)) }
	}
}

// firstK puts the first k of m in order, in m[:k], and returns m[:k]. A
// page near the top of many matches only needs a bounded heap, not a sort
// of them all.
func firstK(m []match, k int, cmp func(a, b match) int) []match {
	if k >= len(m)/4 {
		slices.SortFunc(m, cmp)
		return m[:k]
	}
	h := m[:k] // a max-heap: h[0] is the worst of the best k so far
	for i := k/2 - 1; i >= 0; i-- {
		siftDown(h, i, cmp)
	}
	for _, x := range m[k:] {
		if cmp(x, h[0]) < 0 {
			h[0] = x
			siftDown(h, 0, cmp)
		}
	}
	slices.SortFunc(h, cmp)
	return h
}

func siftDown(h []match, i int, cmp func(a, b match) int) {
	for {
		worst := i
		if l := 2*i + 1; l < len(h) && cmp(h[l], h[worst]) > 0 {
			worst = l
		}
		if r := 2*i + 2; r < len(h) && cmp(h[r], h[worst]) > 0 {
			worst = r
		}
		if worst == i {
			return
		}
		h[i], h[worst] = h[worst], h[i]
		i = worst
	}
}

// hits returns the scored products matching all words: the kept hits of
// each word's key, and one store query for the words whose key is not
// kept. A single word's hits are kept for next time.
func (db *DB) hits(ctx context.Context, version int64, words []string) ([]searchHit, error) {
	s := db.search
	keys := make([]string, 0, len(words))
	var lists [][]searchHit
	var unkept []string
	var unkeptKey string
	for _, w := range words {
		key, err := db.cachedWordKey(ctx, version, w)
		if err != nil {
			return nil, err
		}
		if slices.Contains(keys, key) {
			continue // "walnut walnuts": one word twice
		}
		keys = append(keys, key)
		s.mu.Lock()
		s.tick++
		e := s.words[key]
		if e != nil {
			e.used = s.tick
		}
		s.mu.Unlock()
		if e != nil {
			lists = append(lists, e.hits)
		} else {
			unkept, unkeptKey = append(unkept, w), key
		}
	}
	if len(unkept) > 0 {
		live, err := db.searchHits(ctx, unkept)
		if err != nil {
			return nil, err
		}
		slices.SortFunc(live, byKey)
		if len(unkept) == 1 {
			s.keep(version, unkeptKey, live)
		}
		lists = append(lists, live)
	}
	return intersect(lists), nil
}

// cachedWordKey is w's wordKey, remembered for this catalogue.
func (db *DB) cachedWordKey(ctx context.Context, version int64, w string) (string, error) {
	s := db.search
	s.mu.Lock()
	key, ok := s.keys[w]
	s.mu.Unlock()
	if ok {
		return key, nil
	}
	key, err := db.wordKey(ctx, w)
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	if s.version == version {
		if len(s.keys) >= maxKeptWords {
			clear(s.keys)
		}
		s.keys[w] = key
	}
	s.mu.Unlock()
	return key, nil
}

func byKey(a, b searchHit) int { return cmp.Compare(a.Key, b.Key) }

// intersect merges hit lists ordered by key into the hits present in all of
// them, scores added. One list is returned as it is: callers only read.
func intersect(lists [][]searchHit) []searchHit {
	if len(lists) == 1 {
		return lists[0]
	}
	slices.SortFunc(lists, func(a, b []searchHit) int { return cmp.Compare(len(a), len(b)) })
	out := make([]searchHit, 0, len(lists[0]))
	pos := make([]int, len(lists))
next:
	for _, h := range lists[0] {
		score := h.Score
		for i := 1; i < len(lists); i++ {
			l, j := lists[i], pos[i]
			for j < len(l) && l[j].Key < h.Key {
				j++
			}
			pos[i] = j
			if j == len(l) {
				break next
			}
			if l[j].Key != h.Key {
				continue next
			}
			score += l[j].Score
		}
		out = append(out, searchHit{Key: h.Key, Score: score})
	}
	return out
}

// keep remembers a word's hits (ordered by key) if the catalogue has not
// changed since they were read, evicting the least recently used words
// beyond the bounds.
func (s *searchIndex) keep(version int64, word string, hits []searchHit) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.version != version || s.words[word] != nil || len(hits) > maxKeptHits {
		return
	}
	s.tick++
	s.words[word] = &wordHits{hits: hits, used: s.tick}
	s.wordHits += len(hits)
	for s.wordHits > maxKeptHits || len(s.words) > maxKeptWords {
		oldest := ""
		for w, e := range s.words {
			if w != word && (oldest == "" || e.used < s.words[oldest].used) {
				oldest = w
			}
		}
		s.wordHits -= len(s.words[oldest].hits)
		delete(s.words, oldest)
	}
}

// productFacets returns the facet snapshot of the current catalogue,
// loading it once per catalogue version.
func (db *DB) productFacets(ctx context.Context, version int64) (*facetTable, error) {
	s := db.search
	s.mu.Lock()
	facets := s.facets
	s.mu.Unlock()
	if facets != nil {
		return facets, nil
	}
	s.facetsMu.Lock() // one load at a time; the others wait for it
	defer s.facetsMu.Unlock()
	s.mu.Lock()
	facets = s.facets
	s.mu.Unlock()
	if facets != nil {
		return facets, nil
	}
	rows, err := db.allFacets(ctx)
	if err != nil {
		return nil, err
	}
	facets = newFacetTable(rows)
	s.mu.Lock()
	if s.version == version {
		s.facets = facets
	}
	s.mu.Unlock()
	return facets, nil
}

// WarmSearch loads the facets and scores the catalogue's frequent words in
// advance, so that the first search for them is as fast as the next. It
// stops early if the catalogue changes.
func (db *DB) WarmSearch(ctx context.Context) error {
	version, err := db.syncSearch(ctx)
	if err != nil {
		return fmt.Errorf("warm search: %w", err)
	}
	if _, err := db.productFacets(ctx, version); err != nil {
		return err
	}
	terms, err := db.frequentTerms(ctx, cmp.Or(db.search.warmMinProducts, warmMinProducts), warmMaxWords)
	if err != nil {
		return err
	}
	s := db.search
	for _, t := range terms {
		if err := ctx.Err(); err != nil {
			return err
		}
		key, err := db.cachedWordKey(ctx, version, t)
		if err != nil {
			return err
		}
		s.mu.Lock()
		changed, have := s.version != version, s.words[key] != nil
		s.mu.Unlock()
		if changed {
			return nil
		}
		if have {
			continue
		}
		hits, err := db.searchHits(ctx, []string{t})
		if err != nil {
			return err
		}
		slices.SortFunc(hits, byKey)
		s.keep(version, key, hits)
	}
	return nil
}
