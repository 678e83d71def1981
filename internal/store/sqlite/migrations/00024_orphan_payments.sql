-- +goose Up
-- Payments without an order: money a payment method took for an order
-- that was gone when the payment was confirmed (released meanwhile). It is
-- kept, shown to staff and never counted as revenue, until it is refunded
-- or staff settle it by hand. id is the method's reference of the payment
-- (a Stripe Checkout Session id); times are Unix seconds.
CREATE TABLE orphan_payments (
    id             TEXT    PRIMARY KEY,
    method         TEXT    NOT NULL,
    order_id       TEXT    NOT NULL,
    payment_intent TEXT    NOT NULL DEFAULT '',
    amount_cents   INTEGER NOT NULL CHECK (amount_cents >= 0),
    currency       TEXT    NOT NULL,
    email          TEXT    NOT NULL DEFAULT '',
    state          TEXT    NOT NULL DEFAULT 'open',
    note           TEXT    NOT NULL DEFAULT '',
    updated_by     TEXT    NOT NULL DEFAULT '',
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL
);
CREATE INDEX orphan_payments_state ON orphan_payments (state, created_at);

-- +goose Down
DROP TABLE orphan_payments;
