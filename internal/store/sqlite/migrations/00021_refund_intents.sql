-- +goose Up
-- Money on its way back to a shopper, written in the transaction that
-- counts the refund and before the provider is asked, so a process that
-- stops between the two leaves a row the refund sweep finishes or undoes.
-- intent_key is also the idempotency key the provider is sent. A refund paid
-- back by hand (by_hand) stays open until staff confirm it.
CREATE TABLE refund_intents (
    intent_key   TEXT    PRIMARY KEY,
    order_id     TEXT    NOT NULL REFERENCES orders(id),
    return_id    TEXT    NOT NULL DEFAULT '',
    was_cents    INTEGER NOT NULL DEFAULT 0,
    amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
    method       TEXT    NOT NULL DEFAULT '',
    by_hand      INTEGER NOT NULL DEFAULT 0,
    actor        TEXT    NOT NULL DEFAULT '',
    reason       TEXT    NOT NULL DEFAULT '',
    state        TEXT    NOT NULL DEFAULT 'open',
    lease_until  INTEGER NOT NULL DEFAULT 0,
    created_at   INTEGER NOT NULL DEFAULT 0,
    updated_at   INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE INDEX refund_intents_open ON refund_intents (state, by_hand, lease_until);
CREATE INDEX refund_intents_order ON refund_intents (order_id);

-- +goose Down
DROP TABLE refund_intents;
