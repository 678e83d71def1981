-- +goose Up
-- heartbeat is the health monitor's one row: every probe interval it commits
-- a new beat_at (never a request: reads never write). The pad alternates
-- between two sizes, so each beat writes fresh pages (SQLite overwrites a
-- row of the same size in place): a database that cannot grow fails the
-- beat as it would fail a shopper's register or add-to-cart.
CREATE TABLE heartbeat (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    beat_at INTEGER NOT NULL,
    pad     BLOB    NOT NULL
);
INSERT INTO heartbeat (id, beat_at, pad) VALUES (1, 0, x'');

-- +goose Down
DROP TABLE heartbeat;
