package shop

import (
	"context"
	"strings"
	"time"
)

// User is an account or a guest with its profile (the spec's entities).
type User struct {
	ID            string
	Email         string // normalised; empty for guests
	DisplayName   string
	GoogleSubject string
	PhoneNumber   string
	Address       string
	City          string
	State         string
	ZipCode       string
	Country       string
	IsGuest       bool
	HasPassword   bool
	// EmailVerified is set once the owner of the address showed it is
	// theirs: a link mailed to it was used, or Google vouched for it when
	// the account was created or linked. Registration alone does not.
	EmailVerified bool
	SessionGen    int64
	CreatedAt     time.Time
}

// Current returns the view of u that the frame and the guards need.
func (u *User) Current() *CurrentUser {
	return &CurrentUser{ID: u.ID, Email: u.Email, DisplayName: u.DisplayName, IsGuest: u.IsGuest}
}

// GuestIDPrefix starts every guest's id, as the spec's current-user entity has it.
const GuestIDPrefix = "guest_"

// Countries offered on the profile (the spec's list), default first.
var Countries = []string{"United States", "Canada", "United Kingdom", "Australia", "Germany", "France", "Japan", "China", "India", "Brazil"}

// NormalizeEmail makes e-mail addresses comparable: trimmed and lower case.
func NormalizeEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// Profile is the editable part of a user.
type Profile struct {
	DisplayName, PhoneNumber, Address, City, State, ZipCode, Country string
}

// Normalize trims every field, defaults the country and writes a state it
// recognises as its code (StateCode); one it does not is kept as typed for
// Validate to refuse.
func (p *Profile) Normalize() {
	for _, f := range []*string{&p.DisplayName, &p.PhoneNumber, &p.Address, &p.City, &p.State, &p.ZipCode, &p.Country} {
		*f = strings.TrimSpace(*f)
	}
	if p.Country == "" {
		p.Country = DefaultCountry
	}
	p.State, _ = StateCode(p.Country, p.State)
}

// Validate checks a profile: a name is required where requireName (the
// profile page; the set-up step after registration already has one), the
// country must be one we offer, and nothing may be absurdly long.
func (p *Profile) Validate(requireName bool) FieldErrors {
	errs := FieldErrors{}
	if requireName && p.DisplayName == "" {
		errs["displayName"] = "Full name is required."
	}
	fields := []struct{ key, label, v string }{
		{"displayName", "Full name", p.DisplayName}, {"phoneNumber", "Phone", p.PhoneNumber},
		{"address", "Address", p.Address}, {"city", "City", p.City}, {"state", "State", p.State}, {"zipCode", "ZIP code", p.ZipCode},
	}
	for _, f := range fields {
		if len(f.v) > 200 {
			errs[f.key] = f.label + " is too long (at most 200 characters)."
		}
	}
	if p.PhoneNumber != "" && strings.Trim(p.PhoneNumber, "0123456789+-(). ") != "" {
		errs["phoneNumber"] = "Please enter a valid phone number."
	}
	// The same state and postcode rules as the checkout, where the profile's
	// address is filled in; both stay optional here.
	if msg := StateProblem(p.Country, p.State); msg != "" && errs["state"] == "" {
		errs["state"] = msg
	}
	if p.ZipCode != "" && errs["zipCode"] == "" && !ValidPostcode(p.Country, p.ZipCode) {
		errs["zipCode"] = PostcodeMessage(p.Country)
	}
	valid := false
	for _, c := range Countries {
		valid = valid || c == p.Country
	}
	if !valid {
		errs["country"] = "Please choose a country from the list."
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// UserStore keeps accounts and guests.
type UserStore interface {
	// CreateUser stores u with its password hash (nil for Google-only
	// accounts); an e-mail already taken is an ECONFLICT.
	CreateUser(ctx context.Context, u *User, passwordHash []byte) error
	UserByID(ctx context.Context, id string) (*User, error)
	// UserByEmail returns the account and its password hash (nil if none).
	UserByEmail(ctx context.Context, email string) (*User, []byte, error)
	UserByGoogleSubject(ctx context.Context, sub string) (*User, error)
	// LinkGoogle records the account's Google subject; a subject another
	// account has is an ECONFLICT.
	LinkGoogle(ctx context.Context, userID, sub string) error
	// MarkEmailVerified records that the account's address is its owner's.
	MarkEmailVerified(ctx context.Context, userID string) error
	// TakeOverUnverified hands an account whose address was never verified
	// to the Google identity that proved it: in one conditional write the
	// password goes, the subject is linked, the address becomes verified
	// and the session generation moves on (every session ends). An account
	// verified meanwhile is an ECONFLICT and nothing changes.
	TakeOverUnverified(ctx context.Context, userID, sub string) (gen int64, err error)
	UpdateProfile(ctx context.Context, userID string, p Profile) error
	// SetPassword replaces the hash and bumps the session generation, which
	// signs out every session but the ones re-saved with the new generation.
	SetPassword(ctx context.Context, userID string, hash []byte) (gen int64, err error)
	BumpSessionGen(ctx context.Context, userID string) (gen int64, err error)
	// DeleteUser removes the user and everything personal tied to it.
	DeleteUser(ctx context.Context, userID string) error
	// HandOver gives everything a guest owns to an account and removes the
	// guest, in one transaction. Later features (cart, orders) extend it.
	HandOver(ctx context.Context, guestID, userID string) error
}

// PasswordResetStore keeps single-use reset tokens, by hash only.
type PasswordResetStore interface {
	CreatePasswordReset(ctx context.Context, userID, tokenHash string, expires time.Time) error
	// ConsumePasswordReset marks the token used and returns its user, or an
	// ENOTFOUND for an unknown, used or expired token.
	ConsumePasswordReset(ctx context.Context, tokenHash string) (userID string, err error)
	// RevokePasswordResets makes every unused token of the user unusable.
	RevokePasswordResets(ctx context.Context, userID string) error
	// PasswordResetUsable reports, without using it, whether a token is
	// unused and unexpired, so the reset page can say so on arrival.
	PasswordResetUsable(ctx context.Context, tokenHash string) (bool, error)
}

// SignInLinkStore keeps one-time sign-in links, by hash only.
type SignInLinkStore interface {
	CreateSignInLink(ctx context.Context, userID, tokenHash string, expires time.Time) error
	// ConsumeSignInLink marks the link used and returns its user, or an
	// ENOTFOUND for an unknown, used or expired link.
	ConsumeSignInLink(ctx context.Context, tokenHash string) (userID string, err error)
	RevokeSignInLinks(ctx context.Context, userID string) error
}

// EmailConfirmationStore keeps the links that confirm an e-mail address,
// by hash only: the one mailed after registration, and the one that
// confirms adding Google sign-in to a verified account (it carries the
// Google subject to link).
type EmailConfirmationStore interface {
	CreateEmailConfirmation(ctx context.Context, userID, tokenHash, googleSubject string, expires time.Time) error
	// ConsumeEmailConfirmation marks the link used and returns its user and
	// the Google subject it links ("" for none), or an ENOTFOUND with
	// MsgConfirmLinkInvalid for an unknown, used or expired link.
	ConsumeEmailConfirmation(ctx context.Context, tokenHash string) (userID, googleSubject string, err error)
	RevokeEmailConfirmations(ctx context.Context, userID string) error
}

// Email is one outgoing message.
type Email struct {
	To, Subject, Body string
	// Secret marks a body that holds a sign-in, reset or confirmation
	// link: the back office never shows it.
	Secret bool
}

// OutboxStore keeps every e-mail in the outbox table, from where a sender
// delivers it when an SMTP server is configured.
type OutboxStore interface {
	AddToOutbox(ctx context.Context, m Email) error
	Outbox(ctx context.Context) ([]Email, error)
}

// MsgEmailTaken refuses an account for an e-mail address another account
// already has; stores return it on the unique violation.
const MsgEmailTaken = "An account with this email already exists."

// Messages of the account stores, written once: every backend returns these.
const (
	// MsgUserNotFound answers a change to an account that does not exist.
	MsgUserNotFound = "User not found."
	// MsgResetLinkInvalid answers an unknown, used or expired reset token.
	MsgResetLinkInvalid = "This reset link is invalid or has expired. Please request a new one."
	// MsgSignInLinkInvalid answers an unknown, used or expired sign-in link.
	MsgSignInLinkInvalid = "This sign-in link is invalid, used or expired. Please request a new one."
	// MsgConfirmLinkInvalid answers an unknown, used or expired
	// confirmation link.
	MsgConfirmLinkInvalid = "This confirmation link is invalid, used or expired."
	// MsgGoogleInUse refuses to link a Google account another account uses.
	MsgGoogleInUse = "That Google account is already used by another account."
)
