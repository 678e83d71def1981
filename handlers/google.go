package handlers

import (
	"fmt"
	"net/url"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/session"
	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/auth"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

const sessionGoogleState = "google_state"

// googleBegin starts the OpenID Connect round trip. It is a POST (with the
// CSRF token) because it writes the state into the session.
func (a *accountHandlers) googleBegin(c *fiber.Ctx) error {
	if a.google == nil {
		return fiber.ErrNotFound
	}
	state := auth.NewState()
	authURL, saved, err := a.google.Begin(state)
	if err != nil {
		a.Log.Error("google begin", "err", err, "request_id", web.RequestID(c))
		return a.googleFailed(c, from(c))
	}
	if err := a.sessions.Set(c, sessionGoogleState, auth.EncodeGoogleState(state, saved, from(c))); err != nil {
		return err
	}
	return c.Redirect(authURL, fiber.StatusSeeOther)
}

// googleCallback finishes it: the state must match the one this session
// started with, once.
func (a *accountHandlers) googleCallback(c *fiber.Ctx) error {
	if a.google == nil {
		return fiber.ErrNotFound
	}
	id, back, ok, err := a.googleIdentity(c)
	if err != nil {
		return err
	}
	if !ok {
		return a.googleFailed(c, back)
	}
	cur := session.User(c)
	res, err := a.auth.SignInWithGoogle(c.UserContext(), cur, id, a.clientIP(c))
	if err != nil {
		return a.googleRefused(c, err, cur, back)
	}
	return a.googleSignedIn(c, cur, res, back)
}

// googleIdentity takes the state this session started the round trip
// with, checks the callback against it and asks the provider who the
// shopper is; back is the page they came from. ok is false, logged, when
// the callback or the provider failed.
func (a *accountHandlers) googleIdentity(c *fiber.Ctx) (id auth.GoogleIdentity, back string, ok bool, err error) {
	raw, err := a.sessions.Take(c, sessionGoogleState)
	if err != nil {
		return id, "", false, err
	}
	s, _ := raw.(string)
	state, saved, back, err := auth.DecodeGoogleState(s)
	if s == "" || err != nil || state == "" || c.Query("state") != state || c.Query("error") != "" || c.Query("code") == "" {
		a.Log.Warn("google callback rejected", "reason", "state or code", "provider_error", c.Query("error"), "request_id", web.RequestID(c))
		return id, back, false, nil
	}
	params := url.Values{}
	c.Request().URI().QueryArgs().VisitAll(func(k, v []byte) { params.Add(string(k), string(v)) })
	id, err = a.google.Complete(c.UserContext(), saved, params)
	if err != nil {
		a.Log.Warn("google callback failed", "err", err, "request_id", web.RequestID(c))
		return id, back, false, nil
	}
	return id, back, true, nil
}

// googleRefused answers a Google sign-in the account rules refused:
// too many confirmation mails, a Google account already linked to another
// of the shop's (told to the signed-in shopper), or a failure.
func (a *accountHandlers) googleRefused(c *fiber.Ctx, err error, cur *shop.User, back string) error {
	if retry, ok := auth.Throttled(err); ok {
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(int(retry.Seconds()+0.5)))
		return a.renderLogin(c, fiber.StatusTooManyRequests, pages.LoginPage{From: web.LocalPath(back),
			Error: fmt.Sprintf(MsgTooManyResets, shop.RetryIn(retry))})
	}
	if shop.ErrorCode(err) == shop.ECONFLICT && cur != nil && !cur.IsGuest {
		return a.RedirectWithError(c, orHome(web.LocalPath(back)), shop.ErrorMessage(err))
	}
	a.Log.Warn("google sign-in failed", "err", err, "request_id", web.RequestID(c))
	return a.googleFailed(c, back)
}

// googleSignedIn answers what a Google sign-in came to: a confirmation
// mailed, or the account signed in to (the session is rotated unless it
// already was that account's), back where the shopper came from.
func (a *accountHandlers) googleSignedIn(c *fiber.Ctx, cur *shop.User, res auth.GoogleResult, back string) error {
	if res.ConfirmSentTo != "" {
		return a.RedirectWithFlash(c, pages.WithFrom("/login", web.LocalPath(back)), fmt.Sprintf(auth.MsgGoogleConfirmSent, res.ConfirmSentTo))
	}
	if cur == nil || cur.ID != res.User.ID {
		if err := a.signIn(c, res.User); err != nil {
			return err
		}
	}
	switch {
	case res.TookOver:
		return a.RedirectWithFlash(c, orHome(web.LocalPath(back)), auth.MsgGoogleTookOver)
	case res.Linked:
		return a.RedirectWithFlash(c, orHome(web.LocalPath(back)), auth.MsgGoogleLinked)
	}
	return c.Redirect(orHome(web.LocalPath(back)), fiber.StatusSeeOther)
}

func (a *accountHandlers) googleFailed(c *fiber.Ctx, back string) error {
	return a.renderLogin(c, fiber.StatusUnauthorized, pages.LoginPage{From: web.LocalPath(back), Error: auth.MsgGoogleFailed})
}
