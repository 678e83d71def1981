-- +goose Up
-- Back office: staff roles, real stock, order fulfilment, the
-- audit log and the contact inbox.

-- A staff member is an ordinary account with a role; removing the role
-- (storefront staff remove) deletes the row.
CREATE TABLE staff (
    user_id    TEXT    PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    role       TEXT    NOT NULL CHECK (role IN ('admin', 'fulfilment')),
    created_at INTEGER NOT NULL
);

-- Stock is the shop's own: an import sets it for a product it creates and
-- never again. stock_changed_at lets each instance refresh the stock its
-- product cards show without reloading the catalogue.
-- original_price_cents 0 means "price × 1.2" (the spec's default).
-- staff_edited marks a product a staff member changed: imports leave its
-- fields (and its existence) alone from then on.
ALTER TABLE products ADD COLUMN stock INTEGER NOT NULL DEFAULT 0 CHECK (stock >= 0);
ALTER TABLE products ADD COLUMN stock_changed_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE products ADD COLUMN original_price_cents INTEGER NOT NULL DEFAULT 0;
ALTER TABLE products ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0;
ALTER TABLE products ADD COLUMN staff_edited INTEGER NOT NULL DEFAULT 0;
CREATE INDEX products_stock_changed ON products (stock_changed_at);

-- The search index follows the text columns only: a stock change (every
-- order) must not re-index the product.
DROP TRIGGER products_au;
-- +goose StatementBegin
CREATE TRIGGER products_au AFTER UPDATE OF title, description, category ON products BEGIN
    INSERT INTO products_fts (products_fts, rowid, title, description, category) VALUES ('delete', old.rowid, old.title, old.description, old.category);
    INSERT INTO products_fts (rowid, title, description, category) VALUES (new.rowid, new.title, new.description, new.category);
END;
-- +goose StatementEnd

-- Products that existed before stock was kept start with some, so an
-- upgraded shop does not show everything as sold out.
UPDATE products SET stock = 20, stock_changed_at = 0;

ALTER TABLE orders ADD COLUMN carrier       TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN cancel_reason TEXT NOT NULL DEFAULT '';
CREATE INDEX orders_created ON orders (created_at);

-- An order's timeline: one row per status it reached.
CREATE TABLE order_events (
    id         INTEGER PRIMARY KEY,
    order_id   TEXT    NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    status     TEXT    NOT NULL,
    note       TEXT    NOT NULL DEFAULT '',   -- carrier and tracking number, or the cancel reason
    actor      TEXT    NOT NULL DEFAULT '',   -- staff e-mail, "shopper", or '' for the shop itself
    created_at INTEGER NOT NULL
);
CREATE INDEX order_events_order ON order_events (order_id, id);

-- Every staff action: who, what, on what, before and after (JSON or text).
CREATE TABLE audit_log (
    id         INTEGER PRIMARY KEY,
    actor      TEXT    NOT NULL,
    action     TEXT    NOT NULL,
    subject    TEXT    NOT NULL,
    before     TEXT    NOT NULL DEFAULT '',
    after      TEXT    NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL
);

ALTER TABLE contact_messages ADD COLUMN handled_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE contact_messages ADD COLUMN handled_by TEXT    NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE contact_messages DROP COLUMN handled_by;
ALTER TABLE contact_messages DROP COLUMN handled_at;
DROP TABLE audit_log;
DROP TABLE order_events;
DROP INDEX orders_created;
ALTER TABLE orders DROP COLUMN cancel_reason;
ALTER TABLE orders DROP COLUMN carrier;
DROP TRIGGER products_au;
-- +goose StatementBegin
CREATE TRIGGER products_au AFTER UPDATE ON products BEGIN
    INSERT INTO products_fts (products_fts, rowid, title, description, category) VALUES ('delete', old.rowid, old.title, old.description, old.category);
    INSERT INTO products_fts (rowid, title, description, category) VALUES (new.rowid, new.title, new.description, new.category);
END;
-- +goose StatementEnd
DROP INDEX products_stock_changed;
ALTER TABLE products DROP COLUMN staff_edited;
ALTER TABLE products DROP COLUMN hidden;
ALTER TABLE products DROP COLUMN original_price_cents;
ALTER TABLE products DROP COLUMN stock_changed_at;
ALTER TABLE products DROP COLUMN stock;
DROP TABLE staff;
