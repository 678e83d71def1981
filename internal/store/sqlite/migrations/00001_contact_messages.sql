-- +goose Up
CREATE TABLE contact_messages (
    id         INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL,
    email      TEXT    NOT NULL,
    subject    TEXT    NOT NULL,
    message    TEXT    NOT NULL,
    created_at INTEGER NOT NULL -- unix seconds, UTC
);

-- kv backs fiber.Storage (CSRF tokens now, sessions later). expires_at 0
-- means the entry never expires.
CREATE TABLE kv (
    key        TEXT    PRIMARY KEY,
    value      BLOB    NOT NULL,
    expires_at INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE INDEX kv_expires_at ON kv (expires_at) WHERE expires_at > 0;

-- +goose Down
DROP TABLE kv;
DROP TABLE contact_messages;
