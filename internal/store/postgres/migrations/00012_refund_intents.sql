-- +goose Up
-- Refund intents, as SQLite's migration 00021.
CREATE TABLE refund_intents (
    intent_key   TEXT    PRIMARY KEY,
    order_id     TEXT    NOT NULL REFERENCES orders(id),
    return_id    TEXT    NOT NULL DEFAULT '',
    was_cents    BIGINT  NOT NULL DEFAULT 0,
    amount_cents BIGINT  NOT NULL CHECK (amount_cents > 0),
    method       TEXT    NOT NULL DEFAULT '',
    by_hand      BOOLEAN NOT NULL DEFAULT FALSE,
    actor        TEXT    NOT NULL DEFAULT '',
    reason       TEXT    NOT NULL DEFAULT '',
    state        TEXT    NOT NULL DEFAULT 'open',
    lease_until  BIGINT  NOT NULL DEFAULT 0,
    created_at   BIGINT  NOT NULL DEFAULT 0,
    updated_at   BIGINT  NOT NULL DEFAULT 0
);
CREATE INDEX refund_intents_open ON refund_intents (state, by_hand, lease_until);
CREATE INDEX refund_intents_order ON refund_intents (order_id);

-- +goose Down
DROP TABLE refund_intents;
