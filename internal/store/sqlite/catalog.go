package sqlite

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/store/sqlstore"
)

var _ shop.SearchWarmer = (*DB)(nil)

// The product columns and their scanning are the shared store's.
const productColumns = sqlstore.ProductColumns

// scanProduct is sqlstore.ScanProduct called directly (through a function
// variable, the compiler could not keep its extra targets on the stack).
func scanProduct(row interface{ Scan(...any) error }, extra ...any) (shop.Product, error) {
	return sqlstore.ScanProduct(row, extra...)
}

// MatchExpression turns search words into an FTS5 query: every word must
// match, each as a prefix ("head" finds "headphones"), except a word of one
// or two characters, which matches whole words ("tv" finds "TV", "4" finds
// "4", not 40 or 400): as a prefix it would match a large part of the
// catalogue in no useful order, and scoring that many matches costs tens of
// milliseconds at 100,000 products. Words are quoted, so FTS5 operators in
// the input are just text.
func MatchExpression(words []string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = `"` + strings.ReplaceAll(w, `"`, `""`) + `"`
		if !wholeWordOnly(w) {
			quoted[i] += "*"
		}
	}
	return strings.Join(quoted, " ")
}

// wholeWordOnly reports whether a search word matches whole words only.
func wholeWordOnly(w string) bool { return utf8.RuneCountInString(w) < minPrefix }

// minPrefix is the shortest word that matches as a prefix.
const minPrefix = 3

// searchHits scores every match with the table's rank, bm25 with weights
// title 10, description 2, category 4 (migration 00003). bm25 sums one
// term per phrase, each with its own IDF, which is what makes the scores
// of separate words add up.
func (db *DB) searchHits(ctx context.Context, words []string) ([]searchHit, error) {
	if len(words) == 0 {
		return nil, nil
	}
	db.search.scored.Add(1)
	rows, err := db.Query(ctx, `SELECT rowid, rank FROM products_fts WHERE products_fts MATCH ?`, MatchExpression(words))
	return sqlstore.Collect(db.Store, rows, err, "search", func(rows *sql.Rows) (h searchHit, err error) {
		err = rows.Scan(&h.Key, &h.Score)
		return h, err
	})
}

// wordKey is the set of index terms a search word matches as a prefix,
// after stemming: "walnuts" and "walnut" both match the terms starting
// with "walnut". A word the tokenizer splits, or a prefix of more than
// maxKeyTerms terms, is its own key.
func (db *DB) wordKey(ctx context.Context, word string) (string, error) {
	if wholeWordOnly(word) {
		return "whole:" + word, nil
	}
	terms, err := db.stem.terms(ctx, word)
	if err != nil {
		return "", err
	}
	if len(terms) != 1 {
		return "word:" + word, nil
	}
	prefix := terms[0]
	// Terms from prefix up to, not including, prefix with its last byte
	// incremented (UTF-8 has no 0xFF byte, so that cannot overflow).
	upper := prefix[:len(prefix)-1] + string([]byte{prefix[len(prefix)-1] + 1})
	matched, err := db.Strings(ctx, "terms of "+word, `SELECT term FROM products_vocab WHERE term >= ? AND term < ? ORDER BY term LIMIT ?`,
		prefix, upper, maxKeyTerms+1)
	if err != nil {
		return "", err
	}
	if len(matched) > maxKeyTerms {
		return "prefix:" + prefix, nil
	}
	return "terms:" + strings.Join(matched, " "), nil
}

// maxKeyTerms bounds the terms listed in a word key; broader prefixes
// ("w") are rarely shared anyway.
const maxKeyTerms = 32

// frequentTerms lists up to limit index terms that at least minProducts
// products hold, the most frequent first.
func (db *DB) frequentTerms(ctx context.Context, minProducts, limit int) ([]string, error) {
	return db.Strings(ctx, "frequent terms", `SELECT term FROM products_vocab WHERE doc >= ? ORDER BY doc DESC, term LIMIT ?`, minProducts, limit)
}

// allFacets reads the filterable fields of the whole catalogue.
func (db *DB) allFacets(ctx context.Context) ([]productFacet, error) {
	rows, err := db.Query(ctx, `SELECT rowid, id, category, price_cents, rating, featured FROM products WHERE hidden = 0 ORDER BY id`)
	return sqlstore.Collect(db.Store, rows, err, "product facets", func(rows *sql.Rows) (f productFacet, err error) {
		err = rows.Scan(&f.Key, &f.ID, &f.Category, &f.Price, &f.Rating, &f.Featured)
		return f, err
	})
}

// productsByKey fetches a page of products by rowid, in the order given;
// rowids of products that no longer exist are skipped.
func (db *DB) productsByKey(ctx context.Context, keys []int64) ([]shop.Product, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	// The keys travel as one JSON array, so the statement text is the same
	// for every page and its prepared statement is kept.
	list := make([]string, len(keys))
	for i, k := range keys {
		list[i] = strconv.FormatInt(k, 10)
	}
	rows, err := db.Query(ctx, `SELECT `+productColumns+`, p.rowid FROM products p
		WHERE p.hidden = 0 AND p.rowid IN (SELECT value FROM json_each(?))`, "["+strings.Join(list, ",")+"]")
	if err != nil {
		return nil, db.FormatError(err, "products by key", nil)
	}
	defer rows.Close()
	// Scanned straight into the map (no slice in between): a page of
	// search results is read on every search, and the slice's growth was
	// most of its allocations.
	byKey := make(map[int64]shop.Product, len(keys))
	for rows.Next() {
		var key int64
		p, err := scanProduct(rows, &key)
		if err != nil {
			return nil, db.FormatError(err, "products by key", nil)
		}
		byKey[key] = p
	}
	if err := rows.Err(); err != nil {
		return nil, db.FormatError(err, "products by key", nil)
	}
	out := make([]shop.Product, 0, len(keys))
	for _, k := range keys {
		if p, ok := byKey[k]; ok {
			out = append(out, p)
		}
	}
	return out, nil
}
