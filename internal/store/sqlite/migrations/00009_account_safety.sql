-- +goose Up
-- Fixed-window counters of the throttles (sign-in failures by address and
-- by account and address, contact messages, reset and sign-in-link
-- requests). One row per key, counted up atomically, so every instance
-- sees the same count.
CREATE TABLE throttle (
    key        TEXT    PRIMARY KEY,               -- "signin-ip:203.0.113.9", "signin-acct-ip:usr_…|203.0.113.9", …
    hits       INTEGER NOT NULL,
    window_end INTEGER NOT NULL                   -- unix seconds; a hit after it starts a new window
) WITHOUT ROWID;

-- One-time sign-in links e-mailed to the owner of an account whose
-- password sign-in is throttled. Like reset tokens, only the hash is kept.
CREATE TABLE sign_in_links (
    token_hash TEXT    PRIMARY KEY,
    user_id    TEXT    NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at INTEGER NOT NULL,
    used_at    INTEGER
);
CREATE INDEX sign_in_links_user ON sign_in_links (user_id);

-- +goose Down
DROP TABLE sign_in_links;
DROP TABLE throttle;
