-- +goose Up
-- The shipping methods a free-shipping code makes free, as SQLite's
-- migration 00023.
ALTER TABLE promo_codes ADD COLUMN free_methods TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE promo_codes DROP COLUMN free_methods;
