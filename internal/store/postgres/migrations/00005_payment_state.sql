-- +goose Up
-- As SQLite's migration 00014: an order's payment has a state of its own
-- beside its fulfilment status: a bank transfer is placed (processing) long
-- before it is paid, and a refund changes what was paid, not where the
-- parcel is. Orders placed
-- before this were paid by the demo card at once, and a cancelled one was
-- refunded in full. payment_ref is the provider's reference while the
-- payment is open (a Stripe Checkout Session), payment_intent what it was
-- paid with (which refunds and the provider's refund events name). The
-- currency is kept per order so that a later currency setting needs no
-- second migration.
ALTER TABLE orders ADD COLUMN currency         TEXT    NOT NULL DEFAULT 'usd';
ALTER TABLE orders ADD COLUMN payment_provider TEXT    NOT NULL DEFAULT 'demo';
ALTER TABLE orders ADD COLUMN payment_status   TEXT    NOT NULL DEFAULT 'paid'
    CHECK (payment_status IN ('awaiting', 'paid', 'partially_refunded', 'refunded', 'failed'));
ALTER TABLE orders ADD COLUMN payment_ref      TEXT    NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN payment_intent   TEXT    NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN paid_at          BIGINT  NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN refunded_cents   BIGINT  NOT NULL DEFAULT 0 CHECK (refunded_cents >= 0);
UPDATE orders SET payment_status = 'awaiting' WHERE status = 'pending';
UPDATE orders SET paid_at = created_at WHERE status <> 'pending';
UPDATE orders SET payment_status = 'refunded', refunded_cents = total_cents WHERE status = 'cancelled';
CREATE INDEX orders_payment_status ON orders (payment_status, created_at);
CREATE INDEX orders_payment_intent ON orders (payment_intent) WHERE payment_intent <> '';

-- Each payment provider's event is acted on once: its id is stored in the
-- transaction that acts on it, so a repeated delivery, or one racing on
-- another instance, finds it there.
CREATE TABLE payment_events (
    id          TEXT    PRIMARY KEY,
    order_id    TEXT    NOT NULL,
    type        TEXT    NOT NULL,
    received_at BIGINT  NOT NULL
);

-- +goose Down
DROP TABLE payment_events;
DROP INDEX orders_payment_intent;
DROP INDEX orders_payment_status;
ALTER TABLE orders DROP COLUMN refunded_cents;
ALTER TABLE orders DROP COLUMN paid_at;
ALTER TABLE orders DROP COLUMN payment_intent;
ALTER TABLE orders DROP COLUMN payment_ref;
ALTER TABLE orders DROP COLUMN payment_status;
ALTER TABLE orders DROP COLUMN payment_provider;
ALTER TABLE orders DROP COLUMN currency;
