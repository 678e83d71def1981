package handlers

import (
	"fmt"
	"net/url"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/session"
	"github.com/nocturne/storefront/internal/auth"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

const sessionGoogleState = "google_state"

// googleBegin starts the OpenID Connect round trip. It is a POST (with the
// CSRF token) because it writes the state into the session.
func (a *App) googleBegin(c *fiber.Ctx) error {
	if a.Google == nil {
		return fiber.ErrNotFound
	}
	state := auth.NewState()
	authURL, saved, err := a.Google.Begin(state)
	if err != nil {
		a.Log.Error("google begin", "err", err, "request_id", requestID(c))
		return a.googleFailed(c, from(c))
	}
	if err := a.Sessions.Set(c, sessionGoogleState, auth.EncodeGoogleState(state, saved, from(c))); err != nil {
		return err
	}
	return c.Redirect(authURL, fiber.StatusSeeOther)
}

// googleCallback finishes it: the state must match the one this session
// started with, once.
func (a *App) googleCallback(c *fiber.Ctx) error {
	if a.Google == nil {
		return fiber.ErrNotFound
	}
	raw, err := a.Sessions.Take(c, sessionGoogleState)
	if err != nil {
		return err
	}
	s, _ := raw.(string)
	state, saved, back, err := auth.DecodeGoogleState(s)
	if s == "" || err != nil || state == "" || c.Query("state") != state || c.Query("error") != "" || c.Query("code") == "" {
		a.Log.Warn("google callback rejected", "reason", "state or code", "provider_error", c.Query("error"), "request_id", requestID(c))
		return a.googleFailed(c, back)
	}
	params := url.Values{}
	c.Request().URI().QueryArgs().VisitAll(func(k, v []byte) { params.Add(string(k), string(v)) })
	id, err := a.Google.Complete(c.UserContext(), saved, params)
	if err != nil {
		a.Log.Warn("google callback failed", "err", err, "request_id", requestID(c))
		return a.googleFailed(c, back)
	}
	cur := session.User(c)
	res, err := a.Auth.SignInWithGoogle(c.UserContext(), cur, id, a.clientIP(c))
	if retry, ok := auth.Throttled(err); ok {
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(int(retry.Seconds()+0.5)))
		return a.renderLogin(c, fiber.StatusTooManyRequests, pages.LoginPage{From: localPath(back),
			Error: fmt.Sprintf(MsgTooManyResets, shop.RetryIn(retry))})
	}
	if shop.ErrorCode(err) == shop.ECONFLICT && cur != nil && !cur.IsGuest {
		return a.redirectWithError(c, orHome(localPath(back)), shop.ErrorMessage(err))
	}
	if err != nil {
		a.Log.Warn("google sign-in failed", "err", err, "request_id", requestID(c))
		return a.googleFailed(c, back)
	}
	if res.ConfirmSentTo != "" {
		return a.redirectWithFlash(c, pages.WithFrom("/login", localPath(back)), fmt.Sprintf(auth.MsgGoogleConfirmSent, res.ConfirmSentTo))
	}
	if cur == nil || cur.ID != res.User.ID {
		if err := a.signIn(c, res.User); err != nil {
			return err
		}
	}
	switch {
	case res.TookOver:
		return a.redirectWithFlash(c, orHome(localPath(back)), auth.MsgGoogleTookOver)
	case res.Linked:
		return a.redirectWithFlash(c, orHome(localPath(back)), auth.MsgGoogleLinked)
	}
	return c.Redirect(orHome(localPath(back)), fiber.StatusSeeOther)
}

func (a *App) googleFailed(c *fiber.Ctx, back string) error {
	return a.renderLogin(c, fiber.StatusUnauthorized, pages.LoginPage{From: localPath(back), Error: auth.MsgGoogleFailed})
}
