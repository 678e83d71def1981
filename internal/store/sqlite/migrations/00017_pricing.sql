-- +goose Up
-- What an order costs beyond its lines, kept in the database so every
-- instance prices alike: where the shop ships and how, what tax it adds
-- and the promo codes shoppers type. The rows seeded here are the
-- spec's policy (the shipping page states it); staff change them later.

-- A shipping zone holds countries and, when it lists any, only those
-- states of them. An address belongs to the first zone by position.
CREATE TABLE shipping_zones (
    id       TEXT    PRIMARY KEY,
    name     TEXT    NOT NULL CHECK (name <> ''),
    position INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

CREATE TABLE shipping_zone_countries (
    zone_id  TEXT    NOT NULL REFERENCES shipping_zones (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    country  TEXT    NOT NULL CHECK (country <> ''),
    PRIMARY KEY (zone_id, position),
    UNIQUE (zone_id, country)
) WITHOUT ROWID;

CREATE TABLE shipping_zone_states (
    zone_id  TEXT    NOT NULL REFERENCES shipping_zones (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    state    TEXT    NOT NULL CHECK (state <> ''),
    PRIMARY KEY (zone_id, position),
    UNIQUE (zone_id, state)
) WITHOUT ROWID;

-- A shipping method: free_from_cents 0 is never free; cutoff_hour -1 has
-- no cut-off (orders leave the next business day).
CREATE TABLE shipping_methods (
    id              TEXT    PRIMARY KEY,
    name            TEXT    NOT NULL CHECK (name <> ''),
    price_cents     INTEGER NOT NULL CHECK (price_cents >= 0),
    free_from_cents INTEGER NOT NULL DEFAULT 0 CHECK (free_from_cents >= 0),
    min_days        INTEGER NOT NULL CHECK (min_days >= 0),
    max_days        INTEGER NOT NULL,
    cutoff_hour     INTEGER NOT NULL DEFAULT -1 CHECK (cutoff_hour BETWEEN -1 AND 23),
    position        INTEGER NOT NULL DEFAULT 0,
    enabled         INTEGER NOT NULL DEFAULT 1,
    CHECK (max_days >= min_days)
) WITHOUT ROWID;

CREATE TABLE shipping_method_zones (
    method_id TEXT NOT NULL REFERENCES shipping_methods (id) ON DELETE CASCADE,
    zone_id   TEXT NOT NULL REFERENCES shipping_zones (id) ON DELETE CASCADE,
    PRIMARY KEY (method_id, zone_id)
) WITHOUT ROWID;
CREATE INDEX shipping_method_zones_zone ON shipping_method_zones (zone_id);

-- A tax rate in basis points for a country ('' where no other applies)
-- and optionally one state of it: one rate per place, since a state's
-- rate replaces its country's rather than adding to it.
CREATE TABLE tax_rates (
    id      TEXT    PRIMARY KEY,
    name    TEXT    NOT NULL CHECK (name <> ''),
    country TEXT    NOT NULL DEFAULT '',
    state   TEXT    NOT NULL DEFAULT '',
    rate    INTEGER NOT NULL CHECK (rate BETWEEN 0 AND 10000),
    UNIQUE (country, state),
    CHECK (state = '' OR country <> '')
) WITHOUT ROWID;

-- The shop-wide switches: one row.
CREATE TABLE pricing_settings (
    id                 INTEGER PRIMARY KEY CHECK (id = 1),
    prices_include_tax INTEGER NOT NULL DEFAULT 0,
    tax_shipping       INTEGER NOT NULL DEFAULT 0
);

-- A promo code is matched without regard to case, so two codes may not
-- differ only by it. used counts the orders placed with it and not
-- cancelled or expired; placing an order raises it with a conditional
-- update (… WHERE used < usage_cap), so racing shoppers cannot pass the
-- cap. Times are Unix seconds, 0 for none.
CREATE TABLE promo_codes (
    code               TEXT    PRIMARY KEY CHECK (code <> ''),
    kind               TEXT    NOT NULL CHECK (kind IN ('percent', 'fixed', 'free_shipping')),
    value              INTEGER NOT NULL DEFAULT 0 CHECK (value >= 0),
    min_subtotal_cents INTEGER NOT NULL DEFAULT 0 CHECK (min_subtotal_cents >= 0),
    starts_at          INTEGER NOT NULL DEFAULT 0,
    ends_at            INTEGER NOT NULL DEFAULT 0,
    usage_cap          INTEGER NOT NULL DEFAULT 0 CHECK (usage_cap >= 0),
    once_per_customer  INTEGER NOT NULL DEFAULT 0,
    paused             INTEGER NOT NULL DEFAULT 0,
    used               INTEGER NOT NULL DEFAULT 0 CHECK (used >= 0),
    created_at         INTEGER NOT NULL,
    CHECK (kind <> 'percent' OR value <= 10000)
) WITHOUT ROWID;
CREATE UNIQUE INDEX promo_codes_lower ON promo_codes (lower(code));

-- One row per order placed with a code, deleted when the order is
-- cancelled or its payment expires (which gives the use back). customer is
-- the account's id, or a guest's lower-cased e-mail; a code that is once
-- per customer refuses a second row for the same customer by the unique
-- index, which holds against racing orders too.
CREATE TABLE promo_redemptions (
    order_id   TEXT    PRIMARY KEY REFERENCES orders (id) ON DELETE CASCADE,
    code       TEXT    NOT NULL REFERENCES promo_codes (code) ON DELETE CASCADE,
    customer   TEXT    NOT NULL,
    once       INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX promo_redemptions_code ON promo_redemptions (code, customer);
CREATE UNIQUE INDEX promo_redemptions_once ON promo_redemptions (code, customer) WHERE once = 1;

-- An order keeps what its code took off, the shipping method chosen and
-- its tax as it was worked out, one line per rate, so a later change of
-- settings never rewrites a past order.
ALTER TABLE orders ADD COLUMN promo_code      TEXT    NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN discount_cents  INTEGER NOT NULL DEFAULT 0 CHECK (discount_cents >= 0);
ALTER TABLE orders ADD COLUMN shipping_method TEXT    NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN tax_included    INTEGER NOT NULL DEFAULT 0;

CREATE TABLE order_tax_lines (
    order_id     TEXT    NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    position     INTEGER NOT NULL,
    name         TEXT    NOT NULL,
    rate         INTEGER NOT NULL,
    base_cents   INTEGER NOT NULL,
    amount_cents INTEGER NOT NULL,
    PRIMARY KEY (order_id, position)
) WITHOUT ROWID;

INSERT INTO shipping_zones (id, name, position) VALUES ('us', 'United States', 1), ('intl', 'International', 2);
INSERT INTO shipping_zone_countries (zone_id, position, country) VALUES
    ('us', 1, 'United States'), ('intl', 1, 'Canada'), ('intl', 2, 'United Kingdom');
INSERT INTO shipping_methods (id, name, price_cents, free_from_cents, min_days, max_days, cutoff_hour, position, enabled) VALUES
    ('standard', 'Standard', 1000, 5000, 3, 5, -1, 1, 1),
    ('express', 'Express', 1499, 0, 2, 3, -1, 2, 1),
    ('next-day', 'Next Day', 1999, 0, 1, 1, 14, 3, 1),
    ('international', 'International', 2499, 0, 7, 14, -1, 4, 1);
INSERT INTO shipping_method_zones (method_id, zone_id) VALUES
    ('standard', 'us'), ('express', 'us'), ('next-day', 'us'), ('international', 'intl');
INSERT INTO tax_rates (id, name, country, state, rate) VALUES ('default', 'Tax', '', '', 1000);
INSERT INTO pricing_settings (id, prices_include_tax, tax_shipping) VALUES (1, 0, 0);

-- +goose Down
DROP TABLE order_tax_lines;
ALTER TABLE orders DROP COLUMN tax_included;
ALTER TABLE orders DROP COLUMN shipping_method;
ALTER TABLE orders DROP COLUMN discount_cents;
ALTER TABLE orders DROP COLUMN promo_code;
DROP TABLE promo_redemptions;
DROP TABLE promo_codes;
DROP TABLE pricing_settings;
DROP TABLE tax_rates;
DROP TABLE shipping_method_zones;
DROP TABLE shipping_methods;
DROP TABLE shipping_zone_states;
DROP TABLE shipping_zone_countries;
DROP TABLE shipping_zones;
