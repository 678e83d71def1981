-- +goose Up
-- catalog_version counts catalogue changes. Every ReplaceCatalog bumps it in
-- the same transaction, so a server holding the catalogue in memory can
-- notice an import made by another process (the `catalog import` command,
-- another instance) with one cheap read.
CREATE TABLE catalog_version (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    version INTEGER NOT NULL
);
INSERT INTO catalog_version (id, version) VALUES (1, 1);

-- +goose Down
DROP TABLE catalog_version;
