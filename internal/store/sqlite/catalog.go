package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/nocturne/storefront/internal/shop"
)

var _ shop.CatalogStore = (*DB)(nil)

// The photo columns are subqueries rather than a join so that every query
// keeps its plain "FROM products p"; each is one primary-key lookup.
const productColumns = `p.id, p.title, p.description, p.category, p.price_cents, p.image, p.rating, p.review_count, p.featured,
	COALESCE((SELECT i.hash FROM images i WHERE i.url = p.image), ''),
	COALESCE((SELECT i.width FROM images i WHERE i.url = p.image), 0),
	COALESCE((SELECT i.height FROM images i WHERE i.url = p.image), 0)`

// scanProduct scans productColumns, then into extra any columns after them.
func scanProduct(row interface{ Scan(...any) error }, extra ...any) (shop.Product, error) {
	var p shop.Product
	err := row.Scan(append([]any{&p.ID, &p.Title, &p.Description, &p.Category, &p.Price, &p.Image, &p.Rating, &p.ReviewCount, &p.Featured,
		&p.Photo.Hash, &p.Photo.Width, &p.Photo.Height}, extra...)...)
	return p, err
}

// Product returns one product or an ENOTFOUND.
func (db *DB) Product(ctx context.Context, id string) (*shop.Product, error) {
	p, err := scanProduct(db.queryRow(ctx, `SELECT `+productColumns+` FROM products p WHERE p.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, shop.Errorf(shop.ENOTFOUND, "Failed to load product details. Please try again later.")
	} else if err != nil {
		return nil, fmt.Errorf("product %s: %w", id, err)
	}
	return &p, nil
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

// where builds the WHERE clause shared by listing and counting.
func where(f shop.ProductFilter) (string, []any) {
	var conds []string
	var args []any
	switch f.Category {
	case "":
	case shop.FeaturedCategory:
		conds = append(conds, "p.featured = 1")
	default:
		conds = append(conds, "p.category = ?")
		args = append(args, f.Category)
	}
	if f.MinPrice > 0 {
		conds = append(conds, "p.price_cents >= ?")
		args = append(args, f.MinPrice)
	}
	if f.MaxPrice > 0 {
		conds = append(conds, "p.price_cents <= ?")
		args = append(args, f.MaxPrice)
	}
	if f.MinRating > 0 {
		conds = append(conds, "p.rating >= ?")
		args = append(args, f.MinRating)
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

var errSearchInList = errors.New("a search goes through SearchHits, not a listing")

// ListProducts returns one page of the products f selects.
func (db *DB) ListProducts(ctx context.Context, f shop.ProductFilter) ([]shop.Product, error) {
	if f.Query != "" {
		return nil, errSearchInList
	}
	w, args := where(f)
	order := " ORDER BY p.price_cents, p.id"
	if f.Sort == shop.SortPriceDesc {
		order = " ORDER BY p.price_cents DESC, p.id DESC"
	}
	rows, err := db.query(ctx, `SELECT `+productColumns+` FROM products p`+w+order+` LIMIT ? OFFSET ?`,
		append(args, f.PageSize, f.Offset())...)
	if err != nil {
		return nil, fmt.Errorf("list products: %w", err)
	}
	defer rows.Close()
	out := make([]shop.Product, 0, f.PageSize)
	for rows.Next() {
		p, err := scanProduct(rows)
		if err != nil {
			return nil, fmt.Errorf("scan product: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// CountMatching counts the products f selects.
func (db *DB) CountMatching(ctx context.Context, f shop.ProductFilter) (int, error) {
	if f.Query != "" {
		return 0, errSearchInList
	}
	w, args := where(f)
	var n int
	if err := db.queryRow(ctx, `SELECT COUNT(*) FROM products p`+w, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("count products: %w", err)
	}
	return n, nil
}

// SearchHits scores every match with the table's rank, bm25 with weights
// title 10, description 2, category 4 (migration 00003). bm25 sums one
// term per phrase, each with its own IDF, which is what makes the scores
// of separate words add up.
func (db *DB) SearchHits(ctx context.Context, words []string) ([]shop.SearchHit, error) {
	if len(words) == 0 {
		return nil, nil
	}
	rows, err := db.query(ctx, `SELECT rowid, rank FROM products_fts WHERE products_fts MATCH ?`, MatchExpression(words))
	if err != nil {
		return nil, fmt.Errorf("search %q: %w", words, err)
	}
	defer rows.Close()
	var out []shop.SearchHit
	for rows.Next() {
		var h shop.SearchHit
		if err := rows.Scan(&h.Key, &h.Score); err != nil {
			return nil, fmt.Errorf("scan search hit: %w", err)
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// WordKey is the set of index terms a search word matches as a prefix,
// after stemming: "walnuts" and "walnut" both match the terms starting
// with "walnut". A word the tokenizer splits, or a prefix of more than
// maxKeyTerms terms, is its own key.
func (db *DB) WordKey(ctx context.Context, word string) (string, error) {
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
	matched, err := db.strings(ctx, "terms of "+word, `SELECT term FROM products_vocab WHERE term >= ? AND term < ? ORDER BY term LIMIT ?`,
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

// FrequentTerms lists up to limit index terms that at least minProducts
// products hold, the most frequent first.
func (db *DB) FrequentTerms(ctx context.Context, minProducts, limit int) ([]string, error) {
	return db.strings(ctx, "frequent terms", `SELECT term FROM products_vocab WHERE doc >= ? ORDER BY doc DESC, term LIMIT ?`, minProducts, limit)
}

// ProductFacets reads the filterable fields of the whole catalogue.
func (db *DB) ProductFacets(ctx context.Context) ([]shop.ProductFacet, error) {
	var n int
	if err := db.queryRow(ctx, `SELECT COUNT(*) FROM products`).Scan(&n); err != nil {
		return nil, fmt.Errorf("product facets: %w", err)
	}
	rows, err := db.query(ctx, `SELECT rowid, id, category, price_cents, rating, featured FROM products ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("product facets: %w", err)
	}
	defer rows.Close()
	out := make([]shop.ProductFacet, 0, n)
	for rows.Next() {
		var f shop.ProductFacet
		if err := rows.Scan(&f.Key, &f.ID, &f.Category, &f.Price, &f.Rating, &f.Featured); err != nil {
			return nil, fmt.Errorf("scan product facet: %w", err)
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// ProductsByKey fetches a page of products by search key, in key order.
func (db *DB) ProductsByKey(ctx context.Context, keys []int64) ([]shop.Product, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	args := make([]any, len(keys))
	for i, k := range keys {
		args[i] = k
	}
	// Not a kept statement: its text varies with the number of keys.
	rows, err := db.db.QueryContext(ctx, `SELECT `+productColumns+`, p.rowid FROM products p
		WHERE p.rowid IN (?`+strings.Repeat(", ?", len(keys)-1)+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("products by key: %w", err)
	}
	defer rows.Close()
	byKey := make(map[int64]shop.Product, len(keys))
	for rows.Next() {
		var key int64
		p, err := scanProduct(rows, &key)
		if err != nil {
			return nil, fmt.Errorf("scan product: %w", err)
		}
		byKey[key] = p
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("products by key: %w", err)
	}
	out := make([]shop.Product, 0, len(keys))
	for _, k := range keys {
		if p, ok := byKey[k]; ok {
			out = append(out, p)
		}
	}
	return out, nil
}

// Categories lists the category names, alphabetically.
func (db *DB) Categories(ctx context.Context) ([]string, error) {
	return db.strings(ctx, "categories", `SELECT name FROM categories ORDER BY name`)
}

// AllProductIDs lists every product id (for the sitemap).
func (db *DB) AllProductIDs(ctx context.Context) ([]string, error) {
	return db.strings(ctx, "product ids", `SELECT id FROM products ORDER BY id`)
}

func (db *DB) strings(ctx context.Context, what, q string, args ...any) ([]string, error) {
	rows, err := db.query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", what, err)
	}
	return scanStrings(rows, what)
}

// scanStrings reads a one-column result of text and closes it.
func scanStrings(rows *sql.Rows, what string) ([]string, error) {
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, fmt.Errorf("scan %s: %w", what, err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list %s: %w", what, err)
	}
	return out, nil
}

// AllProducts returns the whole catalogue in id order, for the service's
// in-memory copy.
func (db *DB) AllProducts(ctx context.Context) ([]shop.Product, error) {
	rows, err := db.query(ctx, `SELECT `+productColumns+` FROM products p ORDER BY p.id`)
	if err != nil {
		return nil, fmt.Errorf("all products: %w", err)
	}
	defer rows.Close()
	var out []shop.Product
	for rows.Next() {
		p, err := scanProduct(rows)
		if err != nil {
			return nil, fmt.Errorf("scan product: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// CatalogVersion returns the catalogue's version, which every
// ReplaceCatalog raises.
func (db *DB) CatalogVersion(ctx context.Context) (int64, error) {
	var v int64
	if err := db.queryRow(ctx, `SELECT version FROM catalog_version WHERE id = 1`).Scan(&v); err != nil {
		return 0, fmt.Errorf("catalogue version: %w", err)
	}
	return v, nil
}

// FeaturedProducts returns up to limit featured products, cheapest first.
func (db *DB) FeaturedProducts(ctx context.Context, limit int) ([]shop.Product, error) {
	return db.ListProducts(ctx, shop.ProductFilter{Category: shop.FeaturedCategory, Page: 1, PageSize: limit})
}

// CountProducts counts the whole catalogue.
func (db *DB) CountProducts(ctx context.Context) (int, error) {
	return db.CountMatching(ctx, shop.ProductFilter{})
}

// ReplaceCatalog upserts one source's catalogue in a single transaction:
// readers see the old catalogue or the new one, never half of each.
func (db *DB) ReplaceCatalog(ctx context.Context, source string, categories []string, products []shop.Product) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		now := db.now().Unix()
		if _, err := tx.ExecContext(ctx, `UPDATE catalog_version SET version = version + 1 WHERE id = 1`); err != nil {
			return fmt.Errorf("import: bump catalogue version: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `CREATE TEMP TABLE IF NOT EXISTS import_ids (id TEXT PRIMARY KEY)`); err != nil {
			return fmt.Errorf("import: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM temp.import_ids`); err != nil {
			return fmt.Errorf("import: %w", err)
		}
		upsert, err := tx.PrepareContext(ctx, `INSERT INTO products
			(id, title, description, category, price_cents, image, rating, review_count, featured, source, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET title = excluded.title, description = excluded.description,
				category = excluded.category, price_cents = excluded.price_cents, image = excluded.image,
				rating = excluded.rating, review_count = excluded.review_count, featured = excluded.featured,
				source = excluded.source, updated_at = excluded.updated_at
			WHERE (title, description, category, price_cents, image, rating, review_count, featured, source)
				IS NOT (excluded.title, excluded.description, excluded.category, excluded.price_cents, excluded.image,
				excluded.rating, excluded.review_count, excluded.featured, excluded.source)`)
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		defer upsert.Close()
		keep, err := tx.PrepareContext(ctx, `INSERT OR IGNORE INTO temp.import_ids (id) VALUES (?)`)
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		defer keep.Close()
		for _, p := range products {
			if _, err := upsert.ExecContext(ctx, p.ID, p.Title, p.Description, p.Category, p.Price, p.Image,
				p.Rating, p.ReviewCount, p.Featured, source, now); err != nil {
				return fmt.Errorf("import product %s: %w", p.ID, err)
			}
			if _, err := keep.ExecContext(ctx, p.ID); err != nil {
				return fmt.Errorf("import: %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM products WHERE source = ? AND id NOT IN (SELECT id FROM temp.import_ids)`, source); err != nil {
			return fmt.Errorf("import: remove old products: %w", err)
		}
		for _, c := range categories {
			if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO categories (name) VALUES (?)`, c); err != nil {
				return fmt.Errorf("import category %s: %w", c, err)
			}
		}
		// A category no product uses any more is not offered in the filter;
		// one used by a product is, even if the source forgot to list it.
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO categories (name) SELECT DISTINCT category FROM products`); err != nil {
			return fmt.Errorf("import: categories: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM categories WHERE name NOT IN (SELECT DISTINCT category FROM products)`); err != nil {
			return fmt.Errorf("import: prune categories: %w", err)
		}
		return nil
	})
}

// SearchTerms returns the words of product titles and categories with the
// number of products that use each. The FTS index holds stems ("headphon"),
// which make poor suggestions, so the words come from the text itself.
func (db *DB) SearchTerms(ctx context.Context) (map[string]int, error) {
	rows, err := db.query(ctx, `SELECT title || ' ' || category FROM products`)
	if err != nil {
		return nil, fmt.Errorf("search terms: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var text string
		if err := rows.Scan(&text); err != nil {
			return nil, fmt.Errorf("scan terms: %w", err)
		}
		for _, w := range shop.SearchWords(text) { // each word once per product
			if len(w) > 2 {
				out[w]++
			}
		}
	}
	return out, rows.Err()
}
