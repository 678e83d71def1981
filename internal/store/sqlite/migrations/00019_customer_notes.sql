-- +goose Up
-- The staff's note on a customer, one per customer. customer_key is the
-- back office's key for a customer: an account's id, or a guest's e-mail
-- address (normalised), so there is no foreign key; a guest's note stays
-- readable from the account the same address opens later.
CREATE TABLE customer_notes (
    customer_key TEXT    PRIMARY KEY CHECK (customer_key <> ''),
    note         TEXT    NOT NULL CHECK (note <> ''),
    updated_by   TEXT    NOT NULL,
    updated_at   INTEGER NOT NULL
) WITHOUT ROWID;

-- A guest's orders are found by their e-mail address (a customer's page,
-- an account's guest orders).
CREATE INDEX orders_email ON orders (email, created_at);

-- +goose Down
DROP INDEX orders_email;
DROP TABLE customer_notes;
