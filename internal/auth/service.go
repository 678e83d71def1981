// Package auth owns who the shopper is: password hashing, registration and
// sign-in, guests, password resets, Google sign-in (and goth's state). It
// knows nothing of HTTP: sessions, cookies and guards are package session's.
package auth

import (
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"time"

	"github.com/nocturne/storefront/internal/mail"
	"github.com/nocturne/storefront/internal/shop"
)

// Messages the spec fixes (its validation rules and error catalogue) and
// the ones we add.
const (
	MsgPasswordsDiffer   = "Passwords do not match"
	MsgPasswordTooShort  = "Password must be at least 6 characters"
	MsgPasswordTooLong   = "Password must be at most 72 characters"
	MsgEmailTaken        = shop.MsgEmailTaken
	MsgBadCredentials    = "Invalid email or password."
	MsgAuthFailed        = "Failed to authenticate. Please try again."
	MsgRegisterFailed    = "Failed to create account. Please try again."
	MsgGoogleFailed      = "Failed to login with Google. Please try again."
	MsgProfileFailed     = "Failed to update profile. Please try again."
	MsgLogoutFailed      = "Failed to log out. Please try again."
	MsgWrongPassword     = "Your current password is incorrect."
	MsgResetSent         = "If an account exists for that email, we have sent a link to reset your password."
	MsgPasswordBlank     = "Password cannot be only spaces."
	MsgPasswordCommon    = "This password is too common or too easy to guess. Please choose another one."
	MsgLinkSent          = "If an account exists for that email, we have sent you a one-time sign-in link. It works once, within 15 minutes."
	resetTokenLifetime   = time.Hour
	signInLinkLifetime   = 15 * time.Minute
	maxPasswordBytes     = 72 // bcrypt ignores anything longer
	resetTokenRandomSize = 32
)

// ErrBadCredentials is the one answer for an unknown e-mail and a wrong
// password alike, so sign-in never tells which accounts exist.
var ErrBadCredentials = shop.Errorf(shop.EINVALID, MsgBadCredentials)

// Service holds the account rules.
type Service struct {
	Users shop.UserStore
	// Carts receives a signed-out visitor's cart at sign-in (KeepCart).
	Carts  shop.CartStore
	Resets shop.PasswordResetStore
	Links  shop.SignInLinkStore
	// Confirmations keeps the links that confirm an e-mail address.
	Confirmations shop.EmailConfirmationStore
	// Throttle limits sign-in failures and e-mail requests; nil means no
	// limits (some tests).
	Throttle *shop.Throttle
	Mailer   mail.Mailer
	BaseURL  string // for links in e-mails
	HashCost int    // bcrypt cost; tests use bcrypt.MinCost
	Now      func() time.Time
	Log      *slog.Logger
}

func newID(prefix string) string { return prefix + shop.RandomHex(12) }

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
