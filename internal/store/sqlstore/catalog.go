package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

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

// Categories lists the category names, alphabetically by their bytes.
func (s *Store) Categories(ctx context.Context) ([]string, error) {
	return s.Strings(ctx, "categories", `SELECT name FROM categories ORDER BY name`+s.d.Bytewise)
}

// Strings runs a query of one text column and returns its values.
func (s *Store) Strings(ctx context.Context, what, q string, args ...any) ([]string, error) {
	rows, err := s.Query(ctx, q, args...)
	if err != nil {
		return nil, s.FormatError(err, "list "+what, nil)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, fmt.Errorf("scan %s: %w", what, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list %s: %w", what, err)
	}
	return out, nil
}

// AllProducts returns the products on sale in id order (by bytes), for the
// catalogue service's in-memory copy.
func (s *Store) AllProducts(ctx context.Context) ([]shop.Product, error) {
	rows, err := s.Query(ctx, `SELECT `+ProductColumns+` FROM products p WHERE NOT p.hidden ORDER BY p.id`+s.d.Bytewise)
	if err != nil {
		return nil, s.FormatError(err, "all products", nil)
	}
	return ScanProducts(rows)
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
