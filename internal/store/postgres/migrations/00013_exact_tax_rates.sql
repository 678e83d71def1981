-- +goose Up
-- Tax rates finer than a basis point, as SQLite's migration 00022: the
-- rate in millionths beside the basis points, which stay (rounded half up)
-- for the release before; 0 means rate alone is the rate.
ALTER TABLE tax_rates ADD COLUMN rate_ppm BIGINT NOT NULL DEFAULT 0 CHECK (rate_ppm BETWEEN 0 AND 1000000);
ALTER TABLE order_tax_lines ADD COLUMN rate_ppm BIGINT NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE order_tax_lines DROP COLUMN rate_ppm;
ALTER TABLE tax_rates DROP COLUMN rate_ppm;
