package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/nocturne/storefront/internal/shop"
)

var _ shop.CatalogStore = (*DB)(nil)

const productColumns = `p.id, p.title, p.description, p.category, p.price_cents, p.image, p.rating, p.review_count, p.featured`

func scanProduct(row interface{ Scan(...any) error }) (shop.Product, error) {
	var p shop.Product
	err := row.Scan(&p.ID, &p.Title, &p.Description, &p.Category, &p.Price, &p.Image, &p.Rating, &p.ReviewCount, &p.Featured)
	return p, err
}

// Product returns one product or an ENOTFOUND.
func (db *DB) Product(ctx context.Context, id string) (*shop.Product, error) {
	p, err := scanProduct(db.db.QueryRowContext(ctx, `SELECT `+productColumns+` FROM products p WHERE p.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, shop.Errorf(shop.ENOTFOUND, "Failed to load product details. Please try again later.")
	} else if err != nil {
		return nil, fmt.Errorf("product %s: %w", id, err)
	}
	return &p, nil
}

// MatchExpression turns what a shopper typed into an FTS5 query: every word
// must match, each as a prefix ("head" finds "headphones"). Words are quoted,
// so FTS5 operators in the input are just text. "" means nothing to search.
func MatchExpression(q string) string {
	words := strings.FieldsFunc(strings.ToLower(q), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for i, w := range words {
		words[i] = `"` + w + `"*`
	}
	return strings.Join(words, " ")
}

// where builds the WHERE clause shared by listing and counting.
func where(f shop.ProductFilter) (string, []any) {
	var conds []string
	var args []any
	if f.Query != "" {
		conds = append(conds, "products_fts MATCH ?")
		args = append(args, MatchExpression(f.Query))
	}
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

// onlyQuery reports whether f searches with no other constraint, so the
// full-text index alone can answer.
func onlyQuery(f shop.ProductFilter) bool {
	return f.Query != "" && f.Category == "" && f.MinPrice == 0 && f.MaxPrice == 0 && f.MinRating == 0
}

func from(f shop.ProductFilter) string {
	if f.Query != "" {
		return " FROM products_fts JOIN products p ON p.rowid = products_fts.rowid"
	}
	return " FROM products p"
}

// ListProducts returns one page of the products f matches.
func (db *DB) ListProducts(ctx context.Context, f shop.ProductFilter) ([]shop.Product, error) {
	if f.Query != "" && MatchExpression(f.Query) == "" {
		return nil, nil
	}
	w, args := where(f)
	order := " ORDER BY p.price_cents, p.id"
	switch {
	case f.Sort == shop.SortPriceDesc:
		order = " ORDER BY p.price_cents DESC, p.id DESC"
	case f.Query != "" && f.Sort == shop.SortRelevance:
		order = " ORDER BY products_fts.rank, p.id"
	}
	q := `SELECT ` + productColumns + from(f) + w + order + ` LIMIT ? OFFSET ?`
	if onlyQuery(f) && f.Sort == shop.SortRelevance {
		// Rank inside the index first and join only the page's rows: a
		// common word can match thousands of products.
		q = `SELECT ` + productColumns + ` FROM (SELECT rowid AS rid, rank FROM products_fts WHERE products_fts MATCH ?
			ORDER BY rank LIMIT ? OFFSET ?) f JOIN products p ON p.rowid = f.rid ORDER BY f.rank, p.id`
	}
	rows, err := db.db.QueryContext(ctx, q, append(args, f.PageSize, f.Offset())...)
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

// CountMatching counts the products f matches.
func (db *DB) CountMatching(ctx context.Context, f shop.ProductFilter) (int, error) {
	if f.Query != "" && MatchExpression(f.Query) == "" {
		return 0, nil
	}
	w, args := where(f)
	q := `SELECT COUNT(*)` + from(f) + w
	if onlyQuery(f) {
		q = `SELECT COUNT(*) FROM products_fts WHERE products_fts MATCH ?`
	}
	var n int
	if err := db.db.QueryRowContext(ctx, q, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("count products: %w", err)
	}
	return n, nil
}

// Categories lists the category names, alphabetically.
func (db *DB) Categories(ctx context.Context) ([]string, error) {
	return db.strings(ctx, "categories", `SELECT name FROM categories ORDER BY name`)
}

// AllProductIDs lists every product id (for the sitemap).
func (db *DB) AllProductIDs(ctx context.Context) ([]string, error) {
	return db.strings(ctx, "product ids", `SELECT id FROM products ORDER BY id`)
}

func (db *DB) strings(ctx context.Context, what, q string) ([]string, error) {
	rows, err := db.db.QueryContext(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", what, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, fmt.Errorf("scan %s: %w", what, err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
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
	rows, err := db.db.QueryContext(ctx, `SELECT title || ' ' || category FROM products`)
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
		seen := map[string]bool{}
		for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			if len(w) > 2 && !seen[w] {
				seen[w] = true
				out[w]++
			}
		}
	}
	return out, rows.Err()
}
