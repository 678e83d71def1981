-- +goose Up
-- The staff's note on a customer, as SQLite's migration 00019: one per
-- customer, keyed by an account's id or a guest's e-mail address.
CREATE TABLE customer_notes (
    customer_key TEXT    PRIMARY KEY CHECK (customer_key <> ''),
    note         TEXT    NOT NULL CHECK (note <> ''),
    updated_by   TEXT    NOT NULL,
    updated_at   BIGINT  NOT NULL
);

CREATE INDEX orders_email ON orders (email, created_at);

-- +goose Down
DROP INDEX orders_email;
DROP TABLE customer_notes;
