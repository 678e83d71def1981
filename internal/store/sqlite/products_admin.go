package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/nocturne/storefront/internal/shop"
)

var _ shop.ProductAdminStore = (*DB)(nil)

// SourceStaff is the source of products created in the back office: no
// import owns them, so none removes them.
const SourceStaff = "staff"

// AdminProducts lists a page of all products, hidden ones included.
func (db *DB) AdminProducts(ctx context.Context, query string, page int) ([]shop.Product, int, error) {
	where, args := "", []any{}
	if q := strings.TrimSpace(query); q != "" {
		where = ` WHERE p.id LIKE ? ESCAPE '\' OR p.title LIKE ? ESCAPE '\'`
		like := "%" + strings.TrimSuffix(likePrefix(q), "%") + "%"
		args = append(args, like, like)
	}
	var total int
	if err := db.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM products p`+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count products: %w", err)
	}
	rows, err := db.SQL().QueryContext(ctx, `SELECT `+productColumns+` FROM products p`+where+` ORDER BY p.id LIMIT ? OFFSET ?`,
		append(args, shop.AdminProductsPageSize, (max(page, 1)-1)*shop.AdminProductsPageSize)...)
	if err != nil {
		return nil, 0, fmt.Errorf("admin products: %w", err)
	}
	defer rows.Close()
	var out []shop.Product
	for rows.Next() {
		p, err := scanProduct(rows)
		if err != nil {
			return nil, 0, fmt.Errorf("scan product: %w", err)
		}
		out = append(out, p)
	}
	return out, total, rows.Err()
}

// AdminProduct returns a product, hidden or not.
func (db *DB) AdminProduct(ctx context.Context, id string) (*shop.Product, error) {
	p, err := scanProduct(db.QueryRow(ctx, `SELECT `+productColumns+` FROM products p WHERE p.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, shop.Errorf(shop.ENOTFOUND, shop.MsgProductNotFound)
	} else if err != nil {
		return nil, fmt.Errorf("product %s: %w", id, err)
	}
	return &p, nil
}

// SaveProduct creates or updates a product as staff edited it.
func (db *DB) SaveProduct(ctx context.Context, e shop.ProductEdit) error {
	p := e.Product
	return db.inTx(ctx, func(tx *sql.Tx) error {
		now := db.Now().Unix()
		if e.New {
			_, err := tx.ExecContext(ctx, `INSERT INTO products (id, title, description, category, price_cents, original_price_cents,
				image, featured, hidden, stock, stock_changed_at, source, staff_edited, updated_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?) ON CONFLICT (id) DO NOTHING`,
				p.ID, p.Title, p.Description, p.Category, p.Price, p.Original, p.Image, p.Featured, p.Hidden, p.Stock, now, SourceStaff, now)
			if err != nil {
				return fmt.Errorf("create product: %w", err)
			}
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT changes()`).Scan(&n); err != nil {
				return fmt.Errorf("create product: %w", err)
			}
			if n == 0 {
				return shop.Errorf(shop.ECONFLICT, shop.MsgProductExists, p.ID)
			}
		} else {
			if p.Stock != e.StockWas {
				// A change checked against what is there: a sale since the
				// editor was loaded makes this match nothing.
				res, err := tx.ExecContext(ctx, `UPDATE products SET stock = stock + ?, stock_changed_at = ?
					WHERE id = ? AND stock = ?`, p.Stock-e.StockWas, now, p.ID, e.StockWas)
				if err != nil {
					return FormatError(err, "update stock", Messages{shop.EINVALID: "Stock cannot be negative."})
				}
				if n, _ := res.RowsAffected(); n == 0 {
					return stockMoved(ctx, tx, p.ID)
				}
			}
			res, err := tx.ExecContext(ctx, `UPDATE products SET title = ?, description = ?, category = ?, price_cents = ?,
				original_price_cents = ?, image = ?, featured = ?, hidden = ?,
				staff_edited = 1, updated_at = ? WHERE id = ?`,
				p.Title, p.Description, p.Category, p.Price, p.Original, p.Image, p.Featured, p.Hidden, now, p.ID)
			if err != nil {
				return fmt.Errorf("update product: %w", err)
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return shop.Errorf(shop.ENOTFOUND, shop.MsgProductNotFound)
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO categories (name) VALUES (?)`, p.Category); err != nil {
			return fmt.Errorf("save product: category: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM categories WHERE name NOT IN (SELECT DISTINCT category FROM products)`); err != nil {
			return fmt.Errorf("save product: prune categories: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE catalog_version SET version = version + 1 WHERE id = 1`); err != nil {
			return fmt.Errorf("save product: bump catalogue version: %w", err)
		}
		return nil
	})
}

// stockMoved explains a stock change that matched nothing: the product is
// gone, or its stock is no longer what the editor showed.
func stockMoved(ctx context.Context, tx *sql.Tx, id string) error {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT stock FROM products WHERE id = ?`, id).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return shop.Errorf(shop.ENOTFOUND, shop.MsgProductNotFound)
	} else if err != nil {
		return fmt.Errorf("stock of %s: %w", id, err)
	}
	return shop.Errorf(shop.ECONFLICT, shop.MsgStockMoved, n).WithField("stock")
}
