package handlers

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/session"
	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/auth"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// Flash texts of the account pages.
const (
	MsgProfileUpdated   = "Profile updated successfully!"
	MsgSignedOut        = "You have been signed out."
	MsgPasswordChanged  = "Your password has been changed. Other devices have been signed out."
	MsgOthersSignedOut  = "You have been signed out everywhere else."
	MsgAccountDeleted   = "Your account has been deleted."
	MsgPasswordReset    = "Your password has been reset and you are signed in."
	MsgTooManyAttempts  = "Too many sign-in attempts. Please try again in %s."
	MsgTooManyRequests  = "Too many attempts. Please wait a minute and try again."
	MsgTooManyResets    = "Too many reset requests from your network. Please try again in %s."
	MsgLinkSignedIn     = "You are signed in."
	MsgDeleteConfirm    = "Type DELETE to confirm."
	deleteConfirmPhrase = "DELETE"
)

// accountHandlers serve signing in and out (by password, e-mailed link or
// Google), registering, password resets and the account pages.
type accountHandlers struct {
	*web.Pages
	auth     Accounts
	sessions Sessions
	users    shop.UserStore
	orders   shop.OrderStore
	carts    shop.CartStore
	owners   *cartOwners
	// google is nil when Google sign-in is not configured.
	google   *auth.Google
	clientIP func(*fiber.Ctx) string
}

// routes registers the account's routes. Sign-in failures and e-mail
// requests are throttled by the account service (per address, per account
// at an address, per account); perIP limits the rest.
func (a *accountHandlers) routes(app *fiber.App, perIP func(name string, max int) fiber.Handler) {
	app.Get("/login", a.loginPage)
	app.Post("/login", a.loginSubmit)
	app.Post("/login/link", a.signInLinkRequest)
	app.Get("/login/link", a.signInLinkPage)
	app.Post("/login/link/confirm", perIP("link-confirm", 10), a.signInLinkConfirm)
	app.Get("/register", a.registerPage)
	app.Post("/register", perIP("register", 10), a.registerSubmit)
	app.Post("/guest", perIP("guest", 30), a.continueAsGuest)
	app.Post("/logout", a.logout)
	app.Post("/auth/google", perIP("google", 30), a.googleBegin)
	app.Get("/auth/google/callback", a.googleCallback)
	app.Get("/forgot-password", a.forgotPage)
	app.Post("/forgot-password", a.forgotSubmit)
	app.Get("/reset-password", a.resetPage)
	app.Get("/confirm-email", a.confirmEmailPage)
	app.Post("/confirm-email", perIP("confirm", 10), a.confirmEmail)
	app.Post("/reset-password", perIP("reset", 10), a.resetSubmit)

	// Account pages: a visitor or guest is sent to sign in. (Not a Group:
	// a Group without a prefix would guard every later route too.)
	app.Get("/profile", session.RequireAccount, a.profilePage)
	app.Post("/profile", session.RequireAccount, a.profileSubmit)
	app.Get("/profile/setup", session.RequireAccount, a.setupPage)
	app.Post("/profile/setup", session.RequireAccount, a.setupSubmit)
	app.Get("/settings", session.RequireAccount, a.settingsPage)
	app.Post("/settings/password", session.RequireAccount, perIP("password", 10), a.changePassword)
	app.Post("/settings/sessions", session.RequireAccount, a.signOutOthers)
	app.Post("/settings/delete", session.RequireAccount, a.deleteAccount)
}

// from returns the local path a form or query asks to return to, or "".
func from(c *fiber.Ctx) string {
	if v := web.FormValue(c, "from"); v != "" {
		return web.LocalPath(v)
	}
	return web.LocalPath(c.Query("from"))
}

func orHome(path string) string {
	if path == "" {
		return "/"
	}
	return path
}

func (a *accountHandlers) googleEnabled() bool { return a.google != nil }

func (a *accountHandlers) loginPage(c *fiber.Ctx) error {
	if u := session.User(c); u != nil && !u.IsGuest {
		return c.Redirect(orHome(from(c)), fiber.StatusSeeOther)
	}
	p := pages.LoginPage{SignUp: c.Query("mode") == "signup", From: from(c), GoogleEnabled: a.googleEnabled()}
	p.Register.From = p.From
	title := "Sign In"
	if p.SignUp {
		title = "Create Account"
	}
	return web.Render(c, fiber.StatusOK, pages.Login(a.Frame(c, title), p))
}

func (a *accountHandlers) renderLogin(c *fiber.Ctx, status int, p pages.LoginPage) error {
	p.GoogleEnabled = a.googleEnabled()
	return web.Render(c, status, pages.Login(a.Frame(c, "Sign In"), p))
}

func (a *accountHandlers) loginSubmit(c *fiber.Ctx) error {
	p := pages.LoginPage{From: from(c), Email: strings.TrimSpace(web.FormValue(c, "email")), Errors: shop.FieldErrors{}}
	password := web.FormValue(c, "password")
	if p.Email == "" {
		p.Errors["email"] = "Email is required."
	} else if !shop.ValidEmail(p.Email) {
		p.Errors["email"] = "Please enter a valid email address"
	}
	if password == "" {
		p.Errors["password"] = "Password is required."
	}
	if len(p.Errors) > 0 {
		return a.renderLogin(c, fiber.StatusUnprocessableEntity, p)
	}
	u, err := a.auth.SignIn(c.UserContext(), p.Email, password, a.clientIP(c))
	if retry, ok := auth.Throttled(err); ok {
		return a.loginThrottled(c, retry)
	}
	if errors.Is(err, auth.ErrBadCredentials) {
		p.Error = auth.MsgBadCredentials
		return a.renderLogin(c, fiber.StatusUnprocessableEntity, p)
	} else if a.DBUnavailable(err) {
		return err // 503 with Retry-After (handleError)
	} else if err != nil {
		a.Log.Error("sign in", "err", err, "request_id", web.RequestID(c))
		p.Error = auth.MsgAuthFailed
		return a.renderLogin(c, fiber.StatusInternalServerError, p)
	}
	if err := a.signIn(c, u); a.DBUnavailable(err) {
		return err
	} else if err != nil {
		a.Log.Error("sign in", "err", err, "request_id", web.RequestID(c))
		p.Error = auth.MsgAuthFailed
		return a.renderLogin(c, fiber.StatusInternalServerError, p)
	}
	return c.Redirect(orHome(p.From), fiber.StatusSeeOther)
}

// loginThrottled answers a sign-in attempt over a limit: when to try
// again, and the offer of a one-time sign-in link by e-mail.
func (a *accountHandlers) loginThrottled(c *fiber.Ctx, retry time.Duration) error {
	p := pages.LoginPage{From: from(c), Email: strings.TrimSpace(web.FormValue(c, "email")),
		Error: fmt.Sprintf(MsgTooManyAttempts, shop.RetryIn(retry)), Throttled: true}
	c.Set(fiber.HeaderRetryAfter, strconv.Itoa(int(retry.Seconds()+0.5)))
	return a.renderLogin(c, fiber.StatusTooManyRequests, p)
}

// signInLinkRequest e-mails a one-time sign-in link; the answer is the
// same whether or not the address has an account.
func (a *accountHandlers) signInLinkRequest(c *fiber.Ctx) error {
	email := strings.TrimSpace(web.FormValue(c, "email"))
	p := pages.LoginPage{From: from(c), Email: email}
	if !shop.ValidEmail(email) {
		p.Errors = shop.FieldErrors{"email": "Please enter a valid email address"}
		return a.renderLogin(c, fiber.StatusUnprocessableEntity, p)
	}
	err := a.auth.RequestSignInLink(c.UserContext(), email, a.clientIP(c))
	if retry, ok := auth.Throttled(err); ok {
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(int(retry.Seconds()+0.5)))
		p.Error = fmt.Sprintf(MsgTooManyResets, shop.RetryIn(retry))
		return a.renderLogin(c, fiber.StatusTooManyRequests, p)
	} else if err != nil {
		a.Log.Error("sign-in link request", "err", err, "request_id", web.RequestID(c))
	}
	return a.RedirectWithFlash(c, pages.WithFrom("/login", p.From), auth.MsgLinkSent)
}

// signInLinkPage shows the link's "Sign in" button; opening it changes
// nothing.
func (a *accountHandlers) signInLinkPage(c *fiber.Ctx) error {
	p := pages.SignInLinkPage{Token: c.Query("token")}
	if p.Token == "" {
		p.Error = "This sign-in link is incomplete. Please request a new one."
	}
	return web.Render(c, fiber.StatusOK, pages.SignInLink(a.Frame(c, "Sign in"), p))
}

func (a *accountHandlers) signInLinkConfirm(c *fiber.Ctx) error {
	u, err := a.auth.SignInWithLink(c.UserContext(), web.FormValue(c, "token"), a.clientIP(c))
	if shop.ErrorCode(err) == shop.ENOTFOUND {
		return web.Render(c, fiber.StatusUnprocessableEntity, pages.SignInLink(a.Frame(c, "Sign in"),
			pages.SignInLinkPage{Error: shop.ErrorMessage(err)}))
	} else if err != nil {
		return err
	}
	if err := a.signIn(c, u); err != nil {
		return err
	}
	return a.RedirectWithFlash(c, "/", MsgLinkSignedIn)
}

// signIn starts u's session, handing over what the guest of this session
// owned first, so a cart filled as a guest survives signing in, and with
// it the checkout so far (keptCheckout).
func (a *accountHandlers) signIn(c *fiber.Ctx, u *shop.User) error {
	kept := a.keepCheckout(c)
	if err := a.keepCart(c, u); err != nil {
		return err
	}
	if err := a.sessions.SignIn(c, u); err != nil {
		return err
	}
	return kept.restore(c, a.sessions)
}

// keepCart hands what this session owned to u (auth.Service.KeepCart).
func (a *accountHandlers) keepCart(c *fiber.Ctx, u *shop.User) error {
	var owner string
	cur := session.User(c)
	if cur == nil {
		owner = a.owners.cartOwner(c)
	}
	return a.auth.KeepCart(c.UserContext(), cur, owner, u)
}

func (a *accountHandlers) registerPage(c *fiber.Ctx) error {
	if u := session.User(c); u != nil && !u.IsGuest {
		return c.Redirect("/profile", fiber.StatusSeeOther)
	}
	return web.Render(c, fiber.StatusOK, pages.Register(a.Frame(c, "Create Account"), pages.RegisterForm{From: from(c)}, a.googleEnabled()))
}

func (a *accountHandlers) registerSubmit(c *fiber.Ctx) error {
	in := auth.RegisterInput{
		DisplayName:     strings.TrimSpace(web.FormValue(c, "displayName")),
		Email:           strings.TrimSpace(web.FormValue(c, "email")),
		Password:        web.FormValue(c, "password"),
		ConfirmPassword: web.FormValue(c, "confirmPassword"),
	}
	form := pages.RegisterForm{DisplayName: in.DisplayName, Email: in.Email, From: from(c)}
	u, errs, err := a.auth.Register(c.UserContext(), in)
	if err == nil && errs == nil {
		err = a.signIn(c, u)
	}
	if a.DBUnavailable(err) {
		return err // 503 with Retry-After (handleError)
	}
	if errs != nil || err != nil {
		status := fiber.StatusUnprocessableEntity
		form.Errors = errs
		if err != nil {
			a.Log.Error("register", "err", err, "request_id", web.RequestID(c))
			form.Error, status = auth.MsgRegisterFailed, fiber.StatusInternalServerError
		}
		// Re-render where the shopper was: the login page's create-account
		// mode or the stand-alone page.
		if strings.HasPrefix(web.RefererPath(c), "/login") {
			return a.renderLogin(c, status, pages.LoginPage{SignUp: true, From: form.From, Register: form})
		}
		return web.Render(c, status, pages.Register(a.Frame(c, "Create Account"), form, a.googleEnabled()))
	}
	return c.Redirect(pages.WithFrom("/profile/setup", form.From), fiber.StatusSeeOther)
}

func (a *accountHandlers) continueAsGuest(c *fiber.Ctx) error {
	if session.User(c) != nil {
		return c.Redirect(orHome(from(c)), fiber.StatusSeeOther)
	}
	u, err := a.auth.NewGuest(c.UserContext())
	if err != nil {
		return err
	}
	if err := a.signIn(c, u); err != nil {
		return err
	}
	return c.Redirect(orHome(from(c)), fiber.StatusSeeOther)
}

func (a *accountHandlers) logout(c *fiber.Ctx) error {
	if err := a.sessions.SignOut(c); err != nil {
		a.Log.Error("logout", "err", err, "request_id", web.RequestID(c))
		return a.RedirectWithFlash(c, orHome(web.RefererPath(c)), auth.MsgLogoutFailed)
	}
	return a.RedirectWithFlash(c, "/", MsgSignedOut)
}

func (a *accountHandlers) forgotPage(c *fiber.Ctx) error {
	return web.Render(c, fiber.StatusOK, pages.ForgotPassword(a.Frame(c, "Forgot password"), pages.ForgotPasswordPage{}))
}

// forgotSubmit always answers the same way, whether or not the address has
// an account, so the form cannot be used to find out who shops here.
func (a *accountHandlers) forgotSubmit(c *fiber.Ctx) error {
	email := strings.TrimSpace(web.FormValue(c, "email"))
	if !shop.ValidEmail(email) {
		msg := "Please enter a valid email address"
		if email == "" {
			msg = "Email is required."
		}
		return web.Render(c, fiber.StatusUnprocessableEntity, pages.ForgotPassword(a.Frame(c, "Forgot password"),
			pages.ForgotPasswordPage{Email: email, Errors: shop.FieldErrors{"email": msg}}))
	}
	err := a.auth.RequestPasswordReset(c.UserContext(), email, a.clientIP(c))
	if retry, ok := auth.Throttled(err); ok {
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(int(retry.Seconds()+0.5)))
		return web.Render(c, fiber.StatusTooManyRequests, pages.ForgotPassword(a.Frame(c, "Forgot password"),
			pages.ForgotPasswordPage{Email: email, Error: fmt.Sprintf(MsgTooManyResets, shop.RetryIn(retry))}))
	} else if err != nil {
		a.Log.Error("password reset request", "err", err, "request_id", web.RequestID(c))
	}
	return a.RedirectWithFlash(c, "/forgot-password", auth.MsgResetSent)
}

func (a *accountHandlers) resetPage(c *fiber.Ctx) error {
	// The page holds a secret token and says whether it is still usable, so
	// it is private, no-store (hardening.go): no cache keeps it.
	p := pages.ResetPasswordPage{Token: c.Query("token")}
	if p.Token == "" {
		p.Error = "This reset link is incomplete. Please request a new one."
		return web.Render(c, fiber.StatusOK, pages.ResetPassword(a.Frame(c, "Reset password"), p))
	}
	// A used, expired or garbled link says so on arrival, not after the
	// shopper has typed a new password twice.
	ok, err := a.auth.ResetLinkUsable(c.UserContext(), p.Token)
	if err != nil {
		return err
	}
	if !ok {
		p.Error, p.Token = auth.MsgResetLinkInvalid, ""
	}
	return web.Render(c, fiber.StatusOK, pages.ResetPassword(a.Frame(c, "Reset password"), p))
}

func (a *accountHandlers) resetSubmit(c *fiber.Ctx) error {
	p := pages.ResetPasswordPage{Token: web.FormValue(c, "token")}
	u, errs, err := a.auth.ResetPassword(c.UserContext(), p.Token, web.FormValue(c, "password"), web.FormValue(c, "confirmPassword"))
	if a.DBUnavailable(err) {
		return err // 503 with Retry-After (handleError)
	}
	if errs != nil || err != nil {
		status := fiber.StatusUnprocessableEntity
		p.Errors = errs
		if err != nil {
			if shop.ErrorCode(err) != shop.ENOTFOUND {
				return err
			}
			p.Error, p.Token = shop.ErrorMessage(err), ""
		}
		return web.Render(c, status, pages.ResetPassword(a.Frame(c, "Reset password"), p))
	}
	if err := a.sessions.SignIn(c, u); err != nil {
		return err
	}
	return a.RedirectWithFlash(c, "/profile", MsgPasswordReset)
}

// confirmEmailPage shows the confirmation link's "Confirm" button;
// opening it changes nothing.
func (a *accountHandlers) confirmEmailPage(c *fiber.Ctx) error {
	p := pages.ConfirmEmailPage{Token: c.Query("token")}
	if p.Token == "" {
		p.Error = auth.MsgConfirmLinkInvalid
	}
	return web.Render(c, fiber.StatusOK, pages.ConfirmEmail(a.Frame(c, "Confirm your e-mail address"), p))
}

// confirmEmail uses a confirmation link: the address is verified; a link
// that adds Google sign-in also signs its owner in, as a sign-in link does.
func (a *accountHandlers) confirmEmail(c *fiber.Ctx) error {
	u, linked, err := a.auth.ConfirmEmail(c.UserContext(), web.FormValue(c, "token"))
	if code := shop.ErrorCode(err); code == shop.ENOTFOUND || code == shop.ECONFLICT {
		return web.Render(c, fiber.StatusUnprocessableEntity, pages.ConfirmEmail(a.Frame(c, "Confirm your e-mail address"),
			pages.ConfirmEmailPage{Error: shop.ErrorMessage(err)}))
	} else if err != nil {
		return err
	}
	cur := session.User(c)
	switch {
	case linked:
		if cur == nil || cur.ID != u.ID {
			if err := a.signIn(c, u); err != nil {
				return err
			}
		}
		return a.RedirectWithFlash(c, "/profile", auth.MsgGoogleLinked)
	case cur != nil && cur.ID == u.ID:
		return a.RedirectWithFlash(c, "/profile", auth.MsgEmailConfirmed)
	}
	return a.RedirectWithFlash(c, "/login", auth.MsgEmailConfirmed)
}

func (a *accountHandlers) profilePage(c *fiber.Ctx) error {
	u := session.User(c)
	p := pages.ProfilePage{User: u, Edit: c.Query("edit") == "1"}
	n, err := a.carts.CartCount(c.UserContext(), u.ID)
	if err != nil {
		return err
	}
	p.CartItems = n
	if p.Orders, err = a.orders.CountOrders(c.UserContext(), u.ID); err != nil {
		return err
	}
	p.Form.Profile = shop.Profile{DisplayName: u.DisplayName, PhoneNumber: u.PhoneNumber, Address: u.Address,
		City: u.City, State: u.State, ZipCode: u.ZipCode, Country: u.Country}
	return web.Render(c, fiber.StatusOK, pages.Profile(a.Frame(c, "Profile"), p))
}

func profileFromForm(c *fiber.Ctx) shop.Profile {
	p := shop.Profile{
		DisplayName: web.FormValue(c, "displayName"), PhoneNumber: web.FormValue(c, "phoneNumber"), Address: web.FormValue(c, "address"),
		City: web.FormValue(c, "city"), State: web.FormValue(c, "state"), ZipCode: web.FormValue(c, "zipCode"), Country: web.FormValue(c, "country"),
	}
	p.Normalize()
	return p
}

func (a *accountHandlers) profileSubmit(c *fiber.Ctx) error {
	u := session.User(c)
	prof := profileFromForm(c)
	page := pages.ProfilePage{User: u, Edit: true, Form: pages.ProfileForm{Profile: prof, Errors: prof.Validate(true)}}
	if page.Form.Errors != nil {
		return web.Render(c, fiber.StatusUnprocessableEntity, pages.Profile(a.Frame(c, "Profile"), page))
	}
	if err := a.users.UpdateProfile(c.UserContext(), u.ID, prof); a.DBUnavailable(err) {
		return err
	} else if err != nil {
		a.Log.Error("update profile", "err", err, "request_id", web.RequestID(c))
		page.Form.Error = auth.MsgProfileFailed
		return web.Render(c, fiber.StatusInternalServerError, pages.Profile(a.Frame(c, "Profile"), page))
	}
	return a.RedirectWithFlash(c, "/profile", MsgProfileUpdated)
}

func (a *accountHandlers) setupPage(c *fiber.Ctx) error {
	u := session.User(c)
	p := pages.ProfileSetupPage{From: from(c)}
	p.Form.Profile = shop.Profile{PhoneNumber: u.PhoneNumber, Address: u.Address, City: u.City, State: u.State,
		ZipCode: u.ZipCode, Country: u.Country}
	return web.Render(c, fiber.StatusOK, pages.ProfileSetup(a.Frame(c, "Complete your profile"), p))
}

func (a *accountHandlers) setupSubmit(c *fiber.Ctx) error {
	u := session.User(c)
	next := from(c)
	if next == "" {
		next = "/profile"
	}
	if web.FormValue(c, "action") == "skip" {
		return c.Redirect(next, fiber.StatusSeeOther)
	}
	prof := profileFromForm(c)
	prof.DisplayName = u.DisplayName
	page := pages.ProfileSetupPage{From: from(c), Form: pages.ProfileForm{Profile: prof, Errors: prof.Validate(false)}}
	if page.Form.Errors != nil {
		return web.Render(c, fiber.StatusUnprocessableEntity, pages.ProfileSetup(a.Frame(c, "Complete your profile"), page))
	}
	if err := a.users.UpdateProfile(c.UserContext(), u.ID, prof); a.DBUnavailable(err) {
		return err
	} else if err != nil {
		a.Log.Error("profile setup", "err", err, "request_id", web.RequestID(c))
		page.Form.Error = auth.MsgProfileFailed
		return web.Render(c, fiber.StatusInternalServerError, pages.ProfileSetup(a.Frame(c, "Complete your profile"), page))
	}
	return a.RedirectWithFlash(c, next, MsgProfileUpdated)
}

func (a *accountHandlers) settingsPage(c *fiber.Ctx) error {
	return web.Render(c, fiber.StatusOK, pages.Settings(a.Frame(c, "Account Settings"), a.settingsView(session.User(c))))
}

// settingsView is the settings page for u before any form was sent.
func (a *accountHandlers) settingsView(u *shop.User) pages.SettingsPage {
	return pages.SettingsPage{HasPassword: u.HasPassword, GoogleEnabled: a.googleEnabled(), GoogleLinked: u.GoogleSubject != ""}
}

func (a *accountHandlers) changePassword(c *fiber.Ctx) error {
	u := session.User(c)
	gen, errs, err := a.auth.ChangePassword(c.UserContext(), u, web.FormValue(c, "currentPassword"), web.FormValue(c, "newPassword"), web.FormValue(c, "confirmPassword"))
	if err != nil {
		return err
	}
	if errs != nil {
		p := a.settingsView(u)
		p.PasswordErrors = errs
		return web.Render(c, fiber.StatusUnprocessableEntity, pages.Settings(a.Frame(c, "Account Settings"), p))
	}
	if err := a.sessions.KeepGeneration(c, gen); err != nil {
		return err
	}
	return a.RedirectWithFlash(c, "/settings", MsgPasswordChanged)
}

func (a *accountHandlers) signOutOthers(c *fiber.Ctx) error {
	gen, err := a.users.BumpSessionGen(c.UserContext(), session.User(c).ID)
	if err != nil {
		return err
	}
	if err := a.sessions.KeepGeneration(c, gen); err != nil {
		return err
	}
	return a.RedirectWithFlash(c, "/settings", MsgOthersSignedOut)
}

func (a *accountHandlers) deleteAccount(c *fiber.Ctx) error {
	u := session.User(c)
	if strings.TrimSpace(web.FormValue(c, "confirm")) != deleteConfirmPhrase {
		p := a.settingsView(u)
		p.DeleteError = MsgDeleteConfirm
		return web.Render(c, fiber.StatusUnprocessableEntity, pages.Settings(a.Frame(c, "Account Settings"), p))
	}
	if err := a.users.DeleteUser(c.UserContext(), u.ID); err != nil {
		return err
	}
	if err := a.sessions.SignOut(c); err != nil {
		return err
	}
	return a.RedirectWithFlash(c, "/", MsgAccountDeleted)
}
