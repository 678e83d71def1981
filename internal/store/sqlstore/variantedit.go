package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/nocturne/storefront/internal/shop"
)

// The back office's editor of options and variants. Option edits take the
// catalogue's lock, as imports and product saves do, and work on the
// options as they are inside the transaction: a name or value that is gone
// is a conflict, never an edit of something else. Stock moves only by
// conditional updates or, when a variant goes, by the stock its DELETE
// returns, so a sale committed meanwhile is never undone.

// querier runs a query on the store or in a transaction.
type querier interface {
	Query(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// EditChoices returns a product's options and variants with each
// variant's own Price and Original (0: the product's).
func (s *Store) EditChoices(ctx context.Context, productID string) (shop.Choices, error) {
	return s.editChoices(ctx, s, productID)
}

func (s *Store) editChoices(ctx context.Context, q querier, productID string) (shop.Choices, error) {
	var c shop.Choices
	var err error
	if c.Options, err = s.options(ctx, q, productID); err != nil {
		return c, err
	}
	rows, err := q.Query(ctx, `SELECT id, sku, option1, option2, option3, COALESCE(price_cents, 0), COALESCE(original_price_cents, 0),
		stock, image, enabled FROM variants WHERE product_id = ? ORDER BY position, id`, productID)
	c.Variants, err = Collect(s, rows, err, "variants of "+productID, func(rows *sql.Rows) (v shop.Variant, err error) {
		var vals [3]string
		err = rows.Scan(&v.ID, &v.SKU, &vals[0], &vals[1], &vals[2], &v.Price, &v.Original, &v.Stock, &v.Image, &v.Enabled)
		v.ProductID, v.Values = productID, slices.Clone(vals[:len(c.Options)])
		return v, err
	})
	return c, err
}

// options reads a product's options with their values, in order.
func (s *Store) options(ctx context.Context, q querier, productID string) ([]shop.Option, error) {
	rows, err := q.Query(ctx, `SELECT o.name, COALESCE(v.value, ''), COALESCE(v.swatch, ''), COALESCE(v.position, 0) FROM product_options o
		LEFT JOIN option_values v ON v.product_id = o.product_id AND v.option = o.position
		WHERE o.product_id = ? ORDER BY o.position, v.position`, productID)
	type row struct {
		name, value, swatch string
		pos                 int
	}
	found, err := Collect(s, rows, err, "options of "+productID, func(rows *sql.Rows) (r row, err error) {
		err = rows.Scan(&r.name, &r.value, &r.swatch, &r.pos)
		return r, err
	})
	if err != nil {
		return nil, err
	}
	var out []shop.Option
	for _, r := range found {
		if n := len(out); n == 0 || out[n-1].Name != r.name {
			out = append(out, shop.Option{Name: r.name})
		}
		if r.pos > 0 {
			o := &out[len(out)-1]
			o.Values = append(o.Values, shop.OptionValue{Value: r.value, Swatch: r.swatch})
		}
	}
	return out, nil
}

// writeOptions replaces a product's options and values with opts (the
// positions follow the slice), leaving its variants alone.
func (s *Store) writeOptions(ctx context.Context, tx Tx, productID string, opts []shop.Option) error {
	if _, err := tx.Exec(ctx, `DELETE FROM product_options WHERE product_id = ?`, productID); err != nil {
		return s.FormatError(err, "options of "+productID, nil)
	}
	for i, o := range opts {
		if _, err := tx.Exec(ctx, `INSERT INTO product_options (product_id, position, name) VALUES (?, ?, ?)`, productID, i+1, o.Name); err != nil {
			return s.FormatError(err, "options of "+productID, nil)
		}
		for j, v := range o.Values {
			if _, err := tx.Exec(ctx, `INSERT INTO option_values (product_id, option, position, value, swatch) VALUES (?, ?, ?, ?, ?)`,
				productID, i+1, j+1, v.Value, v.Swatch); err != nil {
				return s.FormatError(err, "options of "+productID, nil)
			}
		}
	}
	return nil
}

// editOptions runs fn on the product's options, as they are now, in a
// transaction holding the catalogue's lock, then marks the product as
// edited by staff and bumps the catalogue version. An unknown product is
// an ENOTFOUND.
func (s *Store) editOptions(ctx context.Context, productID string, fn func(tx Tx, opts []shop.Option) error) error {
	return s.InTx(ctx, func(tx Tx) error {
		if err := tx.Lock(ctx, "catalog"); err != nil {
			return err
		}
		if err := s.touchProduct(ctx, tx, productID); err != nil {
			return err
		}
		opts, err := s.options(ctx, tx, productID)
		if err != nil {
			return err
		}
		return fn(tx, opts)
	})
}

// touchProduct marks a product as edited by staff and bumps the catalogue
// version, so every instance reloads it.
func (s *Store) touchProduct(ctx context.Context, tx Tx, productID string) error {
	res, err := tx.Exec(ctx, `UPDATE products SET staff_edited = TRUE, updated_at = ? WHERE id = ?`, s.Now().Unix(), productID)
	if err != nil {
		return s.FormatError(err, "edit product "+productID, nil)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return shop.Errorf(shop.ENOTFOUND, shop.MsgProductNotFound)
	}
	return bumpCatalog(ctx, tx)
}

func bumpCatalog(ctx context.Context, tx Tx) error {
	if _, err := tx.Exec(ctx, `UPDATE catalog_version SET version = version + 1 WHERE id = 1`); err != nil {
		return fmt.Errorf("bump catalogue version: %w", err)
	}
	return nil
}

// optionAt returns the index of the option called name, or the conflict
// that says the options changed.
func optionAt(opts []shop.Option, name string) (int, error) {
	for i, o := range opts {
		if o.Name == name {
			return i, nil
		}
	}
	return -1, shop.Errorf(shop.ECONFLICT, shop.MsgOptionsChanged)
}

// valueAt returns the index of value among o's values, or the conflict
// that says the options changed.
func valueAt(o shop.Option, value string) (int, error) {
	for i, v := range o.Values {
		if v.Value == value {
			return i, nil
		}
	}
	return -1, shop.Errorf(shop.ECONFLICT, shop.MsgOptionsChanged)
}

// column is the variants column holding the values of the option at index
// i (0, 1 or 2); never built from input.
func column(i int) string { return "option" + strconv.Itoa(i+1) }

// AddOption adds an option without values after the product's others.
func (s *Store) AddOption(ctx context.Context, productID, name string) error {
	return s.editOptions(ctx, productID, func(tx Tx, opts []shop.Option) error {
		for _, o := range opts {
			if strings.EqualFold(o.Name, name) {
				return shop.Errorf(shop.ECONFLICT, shop.MsgOptionExists, o.Name).WithField("name")
			}
		}
		if len(opts) >= shop.MaxOptions {
			return shop.Errorf(shop.EINVALID, shop.MsgTooManyOptions, shop.MaxOptions).WithField("name")
		}
		// Every variant has '' in the new option's column already: it
		// gets the option's first value when there is one.
		if _, err := tx.Exec(ctx, `INSERT INTO product_options (product_id, position, name) VALUES (?, ?, ?)`, productID, len(opts)+1, name); err != nil {
			return s.FormatError(err, "add option to "+productID, nil)
		}
		return nil
	})
}

// RenameOption renames one of the product's options.
func (s *Store) RenameOption(ctx context.Context, productID, name, to string) error {
	return s.editOptions(ctx, productID, func(tx Tx, opts []shop.Option) error {
		i, err := optionAt(opts, name)
		if err != nil {
			return err
		}
		for j, o := range opts {
			if j != i && strings.EqualFold(o.Name, to) {
				return shop.Errorf(shop.ECONFLICT, shop.MsgOptionExists, o.Name).WithField("name")
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE product_options SET name = ? WHERE product_id = ? AND position = ?`, to, productID, i+1); err != nil {
			return s.FormatError(err, "rename option of "+productID, nil)
		}
		return nil
	})
}

// RemoveOption removes an option with one value at most. The variants'
// later columns move down one; as they all had the same value (or none)
// for the option, no two of them become the same combination.
func (s *Store) RemoveOption(ctx context.Context, productID, name string) (shop.VariantChange, error) {
	var ch shop.VariantChange
	err := s.editOptions(ctx, productID, func(tx Tx, opts []shop.Option) error {
		ch = shop.VariantChange{}
		i, err := optionAt(opts, name)
		if err != nil {
			return err
		}
		if len(opts[i].Values) > 1 {
			return shop.Errorf(shop.EINVALID, shop.MsgOptionHasValues, name)
		}
		if err := s.writeOptions(ctx, tx, productID, slices.Delete(slices.Clone(opts), i, i+1)); err != nil {
			return err
		}
		var set []string
		for k := i; k < shop.MaxOptions; k++ {
			if k+1 < shop.MaxOptions {
				set = append(set, column(k)+" = "+column(k+1))
			} else {
				set = append(set, column(k)+" = ''")
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE variants SET `+strings.Join(set, ", ")+` WHERE product_id = ?`, productID); err != nil {
			return s.FormatError(err, "remove option of "+productID, nil)
		}
		if len(opts) > 1 {
			return nil
		}
		// No option left: the product is sold as its default variant
		// again. The variant that is left (one at most) goes, and the
		// stock its DELETE found moves to the default variant.
		ch.Deleted, err = s.deleteVariants(ctx, tx, `product_id = ? AND id <> ?`, productID, productID)
		if err != nil {
			return err
		}
		for _, v := range ch.Deleted {
			ch.Moved += v.Stock
		}
		ch.MovedTo = productID
		if _, err := tx.Exec(ctx, `INSERT INTO variants AS v (id, product_id, position, stock, stock_changed_at) VALUES (?, ?, 1, ?, ?)
			ON CONFLICT (id) DO UPDATE SET stock = v.stock + excluded.stock, stock_changed_at = excluded.stock_changed_at
			WHERE v.product_id = excluded.product_id`, productID, productID, ch.Moved, s.Now().Unix()); err != nil {
			return s.FormatError(err, "default variant of "+productID, nil)
		}
		return nil
	})
	return ch, err
}

// deleteVariants deletes the variants where says and returns them with the
// stock each had when it went.
func (s *Store) deleteVariants(ctx context.Context, tx Tx, where string, args ...any) ([]shop.Variant, error) {
	rows, err := tx.Query(ctx, `DELETE FROM variants WHERE `+where+`
		RETURNING id, product_id, sku, option1, option2, option3, stock, image, enabled`, args...)
	return Collect(s, rows, err, "delete variants", func(rows *sql.Rows) (v shop.Variant, err error) {
		var vals [3]string
		err = rows.Scan(&v.ID, &v.ProductID, &v.SKU, &vals[0], &vals[1], &vals[2], &v.Stock, &v.Image, &v.Enabled)
		for _, x := range vals {
			if x != "" {
				v.Values = append(v.Values, x)
			}
		}
		return v, err
	})
}

// AddOptionValue adds a value after the option's others.
func (s *Store) AddOptionValue(ctx context.Context, productID, option string, v shop.OptionValue) error {
	return s.editOptions(ctx, productID, func(tx Tx, opts []shop.Option) error {
		i, err := optionAt(opts, option)
		if err != nil {
			return err
		}
		o := opts[i]
		for _, x := range o.Values {
			if strings.EqualFold(x.Value, v.Value) {
				return shop.Errorf(shop.ECONFLICT, shop.MsgValueExists, o.Name, x.Value).WithField("value")
			}
		}
		if len(o.Values) >= shop.MaxOptionValues {
			return shop.Errorf(shop.EINVALID, shop.MsgTooManyValues, shop.MaxOptionValues).WithField("value")
		}
		if _, err := tx.Exec(ctx, `INSERT INTO option_values (product_id, option, position, value, swatch) VALUES (?, ?, ?, ?, ?)`,
			productID, i+1, len(o.Values)+1, v.Value, v.Swatch); err != nil {
			return s.FormatError(err, "add value to "+productID, nil)
		}
		if len(o.Values) > 0 {
			return nil
		}
		// Variants made before the option was added are of the one kind
		// the shop sold until now: its first value. (Never the default
		// variant: generating replaces it.)
		if _, err := tx.Exec(ctx, `UPDATE variants SET `+column(i)+` = ? WHERE product_id = ? AND id <> ? AND `+column(i)+` = ''`,
			v.Value, productID, productID); err != nil {
			return s.FormatError(err, "add value to "+productID, nil)
		}
		return nil
	})
}

// RemoveOptionValue removes a value and deletes the variants that have it.
func (s *Store) RemoveOptionValue(ctx context.Context, productID, option, value string) (shop.VariantChange, error) {
	var ch shop.VariantChange
	err := s.editOptions(ctx, productID, func(tx Tx, opts []shop.Option) error {
		i, err := optionAt(opts, option)
		if err != nil {
			return err
		}
		j, err := valueAt(opts[i], value)
		if err != nil {
			return err
		}
		if ch.Deleted, err = s.deleteVariants(ctx, tx, `product_id = ? AND id <> ? AND `+column(i)+` = ?`, productID, productID, value); err != nil {
			return err
		}
		opts[i].Values = slices.Delete(slices.Clone(opts[i].Values), j, j+1)
		return s.writeOptions(ctx, tx, productID, opts)
	})
	return ch, err
}

// MoveOptionValue moves a value up or down among its option's values.
func (s *Store) MoveOptionValue(ctx context.Context, productID, option, value string, by int) error {
	return s.editOptions(ctx, productID, func(tx Tx, opts []shop.Option) error {
		i, err := optionAt(opts, option)
		if err != nil {
			return err
		}
		j, err := valueAt(opts[i], value)
		if err != nil {
			return err
		}
		k := j + by
		if k < 0 || k >= len(opts[i].Values) {
			return nil
		}
		vals := slices.Clone(opts[i].Values)
		vals[j], vals[k] = vals[k], vals[j]
		opts[i].Values = vals
		if err := s.writeOptions(ctx, tx, productID, opts); err != nil {
			return err
		}
		return s.orderVariants(ctx, tx, productID, opts)
	})
}

// orderVariants numbers a product's variants in the order of their values:
// by the first option's values, then the second's, then the third's.
func (s *Store) orderVariants(ctx context.Context, tx Tx, productID string, opts []shop.Option) error {
	c, err := s.editChoices(ctx, tx, productID)
	if err != nil {
		return err
	}
	rank := func(v shop.Variant) []int {
		r := make([]int, len(opts))
		for i, o := range opts {
			r[i] = len(o.Values) // a value the option lacks sorts last
			if i < len(v.Values) {
				if j := slices.IndexFunc(o.Values, func(x shop.OptionValue) bool { return x.Value == v.Values[i] }); j >= 0 {
					r[i] = j
				}
			}
		}
		return r
	}
	vs := c.Variants
	slices.SortStableFunc(vs, func(a, b shop.Variant) int { return slices.Compare(rank(a), rank(b)) })
	for n, v := range vs {
		if _, err := tx.Exec(ctx, `UPDATE variants SET position = ? WHERE id = ? AND position <> ?`, n+1, v.ID, n+1); err != nil {
			return s.FormatError(err, "order variants of "+productID, nil)
		}
	}
	return nil
}

// maxIDTries bounds the suffixes tried for a variant id that is taken.
const maxIDTries = 50

// AddVariants creates the listed combinations the product does not sell
// yet. See shop.VariantAdminStore.
func (s *Store) AddVariants(ctx context.Context, productID string, vs []shop.Variant) (shop.VariantChange, error) {
	var ch shop.VariantChange
	err := s.editOptions(ctx, productID, func(tx Tx, opts []shop.Option) error {
		ch = shop.VariantChange{}
		if len(opts) == 0 {
			return shop.Errorf(shop.ECONFLICT, shop.MsgOptionsChanged)
		}
		for _, v := range vs {
			if len(v.Values) != len(opts) {
				return shop.Errorf(shop.ECONFLICT, shop.MsgOptionsChanged)
			}
			for i, x := range v.Values {
				if _, err := valueAt(opts[i], x); err != nil {
					return err
				}
			}
		}
		rows, err := tx.Query(ctx, `SELECT option1, option2, option3 FROM variants WHERE product_id = ?`, productID)
		have, err := Collect(s, rows, err, "variants of "+productID, func(rows *sql.Rows) (k [3]string, err error) {
			err = rows.Scan(&k[0], &k[1], &k[2])
			return k, err
		})
		if err != nil {
			return err
		}
		sold := map[[3]string]bool{}
		for _, k := range have {
			sold[k] = true
		}
		now := s.Now().Unix()
		for _, v := range vs {
			var key [3]string
			copy(key[:], v.Values)
			if sold[key] {
				continue
			}
			sold[key] = true
			id, err := s.insertVariant(ctx, tx, productID, v, key, now)
			if err != nil {
				return err
			}
			v.ID, v.ProductID = id, productID
			v.Values = slices.Clone(v.Values)
			ch.Created = append(ch.Created, v)
		}
		if len(ch.Created) == 0 {
			return nil
		}
		// The product is sold by its options now: its default variant
		// goes, and the stock its DELETE found (after any sale that
		// committed first) moves to the first variant created.
		gone, err := s.deleteVariants(ctx, tx, `id = ? AND product_id = ?`, productID, productID)
		if err != nil {
			return err
		}
		if len(gone) == 1 {
			ch.Deleted, ch.MovedTo, ch.Moved = gone, ch.Created[0].ID, gone[0].Stock
			if ch.Moved > 0 {
				if _, err := tx.Exec(ctx, `UPDATE variants SET stock = stock + ?, stock_changed_at = ? WHERE id = ?`,
					ch.Moved, now, ch.MovedTo); err != nil {
					return s.FormatError(err, "move stock to "+ch.MovedTo, nil)
				}
				ch.Created[0].Stock += ch.Moved
			}
		}
		return s.orderVariants(ctx, tx, productID, opts)
	})
	return ch, err
}

// insertVariant inserts one variant under v.ID, or under v.ID with the
// first free suffix when another product's variant holds that id, and
// returns the id it got.
func (s *Store) insertVariant(ctx context.Context, tx Tx, productID string, v shop.Variant, key [3]string, now int64) (string, error) {
	for n := 1; n <= maxIDTries; n++ {
		id := v.ID
		if n > 1 {
			id = fmt.Sprintf("%s-%d", v.ID, n)
		}
		// A product's own id is its default variant's, so it is not
		// taken for another product's variant either.
		res, err := tx.Exec(ctx, `INSERT INTO variants (id, product_id, position, sku, option1, option2, option3,
			price_cents, original_price_cents, stock, stock_changed_at, image, enabled)
			SELECT ?, ?, (SELECT COALESCE(MAX(position), 0) + 1 FROM variants WHERE product_id = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
			WHERE NOT EXISTS (SELECT 1 FROM products WHERE id = ? AND id <> ?)
			ON CONFLICT (id) DO NOTHING`,
			id, productID, productID, v.SKU, key[0], key[1], key[2], ownCents(v.Price), ownCents(v.Original), v.Stock, now, v.Image, v.Enabled,
			id, productID)
		if err != nil {
			return "", s.FormatError(err, "add variant "+id, Messages{shop.EINVALID: "Stock and prices cannot be negative."})
		}
		if n, _ := res.RowsAffected(); n == 1 {
			return id, nil
		}
	}
	return "", fmt.Errorf("add variant %s: no free id after %d tries", v.ID, maxIDTries)
}

// UpdateVariant saves a variant's own fields and its stock change.
func (s *Store) UpdateVariant(ctx context.Context, productID string, e shop.VariantEdit) error {
	return s.InTx(ctx, func(tx Tx) error {
		now := s.Now().Unix()
		if e.Stock != e.StockWas {
			if err := s.changeStock(ctx, tx, e.ID, productID, e.StockWas, e.Stock, now); err != nil {
				return err
			}
		}
		// Whether a variant is sold changes its product's stock as the
		// cards show it: stock_changed_at tells the instances' cards.
		res, err := tx.Exec(ctx, `UPDATE variants SET sku = ?, price_cents = ?, original_price_cents = ?, image = ?,
			stock_changed_at = CASE WHEN enabled = ? THEN stock_changed_at ELSE ? END, enabled = ?
			WHERE id = ? AND product_id = ?`,
			e.SKU, ownCents(e.Price), ownCents(e.Original), e.Image, e.Enabled, now, e.Enabled, e.ID, productID)
		if err != nil {
			return s.FormatError(err, "update variant "+e.ID, Messages{shop.EINVALID: "Prices cannot be negative."})
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return shop.Errorf(shop.ENOTFOUND, shop.MsgVariantGone)
		}
		return s.touchProduct(ctx, tx, productID)
	})
}

// SetVariantPrices gives the listed variants one price of their own.
func (s *Store) SetVariantPrices(ctx context.Context, productID string, ids []string, price shop.Cents) (int, error) {
	if len(ids) == 0 {
		return 0, nil
	}
	var n int64
	err := s.InTx(ctx, func(tx Tx) error {
		args := append([]any{ownCents(price), productID, ""}, anySlice(ids)...)
		res, err := tx.Exec(ctx, `UPDATE variants SET price_cents = ? WHERE product_id = ? AND id IN (`+placeholders(len(ids))+`)`, args...)
		if err != nil {
			return s.FormatError(err, "set prices of "+productID, Messages{shop.EINVALID: "Prices cannot be negative."})
		}
		n, _ = res.RowsAffected()
		return s.touchProduct(ctx, tx, productID)
	})
	return int(n), err
}

func anySlice(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// ChangeVariantStock moves a variant's stock from was to to, only while it
// is was.
func (s *Store) ChangeVariantStock(ctx context.Context, variantID string, was, to int) error {
	if to < 0 {
		return shop.Errorf(shop.EINVALID, "Stock cannot be negative.").WithField("stock")
	}
	if to == was {
		return nil
	}
	return s.InTx(ctx, func(tx Tx) error {
		if err := s.changeStock(ctx, tx, variantID, "", was, to, s.Now().Unix()); err != nil {
			return err
		}
		return bumpCatalog(ctx, tx)
	})
}

// changeStock applies the change from was to to of a variant's stock, only
// while the stored stock is was (and, when productID is set, the variant
// is the product's).
func (s *Store) changeStock(ctx context.Context, tx Tx, variantID, productID string, was, to int, now int64) error {
	res, err := tx.Exec(ctx, `UPDATE variants SET stock = stock + ?, stock_changed_at = ?
		WHERE id = ? AND stock = ? AND (? = '' OR product_id = ?)`, to-was, now, variantID, was, productID, productID)
	if err != nil {
		return s.FormatError(err, "change stock of "+variantID, Messages{shop.EINVALID: "Stock cannot be negative."})
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return nil
	}
	var stock int
	err = tx.QueryRow(ctx, `SELECT stock FROM variants WHERE id = ? AND (? = '' OR product_id = ?)`, variantID, productID, productID).Scan(&stock)
	if errors.Is(err, sql.ErrNoRows) {
		return shop.Errorf(shop.ENOTFOUND, shop.MsgVariantGone)
	} else if err != nil {
		return s.FormatError(err, "stock of "+variantID, nil)
	}
	return shop.Errorf(shop.ECONFLICT, shop.MsgStockMoved, stock).WithField("stock")
}
