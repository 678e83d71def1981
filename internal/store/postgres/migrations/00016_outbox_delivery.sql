-- +goose Up
-- Every e-mail is delivered from the outbox, as SQLite's migration 00025.
ALTER TABLE outbox ADD COLUMN state TEXT NOT NULL DEFAULT 'waiting';
ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN next_attempt_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN last_error TEXT NOT NULL DEFAULT '';
ALTER TABLE outbox ADD COLUMN sent_at BIGINT;
ALTER TABLE outbox ADD COLUMN secret BOOLEAN NOT NULL DEFAULT FALSE;
CREATE INDEX outbox_due ON outbox (state, next_attempt_at);

-- +goose Down
DROP INDEX outbox_due;
ALTER TABLE outbox DROP COLUMN secret;
ALTER TABLE outbox DROP COLUMN sent_at;
ALTER TABLE outbox DROP COLUMN last_error;
ALTER TABLE outbox DROP COLUMN next_attempt_at;
ALTER TABLE outbox DROP COLUMN attempts;
ALTER TABLE outbox DROP COLUMN state;
