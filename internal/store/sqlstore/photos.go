package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/nocturne/storefront/internal/shop"
)

// A product's gallery is the product_photos table. Photo 1 is the cover,
// which products.image keeps as well because cards, carts, orders and the
// /img/{product}/ route read it there; the two are only ever written
// together, in one transaction: by setPhotos here, and by coverIsPhotoOne
// wherever products.image is written (imports, the product editor).

// Photos returns a product's gallery in order, each photo with what the
// image pipeline stored of it.
func (s *Store) Photos(ctx context.Context, productID string) ([]shop.GalleryPhoto, error) {
	rows, err := s.Query(ctx, `SELECT ph.position, ph.url, ph.alt, COALESCE(i.hash, ''), COALESCE(i.width, 0), COALESCE(i.height, 0)
		FROM product_photos ph LEFT JOIN images i ON i.url = ph.url
		WHERE ph.product_id = ? ORDER BY ph.position`, productID)
	return Collect(s, rows, err, "photos of "+productID, scanPhoto)
}

// scanPhoto scans a gallery row of Photos' columns.
func scanPhoto(rows *sql.Rows) (ph shop.GalleryPhoto, err error) {
	err = rows.Scan(&ph.Position, &ph.URL, &ph.Alt, &ph.Photo.Hash, &ph.Photo.Width, &ph.Photo.Height)
	return ph, err
}

// SetPhotos replaces a product's gallery, and sets the product's image to
// photo 1 in the same transaction, so the cover that cards show and the
// gallery's first photo can never disagree.
func (s *Store) SetPhotos(ctx context.Context, productID string, photos []shop.GalleryPhoto) error {
	return s.InTx(ctx, func(tx Tx) error {
		if err := tx.Lock(ctx, "catalog"); err != nil {
			return err
		}
		if err := s.setPhotos(ctx, tx, productID, photos); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE catalog_version SET version = version + 1 WHERE id = 1`); err != nil {
			return fmt.Errorf("set photos: bump catalogue version: %w", err)
		}
		return nil
	})
}

// maxAlt bounds a photo's alt text, as Shopify does.
const maxAlt = 512

// checkPhotos refuses a gallery the store would not keep faithfully.
func checkPhotos(photos []shop.GalleryPhoto) error {
	if len(photos) > shop.MaxGalleryPhotos {
		return shop.Errorf(shop.EINVALID, "A product can have at most %d photos.", shop.MaxGalleryPhotos)
	}
	seen := make(map[string]bool, len(photos))
	for i, ph := range photos {
		switch {
		case strings.TrimSpace(ph.URL) == "":
			return shop.Errorf(shop.EINVALID, "Photo %d has no address.", i+1)
		case seen[ph.URL]:
			return shop.Errorf(shop.EINVALID, "The photo %s is in the gallery twice.", ph.URL)
		case len(ph.Alt) > maxAlt:
			return shop.Errorf(shop.EINVALID, "The description of photo %d is too long (at most %d characters).", i+1, maxAlt)
		}
		seen[ph.URL] = true
	}
	return nil
}

// setPhotos writes a product's gallery and its image (photo 1's URL, or ""
// for none) inside tx.
func (s *Store) setPhotos(ctx context.Context, tx Tx, productID string, photos []shop.GalleryPhoto) error {
	if err := checkPhotos(photos); err != nil {
		return err
	}
	cover := ""
	if len(photos) > 0 {
		cover = photos[0].URL
	}
	res, err := tx.Exec(ctx, `UPDATE products SET image = ?, updated_at = ? WHERE id = ?`, cover, s.Now().Unix(), productID)
	if err != nil {
		return s.FormatError(err, "set photos of "+productID, nil)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return shop.Errorf(shop.ENOTFOUND, shop.MsgProductNotFound)
	}
	if _, err := tx.Exec(ctx, `DELETE FROM product_photos WHERE product_id = ?`, productID); err != nil {
		return s.FormatError(err, "set photos of "+productID, nil)
	}
	for i, ph := range photos {
		if _, err := tx.Exec(ctx, `INSERT INTO product_photos (product_id, position, url, alt) VALUES (?, ?, ?, ?)`,
			productID, i+1, ph.URL, ph.Alt); err != nil {
			return s.FormatError(err, "set photos of "+productID, nil)
		}
	}
	return nil
}

// coverIsPhotoOne makes photo 1 of a product the image just written to
// products.image, in the same transaction: when its URL differs it becomes
// the new image, described by the title (the old description was of the
// old photo), and a product that had no photo gets one. The rest of the
// gallery stays. A product whose image is "" has no gallery: photos after a
// missing first one would have no cover to stand behind.
func coverIsPhotoOne(ctx context.Context, tx Tx, productID, image, title string) error {
	if image == "" {
		if _, err := tx.Exec(ctx, `DELETE FROM product_photos WHERE product_id = ?`, productID); err != nil {
			return fmt.Errorf("photos of %s: %w", productID, err)
		}
		return nil
	}
	if _, err := tx.Exec(ctx, `UPDATE product_photos SET url = ?, alt = ? WHERE product_id = ? AND position = 1 AND url <> ?`,
		image, title, productID, image); err != nil {
		return fmt.Errorf("photos of %s: %w", productID, err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO product_photos (product_id, position, url, alt) VALUES (?, 1, ?, ?)
		ON CONFLICT (product_id, position) DO NOTHING`, productID, image, title); err != nil {
		return fmt.Errorf("photos of %s: %w", productID, err)
	}
	return nil
}

// covers keeps photo 1 equal to the cover for many products in one
// transaction (an import), with each statement prepared once.
type covers struct{ clear, update, insert *sql.Stmt }

func prepareCovers(ctx context.Context, tx Tx) (*covers, error) {
	var c covers
	var err error
	prep := func(q string) *sql.Stmt {
		if err != nil {
			return nil
		}
		var st *sql.Stmt
		st, err = tx.PrepareContext(ctx, tx.s.Rebind(q))
		return st
	}
	c.clear = prep(`DELETE FROM product_photos WHERE product_id = ?`)
	c.update = prep(`UPDATE product_photos SET url = ?, alt = ? WHERE product_id = ? AND position = 1 AND (url <> ? OR alt <> ?)`)
	c.insert = prep(`INSERT INTO product_photos (product_id, position, url, alt) VALUES (?, 1, ?, ?)
		ON CONFLICT (product_id, position) DO NOTHING`)
	if err != nil {
		c.Close()
		return nil, err
	}
	return &c, nil
}

// set makes photo 1 of productID the image, described by alt, as
// coverIsPhotoOne does; here the description follows alt even when the
// image is the same, since an import owns both (its alt is the title).
func (c *covers) set(ctx context.Context, productID, image, alt string) error {
	if image == "" {
		_, err := c.clear.ExecContext(ctx, productID)
		return err
	}
	if _, err := c.update.ExecContext(ctx, image, alt, productID, image, alt); err != nil {
		return err
	}
	_, err := c.insert.ExecContext(ctx, productID, image, alt)
	return err
}

func (c *covers) Close() {
	for _, st := range []*sql.Stmt{c.clear, c.update, c.insert} {
		if st != nil {
			st.Close()
		}
	}
}

// GalleryImage returns one stored variant of the product's photo at
// position, and that photo's hash.
func (s *Store) GalleryImage(ctx context.Context, productID string, position, width int, format string) ([]byte, string, error) {
	var data []byte
	var hash string
	err := s.QueryRow(ctx, `SELECT v.data, i.hash FROM product_photos ph
		JOIN images i ON i.url = ph.url AND i.hash <> ''
		JOIN image_variants v ON v.url = i.url AND v.width = ? AND v.format = ?
		WHERE ph.product_id = ? AND ph.position = ?`, width, format, productID, position).Scan(&data, &hash)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, "", shop.Errorf(shop.ENOTFOUND, "image not found")
	} else if err != nil {
		return nil, "", s.FormatError(err, fmt.Sprintf("gallery image %s/%d/%d.%s", productID, position, width, format), nil)
	}
	return data, hash, nil
}
