-- +goose Up
CREATE TABLE orders (
    id               TEXT    PRIMARY KEY,          -- order number shown to shoppers, "NOC-…"
    user_id          TEXT    NOT NULL,             -- account or guest; moves with a guest's hand-over
    email            TEXT    NOT NULL,             -- where the confirmation went; used by the guest lookup
    status           TEXT    NOT NULL,             -- pending (payment under way), processing, shipped, delivered, cancelled
    subtotal_cents   INTEGER NOT NULL,
    shipping_cents   INTEGER NOT NULL,
    tax_cents        INTEGER NOT NULL,
    total_cents      INTEGER NOT NULL,
    ship_name        TEXT    NOT NULL,
    ship_street      TEXT    NOT NULL,
    ship_city        TEXT    NOT NULL,
    ship_state       TEXT    NOT NULL,
    ship_zip         TEXT    NOT NULL,
    ship_country     TEXT    NOT NULL,
    ship_phone       TEXT    NOT NULL,
    payment_method   TEXT    NOT NULL,             -- "Visa ending 4242": never more of the card
    tracking_number  TEXT,
    idempotency_key  TEXT    NOT NULL UNIQUE,      -- one checkout, one order, however often Place Order is pressed
    created_at       INTEGER NOT NULL
);
CREATE INDEX orders_user_created ON orders (user_id, created_at);

CREATE TABLE order_lines (
    order_id    TEXT    NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    position    INTEGER NOT NULL,
    product_id  TEXT    NOT NULL,                  -- no foreign key: the snapshot outlives the product
    name        TEXT    NOT NULL,
    price_cents INTEGER NOT NULL,
    quantity    INTEGER NOT NULL,
    image       TEXT    NOT NULL,
    PRIMARY KEY (order_id, position)
) WITHOUT ROWID;

-- A saved card is brand, last four digits and expiry: nothing that pays.
CREATE TABLE saved_cards (
    user_id   TEXT    PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    brand     TEXT    NOT NULL,
    last4     TEXT    NOT NULL,
    exp_month INTEGER NOT NULL,
    exp_year  INTEGER NOT NULL,
    name      TEXT    NOT NULL
);

-- +goose Down
DROP TABLE saved_cards;
DROP TABLE order_lines;
DROP TABLE orders;
