package catalog

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// How a search is answered.
//
// The store finds and scores the matches (SQLite FTS5, bm25); this file
// filters, orders and pages them. bm25 scores every match before a LIMIT
// can apply, and a word that one product in eight contains means 12,500
// scorings, about 22 ms at 100,000 products: too slow to do per search.
// Two facts make it cheap:
//
//   - a product's bm25 score for several words is the sum of its scores for
//     each word (bm25 adds one term per word, each with its own IDF), and the
//     products matching all the words are those matching each of them;
//   - the words shoppers search for are few and repeat.
//
// So the Service keeps each searched word's scored hits, ordered by key
// (the catalogue's frequent words are scored in advance by Warm), and a
// query is the intersection of its words' hits with their scores added: the
// same ranking the store would give for the whole query, up to
// floating-point rounding. Hits are kept under the word's WordKey, so
// "walnuts" uses the hits of "walnut" and "wirel" those of "wireless".
// Words not kept yet are scored together in one store query. Filters, sort
// orders and pages then work in memory on a snapshot of every product's
// facets (id, category, price, rating, featured).

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

type wordHits struct {
	hits []shop.SearchHit // by key
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
	rows   []shop.ProductFacet
	dense  []int32 // key → index+1, 0 when no product
	sparse map[int64]int32
}

func newFacetTable(rows []shop.ProductFacet) *facetTable {
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

// search answers a filter with a Query.
func (s *Service) search(ctx context.Context, f shop.ProductFilter) (shop.ProductPage, error) {
	words := searchWords(f.Query)
	if len(words) == 0 {
		return shop.ProductPage{}, nil
	}
	facets, err := s.productFacets(ctx)
	if err != nil {
		return shop.ProductPage{}, err
	}
	hits, err := s.hits(ctx, words)
	if err != nil {
		return shop.ProductPage{}, err
	}
	matched := make([]match, 0, len(hits))
	for _, h := range hits {
		if i := facets.find(h.Key); i >= 0 && facets.rows[i].Matches(&f) {
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
	snap, err := s.current(ctx)
	if err != nil {
		return shop.ProductPage{}, err
	}
	page.Products = make([]shop.Product, 0, hi-lo)
	for _, m := range top[lo:hi] {
		// A product removed by an import that the facets have not seen yet
		// is skipped, as the store would.
		if p, ok := snap.byID[facets.rows[m.rank].ID]; ok {
			page.Products = append(page.Products, *p)
		}
	}
	return page, nil
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
func (s *Service) hits(ctx context.Context, words []string) ([]shop.SearchHit, error) {
	s.mu.Lock()
	version := s.version
	s.mu.Unlock()
	keys := make([]string, 0, len(words))
	var lists [][]shop.SearchHit
	var unkept []string
	var unkeptKey string
	for _, w := range words {
		key, err := s.wordKey(ctx, w)
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
		live, err := s.Store.SearchHits(ctx, unkept)
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

// wordKey is the store's WordKey of w, remembered for this catalogue.
func (s *Service) wordKey(ctx context.Context, w string) (string, error) {
	s.mu.Lock()
	key, ok := s.keys[w]
	version := s.version
	s.mu.Unlock()
	if ok {
		return key, nil
	}
	key, err := s.Store.WordKey(ctx, w)
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

func byKey(a, b shop.SearchHit) int { return cmp.Compare(a.Key, b.Key) }

// intersect merges hit lists ordered by key into the hits present in all of
// them, scores added. One list is returned as it is: callers only read.
func intersect(lists [][]shop.SearchHit) []shop.SearchHit {
	if len(lists) == 1 {
		return lists[0]
	}
	slices.SortFunc(lists, func(a, b []shop.SearchHit) int { return cmp.Compare(len(a), len(b)) })
	out := make([]shop.SearchHit, 0, len(lists[0]))
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
		out = append(out, shop.SearchHit{Key: h.Key, Score: score})
	}
	return out
}

// keep remembers a word's hits (ordered by key) if the catalogue has not
// changed since they were read, evicting the least recently used words
// beyond the bounds.
func (s *Service) keep(version int, word string, hits []shop.SearchHit) {
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
func (s *Service) productFacets(ctx context.Context) (*facetTable, error) {
	s.mu.Lock()
	facets := s.facets
	s.mu.Unlock()
	if facets != nil {
		return facets, nil
	}
	s.facetsMu.Lock() // one load at a time; the others wait for it
	defer s.facetsMu.Unlock()
	s.mu.Lock()
	facets, version := s.facets, s.version
	s.mu.Unlock()
	if facets != nil {
		return facets, nil
	}
	rows, err := s.Store.ProductFacets(ctx)
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

// Warm loads the facets and scores the catalogue's frequent words in
// advance, so that the first search for them is as fast as the next. It
// runs in the background after start and after each import, and stops
// early if the catalogue changes again. A failure is logged as well as
// returned: searches then score their words live.
func (s *Service) Warm(ctx context.Context) (err error) {
	start := time.Now()
	defer func() {
		if err != nil && ctx.Err() == nil {
			s.Log.Warn("search warm-up failed; searches score live", "err", err)
		}
	}()
	s.mu.Lock()
	version := s.version
	s.mu.Unlock()
	if _, err := s.productFacets(ctx); err != nil {
		return err
	}
	terms, err := s.Store.FrequentTerms(ctx, cmp.Or(s.WarmMinProducts, warmMinProducts), warmMaxWords)
	if err != nil {
		return err
	}
	for _, t := range terms {
		if err := ctx.Err(); err != nil {
			return err
		}
		key, err := s.wordKey(ctx, t)
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
		hits, err := s.Store.SearchHits(ctx, []string{t})
		if err != nil {
			return err
		}
		slices.SortFunc(hits, byKey)
		s.keep(version, key, hits)
	}
	s.Log.Info("search warmed", "words", len(terms), "took", time.Since(start).Round(time.Millisecond).String())
	return nil
}
