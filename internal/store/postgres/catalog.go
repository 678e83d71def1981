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

var _ shop.CatalogStore = (*DB)(nil)

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

// where builds the WHERE clause shared by listing and counting, with
// placeholders numbered from $1.
func where(f shop.ProductFilter) (string, []any) {
	conds := []string{"NOT p.hidden"} // taken off the shop by staff (issue 17)
	var args []any
	add := func(cond string, arg any) {
		args = append(args, arg)
		conds = append(conds, fmt.Sprintf(cond, len(args)))
	}
	switch f.Category {
	case "":
	case shop.FeaturedCategory:
		conds = append(conds, "p.featured")
	default:
		add("p.category = $%d", f.Category)
	}
	if f.MinPrice > 0 {
		add("p.price_cents >= $%d", f.MinPrice)
	}
	if f.MaxPrice > 0 {
		add("p.price_cents <= $%d", f.MaxPrice)
	}
	if f.MinRating > 0 {
		add("p.rating >= $%d", f.MinRating)
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// Search answers listings and searches in one statement: the filters,
// the full-text match on the products_search GIN index, the order and the
// page, with the total counted by a second statement on the same
// condition. Ranking is ts_rank summed per word (title A, category B,
// description C), the product id breaking ties.
func (db *DB) Search(ctx context.Context, f shop.ProductFilter) (shop.ProductPage, error) {
	w, args := where(f)
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

// ReplaceCatalog upserts one source's catalogue in a single transaction.
// An import owns the fields of the products it brings, except stock, which
// it sets only for a product it creates, and except products a staff
// member edited, which it neither updates nor removes (as on SQLite);
// imports are serialised by an advisory lock, so two instances (or an
// instance and the import command) never interleave theirs.
func (db *DB) ReplaceCatalog(ctx context.Context, source string, categories []string, products []shop.Product) error {
	return db.inTx(ctx, func(tx pgx.Tx) error {
		if err := lockKey(ctx, tx, "catalog"); err != nil {
			return err
		}
		now := db.Now().Unix()
		if _, err := tx.Exec(ctx, `UPDATE catalog_version SET version = version + 1 WHERE id = 1`); err != nil {
			return fmt.Errorf("import: bump catalogue version: %w", err)
		}
		batch := &pgx.Batch{}
		ids := make([]string, len(products))
		for i, p := range products {
			ids[i] = p.ID
			batch.Queue(`INSERT INTO products AS p
				(id, title, description, category, price_cents, image, rating, review_count, featured, source, updated_at, stock)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
				ON CONFLICT (id) DO UPDATE SET title = EXCLUDED.title, description = EXCLUDED.description,
					category = EXCLUDED.category, price_cents = EXCLUDED.price_cents, image = EXCLUDED.image,
					rating = EXCLUDED.rating, review_count = EXCLUDED.review_count, featured = EXCLUDED.featured,
					source = EXCLUDED.source, updated_at = EXCLUDED.updated_at
				WHERE NOT p.staff_edited AND (p.title, p.description, p.category, p.price_cents, p.image, p.rating, p.review_count, p.featured, p.source)
					IS DISTINCT FROM (EXCLUDED.title, EXCLUDED.description, EXCLUDED.category, EXCLUDED.price_cents, EXCLUDED.image,
					EXCLUDED.rating, EXCLUDED.review_count, EXCLUDED.featured, EXCLUDED.source)`,
				p.ID, p.Title, p.Description, p.Category, p.Price, p.Image, p.Rating, p.ReviewCount, p.Featured, source, now, max(p.Stock, 0))
		}
		if err := tx.SendBatch(ctx, batch).Close(); err != nil {
			return fmt.Errorf("import products: %w", err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM products WHERE source = $1 AND NOT staff_edited AND NOT (id = ANY($2))`, source, ids); err != nil {
			return fmt.Errorf("import: remove old products: %w", err)
		}
		// A category no product uses any more is not offered in the filter;
		// one used by a product is, even if the source forgot to list it.
		if _, err := tx.Exec(ctx, `INSERT INTO categories (name)
			SELECT unnest($1::text[]) UNION SELECT DISTINCT category FROM products
			ON CONFLICT (name) DO NOTHING`, categories); err != nil {
			return fmt.Errorf("import categories: %w", err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM categories c WHERE NOT EXISTS (SELECT 1 FROM products p WHERE p.category = c.name)`); err != nil {
			return fmt.Errorf("import: prune categories: %w", err)
		}
		return nil
	})
}

// lockKey takes a transaction-level advisory lock on a name (hashed to
// 64 bits: a collision only serialises two unrelated transactions), so
// transactions on the same thing (one wishlist line, one cart's checkout)
// run one after the other across every instance, as SQLite's single
// writer makes them.
func lockKey(ctx context.Context, tx pgx.Tx, name string) error {
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, name); err != nil {
		return fmt.Errorf("lock %s: %w", name, err)
	}
	return nil
}
