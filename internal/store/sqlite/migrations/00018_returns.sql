-- +goose Up
-- Returns: a shopper asks to send back items of a delivered order, staff
-- approve or reject the request, mark the items received (putting them
-- back into stock or not) and refund them through the order's one refund
-- path. See docs/decisions/0015-returns.md.

-- A final-sale product cannot be returned; every product can unless staff
-- say otherwise.
ALTER TABLE products ADD COLUMN returnable INTEGER NOT NULL DEFAULT 1;

-- How many of a line are in return requests that were not rejected. A
-- request raises it with a conditional update (… WHERE quantity - returned
-- >= ?), so racing requests can never return more than was bought.
ALTER TABLE order_lines ADD COLUMN returned INTEGER NOT NULL DEFAULT 0 CHECK (returned >= 0 AND returned <= quantity);

-- A return request and where it stands. requested_by is the shopper's
-- account (or guest) id, '' for a visitor who looked the order up;
-- updated_by the staff member who took the last step. refunded_cents is
-- the refund made for it. Times are Unix seconds.
CREATE TABLE return_requests (
    id             TEXT    PRIMARY KEY,
    order_id       TEXT    NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    state          TEXT    NOT NULL CHECK (state IN ('requested', 'approved', 'rejected', 'received', 'refunded')),
    reason         TEXT    NOT NULL CHECK (reason <> ''),
    comment        TEXT    NOT NULL DEFAULT '',
    staff_message  TEXT    NOT NULL DEFAULT '',
    refunded_cents INTEGER NOT NULL DEFAULT 0 CHECK (refunded_cents >= 0),
    requested_by   TEXT    NOT NULL DEFAULT '',
    updated_by     TEXT    NOT NULL DEFAULT '',
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX return_requests_order ON return_requests (order_id, created_at);
CREATE INDEX return_requests_state ON return_requests (state, created_at);

-- The items of a request: which line of the order (its position), the
-- variant it sold, how many, and whether they went back into stock when
-- they were received.
CREATE TABLE return_lines (
    return_id  TEXT    NOT NULL REFERENCES return_requests (id) ON DELETE CASCADE,
    order_id   TEXT    NOT NULL,
    position   INTEGER NOT NULL,
    variant_id TEXT    NOT NULL DEFAULT '',
    quantity   INTEGER NOT NULL CHECK (quantity > 0),
    restock    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (return_id, position),
    FOREIGN KEY (order_id, position) REFERENCES order_lines (order_id, position) ON DELETE CASCADE
) WITHOUT ROWID;
CREATE INDEX return_lines_line ON return_lines (order_id, position);

-- +goose Down
DROP TABLE return_lines;
DROP TABLE return_requests;
ALTER TABLE order_lines DROP COLUMN returned;
ALTER TABLE products DROP COLUMN returnable;
