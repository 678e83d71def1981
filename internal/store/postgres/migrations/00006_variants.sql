-- +goose Up
-- Options and variants, as SQLite's migration 00015: a product without
-- options has one default variant with the product's id, so carts, orders
-- and stock deal in variants only and every id stored before stays valid.
CREATE TABLE product_options (
    product_id TEXT   NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    position   BIGINT NOT NULL CHECK (position BETWEEN 1 AND 3),
    name       TEXT   NOT NULL,
    PRIMARY KEY (product_id, position)
);

CREATE TABLE option_values (
    product_id TEXT   NOT NULL,
    option     BIGINT NOT NULL,
    position   BIGINT NOT NULL,
    value      TEXT   NOT NULL,
    swatch     TEXT   NOT NULL DEFAULT '',
    PRIMARY KEY (product_id, option, position),
    FOREIGN KEY (product_id, option) REFERENCES product_options (product_id, position) ON DELETE CASCADE
);

CREATE TABLE variants (
    id                   TEXT    PRIMARY KEY,
    product_id           TEXT    NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    position             BIGINT  NOT NULL,
    sku                  TEXT    NOT NULL DEFAULT '',
    option1              TEXT    NOT NULL DEFAULT '',
    option2              TEXT    NOT NULL DEFAULT '',
    option3              TEXT    NOT NULL DEFAULT '',
    price_cents          BIGINT  CHECK (price_cents >= 0),
    original_price_cents BIGINT  CHECK (original_price_cents >= 0),
    stock                BIGINT  NOT NULL DEFAULT 0 CHECK (stock >= 0),
    stock_changed_at     BIGINT  NOT NULL DEFAULT 0,
    image                TEXT    NOT NULL DEFAULT '',
    enabled              BOOLEAN NOT NULL DEFAULT TRUE,
    UNIQUE (product_id, option1, option2, option3)
);
CREATE INDEX variants_product ON variants (product_id, position);
CREATE INDEX variants_stock_changed ON variants (stock_changed_at);

INSERT INTO variants (id, product_id, position, stock, stock_changed_at)
    SELECT id, id, 1, stock, stock_changed_at FROM products;
DROP INDEX products_stock_changed;
ALTER TABLE products DROP COLUMN stock, DROP COLUMN stock_changed_at;

ALTER TABLE cart_items DROP CONSTRAINT cart_items_product_id_fkey;
ALTER TABLE cart_items RENAME COLUMN product_id TO variant_id;
ALTER TABLE cart_items ADD CONSTRAINT cart_items_variant_id_fkey
    FOREIGN KEY (variant_id) REFERENCES variants (id) ON DELETE CASCADE;
ALTER INDEX cart_items_product RENAME TO cart_items_variant;

ALTER TABLE order_lines ADD COLUMN variant_id TEXT NOT NULL DEFAULT '';
ALTER TABLE order_lines ADD COLUMN variation  TEXT NOT NULL DEFAULT '';
UPDATE order_lines SET variant_id = product_id;

-- +goose Down
ALTER TABLE order_lines DROP COLUMN variation, DROP COLUMN variant_id;
ALTER INDEX cart_items_variant RENAME TO cart_items_product;
ALTER TABLE cart_items DROP CONSTRAINT cart_items_variant_id_fkey;
DELETE FROM cart_items c USING variants v WHERE v.id = c.variant_id AND v.id <> v.product_id;
ALTER TABLE cart_items RENAME COLUMN variant_id TO product_id;
ALTER TABLE cart_items ADD CONSTRAINT cart_items_product_id_fkey
    FOREIGN KEY (product_id) REFERENCES products (id) ON DELETE CASCADE;
ALTER TABLE products ADD COLUMN stock BIGINT NOT NULL DEFAULT 0 CHECK (stock >= 0),
    ADD COLUMN stock_changed_at BIGINT NOT NULL DEFAULT 0;
UPDATE products p SET stock = (SELECT COALESCE(SUM(v.stock), 0) FROM variants v WHERE v.product_id = p.id),
    stock_changed_at = (SELECT COALESCE(MAX(v.stock_changed_at), 0) FROM variants v WHERE v.product_id = p.id);
CREATE INDEX products_stock_changed ON products (stock_changed_at);
DROP TABLE variants;
DROP TABLE option_values;
DROP TABLE product_options;
