package auth

import (
	"context"
	"fmt"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

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
	if err := s.Mailer.Send(ctx, shop.Email{To: u.Email, Subject: l.subject, Body: body, Secret: true}); err != nil {
		return fmt.Errorf("%s: %w", l.what, err)
	}
	return nil
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
