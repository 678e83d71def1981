// Package auth owns who the shopper is: password hashing, registration and
// sign-in, guests, password resets, Google sign-in (and goth's state), the
// server-side sessions and the guards that require a signed-in user.
package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/nocturne/storefront/internal/mail"
	"github.com/nocturne/storefront/internal/shop"
)

// Messages the spec fixes (§5, §8) and the ones we add.
const (
	MsgPasswordsDiffer   = "Passwords do not match"
	MsgPasswordTooShort  = "Password must be at least 6 characters"
	MsgPasswordTooLong   = "Password must be at most 72 characters"
	MsgEmailTaken        = "An account with this email already exists."
	MsgBadCredentials    = "Invalid email or password."
	MsgAuthFailed        = "Failed to authenticate. Please try again."
	MsgRegisterFailed    = "Failed to create account. Please try again."
	MsgGoogleFailed      = "Failed to login with Google. Please try again."
	MsgProfileFailed     = "Failed to update profile. Please try again."
	MsgLogoutFailed      = "Failed to log out. Please try again."
	MsgWrongPassword     = "Your current password is incorrect."
	MsgResetSent         = "If an account exists for that email, we have sent a link to reset your password."
	resetTokenLifetime   = time.Hour
	maxPasswordBytes     = 72 // bcrypt ignores anything longer
	resetTokenRandomSize = 32
)

// ErrBadCredentials is the one answer for an unknown e-mail and a wrong
// password alike, so sign-in never tells which accounts exist.
var ErrBadCredentials = shop.Errorf(shop.EINVALID, MsgBadCredentials)

// Service holds the account rules.
type Service struct {
	Users    shop.UserStore
	Resets   shop.PasswordResetStore
	Mailer   mail.Mailer
	BaseURL  string // for links in e-mails
	HashCost int    // bcrypt cost; tests use bcrypt.MinCost
	Now      func() time.Time
	Log      *slog.Logger
}

// dummyHash is compared against when an e-mail is unknown, so a miss takes
// as long as a wrong password.
var dummyHash, _ = bcrypt.GenerateFromPassword([]byte("nocturne-dummy-password"), bcrypt.DefaultCost)

// RegisterInput is the registration form.
type RegisterInput struct {
	DisplayName, Email, Password, ConfirmPassword string
}

// CheckPassword applies the password rules shared by registration, the
// password change and the reset form.
func CheckPassword(password, confirm string, errs shop.FieldErrors, field, confirmField string) {
	switch {
	case password == "":
		errs[field] = "Password is required."
	case len(password) < shop.MinPasswordLength:
		errs[field] = MsgPasswordTooShort
	case len(password) > maxPasswordBytes:
		errs[field] = MsgPasswordTooLong
	}
	if confirm == "" {
		errs[confirmField] = "Please confirm your password."
	} else if _, bad := errs[field]; !bad && password != confirm {
		errs[confirmField] = MsgPasswordsDiffer
	}
}

// Validate checks the registration form.
func (in *RegisterInput) Validate() shop.FieldErrors {
	errs := shop.FieldErrors{}
	if in.DisplayName == "" {
		errs["displayName"] = "Full name is required."
	} else if len(in.DisplayName) > 200 {
		errs["displayName"] = "Full name is too long (at most 200 characters)."
	}
	if in.Email == "" {
		errs["email"] = "Email is required."
	} else if !shop.ValidEmail(in.Email) || len(in.Email) > 254 {
		errs["email"] = "Please enter a valid email address"
	}
	CheckPassword(in.Password, in.ConfirmPassword, errs, "password", "confirmPassword")
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// Register creates an account. Field errors come back as shop.FieldErrors;
// any other error is internal.
func (s *Service) Register(ctx context.Context, in RegisterInput) (*shop.User, shop.FieldErrors, error) {
	in.Email = shop.NormalizeEmail(in.Email)
	if errs := in.Validate(); errs != nil {
		return nil, errs, nil
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(in.Password), s.HashCost)
	if err != nil {
		return nil, nil, fmt.Errorf("hash password: %w", err)
	}
	u := &shop.User{ID: newID("usr_"), Email: in.Email, DisplayName: in.DisplayName}
	if err := s.Users.CreateUser(ctx, u, hash); shop.ErrorCode(err) == shop.ECONFLICT {
		return nil, shop.FieldErrors{"email": MsgEmailTaken}, nil
	} else if err != nil {
		return nil, nil, fmt.Errorf("register: %w", err)
	}
	return u, nil, nil
}

// SignIn checks an e-mail and password.
func (s *Service) SignIn(ctx context.Context, email, password string) (*shop.User, error) {
	u, hash, err := s.Users.UserByEmail(ctx, email)
	if err != nil && shop.ErrorCode(err) != shop.ENOTFOUND {
		return nil, fmt.Errorf("sign in: %w", err)
	}
	if u == nil || hash == nil || u.IsGuest {
		_ = bcrypt.CompareHashAndPassword(dummyHash, []byte(password))
		return nil, ErrBadCredentials
	}
	if bcrypt.CompareHashAndPassword(hash, []byte(password)) != nil {
		return nil, ErrBadCredentials
	}
	return u, nil
}

// NewGuest creates a guest user. The id is guest_ + a millisecond timestamp
// (as the spec has it) + a random suffix, since two guests can arrive in the
// same millisecond.
func (s *Service) NewGuest(ctx context.Context) (*shop.User, error) {
	id := shop.GuestIDPrefix + strconv.FormatInt(s.Now().UnixMilli(), 10) + "_" + randomHex(6)
	u := &shop.User{ID: id, IsGuest: true, DisplayName: "Guest"}
	if err := s.Users.CreateUser(ctx, u, nil); err != nil {
		return nil, fmt.Errorf("create guest: %w", err)
	}
	return u, nil
}

// ChangePassword checks the current password and sets a new one. It returns
// the new session generation, which the caller saves in its own session so
// only the other sessions are signed out.
func (s *Service) ChangePassword(ctx context.Context, u *shop.User, current, password, confirm string) (int64, shop.FieldErrors, error) {
	errs := shop.FieldErrors{}
	if current == "" && u.HasPassword {
		errs["currentPassword"] = "Current password is required."
	}
	CheckPassword(password, confirm, errs, "newPassword", "confirmPassword")
	if len(errs) > 0 {
		return 0, errs, nil
	}
	if u.HasPassword {
		if _, err := s.SignIn(ctx, u.Email, current); errors.Is(err, ErrBadCredentials) {
			return 0, shop.FieldErrors{"currentPassword": MsgWrongPassword}, nil
		} else if err != nil {
			return 0, nil, err
		}
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(password), s.HashCost)
	if err != nil {
		return 0, nil, fmt.Errorf("hash password: %w", err)
	}
	gen, err := s.Users.SetPassword(ctx, u.ID, hash)
	if err != nil {
		return 0, nil, fmt.Errorf("change password: %w", err)
	}
	return gen, nil, nil
}

// RequestPasswordReset e-mails a single-use link when the address has an
// account, and does nothing otherwise; the caller shows MsgResetSent either
// way.
func (s *Service) RequestPasswordReset(ctx context.Context, email string) error {
	u, _, err := s.Users.UserByEmail(ctx, email)
	if shop.ErrorCode(err) == shop.ENOTFOUND || (u != nil && u.IsGuest) {
		return nil
	} else if err != nil {
		return fmt.Errorf("password reset: %w", err)
	}
	token := randomToken()
	if err := s.Resets.CreatePasswordReset(ctx, u.ID, hashToken(token), s.Now().Add(resetTokenLifetime)); err != nil {
		return fmt.Errorf("password reset: %w", err)
	}
	link := s.BaseURL + "/reset-password?token=" + token
	body := fmt.Sprintf("Hello %s,\n\nSomeone asked to reset the password of your account. To choose a new password, open this link within one hour:\n\n%s\n\nIf it was not you, ignore this e-mail: your password stays as it is.\n", u.DisplayName, link)
	if err := s.Mailer.Send(ctx, shop.Email{To: u.Email, Subject: "Reset your password", Body: body}); err != nil {
		return fmt.Errorf("password reset: %w", err)
	}
	return nil
}

// MsgResetLinkInvalid is shown for a used, expired or malformed reset link.
const MsgResetLinkInvalid = "This reset link is invalid or has expired. Please request a new one."

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
	hash, err := bcrypt.GenerateFromPassword([]byte(password), s.HashCost)
	if err != nil {
		return nil, nil, fmt.Errorf("hash password: %w", err)
	}
	if _, err := s.Users.SetPassword(ctx, userID, hash); err != nil {
		return nil, nil, fmt.Errorf("reset password: %w", err)
	}
	u, err := s.Users.UserByID(ctx, userID)
	if err != nil {
		return nil, nil, fmt.Errorf("reset password: %w", err)
	}
	return u, nil, nil
}

// GoogleIdentity is what the OpenID Connect provider told us.
type GoogleIdentity struct {
	Subject, Email, Name string
	EmailVerified        bool
}

// SignInWithGoogle finds the account for a Google identity: by subject, else
// by verified e-mail (linking it), else a new account.
func (s *Service) SignInWithGoogle(ctx context.Context, id GoogleIdentity) (*shop.User, error) {
	if id.Subject == "" {
		return nil, errors.New("google: no subject")
	}
	u, err := s.Users.UserByGoogleSubject(ctx, id.Subject)
	if err == nil {
		return u, nil
	} else if shop.ErrorCode(err) != shop.ENOTFOUND {
		return nil, fmt.Errorf("google sign-in: %w", err)
	}
	email := shop.NormalizeEmail(id.Email)
	if email == "" || !id.EmailVerified {
		return nil, errors.New("google: no verified e-mail")
	}
	u, _, err = s.Users.UserByEmail(ctx, email)
	if err == nil {
		if err := s.Users.LinkGoogle(ctx, u.ID, id.Subject); err != nil {
			return nil, fmt.Errorf("google sign-in: %w", err)
		}
		u.GoogleSubject = id.Subject
		return u, nil
	} else if shop.ErrorCode(err) != shop.ENOTFOUND {
		return nil, fmt.Errorf("google sign-in: %w", err)
	}
	name := id.Name
	if name == "" {
		name = email
	}
	u = &shop.User{ID: newID("usr_"), Email: email, DisplayName: name, GoogleSubject: id.Subject}
	if err := s.Users.CreateUser(ctx, u, nil); err != nil {
		return nil, fmt.Errorf("google sign-in: %w", err)
	}
	return u, nil
}

func newID(prefix string) string { return prefix + randomHex(12) }

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return hex.EncodeToString(b)
}

func randomToken() string {
	b := make([]byte, resetTokenRandomSize)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
