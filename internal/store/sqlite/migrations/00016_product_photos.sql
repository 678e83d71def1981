-- +goose Up
-- A product's gallery: its photos in order. Photo 1 is the cover, which
-- products.image keeps as well (cards, carts and orders read it there), so
-- whatever sets the cover sets photo 1 in the same transaction. url is what
-- products.image holds: a fetched image's source URL (its variants are in
-- images and image_variants), an uploaded photo's name or a built-in asset.
CREATE TABLE product_photos (
    product_id TEXT    NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    position   INTEGER NOT NULL CHECK (position >= 1),
    url        TEXT    NOT NULL CHECK (url <> ''),
    alt        TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (product_id, position)
) WITHOUT ROWID;
-- Pruning asks, for each stored image, whether a photo still names it.
CREATE INDEX product_photos_url ON product_photos (url);

-- Every product's image becomes its photo 1, so no photo is lost.
INSERT INTO product_photos (product_id, position, url, alt)
    SELECT id, 1, image, title FROM products WHERE image <> '';

-- An imported description's HTML, already sanitised; '' when the
-- description is plain text (typed in the back office, or from a JSON
-- catalogue), which pages show escaped.
ALTER TABLE products ADD COLUMN description_html TEXT NOT NULL DEFAULT '';
-- A catalogue file's tags, joined by commas (a tag never holds one), kept
-- so that exporting gives them back.
ALTER TABLE products ADD COLUMN tags TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE products DROP COLUMN tags;
ALTER TABLE products DROP COLUMN description_html;
DROP TABLE product_photos;
