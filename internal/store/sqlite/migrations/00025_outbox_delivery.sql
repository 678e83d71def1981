-- +goose Up
-- Every e-mail is kept in the outbox and delivered from there, retried
-- until the mail server accepts it. The defaults make a row written by the
-- previous release (which names only recipient, subject, body, created_at)
-- a mail waiting for its first attempt. Times are Unix seconds.
ALTER TABLE outbox ADD COLUMN state TEXT NOT NULL DEFAULT 'waiting';
ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN next_attempt_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN last_error TEXT NOT NULL DEFAULT '';
ALTER TABLE outbox ADD COLUMN sent_at INTEGER;
-- secret: the body holds a sign-in, reset or confirmation link.
ALTER TABLE outbox ADD COLUMN secret INTEGER NOT NULL DEFAULT 0;
CREATE INDEX outbox_due ON outbox (state, next_attempt_at);

-- +goose Down
DROP INDEX outbox_due;
ALTER TABLE outbox DROP COLUMN secret;
ALTER TABLE outbox DROP COLUMN sent_at;
ALTER TABLE outbox DROP COLUMN last_error;
ALTER TABLE outbox DROP COLUMN next_attempt_at;
ALTER TABLE outbox DROP COLUMN attempts;
ALTER TABLE outbox DROP COLUMN state;
