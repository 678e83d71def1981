package auth

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/trustelem/zxcvbn"
	"golang.org/x/crypto/bcrypt"

	"github.com/nocturne/storefront/internal/shop"
)

// Common reports whether a password is one of the commonly used passwords,
// or so close to one (or to the shopper's own name or e-mail) that it is
// guessed at once. It uses zxcvbn's password frequency list (about 30,000
// of the most used passwords from leaked sets) and its matching of common
// substitutions ("p@ssw0rd"), reversals, keyboard walks, repeats and
// sequences: a password that is a single such match, or whose guess count
// is tiny, is refused.
func Common(password string, userInputs ...string) bool {
	var inputs []string
	for _, in := range userInputs {
		in = strings.ToLower(strings.TrimSpace(in))
		if in == "" {
			continue
		}
		inputs = append(inputs, in)
		if local, _, ok := strings.Cut(in, "@"); ok {
			inputs = append(inputs, local)
		}
		inputs = append(inputs, strings.Fields(in)...)
	}
	r := zxcvbn.PasswordStrength(password, inputs)
	if r.Score == 0 {
		return true
	}
	if len(r.Sequence) == 1 {
		m := r.Sequence[0]
		return m.Pattern == "dictionary" && (m.DictionaryName == "passwords" || m.DictionaryName == "user_inputs")
	}
	return false
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
