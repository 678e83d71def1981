-- +goose Up
-- Products as merchants have them: up to three options with ordered
-- values, and variants, one per combination sold, each with its own stock
-- and, when set, its own price. A product without options has one default
-- variant whose id is the product's, so carts, orders and stock deal in
-- variants only and every id stored before stays valid.
CREATE TABLE product_options (
    product_id TEXT    NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    position   INTEGER NOT NULL CHECK (position BETWEEN 1 AND 3),
    name       TEXT    NOT NULL,
    PRIMARY KEY (product_id, position)
) WITHOUT ROWID;

CREATE TABLE option_values (
    product_id TEXT    NOT NULL,
    option     INTEGER NOT NULL,
    position   INTEGER NOT NULL,
    value      TEXT    NOT NULL,
    swatch     TEXT    NOT NULL DEFAULT '',  -- a colour value's swatch (#rrggbb), or ''
    PRIMARY KEY (product_id, option, position),
    FOREIGN KEY (product_id, option) REFERENCES product_options (product_id, position) ON DELETE CASCADE
) WITHOUT ROWID;

CREATE TABLE variants (
    id                   TEXT    PRIMARY KEY,  -- the product's own id for its default variant
    product_id           TEXT    NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    position             INTEGER NOT NULL,
    sku                  TEXT    NOT NULL DEFAULT '',
    option1              TEXT    NOT NULL DEFAULT '',
    option2              TEXT    NOT NULL DEFAULT '',
    option3              TEXT    NOT NULL DEFAULT '',
    price_cents          INTEGER CHECK (price_cents >= 0),           -- NULL: the product's price
    original_price_cents INTEGER CHECK (original_price_cents >= 0),  -- NULL: the product's
    stock                INTEGER NOT NULL DEFAULT 0 CHECK (stock >= 0),
    stock_changed_at     INTEGER NOT NULL DEFAULT 0,
    image                TEXT    NOT NULL DEFAULT '',
    enabled              INTEGER NOT NULL DEFAULT 1,
    UNIQUE (product_id, option1, option2, option3)
);
CREATE INDEX variants_product ON variants (product_id, position);
CREATE INDEX variants_stock_changed ON variants (stock_changed_at);

INSERT INTO variants (id, product_id, position, stock, stock_changed_at)
    SELECT id, id, 1, stock, stock_changed_at FROM products;
DROP INDEX products_stock_changed;
ALTER TABLE products DROP COLUMN stock;
ALTER TABLE products DROP COLUMN stock_changed_at;

-- A cart holds variants (a product's default variant has the product's id,
-- so saved carts keep their lines).
CREATE TABLE cart_variants (
    owner      TEXT    NOT NULL,
    variant_id TEXT    NOT NULL REFERENCES variants (id) ON DELETE CASCADE,
    quantity   INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 10),
    added_at   INTEGER NOT NULL,
    PRIMARY KEY (owner, variant_id)
) WITHOUT ROWID;
INSERT INTO cart_variants (owner, variant_id, quantity, added_at)
    SELECT owner, product_id, quantity, added_at FROM cart_items;
DROP TABLE cart_items;
ALTER TABLE cart_variants RENAME TO cart_items;

-- An order line names the variant it sold ("Size: M / Colour: Black"), a
-- snapshot like its name and price.
ALTER TABLE order_lines ADD COLUMN variant_id TEXT NOT NULL DEFAULT '';
ALTER TABLE order_lines ADD COLUMN variation  TEXT NOT NULL DEFAULT '';
UPDATE order_lines SET variant_id = product_id;

-- +goose Down
ALTER TABLE order_lines DROP COLUMN variation;
ALTER TABLE order_lines DROP COLUMN variant_id;
CREATE TABLE cart_products (
    owner      TEXT    NOT NULL,
    product_id TEXT    NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    quantity   INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 10),
    added_at   INTEGER NOT NULL,
    PRIMARY KEY (owner, product_id)
) WITHOUT ROWID;
INSERT INTO cart_products (owner, product_id, quantity, added_at)
    SELECT c.owner, v.product_id, MIN(10, SUM(c.quantity)), MIN(c.added_at)
    FROM cart_items c JOIN variants v ON v.id = c.variant_id GROUP BY c.owner, v.product_id;
DROP TABLE cart_items;
ALTER TABLE cart_products RENAME TO cart_items;
ALTER TABLE products ADD COLUMN stock INTEGER NOT NULL DEFAULT 0 CHECK (stock >= 0);
ALTER TABLE products ADD COLUMN stock_changed_at INTEGER NOT NULL DEFAULT 0;
UPDATE products SET stock = (SELECT COALESCE(SUM(v.stock), 0) FROM variants v WHERE v.product_id = products.id),
    stock_changed_at = (SELECT COALESCE(MAX(v.stock_changed_at), 0) FROM variants v WHERE v.product_id = products.id);
CREATE INDEX products_stock_changed ON products (stock_changed_at);
DROP TABLE variants;
DROP TABLE option_values;
DROP TABLE product_options;
