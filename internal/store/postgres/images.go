package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nocturne/storefront/internal/shop"
)

var _ shop.ImageStore = (*DB)(nil)

// ImageRecords returns the records of those urls that have one.
func (db *DB) ImageRecords(ctx context.Context, urls []string) (map[string]shop.ImageRecord, error) {
	rows, err := db.pool.Query(ctx, `SELECT url, hash, width, height, etag, last_modified, error, checked_at
		FROM images WHERE url = ANY($1)`, urls)
	if err != nil {
		return nil, fmt.Errorf("image records: %w", err)
	}
	recs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (shop.ImageRecord, error) {
		var r shop.ImageRecord
		var checked int64
		err := row.Scan(&r.URL, &r.Hash, &r.Width, &r.Height, &r.ETag, &r.LastModified, &r.Error, &checked)
		r.CheckedAt = time.Unix(checked, 0)
		return r, err
	})
	if err != nil {
		return nil, fmt.Errorf("image records: %w", err)
	}
	out := make(map[string]shop.ImageRecord, len(recs))
	for _, r := range recs {
		out[r.URL] = r
	}
	return out, nil
}

// SaveImage upserts rec and, when variants are given, replaces the url's
// variants in the same transaction.
func (db *DB) SaveImage(ctx context.Context, rec shop.ImageRecord, variants []shop.ImageVariant) error {
	return db.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO images (url, hash, width, height, etag, last_modified, error, checked_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
			ON CONFLICT (url) DO UPDATE SET hash = EXCLUDED.hash, width = EXCLUDED.width, height = EXCLUDED.height,
				etag = EXCLUDED.etag, last_modified = EXCLUDED.last_modified, error = EXCLUDED.error, checked_at = EXCLUDED.checked_at`,
			rec.URL, rec.Hash, rec.Width, rec.Height, rec.ETag, rec.LastModified, rec.Error, rec.CheckedAt.Unix()); err != nil {
			return fmt.Errorf("save image %s: %w", rec.URL, err)
		}
		if len(variants) == 0 {
			return nil
		}
		if _, err := tx.Exec(ctx, `DELETE FROM image_variants WHERE url = $1`, rec.URL); err != nil {
			return fmt.Errorf("replace variants of %s: %w", rec.URL, err)
		}
		for _, v := range variants {
			if _, err := tx.Exec(ctx, `INSERT INTO image_variants (url, width, format, data) VALUES ($1, $2, $3, $4)`,
				rec.URL, v.Width, v.Format, v.Data); err != nil {
				return fmt.Errorf("save variant of %s: %w", rec.URL, err)
			}
		}
		return nil
	})
}

// ProductImage returns one stored variant of the product's photo and the
// photo's hash.
func (db *DB) ProductImage(ctx context.Context, productID string, width int, format string) ([]byte, string, error) {
	var data []byte
	var hash string
	err := db.pool.QueryRow(ctx, `SELECT v.data, i.hash FROM products p
		JOIN images i ON i.url = p.image AND i.hash <> ''
		JOIN image_variants v ON v.url = i.url AND v.width = $1 AND v.format = $2
		WHERE p.id = $3`, width, format, productID).Scan(&data, &hash)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, "", shop.Errorf(shop.ENOTFOUND, "image not found")
	} else if err != nil {
		return nil, "", fmt.Errorf("product image %s/%d.%s: %w", productID, width, format, err)
	}
	return data, hash, nil
}

// PruneImages deletes the images no product names.
func (db *DB) PruneImages(ctx context.Context) (int64, error) {
	tag, err := db.pool.Exec(ctx, `DELETE FROM images i WHERE NOT EXISTS (SELECT 1 FROM products p WHERE p.image = i.url)`)
	if err != nil {
		return 0, fmt.Errorf("prune images: %w", err)
	}
	return tag.RowsAffected(), nil
}

// PhotosChanged bumps the catalogue version, as ReplaceCatalog does.
func (db *DB) PhotosChanged(ctx context.Context) error {
	if _, err := db.pool.Exec(ctx, `UPDATE catalog_version SET version = version + 1 WHERE id = 1`); err != nil {
		return fmt.Errorf("bump catalogue version: %w", err)
	}
	return nil
}
