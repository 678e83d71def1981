-- +goose Up
-- An account's e-mail is verified once its owner used a link mailed to it
-- (or Google vouched for it). Registration alone proves nothing, so
-- existing password accounts start unverified; accounts linked to Google
-- are verified. Staff rows are not touched: existing staff keep their role.
ALTER TABLE users ADD COLUMN email_verified INTEGER NOT NULL DEFAULT 0;
UPDATE users SET email_verified = 1 WHERE google_subject IS NOT NULL;

-- Links that confirm an address: the one mailed after registration, and
-- the one that confirms adding Google sign-in to a verified account
-- (google_subject is the subject to link). Only the hash is kept.
CREATE TABLE email_confirmations (
    token_hash     TEXT    PRIMARY KEY,
    user_id        TEXT    NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    google_subject TEXT,
    expires_at     INTEGER NOT NULL,
    used_at        INTEGER
);
CREATE INDEX email_confirmations_user ON email_confirmations (user_id);

-- +goose Down
DROP TABLE email_confirmations;
ALTER TABLE users DROP COLUMN email_verified;
