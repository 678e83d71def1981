package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

var _ shop.ImageStore = (*DB)(nil)

// ImageRecords returns the records of those urls that have one.
func (db *DB) ImageRecords(ctx context.Context, urls []string) (map[string]shop.ImageRecord, error) {
	out := make(map[string]shop.ImageRecord, len(urls))
	// SQLite allows 32766 variables; batches keep far below it.
	for start := 0; start < len(urls); start += 500 {
		batch := urls[start:min(start+500, len(urls))]
		args := make([]any, len(batch))
		for i, u := range batch {
			args[i] = u
		}
		rows, err := db.SQL().QueryContext(ctx, `SELECT url, hash, width, height, etag, last_modified, error, checked_at
			FROM images WHERE url IN (?`+strings.Repeat(",?", len(batch)-1)+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("image records: %w", err)
		}
		for rows.Next() {
			var r shop.ImageRecord
			var checked int64
			if err := rows.Scan(&r.URL, &r.Hash, &r.Width, &r.Height, &r.ETag, &r.LastModified, &r.Error, &checked); err != nil {
				rows.Close()
				return nil, fmt.Errorf("scan image record: %w", err)
			}
			r.CheckedAt = time.Unix(checked, 0)
			out[r.URL] = r
		}
		if err := rows.Close(); err != nil {
			return nil, fmt.Errorf("image records: %w", err)
		}
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("image records: %w", err)
		}
	}
	return out, nil
}

// SaveImage upserts rec and, when variants are given, replaces the url's
// variants in the same transaction, so a reader sees the old set or the
// new one, never a mix.
func (db *DB) SaveImage(ctx context.Context, rec shop.ImageRecord, variants []shop.ImageVariant) error {
	tx, err := db.SQL().BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("save image: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO images (url, hash, width, height, etag, last_modified, error, checked_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (url) DO UPDATE SET hash = excluded.hash, width = excluded.width, height = excluded.height,
			etag = excluded.etag, last_modified = excluded.last_modified, error = excluded.error, checked_at = excluded.checked_at`,
		rec.URL, rec.Hash, rec.Width, rec.Height, rec.ETag, rec.LastModified, rec.Error, rec.CheckedAt.Unix()); err != nil {
		return fmt.Errorf("save image %s: %w", rec.URL, err)
	}
	if len(variants) > 0 {
		if _, err := tx.ExecContext(ctx, `DELETE FROM image_variants WHERE url = ?`, rec.URL); err != nil {
			return fmt.Errorf("replace variants of %s: %w", rec.URL, err)
		}
		for _, v := range variants {
			if _, err := tx.ExecContext(ctx, `INSERT INTO image_variants (url, width, format, data) VALUES (?, ?, ?, ?)`,
				rec.URL, v.Width, v.Format, v.Data); err != nil {
				return fmt.Errorf("save variant of %s: %w", rec.URL, err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("save image %s: %w", rec.URL, err)
	}
	return nil
}

// ProductImage returns one stored variant of the product's photo and the
// photo's hash.
func (db *DB) ProductImage(ctx context.Context, productID string, width int, format string) ([]byte, string, error) {
	var data []byte
	var hash string
	err := db.SQL().QueryRowContext(ctx, `SELECT v.data, i.hash FROM products p
		JOIN images i ON i.url = p.image AND i.hash <> ''
		JOIN image_variants v ON v.url = i.url AND v.width = ? AND v.format = ?
		WHERE p.id = ?`, width, format, productID).Scan(&data, &hash)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, "", shop.Errorf(shop.ENOTFOUND, "image not found")
	} else if err != nil {
		return nil, "", fmt.Errorf("product image %s/%d.%s: %w", productID, width, format, err)
	}
	return data, hash, nil
}

// PruneImages deletes the images no product names; their variants go with
// them (ON DELETE CASCADE).
func (db *DB) PruneImages(ctx context.Context) (int64, error) {
	res, err := db.SQL().ExecContext(ctx, `DELETE FROM images WHERE url NOT IN (SELECT image FROM products)`)
	if err != nil {
		return 0, fmt.Errorf("prune images: %w", err)
	}
	return res.RowsAffected()
}

// PhotosChanged bumps the catalogue version, as ReplaceCatalog does.
func (db *DB) PhotosChanged(ctx context.Context) error {
	if _, err := db.SQL().ExecContext(ctx, `UPDATE catalog_version SET version = version + 1 WHERE id = 1`); err != nil {
		return fmt.Errorf("bump catalogue version: %w", err)
	}
	return nil
}
