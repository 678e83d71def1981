package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/nocturne/storefront/internal/shop"
)

// ImportEntry writes one product of a catalogue file, whole, in one
// transaction under the catalogue's lock (as imports and the editor take
// it): a product is never half imported. See shop.CatalogFileStore.
//
// A product written from a file is marked staff_edited: a file is the
// staff's own statement of the product, which a later JSON import or
// catalogue sync must neither overwrite nor remove.
func (s *Store) ImportEntry(ctx context.Context, source string, e shop.CatalogEntry) (shop.EntryResult, error) {
	var res shop.EntryResult
	p := e.Product
	if len(e.Options) > shop.MaxOptions {
		return res, shop.Errorf(shop.EINVALID, "A product can have at most %d options.", shop.MaxOptions)
	}
	if len(e.Variants) == 0 {
		return res, shop.Errorf(shop.EINVALID, "A product needs at least one variant.")
	}
	for _, v := range e.Variants {
		if strings.TrimSpace(v.ID) == "" {
			return res, shop.Errorf(shop.EINVALID, "Every variant needs an id.")
		}
		if len(v.Values) != len(e.Options) {
			return res, shop.Errorf(shop.EINVALID, "Variant %s needs one value for each of the %d options.", v.ID, len(e.Options))
		}
	}
	err := s.InTx(ctx, func(tx Tx) error {
		res = shop.EntryResult{} // a retried transaction starts over
		if err := tx.Lock(ctx, "catalog"); err != nil {
			return err
		}
		now := s.Now().Unix()
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM products WHERE id = ?`, p.ID).Scan(&n); err != nil {
			return s.FormatError(err, "import "+p.ID, nil)
		}
		res.Created = n == 0
		had, err := entryVariants(ctx, s, tx, p.ID)
		if err != nil {
			return err
		}
		photos, err := entryPhotos(ctx, s, tx, p.ID, e.Photos)
		if err != nil {
			return err
		}

		if _, err := tx.Exec(ctx, `INSERT INTO products AS p (id, title, description, description_html, category, price_cents,
				original_price_cents, hidden, tags, source, staff_edited, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, TRUE, ?)
			ON CONFLICT (id) DO UPDATE SET title = excluded.title, description = excluded.description,
				description_html = excluded.description_html, category = excluded.category, price_cents = excluded.price_cents,
				original_price_cents = excluded.original_price_cents, hidden = excluded.hidden, tags = excluded.tags,
				staff_edited = TRUE, updated_at = excluded.updated_at`,
			p.ID, p.Title, p.Description, p.DescriptionHTML, p.Category, p.Price, p.Original, p.Hidden,
			strings.Join(e.Tags, ","), source, now); err != nil {
			return s.FormatError(err, "import "+p.ID, Messages{shop.EINVALID: "Prices cannot be negative."})
		}
		if err := s.setOptions(ctx, tx, p.ID, e.Options); err != nil {
			return err
		}
		if err := s.setEntryVariants(ctx, tx, e, had, now, &res); err != nil {
			return err
		}
		if err := s.setPhotos(ctx, tx, p.ID, photos); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO categories (name) VALUES (?) ON CONFLICT (name) DO NOTHING`, p.Category); err != nil {
			return fmt.Errorf("import %s: category: %w", p.ID, err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM categories WHERE NOT EXISTS (SELECT 1 FROM products p WHERE p.category = categories.name)`); err != nil {
			return fmt.Errorf("import %s: prune categories: %w", p.ID, err)
		}
		if _, err := tx.Exec(ctx, `UPDATE catalog_version SET version = version + 1 WHERE id = 1`); err != nil {
			return fmt.Errorf("import %s: bump catalogue version: %w", p.ID, err)
		}
		return nil
	})
	return res, err
}

// heldVariant is a variant the shop has, as an import matches it.
type heldVariant struct {
	id    string
	stock int
	image string
}

// comboKey names a combination of option values; variants are matched by
// it, so a variant keeps its id (and its lines in carts) whatever id a
// file would give it.
func comboKey(values []string) string { return strings.Join(values, "\x00") }

// entryVariants returns the product's variants by their values.
func entryVariants(ctx context.Context, s *Store, tx Tx, productID string) (map[string]heldVariant, error) {
	var options int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM product_options WHERE product_id = ?`, productID).Scan(&options); err != nil {
		return nil, s.FormatError(err, "variants of "+productID, nil)
	}
	rows, err := tx.Query(ctx, `SELECT id, option1, option2, option3, stock, image FROM variants WHERE product_id = ?`, productID)
	type row struct {
		key string
		v   heldVariant
	}
	list, err := Collect(s, rows, err, "variants of "+productID, func(rows *sql.Rows) (r row, err error) {
		var vals [3]string
		err = rows.Scan(&r.v.id, &vals[0], &vals[1], &vals[2], &r.v.stock, &r.v.image)
		r.key = comboKey(vals[:min(options, 3)])
		return r, err
	})
	if err != nil {
		return nil, err
	}
	out := make(map[string]heldVariant, len(list))
	for _, r := range list {
		out[r.key] = r.v
	}
	return out, nil
}

// webAddress reports whether an image is a web address a file can carry;
// anything else is an uploaded photo's name or a built-in asset.
func webAddress(image string) bool {
	return strings.HasPrefix(image, "https://") || strings.HasPrefix(image, "http://")
}

// entryPhotos is the gallery an import leaves: the product's photos that
// are not web addresses (uploaded in the editor, or built in), which no
// file can carry, first as they were, then the file's photos.
func entryPhotos(ctx context.Context, s *Store, tx Tx, productID string, file []shop.GalleryPhoto) ([]shop.GalleryPhoto, error) {
	rows, err := tx.Query(ctx, `SELECT url, alt FROM product_photos WHERE product_id = ? ORDER BY position`, productID)
	held, err := Collect(s, rows, err, "photos of "+productID, func(rows *sql.Rows) (ph shop.GalleryPhoto, err error) {
		err = rows.Scan(&ph.URL, &ph.Alt)
		return ph, err
	})
	if err != nil {
		return nil, err
	}
	var out []shop.GalleryPhoto
	seen := map[string]bool{}
	for _, ph := range held {
		if !webAddress(ph.URL) {
			out = append(out, ph)
			seen[ph.URL] = true
		}
	}
	for _, ph := range file {
		if !seen[ph.URL] {
			out = append(out, ph)
			seen[ph.URL] = true
		}
	}
	return out, nil
}

// setOptions replaces a product's options and their values inside tx.
func (s *Store) setOptions(ctx context.Context, tx Tx, productID string, options []shop.Option) error {
	if _, err := tx.Exec(ctx, `DELETE FROM product_options WHERE product_id = ?`, productID); err != nil {
		return s.FormatError(err, "set options of "+productID, nil)
	}
	for i, o := range options {
		if _, err := tx.Exec(ctx, `INSERT INTO product_options (product_id, position, name) VALUES (?, ?, ?)`, productID, i+1, o.Name); err != nil {
			return s.FormatError(err, "set options of "+productID, nil)
		}
		for j, v := range o.Values {
			if _, err := tx.Exec(ctx, `INSERT INTO option_values (product_id, option, position, value, swatch) VALUES (?, ?, ?, ?, ?)`,
				productID, i+1, j+1, v.Value, v.Swatch); err != nil {
				return s.FormatError(err, "set options of "+productID, Messages{shop.ECONFLICT: "An option has the same value twice."})
			}
		}
	}
	return nil
}

// setEntryVariants writes the entry's variants inside tx: those the
// product had (matched by their values) are updated and keep their id and
// enabled state, their stock moving only by the checked change the entry's
// Exported allows; new ones are inserted with the entry's stock; the rest
// go.
func (s *Store) setEntryVariants(ctx context.Context, tx Tx, e shop.CatalogEntry, had map[string]heldVariant, now int64, res *shop.EntryResult) error {
	ids, kept := entryVariantIDs(e, had)
	if err := s.checkNewVariantIDs(ctx, tx, e, had, ids, kept); err != nil {
		return err
	}
	if err := s.dropVariantsBut(ctx, tx, e.Product.ID, kept); err != nil {
		return err
	}
	for i, v := range e.Variants {
		h, held := had[comboKey(v.Values)]
		if !held {
			if err := s.insertEntryVariant(ctx, tx, e.Product, i, ids[i], v, now); err != nil {
				return err
			}
			continue
		}
		if err := s.updateEntryVariant(ctx, tx, e.Product, i, h, v, now, res); err != nil {
			return err
		}
	}
	return nil
}

// entryVariantIDs gives each of the entry's variants its id: a variant the
// product had (matched by its values) keeps its own, which kept lists; a
// new one takes the entry's.
func entryVariantIDs(e shop.CatalogEntry, had map[string]heldVariant) (ids []string, kept map[string]bool) {
	ids = make([]string, len(e.Variants))
	kept = map[string]bool{}
	for i, v := range e.Variants {
		if h, ok := had[comboKey(v.Values)]; ok {
			ids[i] = h.id
			kept[h.id] = true
		} else {
			ids[i] = v.ID
		}
	}
	return ids, kept
}

// checkNewVariantIDs refuses an import whose new variant's id is not free:
// another product's, or a variant of this one that stays under other
// values. Asked first, so no statement fails inside the transaction (which
// PostgreSQL would then refuse to go on with).
func (s *Store) checkNewVariantIDs(ctx context.Context, tx Tx, e shop.CatalogEntry, had map[string]heldVariant, ids []string, kept map[string]bool) error {
	for i, v := range e.Variants {
		if _, ok := had[comboKey(v.Values)]; ok {
			continue
		}
		var owner string
		err := tx.QueryRow(ctx, `SELECT product_id FROM variants WHERE id = ?`, ids[i]).Scan(&owner)
		switch {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return s.FormatError(err, "import "+e.Product.ID, nil)
		case owner != e.Product.ID:
			return shop.Errorf(shop.ECONFLICT, "The variant id %s is already used by the product %s; change this variant's option values or the product's handle.", ids[i], owner)
		case kept[ids[i]]:
			return shop.Errorf(shop.ECONFLICT, "The variant id %s is already used by another variant of this product; change this variant's option values.", ids[i])
		}
	}
	return nil
}

// dropVariantsBut deletes the product's variants that are not kept.
func (s *Store) dropVariantsBut(ctx context.Context, tx Tx, productID string, kept map[string]bool) error {
	keep := make([]any, 0, len(kept)+2)
	keep = append(keep, productID, "") // "" stands for no variant, so the list is never empty
	for id := range kept {
		keep = append(keep, id)
	}
	if _, err := tx.Exec(ctx, `DELETE FROM variants WHERE product_id = ? AND id NOT IN (`+placeholders(len(kept))+`)`, keep...); err != nil {
		return s.FormatError(err, "set variants of "+productID, nil)
	}
	return nil
}

// insertEntryVariant inserts the entry's new variant v, at place i, with
// the entry's stock.
func (s *Store) insertEntryVariant(ctx context.Context, tx Tx, p shop.Product, i int, id string, v shop.EntryVariant, now int64) error {
	var vals [3]string
	copy(vals[:], v.Values)
	price, original := variantPrice(v.Price, p.Price), variantOriginal(v.Original, p.Original)
	if _, err := tx.Exec(ctx, `INSERT INTO variants (id, product_id, position, sku, option1, option2, option3,
				price_cents, original_price_cents, stock, stock_changed_at, image, enabled)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, TRUE)`,
		id, p.ID, i+1, v.SKU, vals[0], vals[1], vals[2], price, original, max(v.Stock, 0), now, v.Image); err != nil {
		return s.FormatError(err, "import variant "+id, Messages{
			shop.ECONFLICT: fmt.Sprintf("The variant id %s is already used.", id),
			shop.EINVALID:  "Stock and prices cannot be negative."})
	}
	return nil
}

// updateEntryVariant updates the variant h the product had with the
// entry's v, at place i; its stock moves only by the checked change that
// v's Exported allows.
func (s *Store) updateEntryVariant(ctx context.Context, tx Tx, p shop.Product, i int, h heldVariant, v shop.EntryVariant, now int64, res *shop.EntryResult) error {
	price, original := variantPrice(v.Price, p.Price), variantOriginal(v.Original, p.Original)
	image := v.Image
	if image == "" && h.image != "" && !webAddress(h.image) {
		image = h.image // a photo no file can carry stays
	}
	if _, err := tx.Exec(ctx, `UPDATE variants SET position = ?, sku = ?, price_cents = ?, original_price_cents = ?, image = ?
		WHERE id = ?`, i+1, v.SKU, price, original, image, h.id); err != nil {
		return s.FormatError(err, "import variant "+h.id, Messages{shop.EINVALID: "Prices cannot be negative."})
	}
	switch {
	case v.Exported == nil:
		res.StockKept++
	case v.Stock != *v.Exported:
		if err := s.moveStock(ctx, tx, i, h.id, *v.Exported, v.Stock, now, res); err != nil {
			return err
		}
	}
	return nil
}

// moveStock changes a variant's stock from exported to want as a change
// checked against what is there: the file was made when the stock was
// exported, so only if it still is does the change mean what the file
// says. Otherwise stock moved since (a sale, an edit, another import) and
// is left as it is, reported as a conflict.
func (s *Store) moveStock(ctx context.Context, tx Tx, index int, id string, exported, want int, now int64, res *shop.EntryResult) error {
	r, err := tx.Exec(ctx, `UPDATE variants SET stock = stock + ?, stock_changed_at = ? WHERE id = ? AND stock = ?`,
		want-exported, now, id, exported)
	if err != nil {
		return s.FormatError(err, "import stock of "+id, Messages{shop.EINVALID: "Stock cannot be negative."})
	}
	if n, _ := r.RowsAffected(); n == 1 {
		return nil
	}
	var stock int
	if err := tx.QueryRow(ctx, `SELECT stock FROM variants WHERE id = ?`, id).Scan(&stock); err != nil {
		return s.FormatError(err, "import stock of "+id, nil)
	}
	res.Conflicts = append(res.Conflicts, shop.StockConflict{Index: index, VariantID: id, Exported: exported, Now: stock})
	return nil
}

// variantPrice is a variant's own price, or NULL when it is the product's.
func variantPrice(v, product shop.Cents) any {
	if v == product || v == 0 {
		return nil
	}
	return v
}

// variantOriginal is a variant's own struck-through price, or NULL when it
// is the product's. Unlike a price, 0 is a value of its own here (the
// shop's rule of 20 % above the price), kept when the product has another.
func variantOriginal(v, product shop.Cents) any {
	if v == product {
		return nil
	}
	return v
}

// CatalogEntries reads every product with its options, variants, gallery
// and tags: four queries for the whole catalogue, put together here.
// They are not one transaction (on SQLite that would hold the write lock
// for the whole read); a product changed in between is read as a mix of
// before and after, which the next export gets right.
func (s *Store) CatalogEntries(ctx context.Context) ([]shop.CatalogEntry, error) {
	rows, err := s.Query(ctx, `SELECT `+ProductColumns+`, p.tags FROM products p ORDER BY p.id`+s.d.Bytewise)
	entries, err := Collect(s, rows, err, "catalogue entries", func(rows *sql.Rows) (e shop.CatalogEntry, err error) {
		var tags string
		e.Product, err = ScanProduct(rows, &tags)
		if tags != "" {
			e.Tags = strings.Split(tags, ",")
		}
		return e, err
	})
	if err != nil {
		return nil, err
	}
	byID := make(map[string]*shop.CatalogEntry, len(entries))
	for i := range entries {
		byID[entries[i].Product.ID] = &entries[i]
	}

	rows, err = s.Query(ctx, `SELECT o.product_id, o.position, o.name, COALESCE(v.value, ''), COALESCE(v.swatch, '')
		FROM product_options o LEFT JOIN option_values v ON v.product_id = o.product_id AND v.option = o.position
		ORDER BY o.product_id, o.position, v.position`)
	type optionRow struct {
		product             string
		position            int
		name, value, swatch string
	}
	options, err := Collect(s, rows, err, "catalogue options", func(rows *sql.Rows) (r optionRow, err error) {
		err = rows.Scan(&r.product, &r.position, &r.name, &r.value, &r.swatch)
		return r, err
	})
	if err != nil {
		return nil, err
	}
	for _, r := range options {
		e := byID[r.product]
		if e == nil {
			continue
		}
		if n := len(e.Options); n < r.position {
			e.Options = append(e.Options, shop.Option{Name: r.name})
		}
		if r.value != "" {
			o := &e.Options[len(e.Options)-1]
			o.Values = append(o.Values, shop.OptionValue{Value: r.value, Swatch: r.swatch})
		}
	}

	rows, err = s.Query(ctx, `SELECT v.product_id, v.id, v.sku, v.option1, v.option2, v.option3, COALESCE(v.price_cents, p.price_cents),
		COALESCE(v.original_price_cents, p.original_price_cents), v.stock, v.image, v.enabled
		FROM variants v JOIN products p ON p.id = v.product_id ORDER BY v.product_id, v.position, v.id`)
	variants, err := Collect(s, rows, err, "catalogue variants", func(rows *sql.Rows) (v shop.Variant, err error) {
		var vals [3]string
		err = rows.Scan(&v.ProductID, &v.ID, &v.SKU, &vals[0], &vals[1], &vals[2], &v.Price, &v.Original, &v.Stock, &v.Image, &v.Enabled)
		v.Values = vals[:]
		return v, err
	})
	if err != nil {
		return nil, err
	}
	for _, v := range variants {
		e := byID[v.ProductID]
		if e == nil {
			continue
		}
		v.Values = v.Values[:min(len(e.Options), 3)]
		e.Variants = append(e.Variants, shop.EntryVariant{Variant: v})
	}

	rows, err = s.Query(ctx, `SELECT ph.product_id, ph.position, ph.url, ph.alt, COALESCE(i.hash, ''), COALESCE(i.width, 0), COALESCE(i.height, 0)
		FROM product_photos ph LEFT JOIN images i ON i.url = ph.url ORDER BY ph.product_id, ph.position`)
	type photoRow struct {
		product string
		photo   shop.GalleryPhoto
	}
	photos, err := Collect(s, rows, err, "catalogue photos", func(rows *sql.Rows) (r photoRow, err error) {
		ph := &r.photo
		err = rows.Scan(&r.product, &ph.Position, &ph.URL, &ph.Alt, &ph.Photo.Hash, &ph.Photo.Width, &ph.Photo.Height)
		return r, err
	})
	if err != nil {
		return nil, err
	}
	for _, r := range photos {
		if e := byID[r.product]; e != nil {
			e.Photos = append(e.Photos, r.photo)
		}
	}
	return entries, nil
}
