package postgres

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/store/sqlstore"
)

// The product columns are the shared store's.
const productColumns = sqlstore.ProductColumns

// scanProduct scans productColumns from a pgx row (search and the order
// claim read through pgx), then into extra any columns after them.
func scanProduct(row pgx.Row, extra ...any) (shop.Product, error) {
	return sqlstore.ScanProduct(row, extra...)
}

func (db *DB) products(ctx context.Context, what, q string, args ...any) ([]shop.Product, error) {
	rows, err := db.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (shop.Product, error) { return scanProduct(row) })
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return out, nil
}

// Search answers listings and searches in one statement: the filters,
// the full-text match on the products_search GIN index, the order and the
// page, with the total counted by a second statement on the same
// condition. Ranking is ts_rank summed per word (title A, category B,
// description C), the product id breaking ties.
func (db *DB) Search(ctx context.Context, f shop.ProductFilter) (shop.ProductPage, error) {
	// The filters are the shared store's, numbered from $1.
	w, args := db.ListingWhere(f)
	w = db.Rebind(w)
	order := " ORDER BY p.price_cents, p.id"
	if f.Sort == shop.SortPriceDesc {
		order = " ORDER BY p.price_cents DESC, p.id DESC"
	}
	if f.Query != "" {
		words := shop.SearchWords(f.Query)
		if len(words) == 0 {
			return shop.ProductPage{}, nil
		}
		match, score, sargs := searchQuery(words, len(args)+1)
		args = append(args, sargs...)
		w += " AND " + match
		if f.Sort == shop.SortRelevance {
			order = " ORDER BY " + score + ", p.id"
		}
	}
	var page shop.ProductPage
	if err := db.pool.QueryRow(ctx, `SELECT COUNT(*) FROM products p`+w, args...).Scan(&page.Total); err != nil {
		return page, fmt.Errorf("count products: %w", err)
	}
	if page.Total == 0 || f.PageSize <= 0 || f.Offset() >= page.Total {
		return page, nil
	}
	n := len(args)
	var err error
	page.Products, err = db.products(ctx, "list products", `SELECT `+productColumns+` FROM products p`+w+order+
		fmt.Sprintf(` LIMIT $%d OFFSET $%d`, n+1, n+2), append(args, f.PageSize, max(f.Offset(), 0))...)
	return page, err
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

// searchQuery is the match condition and score of words, with
// placeholders from $first: every word must match; the score is the sum of
// each word's ts_rank (title A, category B, description C), negated so
// that ascending order puts the most relevant first.
func searchQuery(words []string, first int) (match, score string, args []any) {
	var ms, ss []string
	for i, w := range words {
		q := fmt.Sprintf("to_tsquery('nocturne', $%d)", first+i)
		ms = append(ms, "p.search @@ "+q)
		ss = append(ss, "ts_rank(p.search, "+q+")")
		args = append(args, lexeme(w))
	}
	return strings.Join(ms, " AND "), "-(" + strings.Join(ss, " + ") + ")", args
}
