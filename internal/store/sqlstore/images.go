package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// imageBatch keeps an IN list far below SQLite's 32766 variables and
// PostgreSQL's 65535 parameters.
const imageBatch = 500

// ImageRecords returns the records of those urls that have one.
func (s *Store) ImageRecords(ctx context.Context, urls []string) (map[string]shop.ImageRecord, error) {
	out := make(map[string]shop.ImageRecord, len(urls))
	for start := 0; start < len(urls); start += imageBatch {
		batch := urls[start:min(start+imageBatch, len(urls))]
		args := make([]any, len(batch))
		for i, u := range batch {
			args[i] = u
		}
		// Not prepared: the statement's length changes with the batch.
		rows, err := s.db.QueryContext(ctx, s.Rebind(`SELECT url, hash, width, height, etag, last_modified, error, checked_at
			FROM images WHERE url IN (?`+strings.Repeat(",?", len(batch)-1)+`)`), args...)
		recs, err := Collect(s, rows, err, "image records", func(rows *sql.Rows) (r shop.ImageRecord, err error) {
			var checked int64
			err = rows.Scan(&r.URL, &r.Hash, &r.Width, &r.Height, &r.ETag, &r.LastModified, &r.Error, &checked)
			r.CheckedAt = time.Unix(checked, 0)
			return r, err
		})
		if err != nil {
			return nil, err
		}
		for _, r := range recs {
			out[r.URL] = r
		}
	}
	return out, nil
}

// SaveImage upserts rec and, when variants are given, replaces the url's
// variants in the same transaction, so a reader sees the old set or the
// new one, never a mix.
func (s *Store) SaveImage(ctx context.Context, rec shop.ImageRecord, variants []shop.ImageVariant) error {
	return s.InTx(ctx, func(tx Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO images (url, hash, width, height, etag, last_modified, error, checked_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (url) DO UPDATE SET hash = excluded.hash, width = excluded.width, height = excluded.height,
				etag = excluded.etag, last_modified = excluded.last_modified, error = excluded.error, checked_at = excluded.checked_at`,
			rec.URL, rec.Hash, rec.Width, rec.Height, rec.ETag, rec.LastModified, rec.Error, rec.CheckedAt.Unix()); err != nil {
			return s.FormatError(err, "save image "+rec.URL, nil)
		}
		if len(variants) == 0 {
			return nil
		}
		if _, err := tx.Exec(ctx, `DELETE FROM image_variants WHERE url = ?`, rec.URL); err != nil {
			return s.FormatError(err, "replace variants of "+rec.URL, nil)
		}
		for _, v := range variants {
			if _, err := tx.Exec(ctx, `INSERT INTO image_variants (url, width, format, data) VALUES (?, ?, ?, ?)`,
				rec.URL, v.Width, v.Format, v.Data); err != nil {
				return s.FormatError(err, "save variant of "+rec.URL, nil)
			}
		}
		return nil
	})
}

// ProductImage returns one stored variant of the product's photo and the
// photo's hash.
func (s *Store) ProductImage(ctx context.Context, productID string, width int, format string) ([]byte, string, error) {
	var data []byte
	var hash string
	err := s.QueryRow(ctx, `SELECT v.data, i.hash FROM products p
		JOIN images i ON i.url = p.image AND i.hash <> ''
		JOIN image_variants v ON v.url = i.url AND v.width = ? AND v.format = ?
		WHERE p.id = ?`, width, format, productID).Scan(&data, &hash)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, "", shop.Errorf(shop.ENOTFOUND, "image not found")
	} else if err != nil {
		return nil, "", s.FormatError(err, fmt.Sprintf("product image %s/%d.%s", productID, width, format), nil)
	}
	return data, hash, nil
}

// PruneImages deletes the images no product names, as its cover, a photo
// of its gallery or a variant's image; their variants go with them (ON
// DELETE CASCADE). The gallery is asked first: it holds every cover too
// (photo 1) and is indexed by URL, so an image in use is found at once and
// only unused ones are looked for among the (unindexed) covers and
// variants.
func (s *Store) PruneImages(ctx context.Context) (int64, error) {
	res, err := s.Exec(ctx, `DELETE FROM images WHERE NOT EXISTS (SELECT 1 FROM product_photos ph WHERE ph.url = images.url)
		AND NOT EXISTS (SELECT 1 FROM products p WHERE p.image = images.url)
		AND NOT EXISTS (SELECT 1 FROM variants v WHERE v.image = images.url)`)
	if err != nil {
		return 0, s.FormatError(err, "prune images", nil)
	}
	return res.RowsAffected()
}

// PhotosChanged bumps the catalogue version, as ReplaceCatalog does.
func (s *Store) PhotosChanged(ctx context.Context) error {
	if _, err := s.Exec(ctx, `UPDATE catalog_version SET version = version + 1 WHERE id = 1`); err != nil {
		return s.FormatError(err, "bump catalogue version", nil)
	}
	return nil
}
