-- +goose Up
-- heartbeat is the health monitor's one row, as SQLite's migration 00013:
-- every probe interval an instance commits a new beat_at (never a request:
-- reads never write), so a read-only or full database shows on /healthz.
CREATE TABLE heartbeat (
    id      BIGINT PRIMARY KEY CHECK (id = 1),
    beat_at BIGINT NOT NULL
);
INSERT INTO heartbeat (id, beat_at) VALUES (1, 0);

-- +goose Down
DROP TABLE heartbeat;
