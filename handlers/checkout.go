package handlers

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/internal/auth"
	"github.com/nocturne/storefront/internal/checkout"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// MsgOrderPlaced is the confirmation on the new order's page.
const MsgOrderPlaced = "Thank you! Your order has been placed."

const sessionCheckout = "checkout"

// checkoutState is what the session keeps between steps: the shipping form
// and, of the card, only what the review shows and the gateway's token.
type checkoutState struct {
	Key      string             `json:"key"`
	Shipping *checkout.Shipping `json:"shipping,omitempty"`
	Card     *keptCard          `json:"card,omitempty"`
}

type keptCard struct {
	Brand    string `json:"brand"`
	Last4    string `json:"last4"`
	ExpMonth int    `json:"expMonth"`
	ExpYear  int    `json:"expYear"`
	Token    string `json:"token"`
	Save     bool   `json:"save"`
}

func (k *keptCard) card() checkout.Card {
	return checkout.Card{Brand: k.Brand, Last4: k.Last4, ExpMonth: k.ExpMonth, ExpYear: k.ExpYear, Token: k.Token, Save: k.Save}
}

func (a *App) loadCheckout(c *fiber.Ctx) checkoutState {
	var st checkoutState
	if v, err := a.Sessions.Get(c, sessionCheckout); err == nil {
		if s, _ := v.(string); s != "" {
			_ = json.Unmarshal([]byte(s), &st)
		}
	}
	if st.Key == "" {
		st.Key = checkout.NewKey()
	}
	return st
}

func (a *App) saveCheckout(c *fiber.Ctx, st checkoutState) error {
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	return a.Sessions.Set(c, sessionCheckout, string(b))
}

// checkoutContext loads what every step needs, or answers with the redirect
// a shopper who cannot be on this step gets: an empty cart goes to /cart,
// nobody signed in to the sign-in-or-guest prompt.
func (a *App) checkoutContext(c *fiber.Ctx) (*shop.User, shop.Cart, bool, error) {
	u := auth.User(c)
	if u == nil {
		return nil, shop.Cart{}, false, c.Redirect("/checkout", fiber.StatusSeeOther)
	}
	cart, err := a.Carts.Cart(c.UserContext(), u.ID)
	if err != nil {
		return nil, cart, false, err
	}
	if len(cart.Lines) == 0 {
		return nil, cart, false, c.Redirect("/cart", fiber.StatusSeeOther)
	}
	return u, cart, true, nil
}

func summary(cart shop.Cart) pages.CheckoutSummary {
	return pages.CheckoutSummary{Cart: cart, Totals: shop.CheckoutTotals(cart)}
}

func (a *App) checkoutEntry(c *fiber.Ctx) error {
	owner := a.cartOwner(c)
	n := 0
	if owner != "" {
		var err error
		if n, err = a.Carts.CartCount(c.UserContext(), owner); err != nil {
			return err
		}
	}
	if n == 0 {
		return c.Redirect("/cart", fiber.StatusSeeOther)
	}
	if auth.User(c) == nil {
		return render(c, fiber.StatusOK, pages.CheckoutGate(a.frame(c, "Checkout")))
	}
	st := a.loadCheckout(c)
	switch {
	case st.Shipping == nil:
		return c.Redirect("/checkout/shipping", fiber.StatusSeeOther)
	case st.Card == nil:
		return c.Redirect("/checkout/payment", fiber.StatusSeeOther)
	}
	return c.Redirect("/checkout/review", fiber.StatusSeeOther)
}

func shippingForm(s checkout.Shipping) pages.ShippingForm {
	return pages.ShippingForm{FirstName: s.FirstName, LastName: s.LastName, Email: s.Email, Phone: s.Phone,
		Address: s.Address, City: s.City, State: s.State, ZipCode: s.ZipCode, Country: s.Country}
}

// prefill starts the shipping form from the account's profile.
func prefill(u *shop.User) checkout.Shipping {
	first, last, _ := strings.Cut(u.DisplayName, " ")
	if u.IsGuest {
		first, last = "", ""
	}
	s := checkout.Shipping{FirstName: first, LastName: last, Email: u.Email, Phone: u.PhoneNumber, Address: u.Address,
		City: u.City, State: u.State, ZipCode: u.ZipCode, Country: shop.DefaultCountry}
	for _, c := range checkout.ShippingCountries {
		if c == u.Country {
			s.Country = c
		}
	}
	return s
}

func (a *App) renderStep(c *fiber.Ctx, status int, p pages.CheckoutStep) error {
	p.Countries = checkout.ShippingCountries
	title := "Checkout – " + []string{"", "Shipping", "Payment", "Review"}[p.Step]
	f := a.frame(c, title)
	if p.Step == 3 {
		f = a.scriptFrame(c, title) // Place Order shows "Processing..."
	}
	return render(c, status, pages.Checkout(f, p))
}

func (a *App) shippingPage(c *fiber.Ctx) error {
	u, cart, ok, err := a.checkoutContext(c)
	if !ok {
		return err
	}
	st := a.loadCheckout(c)
	s := prefill(u)
	if st.Shipping != nil {
		s = *st.Shipping
	}
	return a.renderStep(c, fiber.StatusOK, pages.CheckoutStep{Step: 1, Summary: summary(cart), Shipping: shippingForm(s)})
}

func (a *App) shippingSubmit(c *fiber.Ctx) error {
	_, cart, ok, err := a.checkoutContext(c)
	if !ok {
		return err
	}
	s := checkout.Shipping{FirstName: formValue(c, "firstName"), LastName: formValue(c, "lastName"), Email: formValue(c, "email"),
		Phone: formValue(c, "phone"), Address: formValue(c, "address"), City: formValue(c, "city"), State: formValue(c, "state"),
		ZipCode: formValue(c, "zipCode"), Country: formValue(c, "country")}
	s.Normalize()
	if msg, errs := s.Validate(); msg != "" {
		return a.renderStep(c, fiber.StatusUnprocessableEntity, pages.CheckoutStep{Step: 1, Summary: summary(cart),
			Shipping: shippingForm(s), Error: msg, Errors: errs})
	}
	st := a.loadCheckout(c)
	st.Shipping = &s
	if err := a.saveCheckout(c, st); err != nil {
		return err
	}
	return c.Redirect("/checkout/payment", fiber.StatusSeeOther)
}

func (a *App) paymentPage(c *fiber.Ctx) error {
	u, cart, ok, err := a.checkoutContext(c)
	if !ok {
		return err
	}
	st := a.loadCheckout(c)
	if st.Shipping == nil {
		return c.Redirect("/checkout/shipping", fiber.StatusSeeOther)
	}
	p := pages.CheckoutStep{Step: 2, Summary: summary(cart)}
	if st.Card != nil {
		p.SaveCard = st.Card.Save
	}
	if !u.IsGuest {
		if p.SavedCard, err = a.Orders.SavedCard(c.UserContext(), u.ID); err != nil {
			return err
		}
	}
	return a.renderStep(c, fiber.StatusOK, p)
}

func (a *App) paymentSubmit(c *fiber.Ctx) error {
	u, cart, ok, err := a.checkoutContext(c)
	if !ok {
		return err
	}
	if formValue(c, "action") == "back" {
		return c.Redirect("/checkout/shipping", fiber.StatusSeeOther)
	}
	st := a.loadCheckout(c)
	if st.Shipping == nil {
		return c.Redirect("/checkout/shipping", fiber.StatusSeeOther)
	}
	var saved *shop.SavedCard
	if !u.IsGuest {
		if saved, err = a.Orders.SavedCard(c.UserContext(), u.ID); err != nil {
			return err
		}
	}
	in := checkout.Payment{CardNumber: formValue(c, "cardNumber"), CardName: formValue(c, "cardName"),
		Expiry: formValue(c, "expiryDate"), CVV: formValue(c, "cvv"), SaveCard: formValue(c, "saveCard") != ""}
	var card checkout.Card
	var msg string
	var errs shop.FieldErrors
	if formValue(c, "use_saved") != "" && saved != nil {
		card, msg, errs = checkout.ValidateSaved(*saved, in.CVV, a.Now())
	} else {
		card, msg, errs = checkout.ValidatePayment(in, a.Now())
	}
	if msg != "" {
		// The card number and CVV are never sent back; the name is.
		return a.renderStep(c, fiber.StatusUnprocessableEntity, pages.CheckoutStep{Step: 2, Summary: summary(cart),
			Error: msg, Errors: errs, CardName: strings.TrimSpace(in.CardName), SaveCard: in.SaveCard, SavedCard: saved})
	}
	number := strings.NewReplacer(" ", "", "-", "").Replace(in.CardNumber)
	if card.Token, err = a.Checkout.Gateway.Tokenize(c.UserContext(), number, card); err != nil {
		return err
	}
	st.Card = &keptCard{Brand: card.Brand, Last4: card.Last4, ExpMonth: card.ExpMonth, ExpYear: card.ExpYear, Token: card.Token, Save: card.Save}
	if err := a.saveCheckout(c, st); err != nil {
		return err
	}
	return c.Redirect("/checkout/review", fiber.StatusSeeOther)
}

func (a *App) reviewStep(c *fiber.Ctx, status int, cart shop.Cart, st checkoutState, msg string, declined bool) error {
	card := st.Card.card()
	why := ""
	if declined {
		why = checkout.MsgCardDeclined
	}
	return a.renderStep(c, status, pages.CheckoutStep{Step: 3, Summary: summary(cart), Shipping: shippingForm(*st.Shipping),
		CardLabel: card.Label(), CardExpiry: card.Expiry(), Key: st.Key, Error: msg, Declined: why})
}

func (a *App) reviewPage(c *fiber.Ctx) error {
	_, cart, ok, err := a.checkoutContext(c)
	if !ok {
		return err
	}
	st := a.loadCheckout(c)
	switch {
	case st.Shipping == nil:
		return c.Redirect("/checkout/shipping", fiber.StatusSeeOther)
	case st.Card == nil:
		return c.Redirect("/checkout/payment", fiber.StatusSeeOther)
	}
	// The key goes into the page, so save it with the state it belongs to.
	if err := a.saveCheckout(c, st); err != nil {
		return err
	}
	return a.reviewStep(c, fiber.StatusOK, cart, st, "", false)
}

// checkoutBack leaves the review for the payment step; the card must be
// entered again there (it is never kept).
func (a *App) checkoutBack(c *fiber.Ctx) error {
	return c.Redirect("/checkout/payment", fiber.StatusSeeOther)
}

func (a *App) placeOrder(c *fiber.Ctx) error {
	u := auth.User(c)
	if u == nil {
		return c.Redirect("/checkout", fiber.StatusSeeOther)
	}
	st := a.loadCheckout(c)
	key := formValue(c, "key")
	if key == "" || key != st.Key || st.Shipping == nil || st.Card == nil {
		// A replayed or stale form: if its order exists, show it.
		if o, err := a.Orders.OrderByKey(c.UserContext(), key); err == nil && o.UserID == u.ID {
			return c.Redirect("/orders/"+o.ID, fiber.StatusSeeOther)
		}
		return c.Redirect("/checkout", fiber.StatusSeeOther)
	}
	o, err := a.Checkout.Place(c.UserContext(), checkout.PlaceInput{UserID: u.ID, CartOwner: u.ID, Shipping: *st.Shipping, Card: st.Card.card(), Key: key})
	if err != nil {
		if shop.ErrorCode(err) != shop.EINVALID {
			a.Log.Error("place order", "err", err, "request_id", requestID(c))
			err = shop.Errorf(shop.EINVALID, checkout.MsgOrderFailed)
		}
		cart, cerr := a.Carts.Cart(c.UserContext(), u.ID)
		if cerr != nil {
			return cerr
		}
		if len(cart.Lines) == 0 {
			return c.Redirect("/cart", fiber.StatusSeeOther)
		}
		return a.reviewStep(c, fiber.StatusUnprocessableEntity, cart, st, shop.ErrorMessage(err), errors.Is(err, checkout.ErrDeclined))
	}
	if err := a.Sessions.Set(c, sessionCheckout, ""); err != nil {
		return err
	}
	return a.redirectWithFlash(c, "/orders/"+o.ID, MsgOrderPlaced)
}
