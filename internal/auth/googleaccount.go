package auth

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

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
