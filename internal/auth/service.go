// Package auth owns who the shopper is: password hashing, registration and
// sign-in, guests, password resets, Google sign-in (and goth's state). It
// knows nothing of HTTP: sessions, cookies and guards are package session's.
package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"

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

// Messages and lifetimes of e-mail confirmation and Google linking.
const (
	// MsgGoogleConfirmSent: %s is the account's e-mail address.
	MsgGoogleConfirmSent  = "We sent a link to %s to confirm adding Google sign-in to your account."
	MsgEmailConfirmed     = "Your e-mail address is confirmed."
	MsgGoogleLinked       = "Google sign-in has been added to your account."
	MsgGoogleTookOver     = "You are signed in with Google. The password this account had was removed, because its e-mail address had never been confirmed; you can set a new one in Account Settings."
	MsgConfirmLinkInvalid = shop.MsgConfirmLinkInvalid
	confirmLifetime       = 24 * time.Hour
	googleConfirmLifetime = time.Hour
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

// dummyHash is compared against when an e-mail is unknown, so a miss takes
// as long as a wrong password.
var dummyHash, _ = bcrypt.GenerateFromPassword([]byte("nocturne-dummy-password"), bcrypt.DefaultCost)

// RegisterInput is the registration form.
type RegisterInput struct {
	DisplayName, Email, Password, ConfirmPassword string
}

// CheckPassword applies the password rules shared by registration, the
// password change and the reset form: the spec's minimum length, bcrypt's
// maximum, not only white space, and not a commonly used password (or one
// made of the shopper's own name or e-mail, given as userInputs).
func CheckPassword(password, confirm string, errs shop.FieldErrors, field, confirmField string, userInputs ...string) {
	switch {
	case password == "":
		errs[field] = "Password is required."
	case len(password) < shop.MinPasswordLength:
		errs[field] = MsgPasswordTooShort
	case len(password) > maxPasswordBytes:
		errs[field] = MsgPasswordTooLong
	case strings.TrimSpace(password) == "":
		errs[field] = MsgPasswordBlank
	case Common(password, userInputs...):
		errs[field] = MsgPasswordCommon
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
	CheckPassword(in.Password, in.ConfirmPassword, errs, "password", "confirmPassword", in.Email, in.DisplayName)
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
	// The account works at once; the mail only proves the address. A
	// failure to send it is logged, not shown: a reset or a sign-in link
	// verifies the address as well.
	if err := s.mailConfirmation(ctx, u.Email, ""); err != nil {
		s.Log.Error("registration confirmation mail", "err", err, "user", u.ID)
	}
	return u, nil, nil
}

// SignIn checks an e-mail and password from a client address, within the
// sign-in throttles: failures count per address and per account at that
// address (so guessing from elsewhere never locks the owner out), and per
// account overall (an account guessed at from many addresses). A throttled
// attempt is refused with a *shop.ThrottledError before the password is
// looked at; its owner can still get in with RequestSignInLink.
func (s *Service) SignIn(ctx context.Context, email, password, addr string) (*shop.User, error) {
	email = shop.NormalizeEmail(email)
	acctAddr := email + "|" + addr
	if s.Throttle != nil {
		for _, c := range []struct {
			l       shop.Limit
			subject string
		}{{shop.LimitSignInAddress, addr}, {shop.LimitSignInAccountAddress, acctAddr}, {shop.LimitSignInAccount, email}} {
			if err := s.Throttle.Check(ctx, c.l, c.subject); err != nil {
				return nil, err
			}
		}
	}
	u, err := s.authenticate(ctx, email, password)
	if s.Throttle == nil {
		return u, err
	}
	if errors.Is(err, ErrBadCredentials) {
		for _, c := range []struct {
			l       shop.Limit
			subject string
		}{{shop.LimitSignInAddress, addr}, {shop.LimitSignInAccountAddress, acctAddr}, {shop.LimitSignInAccount, email}} {
			if ferr := s.Throttle.Fail(ctx, c.l, c.subject); ferr != nil {
				s.Log.Error("count sign-in failure", "err", ferr)
			}
		}
	} else if err == nil {
		if cerr := s.Throttle.Clear(ctx, shop.LimitSignInAccountAddress, acctAddr); cerr != nil {
			s.Log.Error("clear sign-in failures", "err", cerr)
		}
	}
	return u, err
}

// Throttled reports whether err is a refusal by a throttle, and when to
// retry.
func Throttled(err error) (time.Duration, bool) {
	var te *shop.ThrottledError
	if errors.As(err, &te) {
		return te.RetryAfter, true
	}
	return 0, false
}

// RequestSignInLink e-mails a one-time sign-in link when the address has
// an account (and does nothing otherwise; the caller shows MsgLinkSent
// either way). Requests are limited per client address (refused with a
// *shop.ThrottledError) and per account (silently, so the answer never
// tells whether an account exists). A new link revokes older ones.
func (s *Service) RequestSignInLink(ctx context.Context, email, addr string) error {
	return s.mailLink(ctx, email, addr, linkMail{
		what:         "sign-in link",
		limitAddress: shop.LimitSignInLinkAddress,
		limitAccount: shop.LimitSignInLinkAccount,
		revoke:       s.Links.RevokeSignInLinks,
		create:       s.Links.CreateSignInLink,
		lifetime:     signInLinkLifetime,
		path:         "/login/link?token=",
		subject:      "Your sign-in link",
		body:         "Hello %s,\n\nSomeone asked for a one-time link to sign in to your account, which had too many failed sign-in attempts. To sign in, open this link within 15 minutes:\n\n%s\n\nIf it was not you, ignore this e-mail; consider changing your password.\n",
	})
}

// SignInWithLink uses a one-time sign-in link from addr: it works once,
// and clears the failures of that account at that address.
func (s *Service) SignInWithLink(ctx context.Context, token, addr string) (*shop.User, error) {
	userID, err := s.Links.ConsumeSignInLink(ctx, hashToken(token))
	if err != nil {
		return nil, err
	}
	// The link came to the address: it is the owner's.
	if err := s.Users.MarkEmailVerified(ctx, userID); err != nil {
		return nil, fmt.Errorf("sign-in link: %w", err)
	}
	u, err := s.Users.UserByID(ctx, userID)
	if err != nil {
		return nil, fmt.Errorf("sign-in link: %w", err)
	}
	if s.Throttle != nil {
		if err := s.Throttle.Clear(ctx, shop.LimitSignInAccountAddress, u.Email+"|"+addr); err != nil {
			s.Log.Error("clear sign-in failures", "err", err)
		}
	}
	return u, nil
}

// authenticate checks an e-mail and password, without throttles.
func (s *Service) authenticate(ctx context.Context, email, password string) (*shop.User, error) {
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
	id := shop.GuestIDPrefix + strconv.FormatInt(s.Now().UnixMilli(), 10) + "_" + shop.RandomHex(6)
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
	CheckPassword(password, confirm, errs, "newPassword", "confirmPassword", u.Email, u.DisplayName)
	if len(errs) > 0 {
		return 0, errs, nil
	}
	if u.HasPassword {
		if _, err := s.authenticate(ctx, u.Email, current); errors.Is(err, ErrBadCredentials) {
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
	// A reset link sent before the change must not undo it.
	if err := s.revokeTokens(ctx, u.ID); err != nil {
		return 0, nil, fmt.Errorf("change password: %w", err)
	}
	return gen, nil, nil
}

// revokeTokens makes every reset and sign-in link of the user unusable.
func (s *Service) revokeTokens(ctx context.Context, userID string) error {
	if err := s.Resets.RevokePasswordResets(ctx, userID); err != nil {
		return err
	}
	if s.Links != nil {
		return s.Links.RevokeSignInLinks(ctx, userID)
	}
	return nil
}

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

// linkMail is one kind of e-mailed single-use link (a password reset, a
// sign-in link): how requests for it are limited, where its hashed token is
// kept, and the e-mail that carries it.
type linkMail struct {
	what                       string     // in errors and logs
	limitAddress, limitAccount shop.Limit // a zero limitAddress: none
	revoke                     func(ctx context.Context, userID string) error
	create                     func(ctx context.Context, userID, tokenHash string, expires time.Time) error
	lifetime                   time.Duration
	path                       string // the link's path and query up to the token
	subject                    string
	body                       string // a format taking the name, then the link
}

// mailLink e-mails a new link of kind l to the account with that address,
// if there is one (a guest has none). The per-address limit refuses with a
// *shop.ThrottledError; the per-account limit is silent, so the answer never
// tells whether an account exists. A new link revokes the older ones.
func (s *Service) mailLink(ctx context.Context, email, addr string, l linkMail) error {
	if s.Throttle != nil && l.limitAddress.Name != "" {
		if err := s.Throttle.Allow(ctx, l.limitAddress, addr); err != nil {
			return err
		}
	}
	u, _, err := s.Users.UserByEmail(ctx, email)
	if shop.ErrorCode(err) == shop.ENOTFOUND || (u != nil && u.IsGuest) {
		return nil
	} else if err != nil {
		return fmt.Errorf("%s: %w", l.what, err)
	}
	if s.Throttle != nil {
		if err := s.Throttle.Allow(ctx, l.limitAccount, u.ID); err != nil {
			s.Log.Warn(l.what+" requests over the limit", "user", u.ID)
			return nil
		}
	}
	if err := l.revoke(ctx, u.ID); err != nil {
		return fmt.Errorf("%s: %w", l.what, err)
	}
	token := shop.RandomToken(resetTokenRandomSize)
	if err := l.create(ctx, u.ID, hashToken(token), s.Now().Add(l.lifetime)); err != nil {
		return fmt.Errorf("%s: %w", l.what, err)
	}
	body := fmt.Sprintf(l.body, u.DisplayName, s.BaseURL+l.path+token)
	if err := s.Mailer.Send(ctx, shop.Email{To: u.Email, Subject: l.subject, Body: body}); err != nil {
		return fmt.Errorf("%s: %w", l.what, err)
	}
	return nil
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

// GoogleIdentity is what the OpenID Connect provider told us.
type GoogleIdentity struct {
	Subject, Email, Name string
	EmailVerified        bool
}

// GoogleResult is what a Google sign-in came to: the account to sign in to,
// or, for a verified account it may not join silently, the address a
// confirmation link was mailed to.
type GoogleResult struct {
	User *shop.User
	// Linked is set when a signed-in account just added Google sign-in.
	Linked bool
	// TookOver is set when an account whose address was never verified
	// just passed to the Google identity: its password is gone.
	TookOver bool
	// ConfirmSentTo is the address of the confirmation mail; User is nil.
	ConfirmSentTo string
}

// SignInWithGoogle finds the account for a Google identity; cur is who is
// signed in (nil, or a guest, for nobody). Linking Google to an existing
// account needs proof that the account is the shopper's, as Google's own
// guidance has it, never only the same address:
//
//   - a subject already linked signs in to its account;
//   - signed in to an account, that account's own session links it;
//   - otherwise, by Google's verified address: no account makes a new one
//     (verified); an account whose address was never verified is taken
//     over cleanly (its password dropped, every session of it ended, its
//     mailed links revoked), since whoever registered it never showed the
//     address was theirs; a verified account gets a confirmation link by
//     mail and is linked only when it is used.
//
// Mailing is limited per client address addr (a *shop.ThrottledError).
func (s *Service) SignInWithGoogle(ctx context.Context, cur *shop.User, id GoogleIdentity, addr string) (GoogleResult, error) {
	if id.Subject == "" {
		return GoogleResult{}, errors.New("google: no subject")
	}
	signedIn := cur != nil && !cur.IsGuest
	u, err := s.Users.UserByGoogleSubject(ctx, id.Subject)
	switch {
	case err == nil && signedIn && u.ID != cur.ID:
		return GoogleResult{}, shop.Errorf(shop.ECONFLICT, shop.MsgGoogleInUse)
	case err == nil:
		return GoogleResult{User: u}, nil
	case shop.ErrorCode(err) != shop.ENOTFOUND:
		return GoogleResult{}, fmt.Errorf("google sign-in: %w", err)
	}
	email := shop.NormalizeEmail(id.Email)
	if signedIn {
		return s.linkGoogle(ctx, cur, id.Subject, email != "" && id.EmailVerified && email == cur.Email)
	}
	if email == "" || !id.EmailVerified {
		return GoogleResult{}, errors.New("google: no verified e-mail")
	}
	u, _, err = s.Users.UserByEmail(ctx, email)
	if shop.ErrorCode(err) == shop.ENOTFOUND {
		return s.createGoogleAccount(ctx, id, email)
	} else if err != nil {
		return GoogleResult{}, fmt.Errorf("google sign-in: %w", err)
	}
	if !u.EmailVerified {
		gen, err := s.Users.TakeOverUnverified(ctx, u.ID, id.Subject)
		if err == nil {
			if err := s.revokeAllLinks(ctx, u.ID); err != nil {
				return GoogleResult{}, fmt.Errorf("google sign-in: %w", err)
			}
			u.SessionGen, u.GoogleSubject, u.HasPassword, u.EmailVerified = gen, id.Subject, false, true
			s.Log.Info("unverified account taken over by google sign-in", "user", u.ID)
			return GoogleResult{User: u, TookOver: true}, nil
		} else if shop.ErrorCode(err) != shop.ECONFLICT {
			return GoogleResult{}, fmt.Errorf("google sign-in: %w", err)
		}
		// Verified meanwhile: it gets the confirmation mail like any other.
	}
	if err := s.mailGoogleConfirmation(ctx, u.Email, id.Subject, addr); err != nil {
		return GoogleResult{}, err
	}
	return GoogleResult{ConfirmSentTo: u.Email}, nil
}

// linkGoogle adds Google sign-in to the signed-in account cur; Google
// vouching for the account's own address verifies it as well.
func (s *Service) linkGoogle(ctx context.Context, cur *shop.User, sub string, sameVerifiedEmail bool) (GoogleResult, error) {
	if err := s.Users.LinkGoogle(ctx, cur.ID, sub); err != nil {
		if shop.ErrorCode(err) == shop.ECONFLICT {
			return GoogleResult{}, err
		}
		return GoogleResult{}, fmt.Errorf("link google: %w", err)
	}
	if sameVerifiedEmail {
		if err := s.Users.MarkEmailVerified(ctx, cur.ID); err != nil {
			return GoogleResult{}, fmt.Errorf("link google: %w", err)
		}
	}
	u, err := s.Users.UserByID(ctx, cur.ID)
	if err != nil {
		return GoogleResult{}, fmt.Errorf("link google: %w", err)
	}
	return GoogleResult{User: u, Linked: true}, nil
}

func (s *Service) createGoogleAccount(ctx context.Context, id GoogleIdentity, email string) (GoogleResult, error) {
	name := id.Name
	if name == "" {
		name = email
	}
	u := &shop.User{ID: newID("usr_"), Email: email, DisplayName: name, GoogleSubject: id.Subject, EmailVerified: true}
	if err := s.Users.CreateUser(ctx, u, nil); err != nil {
		return GoogleResult{}, fmt.Errorf("google sign-in: %w", err)
	}
	return GoogleResult{User: u}, nil
}

// revokeAllLinks makes every mailed link of the user unusable: resets,
// sign-in links and confirmations.
func (s *Service) revokeAllLinks(ctx context.Context, userID string) error {
	if err := s.revokeTokens(ctx, userID); err != nil {
		return err
	}
	if s.Confirmations != nil {
		return s.Confirmations.RevokeEmailConfirmations(ctx, userID)
	}
	return nil
}

// mailConfirmation e-mails the link that confirms the address after
// registration. Registration has its own limit per client address.
func (s *Service) mailConfirmation(ctx context.Context, email, addr string) error {
	return s.mailLink(ctx, email, addr, linkMail{
		what:         "e-mail confirmation",
		limitAccount: shop.LimitConfirmAccount,
		revoke:       s.Confirmations.RevokeEmailConfirmations,
		create: func(ctx context.Context, userID, tokenHash string, expires time.Time) error {
			return s.Confirmations.CreateEmailConfirmation(ctx, userID, tokenHash, "", expires)
		},
		lifetime: confirmLifetime,
		path:     "/confirm-email?token=",
		subject:  "Confirm your e-mail address",
		body:     "Hello %s,\n\nThank you for creating an account. To confirm that this e-mail address is yours, open this link within 24 hours:\n\n%s\n\nIf you did not create an account with us, ignore this e-mail and do not open the link.\n",
	})
}

// mailGoogleConfirmation e-mails the link that adds Google subject sub to
// the verified account with that address.
func (s *Service) mailGoogleConfirmation(ctx context.Context, email, sub, addr string) error {
	return s.mailLink(ctx, email, addr, linkMail{
		what:         "google confirmation",
		limitAddress: shop.LimitConfirmAddress,
		limitAccount: shop.LimitConfirmAccount,
		revoke:       s.Confirmations.RevokeEmailConfirmations,
		create: func(ctx context.Context, userID, tokenHash string, expires time.Time) error {
			return s.Confirmations.CreateEmailConfirmation(ctx, userID, tokenHash, sub, expires)
		},
		lifetime: googleConfirmLifetime,
		path:     "/confirm-email?token=",
		subject:  "Confirm adding Google sign-in",
		body:     "Hello %s,\n\nSomeone used \"Continue with Google\" with this e-mail address. To add Google sign-in to your account, open this link within one hour:\n\n%s\n\nIf it was not you, ignore this e-mail: nothing changes.\n",
	})
}

// ConfirmEmail uses a confirmation link once: the address is verified and,
// if the link confirms adding Google sign-in, the subject is linked (linked
// reports it; the caller signs the shopper in, as a sign-in link would).
func (s *Service) ConfirmEmail(ctx context.Context, token string) (u *shop.User, linked bool, err error) {
	if token == "" || len(token) > 200 {
		return nil, false, shop.Errorf(shop.ENOTFOUND, "%s", shop.MsgConfirmLinkInvalid)
	}
	userID, sub, err := s.Confirmations.ConsumeEmailConfirmation(ctx, hashToken(token))
	if err != nil {
		return nil, false, err
	}
	if err := s.Users.MarkEmailVerified(ctx, userID); err != nil {
		return nil, false, fmt.Errorf("confirm e-mail: %w", err)
	}
	if sub != "" {
		if err := s.Users.LinkGoogle(ctx, userID, sub); shop.ErrorCode(err) == shop.ECONFLICT {
			return nil, false, err
		} else if err != nil {
			return nil, false, fmt.Errorf("confirm e-mail: %w", err)
		}
	}
	u, err = s.Users.UserByID(ctx, userID)
	if err != nil {
		return nil, false, fmt.Errorf("confirm e-mail: %w", err)
	}
	return u, sub != "", nil
}

func newID(prefix string) string { return prefix + shop.RandomHex(12) }

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// KeepCart is the one rule of what a session hands to the account it signs
// in to, before the session is rotated: a guest's cart and orders move to
// the account and the guest goes (UserStore.HandOver); a signed-out
// visitor's cart (keyed by cartOwner, "" for none) merges into the
// account's, capped a line. cur is who the session belonged to (nil for a
// visitor); signing in to the same user hands nothing over.
func (s *Service) KeepCart(ctx context.Context, cur *shop.User, cartOwner string, to *shop.User) error {
	switch {
	case cur != nil && cur.IsGuest && cur.ID != to.ID:
		if err := s.Users.HandOver(ctx, cur.ID, to.ID); err != nil {
			return fmt.Errorf("hand over guest: %w", err)
		}
	case cur == nil && cartOwner != "":
		if err := s.Carts.MergeCart(ctx, cartOwner, to.ID); err != nil {
			return fmt.Errorf("keep cart: %w", err)
		}
	}
	return nil
}
