-- +goose Up
-- Shipping, tax and promo codes, as SQLite's migration 00017: kept in the
-- database so every instance prices alike, seeded with the spec's policy.

-- A shipping zone holds countries and, when it lists any, only those
-- states of them. An address belongs to the first zone by position.
CREATE TABLE shipping_zones (
    id       TEXT    PRIMARY KEY,
    name     TEXT    NOT NULL CHECK (name <> ''),
    position BIGINT  NOT NULL DEFAULT 0
);

CREATE TABLE shipping_zone_countries (
    zone_id  TEXT    NOT NULL REFERENCES shipping_zones (id) ON DELETE CASCADE,
    position BIGINT  NOT NULL,
    country  TEXT    NOT NULL CHECK (country <> ''),
    PRIMARY KEY (zone_id, position),
    UNIQUE (zone_id, country)
);

CREATE TABLE shipping_zone_states (
    zone_id  TEXT    NOT NULL REFERENCES shipping_zones (id) ON DELETE CASCADE,
    position BIGINT  NOT NULL,
    state    TEXT    NOT NULL CHECK (state <> ''),
    PRIMARY KEY (zone_id, position),
    UNIQUE (zone_id, state)
);

-- A shipping method: free_from_cents 0 is never free; cutoff_hour -1 has
-- no cut-off (orders leave the next business day).
CREATE TABLE shipping_methods (
    id              TEXT    PRIMARY KEY,
    name            TEXT    NOT NULL CHECK (name <> ''),
    price_cents     BIGINT  NOT NULL CHECK (price_cents >= 0),
    free_from_cents BIGINT  NOT NULL DEFAULT 0 CHECK (free_from_cents >= 0),
    min_days        BIGINT  NOT NULL CHECK (min_days >= 0),
    max_days        BIGINT  NOT NULL,
    cutoff_hour     BIGINT  NOT NULL DEFAULT -1 CHECK (cutoff_hour BETWEEN -1 AND 23),
    position        BIGINT  NOT NULL DEFAULT 0,
    enabled         BOOLEAN NOT NULL DEFAULT TRUE,
    CHECK (max_days >= min_days)
);

CREATE TABLE shipping_method_zones (
    method_id TEXT NOT NULL REFERENCES shipping_methods (id) ON DELETE CASCADE,
    zone_id   TEXT NOT NULL REFERENCES shipping_zones (id) ON DELETE CASCADE,
    PRIMARY KEY (method_id, zone_id)
);
CREATE INDEX shipping_method_zones_zone ON shipping_method_zones (zone_id);

-- A tax rate in basis points for a country ('' where no other applies)
-- and optionally one state of it: one rate per place, since a state's
-- rate replaces its country's rather than adding to it.
CREATE TABLE tax_rates (
    id      TEXT    PRIMARY KEY,
    name    TEXT    NOT NULL CHECK (name <> ''),
    country TEXT    NOT NULL DEFAULT '',
    state   TEXT    NOT NULL DEFAULT '',
    rate    BIGINT  NOT NULL CHECK (rate BETWEEN 0 AND 10000),
    UNIQUE (country, state),
    CHECK (state = '' OR country <> '')
);

-- The shop-wide switches: one row.
CREATE TABLE pricing_settings (
    id                 BIGINT  PRIMARY KEY CHECK (id = 1),
    prices_include_tax BOOLEAN NOT NULL DEFAULT FALSE,
    tax_shipping       BOOLEAN NOT NULL DEFAULT FALSE
);

-- A promo code is matched without regard to case, so two codes may not
-- differ only by it. used counts the orders placed with it and not
-- cancelled or expired; placing an order raises it with a conditional
-- update (… WHERE used < usage_cap), so racing shoppers cannot pass the
-- cap. Times are Unix seconds, 0 for none.
CREATE TABLE promo_codes (
    code               TEXT    PRIMARY KEY CHECK (code <> ''),
    kind               TEXT    NOT NULL CHECK (kind IN ('percent', 'fixed', 'free_shipping')),
    value              BIGINT  NOT NULL DEFAULT 0 CHECK (value >= 0),
    min_subtotal_cents BIGINT  NOT NULL DEFAULT 0 CHECK (min_subtotal_cents >= 0),
    starts_at          BIGINT  NOT NULL DEFAULT 0,
    ends_at            BIGINT  NOT NULL DEFAULT 0,
    usage_cap          BIGINT  NOT NULL DEFAULT 0 CHECK (usage_cap >= 0),
    once_per_customer  BOOLEAN NOT NULL DEFAULT FALSE,
    paused             BOOLEAN NOT NULL DEFAULT FALSE,
    used               BIGINT  NOT NULL DEFAULT 0 CHECK (used >= 0),
    created_at         BIGINT  NOT NULL,
    CHECK (kind <> 'percent' OR value <= 10000)
);
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
    once       BOOLEAN NOT NULL DEFAULT FALSE,
    created_at BIGINT  NOT NULL
);
CREATE INDEX promo_redemptions_code ON promo_redemptions (code, customer);
CREATE UNIQUE INDEX promo_redemptions_once ON promo_redemptions (code, customer) WHERE once;

-- An order keeps what its code took off, the shipping method chosen and
-- its tax as it was worked out, one line per rate, so a later change of
-- settings never rewrites a past order.
ALTER TABLE orders ADD COLUMN promo_code      TEXT    NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN discount_cents  BIGINT  NOT NULL DEFAULT 0 CHECK (discount_cents >= 0);
ALTER TABLE orders ADD COLUMN shipping_method TEXT    NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN tax_included    BOOLEAN NOT NULL DEFAULT FALSE;

CREATE TABLE order_tax_lines (
    order_id     TEXT    NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    position     BIGINT  NOT NULL,
    name         TEXT    NOT NULL,
    rate         BIGINT  NOT NULL,
    base_cents   BIGINT  NOT NULL,
    amount_cents BIGINT  NOT NULL,
    PRIMARY KEY (order_id, position)
);

INSERT INTO shipping_zones (id, name, position) VALUES ('us', 'United States', 1), ('intl', 'International', 2);
INSERT INTO shipping_zone_countries (zone_id, position, country) VALUES
    ('us', 1, 'United States'), ('intl', 1, 'Canada'), ('intl', 2, 'United Kingdom');
INSERT INTO shipping_methods (id, name, price_cents, free_from_cents, min_days, max_days, cutoff_hour, position, enabled) VALUES
    ('standard', 'Standard', 1000, 5000, 3, 5, -1, 1, TRUE),
    ('express', 'Express', 1499, 0, 2, 3, -1, 2, TRUE),
    ('next-day', 'Next Day', 1999, 0, 1, 1, 14, 3, TRUE),
    ('international', 'International', 2499, 0, 7, 14, -1, 4, TRUE);
INSERT INTO shipping_method_zones (method_id, zone_id) VALUES
    ('standard', 'us'), ('express', 'us'), ('next-day', 'us'), ('international', 'intl');
INSERT INTO tax_rates (id, name, country, state, rate) VALUES ('default', 'Tax', '', '', 1000);
INSERT INTO pricing_settings (id, prices_include_tax, tax_shipping) VALUES (1, FALSE, FALSE);

-- +goose Down
DROP TABLE order_tax_lines;
ALTER TABLE orders DROP COLUMN tax_included, DROP COLUMN shipping_method,
    DROP COLUMN discount_cents, DROP COLUMN promo_code;
DROP TABLE promo_redemptions;
DROP TABLE promo_codes;
DROP TABLE pricing_settings;
DROP TABLE tax_rates;
DROP TABLE shipping_method_zones;
DROP TABLE shipping_methods;
DROP TABLE shipping_zone_states;
DROP TABLE shipping_zone_countries;
DROP TABLE shipping_zones;
