-- +goose Up
-- As SQLite's migration 00012: existing password accounts start
-- unverified, accounts linked to Google are verified, staff keep their
-- role; and the table of e-mailed confirmation links.
ALTER TABLE users ADD COLUMN email_verified BOOLEAN NOT NULL DEFAULT false;
UPDATE users SET email_verified = true WHERE google_subject IS NOT NULL;

CREATE TABLE email_confirmations (
    token_hash     TEXT   PRIMARY KEY,
    user_id        TEXT   NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    google_subject TEXT,
    expires_at     BIGINT NOT NULL,
    used_at        BIGINT
);
CREATE INDEX email_confirmations_user ON email_confirmations (user_id);

-- +goose Down
DROP TABLE email_confirmations;
ALTER TABLE users DROP COLUMN email_verified;
