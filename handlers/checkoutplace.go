package handlers

import (
	"errors"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/nocturne/storefront/handlers/session"
	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/checkout"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// reviewStep renders the review of the cart as it is now; its form carries
// the cart's checkout key, so Place Order charges exactly what was shown. A
// declined card adds why, with a way back to the payment step.
func (a *checkoutHandlers) reviewStep(c *fiber.Ctx, status int, owner string, cart shop.Cart, st checkoutState, msg string, declined bool) error {
	ch := a.choice(c, session.User(c), st)
	priced, err := a.prices.Price(c.UserContext(), cart, ch)
	if err != nil {
		return err
	}
	if priced.CodeErr != nil {
		// A code that no longer applies is not part of the price shown,
		// nor of the key: the order placed is the price reviewed.
		ch.Code = ""
	}
	key, err := a.checkout.ReviewKey(c.UserContext(), owner, cart, ch)
	if err != nil {
		return err
	}
	why := ""
	if declined {
		why = checkout.MsgCardDeclined
	}
	code := codeForm("/checkout/code", priced, promoCode(c, a.sessions))
	if isPromoMessage(msg) {
		// Refused when the order was placed: said next to the code.
		code = pages.CodeForm{Action: "/checkout/code", Value: promoCode(c, a.sessions), Error: msg}
	}
	return a.renderStep(c, status, pages.CheckoutStep{Step: 3, Summary: summary(cart, priced), Shipping: shippingForm(*st.Shipping),
		Payment: a.payment(st), Key: key, Error: msg, Declined: why, Code: code})
}

// isPromoMessage reports whether msg is why a promo code was refused.
func isPromoMessage(msg string) bool {
	switch msg {
	case shop.MsgPromoUnknown, shop.MsgPromoExpired, shop.MsgPromoNotYet, shop.MsgPromoAlreadyUsed, shop.MsgPromoUsedUp:
		return true
	}
	return strings.HasPrefix(msg, strings.SplitN(shop.MsgPromoMinimum, "%", 2)[0])
}

// reviewCode applies the promo code typed at Review, or removes the one
// applied; a code refused is shown next to the field, as typed.
func (a *checkoutHandlers) reviewCode(c *fiber.Ctx) error {
	u, cart, ok, err := a.checkoutContext(c)
	if !ok {
		return err
	}
	st := a.loadCheckout(c)
	if st.Shipping == nil || !st.paymentChosen(a.paymethods) {
		return c.Redirect("/checkout", fiber.StatusSeeOther)
	}
	if web.FormValue(c, "action") == "remove" {
		if err := a.sessions.Set(c, sessionCode, ""); err != nil {
			return err
		}
		return c.Redirect("/checkout/review", fiber.StatusSeeOther)
	}
	typed := typedCode(c)
	ch := a.choice(c, u, st)
	ch.Code = typed
	priced, err := a.prices.Price(c.UserContext(), cart, ch)
	if err != nil {
		return err
	}
	if typed == "" || priced.CodeErr != nil {
		msg := shop.MsgPromoUnknown
		if priced.CodeErr != nil {
			msg = shop.ErrorMessage(priced.CodeErr)
		}
		return a.reviewRefused(c, u.ID, cart, st, typed, msg)
	}
	if err := a.sessions.Set(c, sessionCode, typed); err != nil {
		return err
	}
	return c.Redirect("/checkout/review", fiber.StatusSeeOther)
}

// reviewRefused renders the review with the code typed and why it was
// refused next to it; the price and key are without it.
func (a *checkoutHandlers) reviewRefused(c *fiber.Ctx, owner string, cart shop.Cart, st checkoutState, typed, msg string) error {
	if err := a.sessions.Set(c, sessionCode, ""); err != nil {
		return err
	}
	ch := a.choice(c, session.User(c), st)
	ch.Code = ""
	priced, err := a.prices.Price(c.UserContext(), cart, ch)
	if err != nil {
		return err
	}
	key, err := a.checkout.ReviewKey(c.UserContext(), owner, cart, ch)
	if err != nil {
		return err
	}
	return a.renderStep(c, fiber.StatusUnprocessableEntity, pages.CheckoutStep{Step: 3, Summary: summary(cart, priced),
		Shipping: shippingForm(*st.Shipping), Payment: a.payment(st), Key: key,
		Code: pages.CodeForm{Action: "/checkout/code", Value: typed, Error: msg}})
}

func (a *checkoutHandlers) reviewPage(c *fiber.Ctx) error {
	u, cart, ok, err := a.checkoutContext(c)
	if !ok {
		return err
	}
	st := a.loadCheckout(c)
	switch {
	case st.Shipping == nil:
		return c.Redirect("/checkout/shipping", fiber.StatusSeeOther)
	case !st.paymentChosen(a.paymethods):
		return c.Redirect("/checkout/payment", fiber.StatusSeeOther)
	}
	return a.reviewStep(c, fiber.StatusOK, u.ID, cart, st, "", false)
}

// checkoutBack leaves the review for the payment step; the card must be
// entered again there (it is never kept).
func (a *checkoutHandlers) checkoutBack(c *fiber.Ctx) error {
	return c.Redirect("/checkout/payment", fiber.StatusSeeOther)
}

func (a *checkoutHandlers) placeOrder(c *fiber.Ctx) error {
	u := session.User(c)
	if u == nil {
		return c.Redirect("/checkout", fiber.StatusSeeOther)
	}
	st := a.loadCheckout(c)
	key := web.FormValue(c, "key")
	if key == "" || st.Shipping == nil || !st.paymentChosen(a.paymethods) {
		// A replayed form after the checkout ended: show what became of it.
		return a.showPlaced(c, u.ID, key, "")
	}
	ch := a.choice(c, u, st)
	res, err := a.checkout.Place(c.UserContext(), checkout.PlaceInput{UserID: u.ID, CartOwner: u.ID, Shipping: *st.Shipping,
		Method: st.Method, Card: st.card(), Key: key, Choice: ch})
	if err != nil {
		if shop.ErrorCode(err) != shop.EINVALID && shop.ErrorCode(err) != shop.ECONFLICT {
			a.Log.Error("place order", "err", err, "request_id", web.RequestID(c))
			err = shop.Errorf(shop.EINVALID, checkout.MsgOrderFailed)
		}
		return a.reviewAgain(c, u.ID, st, fiber.StatusUnprocessableEntity, shop.ErrorMessage(err), errors.Is(err, checkout.ErrDeclined))
	}
	switch {
	case res.State == checkout.Placed && res.Fresh:
		if err := a.sessions.Set(c, sessionCheckout, ""); err != nil {
			return err
		}
	case res.State == checkout.Processing && a.paymethods.For(res.Order.PaymentProvider).Words().Card:
		// The status page tells a decline of the card, and "Use another
		// card" gives the checkout back.
		st = checkoutState{Placing: &placing{OrderID: res.Order.ID, Key: key, Token: st.card().Token,
			Shipping: *st.Shipping, Method: st.Method, ShipMethod: st.ShipMethod, Code: res.Code}}
		if err := a.saveCheckout(c, st); err != nil {
			return err
		}
	}
	if res.Fresh && res.Code != "" {
		// The order holds the code now; a declined card gives it back
		// with the rest of the checkout ("Use another card").
		if err := a.sessions.Set(c, sessionCode, ""); err != nil {
			return err
		}
	}
	return a.showResult(c, u.ID, st, res)
}

// reviewAgain shows the review of the cart as it is now with msg; an empty
// cart goes back to the cart page.
func (a *checkoutHandlers) reviewAgain(c *fiber.Ctx, owner string, st checkoutState, status int, msg string, declined bool) error {
	cart, err := a.carts.Cart(c.UserContext(), owner)
	if err != nil {
		return err
	}
	if len(cart.Lines) == 0 || st.Shipping == nil || !st.paymentChosen(a.paymethods) {
		return a.RedirectWithFlash(c, "/cart", msg)
	}
	return a.reviewStep(c, status, owner, cart, st, msg, declined)
}

// showResult tells the truth of a Place Order press: the order page when
// it is placed, the order's status page while its payment runs (it tells a
// decline too), the review with the decline message when a card refused
// before is pressed again.
func (a *checkoutHandlers) showResult(c *fiber.Ctx, owner string, st checkoutState, res checkout.Result) error {
	switch {
	case res.State == checkout.Redirect:
		// To the hosted payment page; it sends the shopper back to the
		// order's status page, or to the cancelled page.
		return c.Redirect(res.URL, fiber.StatusSeeOther)
	case res.State == checkout.Placed:
		return a.RedirectWithFlash(c, "/orders/"+res.Order.ID, MsgOrderPlaced)
	case res.State == checkout.Processing:
		return c.Redirect(checkout.StatusURL(res.Order.ID), fiber.StatusSeeOther)
	case st.Placing != nil:
		return c.Redirect(checkout.StatusURL(st.Placing.OrderID), fiber.StatusSeeOther)
	default:
		return a.reviewAgain(c, owner, st, fiber.StatusUnprocessableEntity, checkout.MsgOrderFailed, true)
	}
}

// showPlaced answers a replayed Place Order or a status check from what is
// recorded, without placing anything.
func (a *checkoutHandlers) showPlaced(c *fiber.Ctx, owner, key, token string) error {
	if key == "" {
		return c.Redirect("/checkout", fiber.StatusSeeOther)
	}
	st := a.loadCheckout(c)
	switch {
	case token != "":
	case st.Card != nil:
		token = st.Card.Token
	case st.Placing != nil && st.Placing.Key == key:
		token = st.Placing.Token
	}
	res, err := a.checkout.Status(c.UserContext(), owner, key, token)
	if shop.ErrorCode(err) == shop.ENOTFOUND {
		return c.Redirect("/checkout", fiber.StatusSeeOther)
	} else if err != nil {
		return err
	}
	return a.showResult(c, owner, st, res)
}

// lastPayment tells, of a released order that was this shopper's last
// Place Order with the demo card, whether its card was declined: "declined",
// or "unpaid" when it was released without a charge (the sweep after a
// crash). It is "" for any other order. It only reads.
func (a *checkoutHandlers) lastPayment(c *fiber.Ctx, orderID string) (string, error) {
	u, st := session.User(c), a.loadCheckout(c)
	if u == nil || st.Placing == nil || st.Placing.OrderID != orderID {
		return "", nil
	}
	res, err := a.checkout.Status(c.UserContext(), u.ID, st.Placing.Key, st.Placing.Token)
	switch {
	case shop.ErrorCode(err) == shop.ENOTFOUND:
		return "unpaid", nil
	case err != nil:
		return "", err
	case res.State == checkout.Declined:
		return "declined", nil
	}
	return "", nil
}

// retryPayment is a declined or unpaid order's "Use another card": the
// checkout gets back the shipping address and method, and goes to the
// Payment step.
func (a *checkoutHandlers) retryPayment(c *fiber.Ctx) error {
	st := a.loadCheckout(c)
	p := st.Placing
	if session.User(c) == nil || p == nil {
		return c.Redirect("/checkout", fiber.StatusSeeOther)
	}
	if _, err := a.orders.Order(c.UserContext(), p.OrderID); err == nil {
		// Still being paid, or paid: its status page says which.
		return c.Redirect(checkout.StatusURL(p.OrderID), fiber.StatusSeeOther)
	} else if shop.ErrorCode(err) != shop.ENOTFOUND {
		return err
	}
	if err := a.saveCheckout(c, checkoutState{Shipping: &p.Shipping, Method: p.Method, ShipMethod: p.ShipMethod}); err != nil {
		return err
	}
	if p.Code != "" {
		if err := a.sessions.Set(c, sessionCode, p.Code); err != nil {
			return err
		}
	}
	return c.Redirect("/checkout/payment", fiber.StatusSeeOther)
}
