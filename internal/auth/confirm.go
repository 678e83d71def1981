package auth

import (
	"context"
	"fmt"
	"time"

	"github.com/nocturne/storefront/internal/shop"
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
