package sqlstore

import (
	"context"
	"fmt"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// Reset tokens, sign-in links and e-mail confirmations are single-use
// tokens of a user, each kept by hash in a table of its own. A token is
// used in one conditional UPDATE, so two requests (or two instances)
// presenting the same token at once cannot both succeed.
const (
	resetTokens   = "password_resets"
	signInTokens  = "sign_in_links"
	confirmTokens = "email_confirmations"
)

// CreatePasswordReset stores a reset token's hash.
func (s *Store) CreatePasswordReset(ctx context.Context, userID, tokenHash string, expires time.Time) error {
	return s.createToken(ctx, resetTokens, userID, tokenHash, expires)
}

// ConsumePasswordReset uses a token once.
func (s *Store) ConsumePasswordReset(ctx context.Context, tokenHash string) (string, error) {
	return s.consumeToken(ctx, resetTokens, tokenHash, shop.MsgResetLinkInvalid)
}

// RevokePasswordResets marks every unused token of the user used.
func (s *Store) RevokePasswordResets(ctx context.Context, userID string) error {
	return s.revokeTokens(ctx, resetTokens, userID)
}

// PasswordResetUsable reports whether a token could be used now; it changes
// nothing (reads never write).
func (s *Store) PasswordResetUsable(ctx context.Context, tokenHash string) (bool, error) {
	var ok bool
	err := s.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM password_resets
		WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?)`, tokenHash, s.Now().Unix()).Scan(&ok)
	if err != nil {
		return false, fmt.Errorf("check password reset: %w", err)
	}
	return ok, nil
}

// CreateSignInLink stores a sign-in link's hash.
func (s *Store) CreateSignInLink(ctx context.Context, userID, tokenHash string, expires time.Time) error {
	return s.createToken(ctx, signInTokens, userID, tokenHash, expires)
}

// ConsumeSignInLink uses a link once.
func (s *Store) ConsumeSignInLink(ctx context.Context, tokenHash string) (string, error) {
	return s.consumeToken(ctx, signInTokens, tokenHash, shop.MsgSignInLinkInvalid)
}

// RevokeSignInLinks marks every unused link of the user used.
func (s *Store) RevokeSignInLinks(ctx context.Context, userID string) error {
	return s.revokeTokens(ctx, signInTokens, userID)
}

// CreateEmailConfirmation stores a confirmation link's hash, with the
// Google subject it links ("" for none).
func (s *Store) CreateEmailConfirmation(ctx context.Context, userID, tokenHash, googleSubject string, expires time.Time) error {
	_, err := s.Exec(ctx, `INSERT INTO email_confirmations (token_hash, user_id, google_subject, expires_at) VALUES (?, ?, ?, ?)`,
		tokenHash, userID, nullIfEmpty(googleSubject), expires.Unix())
	return s.FormatError(err, "insert email confirmation", Messages{shop.ENOTFOUND: shop.MsgUserNotFound})
}

// ConsumeEmailConfirmation uses a confirmation link once and returns its
// user and the Google subject it links.
func (s *Store) ConsumeEmailConfirmation(ctx context.Context, tokenHash string) (string, string, error) {
	var userID, sub string
	now := s.Now().Unix()
	err := s.QueryRow(ctx, `UPDATE email_confirmations SET used_at = ?
		WHERE token_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING user_id, COALESCE(google_subject, '')`,
		now, tokenHash, now).Scan(&userID, &sub)
	if err != nil {
		return "", "", rowError(err, "consume email confirmation", "%s", shop.MsgConfirmLinkInvalid)
	}
	return userID, sub, nil
}

// RevokeEmailConfirmations marks every unused confirmation link of the
// user used.
func (s *Store) RevokeEmailConfirmations(ctx context.Context, userID string) error {
	return s.revokeTokens(ctx, confirmTokens, userID)
}

// createToken stores a token's hash in table; a user that is gone is an
// ENOTFOUND.
func (s *Store) createToken(ctx context.Context, table, userID, tokenHash string, expires time.Time) error {
	_, err := s.Exec(ctx, `INSERT INTO `+table+` (token_hash, user_id, expires_at) VALUES (?, ?, ?)`,
		tokenHash, userID, expires.Unix())
	return s.FormatError(err, "insert into "+table, Messages{shop.ENOTFOUND: shop.MsgUserNotFound})
}

// consumeToken marks an unused, unexpired token of table used and returns
// its user; any other token is an ENOTFOUND with msg.
func (s *Store) consumeToken(ctx context.Context, table, tokenHash, msg string) (string, error) {
	var userID string
	now := s.Now().Unix()
	err := s.QueryRow(ctx, `UPDATE `+table+` SET used_at = ?
		WHERE token_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING user_id`, now, tokenHash, now).Scan(&userID)
	if err != nil {
		return "", rowError(err, "consume "+table, "%s", msg)
	}
	return userID, nil
}

// revokeTokens marks every unused token of the user in table used.
func (s *Store) revokeTokens(ctx context.Context, table, userID string) error {
	if _, err := s.Exec(ctx, `UPDATE `+table+` SET used_at = ? WHERE user_id = ? AND used_at IS NULL`,
		s.Now().Unix(), userID); err != nil {
		return fmt.Errorf("revoke %s: %w", table, err)
	}
	return nil
}
