-- +goose Up
-- Imported product photos, fetched once at import or sync and keyed by
-- their source URL (two products may share one). hash is the fetched
-- bytes' hash, '' until a fetch has succeeded; a later failure keeps the
-- last good variants and only records the error. etag and last_modified
-- make the next sync's fetch conditional, so an unchanged photo is not
-- downloaded again.
CREATE TABLE images (
    url           TEXT    PRIMARY KEY,
    hash          TEXT    NOT NULL DEFAULT '',
    width         INTEGER NOT NULL DEFAULT 0,
    height        INTEGER NOT NULL DEFAULT 0,
    etag          TEXT    NOT NULL DEFAULT '',
    last_modified TEXT    NOT NULL DEFAULT '',
    error         TEXT    NOT NULL DEFAULT '',
    checked_at    INTEGER NOT NULL
);

-- The resized, re-encoded copies we serve from /img/; in the database so
-- every instance serves the same bytes.
CREATE TABLE image_variants (
    url    TEXT    NOT NULL REFERENCES images (url) ON DELETE CASCADE,
    width  INTEGER NOT NULL,
    format TEXT    NOT NULL,  -- 'webp' or 'jpg'
    data   BLOB    NOT NULL,
    PRIMARY KEY (url, width, format)
);

-- +goose Down
DROP TABLE image_variants;
DROP TABLE images;
