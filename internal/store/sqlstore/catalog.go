package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/nocturne/storefront/internal/shop"
)

// Product returns one product on sale, or an ENOTFOUND.
func (s *Store) Product(ctx context.Context, id string) (*shop.Product, error) {
	p, err := ScanProduct(s.QueryRow(ctx, `SELECT `+ProductColumns+` FROM products p WHERE p.id = ? AND NOT p.hidden`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, shop.Errorf(shop.ENOTFOUND, shop.MsgProductNotFound)
	} else if err != nil {
		return nil, s.FormatError(err, "product "+id, nil)
	}
	return &p, nil
}

// ListingWhere is the WHERE clause of a listing or search for f's
// filters, with ? placeholders and their arguments: products on sale (not
// taken off the shop by staff), in f's category (or featured), price range
// and minimum rating.
func (s *Store) ListingWhere(f shop.ProductFilter) (string, []any) {
	conds := []string{"NOT p.hidden"}
	var args []any
	switch f.Category {
	case "":
	case shop.FeaturedCategory:
		conds = append(conds, "p.featured = "+s.d.True)
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
	if f.HasOptions() {
		cond, more := OptionMatch(f)
		conds = append(conds, cond)
		args = append(args, more...)
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// Clause is a piece of SQL with the arguments of its ? placeholders.
type Clause struct {
	SQL  string
	Args []any
}

// List answers a listing or search page: f's filters and, when searching,
// match, in f's order, where relevance orders by score (lower first). The
// total is counted by a second statement on the same condition; the
// product id breaks ties, so every page has one answer.
func (s *Store) List(ctx context.Context, f shop.ProductFilter, match, score Clause) (shop.ProductPage, error) {
	w, args := s.ListingWhere(f)
	if match.SQL != "" {
		w += " AND " + match.SQL
		args = append(args, match.Args...)
	}
	var page shop.ProductPage
	if err := s.QueryRow(ctx, `SELECT COUNT(*) FROM products p`+w, args...).Scan(&page.Total); err != nil {
		return page, s.FormatError(err, "count products", nil)
	}
	if page.Total == 0 || f.PageSize <= 0 || f.Offset() >= page.Total {
		return page, nil
	}
	order := " ORDER BY p.price_cents, p.id"
	switch {
	case f.Sort == shop.SortPriceDesc:
		order = " ORDER BY p.price_cents DESC, p.id DESC"
	case f.Sort == shop.SortRelevance && score.SQL != "":
		order = " ORDER BY " + score.SQL + ", p.id"
		args = append(args, score.Args...)
	}
	var err error
	page.Products, err = s.Products(ctx, "list products", `SELECT `+ProductColumns+` FROM products p`+w+order+` LIMIT ? OFFSET ?`,
		append(args, f.PageSize, max(f.Offset(), 0))...)
	return page, err
}

// Categories lists the category names, alphabetically by their bytes.
func (s *Store) Categories(ctx context.Context) ([]string, error) {
	return s.Strings(ctx, "categories", `SELECT name FROM categories ORDER BY name`+s.d.Bytewise)
}

// Strings runs a query of one text column and returns its values.
func (s *Store) Strings(ctx context.Context, what, q string, args ...any) ([]string, error) {
	rows, err := s.Query(ctx, q, args...)
	return Collect(s, rows, err, "list "+what, scanString)
}

// scanString scans a row of one text column.
func scanString(rows *sql.Rows) (v string, err error) {
	err = rows.Scan(&v)
	return v, err
}

// AllProducts returns the products on sale in id order (by bytes), for the
// catalogue service's in-memory copy.
func (s *Store) AllProducts(ctx context.Context) ([]shop.Product, error) {
	return s.Products(ctx, "all products", `SELECT `+ProductColumns+` FROM products p WHERE NOT p.hidden ORDER BY p.id`+s.d.Bytewise)
}

// CatalogVersion returns the catalogue's version, which every change to
// the catalogue raises, on whichever instance.
func (s *Store) CatalogVersion(ctx context.Context) (int64, error) {
	var v int64
	if err := s.QueryRow(ctx, `SELECT version FROM catalog_version WHERE id = 1`).Scan(&v); err != nil {
		return 0, s.FormatError(err, "catalogue version", nil)
	}
	return v, nil
}

// CountProducts counts the whole catalogue, hidden products included: the
// built-in catalogue is loaded only into a shop that has none.
func (s *Store) CountProducts(ctx context.Context) (int, error) {
	var n int
	if err := s.QueryRow(ctx, `SELECT COUNT(*) FROM products`).Scan(&n); err != nil {
		return 0, s.FormatError(err, "count products", nil)
	}
	return n, nil
}

// SearchTerms returns the words of product titles and categories with the
// number of products that use each, for "Did you mean". A search index
// holds stems ("headphon"), which make poor suggestions, so the words come
// from the text itself.
func (s *Store) SearchTerms(ctx context.Context) (map[string]int, error) {
	texts, err := s.Strings(ctx, "search terms", `SELECT title || ' ' || category FROM products`)
	if err != nil {
		return nil, err
	}
	out := map[string]int{}
	for _, text := range texts {
		for _, w := range shop.SearchWords(text) { // each word once per product
			if len(w) > 2 {
				out[w]++
			}
		}
	}
	return out, nil
}

// ReplaceCatalog upserts one source's catalogue in a single transaction:
// readers see the old catalogue or the new one, never half of each. An
// import owns the fields of the products it brings, except stock, which
// it sets only for a product it creates, and except products a staff
// member edited (staff_edited), which it neither updates nor removes.
// Imports take the catalogue's lock, so two instances (or an instance and
// the import command) never interleave theirs.
func (s *Store) ReplaceCatalog(ctx context.Context, source string, categories []string, products []shop.Product) error {
	return s.InTx(ctx, func(tx Tx) error {
		if err := tx.Lock(ctx, "catalog"); err != nil {
			return err
		}
		now := s.Now().Unix()
		if _, err := tx.Exec(ctx, `UPDATE catalog_version SET version = version + 1 WHERE id = 1`); err != nil {
			return s.FormatError(err, "import: bump catalogue version", nil)
		}
		// A product whose fields are all as imported is left alone, so a
		// re-import that changes nothing rewrites no row (nor, on SQLite,
		// its full-text index).
		upsert, err := tx.PrepareContext(ctx, s.Rebind(`INSERT INTO products AS p
			(id, title, description, category, price_cents, image, rating, review_count, featured, source, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET title = excluded.title, description = excluded.description,
				category = excluded.category, price_cents = excluded.price_cents, image = excluded.image,
				rating = excluded.rating, review_count = excluded.review_count, featured = excluded.featured,
				source = excluded.source, updated_at = excluded.updated_at, description_html = ''
			WHERE NOT p.staff_edited AND NOT (p.title = excluded.title AND p.description = excluded.description
				AND p.description_html = ''
				AND p.category = excluded.category AND p.price_cents = excluded.price_cents AND p.image = excluded.image
				AND p.rating = excluded.rating AND p.review_count = excluded.review_count
				AND p.featured = excluded.featured AND p.source = excluded.source)`))
		if err != nil {
			return s.FormatError(err, "import", nil)
		}
		defer upsert.Close()
		// An imported product is sold as one default variant, created with
		// the product and the import's stock; stock is never overwritten
		// after that.
		variant, err := tx.PrepareContext(ctx, s.Rebind(`INSERT INTO variants (id, product_id, position, stock, stock_changed_at)
			SELECT ?, ?, 1, ?, ? WHERE NOT EXISTS (SELECT 1 FROM variants WHERE product_id = ?) ON CONFLICT (id) DO NOTHING`))
		if err != nil {
			return s.FormatError(err, "import", nil)
		}
		defer variant.Close()
		cover, err := prepareCovers(ctx, tx)
		if err != nil {
			return s.FormatError(err, "import", nil)
		}
		defer cover.Close()
		imported := make(map[string]bool, len(products))
		for _, p := range products {
			imported[p.ID] = true
			res, err := upsert.ExecContext(ctx, p.ID, p.Title, p.Description, p.Category, p.Price, p.Image,
				p.Rating, p.ReviewCount, p.Featured, source, now)
			if err != nil {
				return s.FormatError(err, "import product "+p.ID, nil)
			}
			// Photo 1 is the cover just written; an import's product has
			// no description of its own for it but its title.
			if n, _ := res.RowsAffected(); n > 0 {
				if err := cover.set(ctx, p.ID, p.Image, p.Title); err != nil {
					return s.FormatError(err, "import product "+p.ID, nil)
				}
			}
			if _, err := variant.ExecContext(ctx, p.ID, p.ID, max(p.Stock, 0), now, p.ID); err != nil {
				return s.FormatError(err, "import product "+p.ID, nil)
			}
		}
		// The source's products it no longer brings go, unless staff edited
		// them.
		had, err := tx.Query(ctx, `SELECT id FROM products WHERE source = ? AND NOT staff_edited`, source)
		ids, err := Collect(s, had, err, "import: old products", scanString)
		if err != nil {
			return err
		}
		for _, id := range ids {
			if imported[id] {
				continue
			}
			if _, err := tx.Exec(ctx, `DELETE FROM products WHERE id = ?`, id); err != nil {
				return s.FormatError(err, "import: remove "+id, nil)
			}
		}
		for _, c := range categories {
			if _, err := tx.Exec(ctx, `INSERT INTO categories (name) VALUES (?) ON CONFLICT DO NOTHING`, c); err != nil {
				return s.FormatError(err, "import category "+c, nil)
			}
		}
		// A category no product uses any more is not offered in the filter;
		// one used by a product is, even if the source forgot to list it.
		if _, err := tx.Exec(ctx, `INSERT INTO categories (name) SELECT DISTINCT category FROM products WHERE true
			ON CONFLICT DO NOTHING`); err != nil {
			return s.FormatError(err, "import: categories", nil)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM categories WHERE NOT EXISTS
			(SELECT 1 FROM products p WHERE p.category = categories.name)`); err != nil {
			return s.FormatError(err, "import: prune categories", nil)
		}
		return nil
	})
}
