-- +goose Up
-- Tax rates finer than a basis point (New York City's 8.875 %): the rate
-- in millionths beside the basis points. rate stays, written rounded half
-- up, so a release before this one still reads a sane rate; 0 (what that
-- release inserts) means rate alone is the rate, and so does a rate_ppm
-- that rate, changed by that release since, no longer rounds from. An
-- order's tax lines keep the exact rate they were worked out at the same
-- way.
ALTER TABLE tax_rates ADD COLUMN rate_ppm INTEGER NOT NULL DEFAULT 0 CHECK (rate_ppm BETWEEN 0 AND 1000000);
ALTER TABLE order_tax_lines ADD COLUMN rate_ppm INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE order_tax_lines DROP COLUMN rate_ppm;
ALTER TABLE tax_rates DROP COLUMN rate_ppm;
