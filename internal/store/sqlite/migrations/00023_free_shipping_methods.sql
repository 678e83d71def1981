-- +goose Up
-- The shipping methods a free-shipping code makes free, their ids
-- separated by commas. Empty, as every code stored before has it, means
-- the cheapest method of the address's zone: a code never meant to pay
-- for Next Day or for shipping abroad.
ALTER TABLE promo_codes ADD COLUMN free_methods TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE promo_codes DROP COLUMN free_methods;
