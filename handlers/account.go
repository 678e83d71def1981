package handlers

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/session"
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

// from returns the local path a form or query asks to return to, or "".
func from(c *fiber.Ctx) string {
	if v := formValue(c, "from"); v != "" {
		return localPath(v)
	}
	return localPath(c.Query("from"))
}

func orHome(path string) string {
	if path == "" {
		return "/"
	}
	return path
}

func (a *App) googleEnabled() bool { return a.Google != nil }

func (a *App) loginPage(c *fiber.Ctx) error {
	if u := session.User(c); u != nil && !u.IsGuest {
		return c.Redirect(orHome(from(c)), fiber.StatusSeeOther)
	}
	p := pages.LoginPage{SignUp: c.Query("mode") == "signup", From: from(c), GoogleEnabled: a.googleEnabled()}
	p.Register.From = p.From
	title := "Sign In"
	if p.SignUp {
		title = "Create Account"
	}
	return render(c, fiber.StatusOK, pages.Login(a.frame(c, title), p))
}

func (a *App) renderLogin(c *fiber.Ctx, status int, p pages.LoginPage) error {
	p.GoogleEnabled = a.googleEnabled()
	return render(c, status, pages.Login(a.frame(c, "Sign In"), p))
}

func (a *App) loginSubmit(c *fiber.Ctx) error {
	p := pages.LoginPage{From: from(c), Email: strings.TrimSpace(formValue(c, "email")), Errors: shop.FieldErrors{}}
	password := formValue(c, "password")
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
	u, err := a.Auth.SignIn(c.UserContext(), p.Email, password, a.clientIP(c))
	if retry, ok := auth.Throttled(err); ok {
		return a.loginThrottled(c, retry)
	}
	if errors.Is(err, auth.ErrBadCredentials) {
		p.Error = auth.MsgBadCredentials
		return a.renderLogin(c, fiber.StatusUnprocessableEntity, p)
	} else if a.dbUnavailable(err) {
		return err // 503 with Retry-After (handleError)
	} else if err != nil {
		a.Log.Error("sign in", "err", err, "request_id", requestID(c))
		p.Error = auth.MsgAuthFailed
		return a.renderLogin(c, fiber.StatusInternalServerError, p)
	}
	if err := a.signIn(c, u); a.dbUnavailable(err) {
		return err
	} else if err != nil {
		a.Log.Error("sign in", "err", err, "request_id", requestID(c))
		p.Error = auth.MsgAuthFailed
		return a.renderLogin(c, fiber.StatusInternalServerError, p)
	}
	return c.Redirect(orHome(p.From), fiber.StatusSeeOther)
}

// loginThrottled answers a sign-in attempt over a limit: when to try
// again, and the offer of a one-time sign-in link by e-mail.
func (a *App) loginThrottled(c *fiber.Ctx, retry time.Duration) error {
	p := pages.LoginPage{From: from(c), Email: strings.TrimSpace(formValue(c, "email")),
		Error: fmt.Sprintf(MsgTooManyAttempts, shop.RetryIn(retry)), Throttled: true}
	c.Set(fiber.HeaderRetryAfter, strconv.Itoa(int(retry.Seconds()+0.5)))
	return a.renderLogin(c, fiber.StatusTooManyRequests, p)
}

// signInLinkRequest e-mails a one-time sign-in link; the answer is the
// same whether or not the address has an account.
func (a *App) signInLinkRequest(c *fiber.Ctx) error {
	email := strings.TrimSpace(formValue(c, "email"))
	p := pages.LoginPage{From: from(c), Email: email}
	if !shop.ValidEmail(email) {
		p.Errors = shop.FieldErrors{"email": "Please enter a valid email address"}
		return a.renderLogin(c, fiber.StatusUnprocessableEntity, p)
	}
	err := a.Auth.RequestSignInLink(c.UserContext(), email, a.clientIP(c))
	if retry, ok := auth.Throttled(err); ok {
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(int(retry.Seconds()+0.5)))
		p.Error = fmt.Sprintf(MsgTooManyResets, shop.RetryIn(retry))
		return a.renderLogin(c, fiber.StatusTooManyRequests, p)
	} else if err != nil {
		a.Log.Error("sign-in link request", "err", err, "request_id", requestID(c))
	}
	return a.redirectWithFlash(c, pages.WithFrom("/login", p.From), auth.MsgLinkSent)
}

// signInLinkPage shows the link's "Sign in" button; opening it changes
// nothing.
func (a *App) signInLinkPage(c *fiber.Ctx) error {
	p := pages.SignInLinkPage{Token: c.Query("token")}
	if p.Token == "" {
		p.Error = "This sign-in link is incomplete. Please request a new one."
	}
	return render(c, fiber.StatusOK, pages.SignInLink(a.frame(c, "Sign in"), p))
}

func (a *App) signInLinkConfirm(c *fiber.Ctx) error {
	u, err := a.Auth.SignInWithLink(c.UserContext(), formValue(c, "token"), a.clientIP(c))
	if shop.ErrorCode(err) == shop.ENOTFOUND {
		return render(c, fiber.StatusUnprocessableEntity, pages.SignInLink(a.frame(c, "Sign in"),
			pages.SignInLinkPage{Error: shop.ErrorMessage(err)}))
	} else if err != nil {
		return err
	}
	if err := a.signIn(c, u); err != nil {
		return err
	}
	return a.redirectWithFlash(c, "/", MsgLinkSignedIn)
}

// signIn starts u's session, handing over what the guest of this session
// owned first, so a cart filled as a guest survives signing in.
func (a *App) signIn(c *fiber.Ctx, u *shop.User) error {
	if err := a.keepCart(c, u); err != nil {
		return err
	}
	return a.Sessions.SignIn(c, u)
}

// keepCart hands what this session owned to u (auth.Service.KeepCart).
func (a *App) keepCart(c *fiber.Ctx, u *shop.User) error {
	var owner string
	cur := session.User(c)
	if cur == nil {
		owner = a.cartOwner(c)
	}
	return a.Auth.KeepCart(c.UserContext(), cur, owner, u)
}

func (a *App) registerPage(c *fiber.Ctx) error {
	if u := session.User(c); u != nil && !u.IsGuest {
		return c.Redirect("/profile", fiber.StatusSeeOther)
	}
	return render(c, fiber.StatusOK, pages.Register(a.frame(c, "Create Account"), pages.RegisterForm{From: from(c)}, a.googleEnabled()))
}

func (a *App) registerSubmit(c *fiber.Ctx) error {
	in := auth.RegisterInput{
		DisplayName:     strings.TrimSpace(formValue(c, "displayName")),
		Email:           strings.TrimSpace(formValue(c, "email")),
		Password:        formValue(c, "password"),
		ConfirmPassword: formValue(c, "confirmPassword"),
	}
	form := pages.RegisterForm{DisplayName: in.DisplayName, Email: in.Email, From: from(c)}
	u, errs, err := a.Auth.Register(c.UserContext(), in)
	if err == nil && errs == nil {
		err = a.signIn(c, u)
	}
	if a.dbUnavailable(err) {
		return err // 503 with Retry-After (handleError)
	}
	if errs != nil || err != nil {
		status := fiber.StatusUnprocessableEntity
		form.Errors = errs
		if err != nil {
			a.Log.Error("register", "err", err, "request_id", requestID(c))
			form.Error, status = auth.MsgRegisterFailed, fiber.StatusInternalServerError
		}
		// Re-render where the shopper was: the login page's create-account
		// mode or the stand-alone page.
		if strings.HasPrefix(refererPath(c), "/login") {
			return a.renderLogin(c, status, pages.LoginPage{SignUp: true, From: form.From, Register: form})
		}
		return render(c, status, pages.Register(a.frame(c, "Create Account"), form, a.googleEnabled()))
	}
	return c.Redirect(pages.WithFrom("/profile/setup", form.From), fiber.StatusSeeOther)
}

func (a *App) continueAsGuest(c *fiber.Ctx) error {
	if session.User(c) != nil {
		return c.Redirect(orHome(from(c)), fiber.StatusSeeOther)
	}
	u, err := a.Auth.NewGuest(c.UserContext())
	if err != nil {
		return err
	}
	if err := a.signIn(c, u); err != nil {
		return err
	}
	return c.Redirect(orHome(from(c)), fiber.StatusSeeOther)
}

func (a *App) logout(c *fiber.Ctx) error {
	if err := a.Sessions.SignOut(c); err != nil {
		a.Log.Error("logout", "err", err, "request_id", requestID(c))
		return a.redirectWithFlash(c, orHome(refererPath(c)), auth.MsgLogoutFailed)
	}
	return a.redirectWithFlash(c, "/", MsgSignedOut)
}

func (a *App) forgotPage(c *fiber.Ctx) error {
	return render(c, fiber.StatusOK, pages.ForgotPassword(a.frame(c, "Forgot password"), pages.ForgotPasswordPage{}))
}

// forgotSubmit always answers the same way, whether or not the address has
// an account, so the form cannot be used to find out who shops here.
func (a *App) forgotSubmit(c *fiber.Ctx) error {
	email := strings.TrimSpace(formValue(c, "email"))
	if !shop.ValidEmail(email) {
		msg := "Please enter a valid email address"
		if email == "" {
			msg = "Email is required."
		}
		return render(c, fiber.StatusUnprocessableEntity, pages.ForgotPassword(a.frame(c, "Forgot password"),
			pages.ForgotPasswordPage{Email: email, Errors: shop.FieldErrors{"email": msg}}))
	}
	err := a.Auth.RequestPasswordReset(c.UserContext(), email, a.clientIP(c))
	if retry, ok := auth.Throttled(err); ok {
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(int(retry.Seconds()+0.5)))
		return render(c, fiber.StatusTooManyRequests, pages.ForgotPassword(a.frame(c, "Forgot password"),
			pages.ForgotPasswordPage{Email: email, Error: fmt.Sprintf(MsgTooManyResets, shop.RetryIn(retry))}))
	} else if err != nil {
		a.Log.Error("password reset request", "err", err, "request_id", requestID(c))
	}
	return a.redirectWithFlash(c, "/forgot-password", auth.MsgResetSent)
}

func (a *App) resetPage(c *fiber.Ctx) error {
	// The page holds a secret token and says whether it is still usable, so
	// it is private, no-store (hardening.go): no cache keeps it.
	p := pages.ResetPasswordPage{Token: c.Query("token")}
	if p.Token == "" {
		p.Error = "This reset link is incomplete. Please request a new one."
		return render(c, fiber.StatusOK, pages.ResetPassword(a.frame(c, "Reset password"), p))
	}
	// A used, expired or garbled link says so on arrival, not after the
	// shopper has typed a new password twice.
	ok, err := a.Auth.ResetLinkUsable(c.UserContext(), p.Token)
	if err != nil {
		return err
	}
	if !ok {
		p.Error, p.Token = auth.MsgResetLinkInvalid, ""
	}
	return render(c, fiber.StatusOK, pages.ResetPassword(a.frame(c, "Reset password"), p))
}

func (a *App) resetSubmit(c *fiber.Ctx) error {
	p := pages.ResetPasswordPage{Token: formValue(c, "token")}
	u, errs, err := a.Auth.ResetPassword(c.UserContext(), p.Token, formValue(c, "password"), formValue(c, "confirmPassword"))
	if a.dbUnavailable(err) {
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
		return render(c, status, pages.ResetPassword(a.frame(c, "Reset password"), p))
	}
	if err := a.Sessions.SignIn(c, u); err != nil {
		return err
	}
	return a.redirectWithFlash(c, "/profile", MsgPasswordReset)
}

// confirmEmailPage shows the confirmation link's "Confirm" button;
// opening it changes nothing.
func (a *App) confirmEmailPage(c *fiber.Ctx) error {
	p := pages.ConfirmEmailPage{Token: c.Query("token")}
	if p.Token == "" {
		p.Error = auth.MsgConfirmLinkInvalid
	}
	return render(c, fiber.StatusOK, pages.ConfirmEmail(a.frame(c, "Confirm your e-mail address"), p))
}

// confirmEmail uses a confirmation link: the address is verified; a link
// that adds Google sign-in also signs its owner in, as a sign-in link does.
func (a *App) confirmEmail(c *fiber.Ctx) error {
	u, linked, err := a.Auth.ConfirmEmail(c.UserContext(), formValue(c, "token"))
	if code := shop.ErrorCode(err); code == shop.ENOTFOUND || code == shop.ECONFLICT {
		return render(c, fiber.StatusUnprocessableEntity, pages.ConfirmEmail(a.frame(c, "Confirm your e-mail address"),
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
		return a.redirectWithFlash(c, "/profile", auth.MsgGoogleLinked)
	case cur != nil && cur.ID == u.ID:
		return a.redirectWithFlash(c, "/profile", auth.MsgEmailConfirmed)
	}
	return a.redirectWithFlash(c, "/login", auth.MsgEmailConfirmed)
}

func (a *App) profilePage(c *fiber.Ctx) error {
	u := session.User(c)
	p := pages.ProfilePage{User: u, Edit: c.Query("edit") == "1"}
	n, err := a.Carts.CartCount(c.UserContext(), u.ID)
	if err != nil {
		return err
	}
	p.CartItems = n
	if p.Orders, err = a.Orders.CountOrders(c.UserContext(), u.ID); err != nil {
		return err
	}
	p.Form.Profile = shop.Profile{DisplayName: u.DisplayName, PhoneNumber: u.PhoneNumber, Address: u.Address,
		City: u.City, State: u.State, ZipCode: u.ZipCode, Country: u.Country}
	return render(c, fiber.StatusOK, pages.Profile(a.frame(c, "Profile"), p))
}

func profileFromForm(c *fiber.Ctx) shop.Profile {
	p := shop.Profile{
		DisplayName: formValue(c, "displayName"), PhoneNumber: formValue(c, "phoneNumber"), Address: formValue(c, "address"),
		City: formValue(c, "city"), State: formValue(c, "state"), ZipCode: formValue(c, "zipCode"), Country: formValue(c, "country"),
	}
	p.Normalize()
	return p
}

func (a *App) profileSubmit(c *fiber.Ctx) error {
	u := session.User(c)
	prof := profileFromForm(c)
	page := pages.ProfilePage{User: u, Edit: true, Form: pages.ProfileForm{Profile: prof, Errors: prof.Validate(true)}}
	if page.Form.Errors != nil {
		return render(c, fiber.StatusUnprocessableEntity, pages.Profile(a.frame(c, "Profile"), page))
	}
	if err := a.Users.UpdateProfile(c.UserContext(), u.ID, prof); a.dbUnavailable(err) {
		return err
	} else if err != nil {
		a.Log.Error("update profile", "err", err, "request_id", requestID(c))
		page.Form.Error = auth.MsgProfileFailed
		return render(c, fiber.StatusInternalServerError, pages.Profile(a.frame(c, "Profile"), page))
	}
	return a.redirectWithFlash(c, "/profile", MsgProfileUpdated)
}

func (a *App) setupPage(c *fiber.Ctx) error {
	u := session.User(c)
	p := pages.ProfileSetupPage{From: from(c)}
	p.Form.Profile = shop.Profile{PhoneNumber: u.PhoneNumber, Address: u.Address, City: u.City, State: u.State,
		ZipCode: u.ZipCode, Country: u.Country}
	return render(c, fiber.StatusOK, pages.ProfileSetup(a.frame(c, "Complete your profile"), p))
}

func (a *App) setupSubmit(c *fiber.Ctx) error {
	u := session.User(c)
	next := from(c)
	if next == "" {
		next = "/profile"
	}
	if formValue(c, "action") == "skip" {
		return c.Redirect(next, fiber.StatusSeeOther)
	}
	prof := profileFromForm(c)
	prof.DisplayName = u.DisplayName
	page := pages.ProfileSetupPage{From: from(c), Form: pages.ProfileForm{Profile: prof, Errors: prof.Validate(false)}}
	if page.Form.Errors != nil {
		return render(c, fiber.StatusUnprocessableEntity, pages.ProfileSetup(a.frame(c, "Complete your profile"), page))
	}
	if err := a.Users.UpdateProfile(c.UserContext(), u.ID, prof); a.dbUnavailable(err) {
		return err
	} else if err != nil {
		a.Log.Error("profile setup", "err", err, "request_id", requestID(c))
		page.Form.Error = auth.MsgProfileFailed
		return render(c, fiber.StatusInternalServerError, pages.ProfileSetup(a.frame(c, "Complete your profile"), page))
	}
	return a.redirectWithFlash(c, next, MsgProfileUpdated)
}

func (a *App) settingsPage(c *fiber.Ctx) error {
	return render(c, fiber.StatusOK, pages.Settings(a.frame(c, "Account Settings"), a.settingsView(session.User(c))))
}

// settingsView is the settings page for u before any form was sent.
func (a *App) settingsView(u *shop.User) pages.SettingsPage {
	return pages.SettingsPage{HasPassword: u.HasPassword, GoogleEnabled: a.googleEnabled(), GoogleLinked: u.GoogleSubject != ""}
}

func (a *App) changePassword(c *fiber.Ctx) error {
	u := session.User(c)
	gen, errs, err := a.Auth.ChangePassword(c.UserContext(), u, formValue(c, "currentPassword"), formValue(c, "newPassword"), formValue(c, "confirmPassword"))
	if err != nil {
		return err
	}
	if errs != nil {
		p := a.settingsView(u)
		p.PasswordErrors = errs
		return render(c, fiber.StatusUnprocessableEntity, pages.Settings(a.frame(c, "Account Settings"), p))
	}
	if err := a.Sessions.KeepGeneration(c, gen); err != nil {
		return err
	}
	return a.redirectWithFlash(c, "/settings", MsgPasswordChanged)
}

func (a *App) signOutOthers(c *fiber.Ctx) error {
	gen, err := a.Users.BumpSessionGen(c.UserContext(), session.User(c).ID)
	if err != nil {
		return err
	}
	if err := a.Sessions.KeepGeneration(c, gen); err != nil {
		return err
	}
	return a.redirectWithFlash(c, "/settings", MsgOthersSignedOut)
}

func (a *App) deleteAccount(c *fiber.Ctx) error {
	u := session.User(c)
	if strings.TrimSpace(formValue(c, "confirm")) != deleteConfirmPhrase {
		p := a.settingsView(u)
		p.DeleteError = MsgDeleteConfirm
		return render(c, fiber.StatusUnprocessableEntity, pages.Settings(a.frame(c, "Account Settings"), p))
	}
	if err := a.Users.DeleteUser(c.UserContext(), u.ID); err != nil {
		return err
	}
	if err := a.Sessions.SignOut(c); err != nil {
		return err
	}
	return a.redirectWithFlash(c, "/", MsgAccountDeleted)
}
