-- +goose Up
CREATE TABLE users (
    id             TEXT    PRIMARY KEY,           -- "usr_…" for accounts, "guest_…" for guests
    email          TEXT    UNIQUE,                -- normalised (lower case); NULL for guests
    display_name   TEXT    NOT NULL DEFAULT '',
    password_hash  TEXT,                          -- bcrypt; NULL for Google-only accounts and guests
    google_subject TEXT    UNIQUE,
    phone_number   TEXT    NOT NULL DEFAULT '',
    address        TEXT    NOT NULL DEFAULT '',
    city           TEXT    NOT NULL DEFAULT '',
    state          TEXT    NOT NULL DEFAULT '',
    zip_code       TEXT    NOT NULL DEFAULT '',
    country        TEXT    NOT NULL DEFAULT 'United States',
    is_guest       INTEGER NOT NULL DEFAULT 0,
    -- Sessions remember the generation they were signed in under; bumping it
    -- signs out every other session (password change, "sign out everywhere").
    session_gen    INTEGER NOT NULL DEFAULT 0,
    created_at     INTEGER NOT NULL
);

CREATE TABLE password_resets (
    token_hash TEXT    PRIMARY KEY,               -- sha256 of the token; the token itself is only e-mailed
    user_id    TEXT    NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at INTEGER NOT NULL,
    used_at    INTEGER
);
CREATE INDEX password_resets_user ON password_resets (user_id);

CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY,
    recipient  TEXT    NOT NULL,
    subject    TEXT    NOT NULL,
    body       TEXT    NOT NULL,
    created_at INTEGER NOT NULL
);

-- +goose Down
DROP TABLE outbox;
DROP TABLE password_resets;
DROP TABLE users;
