package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/nocturne/storefront/internal/shop"
)

// Choices returns a product's options, with their values, and its
// variants, in order. A product without options has none and its one
// default variant.
func (s *Store) Choices(ctx context.Context, productID string) (shop.Choices, error) {
	all, err := s.choices(ctx, "p.id = ?", productID)
	return all[productID], err
}

// AllChoices returns the options and variants of every product that has
// options, by product id, for the catalogue in memory.
func (s *Store) AllChoices(ctx context.Context) (map[string]shop.Choices, error) {
	return s.choices(ctx, "EXISTS (SELECT 1 FROM product_options o WHERE o.product_id = p.id)")
}

// choices reads the options and variants of the products (p) where says.
func (s *Store) choices(ctx context.Context, where string, args ...any) (map[string]shop.Choices, error) {
	out := map[string]shop.Choices{}
	rows, err := s.Query(ctx, `SELECT o.product_id, o.name, COALESCE(v.value, ''), COALESCE(v.swatch, '') FROM product_options o
		JOIN products p ON p.id = o.product_id
		LEFT JOIN option_values v ON v.product_id = o.product_id AND v.option = o.position
		WHERE `+where+` ORDER BY o.product_id, o.position, v.position`, args...)
	type row struct{ product, name, value, swatch string }
	values, err := Collect(s, rows, err, "options", func(rows *sql.Rows) (r row, err error) {
		err = rows.Scan(&r.product, &r.name, &r.value, &r.swatch)
		return r, err
	})
	if err != nil {
		return nil, err
	}
	for _, r := range values {
		c := out[r.product]
		if n := len(c.Options); n == 0 || c.Options[n-1].Name != r.name {
			c.Options = append(c.Options, shop.Option{Name: r.name})
		}
		if r.value != "" {
			o := &c.Options[len(c.Options)-1]
			o.Values = append(o.Values, shop.OptionValue{Value: r.value, Swatch: r.swatch})
		}
		out[r.product] = c
	}
	rows, err = s.Query(ctx, `SELECT v.product_id, v.id, v.sku, v.option1, v.option2, v.option3, COALESCE(v.price_cents, p.price_cents),
		COALESCE(v.original_price_cents, p.original_price_cents), v.stock, v.image, v.enabled
		FROM variants v JOIN products p ON p.id = v.product_id WHERE `+where+` ORDER BY v.product_id, v.position, v.id`, args...)
	variants, err := Collect(s, rows, err, "variants", func(rows *sql.Rows) (v shop.Variant, err error) {
		var vals [3]string
		err = rows.Scan(&v.ProductID, &v.ID, &v.SKU, &vals[0], &vals[1], &vals[2], &v.Price, &v.Original, &v.Stock, &v.Image, &v.Enabled)
		v.Values = vals[:]
		return v, err
	})
	if err != nil {
		return nil, err
	}
	for _, v := range variants {
		c := out[v.ProductID]
		v.Values = v.Values[:len(c.Options)]
		c.Variants = append(c.Variants, v)
		out[v.ProductID] = c
	}
	return out, nil
}

// VariantStock returns the stock of a product's variants, in the order
// Choices lists them (a disabled variant has none to sell): what a product
// page reads live beside the catalogue in memory.
func (s *Store) VariantStock(ctx context.Context, productID string) ([]int, error) {
	rows, err := s.Query(ctx, `SELECT CASE WHEN enabled THEN stock ELSE 0 END FROM variants WHERE product_id = ? ORDER BY position, id`, productID)
	return Collect(s, rows, err, "variant stock", func(rows *sql.Rows) (n int, err error) {
		err = rows.Scan(&n)
		return n, err
	})
}

// OptionMatch is the condition that a product (p) has an enabled variant
// with every option value f asks for.
func OptionMatch(f shop.ProductFilter) (string, []any) {
	var conds []string
	var args []any
	for _, o := range f.Options {
		if o.Name == "" {
			continue
		}
		var either []string
		for i := 1; i <= shop.MaxOptions; i++ {
			either = append(either, fmt.Sprintf(`(LOWER(v.option%d) = ? AND EXISTS (SELECT 1 FROM product_options o
				WHERE o.product_id = v.product_id AND o.position = %d AND LOWER(o.name) = ?))`, i, i))
			args = append(args, strings.ToLower(o.Value), strings.ToLower(o.Name))
		}
		conds = append(conds, "("+strings.Join(either, " OR ")+")")
	}
	return `EXISTS (SELECT 1 FROM variants v WHERE v.product_id = p.id AND v.enabled AND ` + strings.Join(conds, " AND ") + `)`, args
}

// SetChoices replaces a product's options and variants. Variants are kept
// by id: a new one starts with its Stock, a kept one keeps the stock it
// has (stock only ever moves by checked changes), and one no longer listed
// goes, with its lines in carts. A variant's Price or Original of 0 is
// the product's. Options are at most shop.MaxOptions; each
// variant has one value per option.
func (s *Store) SetChoices(ctx context.Context, productID string, c shop.Choices) error {
	if len(c.Options) > shop.MaxOptions {
		return shop.Errorf(shop.EINVALID, "A product can have at most %d options.", shop.MaxOptions)
	}
	return s.InTx(ctx, func(tx Tx) error {
		if err := tx.Lock(ctx, "catalog"); err != nil {
			return err
		}
		now := s.Now().Unix()
		if _, err := tx.Exec(ctx, `DELETE FROM product_options WHERE product_id = ?`, productID); err != nil {
			return s.FormatError(err, "set options of "+productID, nil)
		}
		for i, o := range c.Options {
			if _, err := tx.Exec(ctx, `INSERT INTO product_options (product_id, position, name) VALUES (?, ?, ?)`, productID, i+1, o.Name); err != nil {
				return s.FormatError(err, "set options of "+productID, unknownProduct)
			}
			for j, v := range o.Values {
				if _, err := tx.Exec(ctx, `INSERT INTO option_values (product_id, option, position, value, swatch) VALUES (?, ?, ?, ?, ?)`,
					productID, i+1, j+1, v.Value, v.Swatch); err != nil {
					return s.FormatError(err, "set options of "+productID, Messages{shop.ECONFLICT: "An option has the same value twice."})
				}
			}
		}
		// The "" stands for no variant, so the list is never empty.
		keep := make([]any, 0, len(c.Variants)+2)
		keep = append(keep, productID, "")
		for _, v := range c.Variants {
			keep = append(keep, v.ID)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM variants WHERE product_id = ? AND id NOT IN (`+placeholders(len(c.Variants))+`)`, keep...); err != nil {
			return s.FormatError(err, "set variants of "+productID, nil)
		}
		for i, v := range c.Variants {
			if len(v.Values) != len(c.Options) {
				return shop.Errorf(shop.EINVALID, "Variant %s needs one value for each of the %d options.", v.ID, len(c.Options))
			}
			var vals [3]string
			copy(vals[:], v.Values)
			_, err := tx.Exec(ctx, `INSERT INTO variants AS v (id, product_id, position, sku, option1, option2, option3,
				price_cents, original_price_cents, stock, stock_changed_at, image, enabled)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (id) DO UPDATE SET position = excluded.position, sku = excluded.sku, option1 = excluded.option1,
					option2 = excluded.option2, option3 = excluded.option3, price_cents = excluded.price_cents,
					original_price_cents = excluded.original_price_cents, image = excluded.image, enabled = excluded.enabled
				WHERE v.product_id = excluded.product_id`,
				v.ID, productID, i+1, v.SKU, vals[0], vals[1], vals[2], ownCents(v.Price), ownCents(v.Original), v.Stock, now, v.Image, v.Enabled)
			if err != nil {
				return s.FormatError(err, "set variant "+v.ID, Messages{
					shop.ECONFLICT: "Two variants have the same combination of values.",
					shop.EINVALID:  "Stock and prices cannot be negative."})
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE catalog_version SET version = version + 1 WHERE id = 1`); err != nil {
			return fmt.Errorf("set choices: bump catalogue version: %w", err)
		}
		return nil
	})
}

// ownCents is a variant's own amount, or NULL for the product's.
func ownCents(c shop.Cents) any {
	if c == 0 {
		return nil
	}
	return c
}

// placeholders is "?, ?, …": one, then one for each of n values.
func placeholders(n int) string {
	out := "?"
	for range n {
		out += ", ?"
	}
	return out
}
