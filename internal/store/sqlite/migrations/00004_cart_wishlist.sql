-- +goose Up
-- A cart belongs to a user (account or guest: "usr_…", "guest_…") or, for a
-- signed-out visitor, to an anonymous key kept in the session ("anon_…").
CREATE TABLE cart_items (
    owner      TEXT    NOT NULL,
    product_id TEXT    NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    quantity   INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 10),
    added_at   INTEGER NOT NULL,
    PRIMARY KEY (owner, product_id)
) WITHOUT ROWID;

CREATE TABLE wishlist_items (
    user_id    TEXT    NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    product_id TEXT    NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    added_at   INTEGER NOT NULL,
    PRIMARY KEY (user_id, product_id)
) WITHOUT ROWID;

-- +goose Down
DROP TABLE wishlist_items;
DROP TABLE cart_items;
