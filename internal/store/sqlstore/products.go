package sqlstore

import (
	"context"
	"database/sql"

	"github.com/nocturne/storefront/internal/shop"
)

// ProductColumns are a product's columns (the table as p), with its
// photo's hash and size from the images table, and its stock and price
// span from its enabled variants, in scanProduct's order. Columns added
// later go at the end, so callers scanning extra columns after these are
// not disturbed.
const ProductColumns = `p.id, p.title, p.description, p.category, p.price_cents, p.image, p.rating, p.review_count, p.featured,
	COALESCE((SELECT SUM(v.stock) FROM variants v WHERE v.product_id = p.id AND v.enabled), 0),
	p.original_price_cents, p.hidden,
	COALESCE((SELECT i.hash FROM images i WHERE i.url = p.image), ''),
	COALESCE((SELECT i.width FROM images i WHERE i.url = p.image), 0),
	COALESCE((SELECT i.height FROM images i WHERE i.url = p.image), 0),
	COALESCE((SELECT MIN(COALESCE(v.price_cents, p.price_cents)) FROM variants v WHERE v.product_id = p.id AND v.enabled), p.price_cents),
	COALESCE((SELECT MAX(COALESCE(v.price_cents, p.price_cents)) FROM variants v WHERE v.product_id = p.id AND v.enabled), p.price_cents),
	(SELECT COUNT(*) FROM product_options o WHERE o.product_id = p.id),
	p.description_html,
	(SELECT COUNT(*) FROM product_photos ph WHERE ph.product_id = p.id),
	NOT p.returnable`

// ScanProduct scans ProductColumns, then into extra any columns after them.
func ScanProduct(row interface{ Scan(...any) error }, extra ...any) (shop.Product, error) {
	var p shop.Product
	err := row.Scan(append([]any{&p.ID, &p.Title, &p.Description, &p.Category, &p.Price, &p.Image, &p.Rating, &p.ReviewCount, &p.Featured,
		&p.Stock, &p.Original, &p.Hidden, &p.Photo.Hash, &p.Photo.Width, &p.Photo.Height, &p.PriceMin, &p.PriceMax, &p.OptionCount,
		&p.DescriptionHTML, &p.PhotoCount, &p.FinalSale}, extra...)...)
	return p, err
}

// Products runs a query of ProductColumns and returns its products.
func (s *Store) Products(ctx context.Context, what, q string, args ...any) ([]shop.Product, error) {
	rows, err := s.Query(ctx, q, args...)
	return Collect(s, rows, err, what, scanProductRow)
}

// scanProductRow is ScanProduct as Collect calls it.
func scanProductRow(rows *sql.Rows) (shop.Product, error) { return ScanProduct(rows) }

// unknownProduct is what a cart or wishlist change for a product that is
// not (or no longer) in the catalogue breaks: the foreign key.
var unknownProduct = Messages{shop.ENOTFOUND: shop.MsgUnknownProduct}
