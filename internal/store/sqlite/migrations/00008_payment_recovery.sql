-- +goose Up
-- One cart becomes at most one order at a time: the claim records whose
-- cart it charges, under which gateway idempotency key, and until when the
-- instance that claimed it may still be paying (its lease). A pending order
-- whose lease ran out is resolved by the recovery sweep from the gateway's
-- answer for charge_key.
ALTER TABLE orders ADD COLUMN cart_owner  TEXT    NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN charge_key  TEXT    NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN lease_until INTEGER NOT NULL DEFAULT 0;
CREATE UNIQUE INDEX orders_one_pending_per_cart ON orders (cart_owner) WHERE status = 'pending' AND cart_owner != '';
CREATE INDEX orders_pending_lease ON orders (lease_until) WHERE status = 'pending';
CREATE INDEX orders_cart_owner ON orders (cart_owner);

-- The simulated gateway's charge records, as a real gateway keeps them per
-- idempotency key: they survive a crash of the shop and every instance sees
-- the same answer to "what happened to charge K".
CREATE TABLE gateway_charges (
    idempotency_key TEXT    PRIMARY KEY,
    amount_cents    INTEGER NOT NULL,
    outcome         TEXT    NOT NULL,             -- succeeded, declined
    created_at      INTEGER NOT NULL
) WITHOUT ROWID;

-- +goose Down
DROP TABLE gateway_charges;
DROP INDEX orders_cart_owner;
DROP INDEX orders_pending_lease;
DROP INDEX orders_one_pending_per_cart;
ALTER TABLE orders DROP COLUMN lease_until;
ALTER TABLE orders DROP COLUMN charge_key;
ALTER TABLE orders DROP COLUMN cart_owner;
