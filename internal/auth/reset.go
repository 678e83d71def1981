package auth

import (
	"context"
	"fmt"

	"golang.org/x/crypto/bcrypt"

	"github.com/nocturne/storefront/internal/shop"
)

// RequestPasswordReset e-mails a single-use link when the address has an
// account, and does nothing otherwise; the caller shows MsgResetSent either
// way. Requests are limited per client address (refused with a
// *shop.ThrottledError) and per account (silently, so the answer never
// tells whether an account exists). A new link revokes every older one.
func (s *Service) RequestPasswordReset(ctx context.Context, email, addr string) error {
	return s.mailLink(ctx, email, addr, linkMail{
		what:         "password reset",
		limitAddress: shop.LimitResetAddress,
		limitAccount: shop.LimitResetAccount,
		revoke:       s.Resets.RevokePasswordResets,
		create:       s.Resets.CreatePasswordReset,
		lifetime:     resetTokenLifetime,
		path:         "/reset-password?token=",
		subject:      "Reset your password",
		body:         "Hello %s,\n\nSomeone asked to reset the password of your account. To choose a new password, open this link within one hour:\n\n%s\n\nIf it was not you, ignore this e-mail: your password stays as it is.\n",
	})
}

// MsgResetLinkInvalid is shown for a used, expired or malformed reset link.
const MsgResetLinkInvalid = shop.MsgResetLinkInvalid

// ResetLinkUsable reports whether a reset token from an e-mail can still set
// a password, without using it.
func (s *Service) ResetLinkUsable(ctx context.Context, token string) (bool, error) {
	if token == "" || len(token) > 200 {
		return false, nil
	}
	ok, err := s.Resets.PasswordResetUsable(ctx, hashToken(token))
	if err != nil {
		return false, fmt.Errorf("reset link: %w", err)
	}
	return ok, nil
}

// ResetPassword uses a reset token once to set a new password. Every session
// of the user is signed out; the caller signs the shopper in afresh.
func (s *Service) ResetPassword(ctx context.Context, token, password, confirm string) (*shop.User, shop.FieldErrors, error) {
	errs := shop.FieldErrors{}
	CheckPassword(password, confirm, errs, "password", "confirmPassword")
	if len(errs) > 0 {
		return nil, errs, nil
	}
	userID, err := s.Resets.ConsumePasswordReset(ctx, hashToken(token))
	if err != nil {
		return nil, nil, err
	}
	// Using one link revokes every other one.
	if err := s.revokeTokens(ctx, userID); err != nil {
		return nil, nil, fmt.Errorf("reset password: %w", err)
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(password), s.HashCost)
	if err != nil {
		return nil, nil, fmt.Errorf("hash password: %w", err)
	}
	if _, err := s.Users.SetPassword(ctx, userID, hash); err != nil {
		return nil, nil, fmt.Errorf("reset password: %w", err)
	}
	if err := s.Users.MarkEmailVerified(ctx, userID); err != nil {
		return nil, nil, fmt.Errorf("reset password: %w", err)
	}
	u, err := s.Users.UserByID(ctx, userID)
	if err != nil {
		return nil, nil, fmt.Errorf("reset password: %w", err)
	}
	return u, nil, nil
}
