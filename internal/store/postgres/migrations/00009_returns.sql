-- +goose Up
-- Returns, as SQLite's migration 00018: final-sale products, how many of
-- each order line are being returned (raised by a conditional update), the
-- return requests and their lines. See docs/decisions/0015-returns.md.
ALTER TABLE products ADD COLUMN returnable BOOLEAN NOT NULL DEFAULT TRUE;

ALTER TABLE order_lines ADD COLUMN returned BIGINT NOT NULL DEFAULT 0 CHECK (returned >= 0 AND returned <= quantity);

CREATE TABLE return_requests (
    id             TEXT    PRIMARY KEY,
    order_id       TEXT    NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    state          TEXT    NOT NULL CHECK (state IN ('requested', 'approved', 'rejected', 'received', 'refunded')),
    reason         TEXT    NOT NULL CHECK (reason <> ''),
    comment        TEXT    NOT NULL DEFAULT '',
    staff_message  TEXT    NOT NULL DEFAULT '',
    refunded_cents BIGINT  NOT NULL DEFAULT 0 CHECK (refunded_cents >= 0),
    requested_by   TEXT    NOT NULL DEFAULT '',
    updated_by     TEXT    NOT NULL DEFAULT '',
    created_at     BIGINT  NOT NULL,
    updated_at     BIGINT  NOT NULL
);
CREATE INDEX return_requests_order ON return_requests (order_id, created_at);
CREATE INDEX return_requests_state ON return_requests (state, created_at);

CREATE TABLE return_lines (
    return_id  TEXT    NOT NULL REFERENCES return_requests (id) ON DELETE CASCADE,
    order_id   TEXT    NOT NULL,
    position   BIGINT  NOT NULL,
    variant_id TEXT    NOT NULL DEFAULT '',
    quantity   BIGINT  NOT NULL CHECK (quantity > 0),
    restock    BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (return_id, position),
    FOREIGN KEY (order_id, position) REFERENCES order_lines (order_id, position) ON DELETE CASCADE
);
CREATE INDEX return_lines_line ON return_lines (order_id, position);

-- +goose Down
DROP TABLE return_lines, return_requests;
ALTER TABLE order_lines DROP COLUMN returned;
ALTER TABLE products DROP COLUMN returnable;
