-- +goose Up
CREATE TABLE products (
    id           TEXT    PRIMARY KEY,     -- "nb-001" built in, "fs-7" from a FakeStore-shaped service
    title        TEXT    NOT NULL,
    description  TEXT    NOT NULL DEFAULT '',
    category     TEXT    NOT NULL,
    price_cents  INTEGER NOT NULL CHECK (price_cents >= 0),
    image        TEXT    NOT NULL DEFAULT '',
    rating       REAL    NOT NULL DEFAULT 0,
    review_count INTEGER NOT NULL DEFAULT 0,
    featured     INTEGER NOT NULL DEFAULT 0,
    source       TEXT    NOT NULL DEFAULT 'builtin',
    updated_at   INTEGER NOT NULL
);
-- Listing sorts by price with id as tie-break, filtered by category or not.
-- rating rides along at the end so the minimum-rating filter is answered
-- from the index, without a table lookup per row.
CREATE INDEX products_category_price ON products (category, price_cents, id, rating);
CREATE INDEX products_price ON products (price_cents, id, rating);
CREATE INDEX products_featured ON products (featured, price_cents, id) WHERE featured = 1;

CREATE TABLE categories (
    name TEXT PRIMARY KEY
) WITHOUT ROWID;

-- Full-text search over title, description and category, kept in step with
-- products by triggers (external content table: no second copy of the text).
CREATE VIRTUAL TABLE products_fts USING fts5 (
    title, description, category,
    content = 'products', content_rowid = 'rowid',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
-- Relevance: a title match counts most, then the category, then the
-- description. Set as the table's rank so ORDER BY rank uses it.
INSERT INTO products_fts (products_fts, rank) VALUES ('rank', 'bm25(10.0, 2.0, 4.0)');

-- +goose StatementBegin
CREATE TRIGGER products_ai AFTER INSERT ON products BEGIN
    INSERT INTO products_fts (rowid, title, description, category) VALUES (new.rowid, new.title, new.description, new.category);
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER products_ad AFTER DELETE ON products BEGIN
    INSERT INTO products_fts (products_fts, rowid, title, description, category) VALUES ('delete', old.rowid, old.title, old.description, old.category);
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER products_au AFTER UPDATE ON products BEGIN
    INSERT INTO products_fts (products_fts, rowid, title, description, category) VALUES ('delete', old.rowid, old.title, old.description, old.category);
    INSERT INTO products_fts (rowid, title, description, category) VALUES (new.rowid, new.title, new.description, new.category);
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER products_au;
DROP TRIGGER products_ad;
DROP TRIGGER products_ai;
DROP TABLE products_fts;
DROP TABLE categories;
DROP TABLE products;
