package postgres

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/store/sqlstore"
)

// Search answers listings and searches in the shared store's statement:
// the filters, the full-text match on the products_search GIN index, the
// order and the page. Ranking is ts_rank summed per word (title A,
// category B, description C).
func (db *DB) Search(ctx context.Context, f shop.ProductFilter) (shop.ProductPage, error) {
	if f.Query == "" {
		return db.List(ctx, f, sqlstore.Clause{}, sqlstore.Clause{})
	}
	words := shop.SearchWords(f.Query)
	if len(words) == 0 {
		return shop.ProductPage{}, nil
	}
	match, score := searchQuery(words)
	return db.List(ctx, f, match, score)
}

// minPrefix is the shortest word that matches as a prefix; shorter ones
// match whole words ("tv", "4"), as on SQLite.
const minPrefix = 3

// lexeme is a search word as to_tsquery input: quoted, so operators in
// it are text, and with :* to match as a prefix. to_tsquery stems it with
// the index's own configuration, so "walnuts" matches "walnut".
func lexeme(w string) string {
	q := "'" + strings.ReplaceAll(w, "'", "''") + "'"
	if utf8.RuneCountInString(w) >= minPrefix {
		q += ":*"
	}
	return q
}

// searchQuery is the match condition and score of words: every word must
// match; the score is the sum of each word's ts_rank, negated so that
// ascending order puts the most relevant first.
func searchQuery(words []string) (match, score sqlstore.Clause) {
	var ms, ss []string
	for _, w := range words {
		ms = append(ms, "p.search @@ to_tsquery('nocturne', ?)")
		ss = append(ss, "ts_rank(p.search, to_tsquery('nocturne', ?))")
		match.Args = append(match.Args, lexeme(w))
	}
	match.SQL = strings.Join(ms, " AND ")
	score.SQL, score.Args = "-("+strings.Join(ss, " + ")+")", match.Args
	return match, score
}
