-- +goose Up
-- Payments without an order, as SQLite's migration 00024.
CREATE TABLE orphan_payments (
    id             TEXT   PRIMARY KEY,
    method         TEXT   NOT NULL,
    order_id       TEXT   NOT NULL,
    payment_intent TEXT   NOT NULL DEFAULT '',
    amount_cents   BIGINT NOT NULL CHECK (amount_cents >= 0),
    currency       TEXT   NOT NULL,
    email          TEXT   NOT NULL DEFAULT '',
    state          TEXT   NOT NULL DEFAULT 'open',
    note           TEXT   NOT NULL DEFAULT '',
    updated_by     TEXT   NOT NULL DEFAULT '',
    created_at     BIGINT NOT NULL,
    updated_at     BIGINT NOT NULL
);
CREATE INDEX orphan_payments_state ON orphan_payments (state, created_at);

-- +goose Down
DROP TABLE orphan_payments;
