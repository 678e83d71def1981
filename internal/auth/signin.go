package auth

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/nocturne/storefront/internal/shop"
)

// dummyHash is compared against when an e-mail is unknown, so a miss takes
// as long as a wrong password.
var dummyHash, _ = bcrypt.GenerateFromPassword([]byte("nocturne-dummy-password"), bcrypt.DefaultCost)

// RegisterInput is the registration form.
type RegisterInput struct {
	DisplayName, Email, Password, ConfirmPassword string
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
