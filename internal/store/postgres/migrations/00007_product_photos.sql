-- +goose Up
-- A product's gallery, as SQLite's migration 00016: photo 1 is the cover,
-- which products.image keeps as well, so whatever sets the cover sets
-- photo 1 in the same transaction.
CREATE TABLE product_photos (
    product_id TEXT   NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    position   BIGINT NOT NULL CHECK (position >= 1),
    url        TEXT   NOT NULL CHECK (url <> ''),
    alt        TEXT   NOT NULL DEFAULT '',
    PRIMARY KEY (product_id, position)
);
CREATE INDEX product_photos_url ON product_photos (url);

INSERT INTO product_photos (product_id, position, url, alt)
    SELECT id, 1, image, title FROM products WHERE image <> '';

ALTER TABLE products ADD COLUMN description_html TEXT NOT NULL DEFAULT '',
    ADD COLUMN tags TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE products DROP COLUMN tags, DROP COLUMN description_html;
DROP TABLE product_photos;
