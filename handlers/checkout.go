package handlers

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/session"
	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/checkout"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// checkoutHandlers serve the three checkout steps and placing the order.
type checkoutHandlers struct {
	*web.Pages
	checkout Checkout
	sessions Sessions
	carts    shop.CartStore
	orders   shop.OrderStore
	owners   *cartOwners
	// paymethods are the payment methods, and which are offered.
	paymethods *checkout.Methods
	prices     Pricer
	// location is the shop's time zone: shipping cut-offs and delivery
	// dates are in it.
	location *time.Location
}

// routes registers checkout's routes; perIP limits the payment and the
// order's placing.
func (a *checkoutHandlers) routes(app *fiber.App, perIP func(name string, max int) fiber.Handler) {
	app.Get("/checkout", a.checkoutEntry)
	app.Get("/checkout/shipping", a.shippingPage)
	app.Post("/checkout/shipping", a.shippingSubmit)
	app.Get("/checkout/payment", a.paymentPage)
	app.Post("/checkout/payment", perIP("payment", 30), a.paymentSubmit)
	app.Get("/checkout/review", a.reviewPage)
	app.Post("/checkout/back", a.checkoutBack)
	app.Post("/checkout/place", perIP("place", 20), a.placeOrder)
	app.Post("/checkout/retry", a.retryPayment)
	app.Post("/checkout/code", a.reviewCode)
}

// MsgOrderPlaced is the confirmation on the new order's page.
const MsgOrderPlaced = "Thank you! Your order has been placed."

const sessionCheckout = "checkout"

// checkoutState is what the session keeps between steps: the shipping form
// and, of the card, only what the review shows and the gateway's token.
// Once Place Order is pressed they move to Placing, so the next checkout
// starts afresh and a declined card can still go back to the Payment step.
type checkoutState struct {
	Shipping *checkout.Shipping `json:"shipping,omitempty"`
	Method   string             `json:"method,omitempty"`
	// ShipMethod is the shipping method chosen with the address.
	ShipMethod string    `json:"shipMethod,omitempty"`
	Card       *keptCard `json:"card,omitempty"`
	Placing    *placing  `json:"placing,omitempty"`
}

// placing is the order whose demo payment is under way, with what its
// status page needs to tell a decline (the cart key and card token) and
// what "Use another card" gives back to the checkout.
type placing struct {
	OrderID    string            `json:"order"`
	Key        string            `json:"key"`
	Token      string            `json:"token,omitempty"`
	Shipping   checkout.Shipping `json:"shipping"`
	Method     string            `json:"method,omitempty"`
	ShipMethod string            `json:"shipMethod,omitempty"`
	Code       string            `json:"code,omitempty"`
}

// paymentChosen reports whether the Payment step is done: a method still
// offered was chosen, with a card when it takes one.
func (st checkoutState) paymentChosen(ms *checkout.Methods) bool {
	return ms.Offers(st.Method) && (st.Card != nil || !ms.For(st.Method).Words().Card)
}

// card is the demo card kept, or none.
func (st checkoutState) card() checkout.Card {
	if st.Card == nil {
		return checkout.Card{}
	}
	return st.Card.card()
}

// MsgChooseMethod asks for a payment method the Payment step offers.
const MsgChooseMethod = "Please choose how you would like to pay."

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

func (a *checkoutHandlers) loadCheckout(c *fiber.Ctx) checkoutState {
	var st checkoutState
	if v, err := a.sessions.Get(c, sessionCheckout); err == nil {
		if s, _ := v.(string); s != "" {
			_ = json.Unmarshal([]byte(s), &st)
		}
	}
	return st
}

func (a *checkoutHandlers) saveCheckout(c *fiber.Ctx, st checkoutState) error {
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	return a.sessions.Set(c, sessionCheckout, string(b))
}

// checkoutContext loads what every step needs, or answers with the redirect
// a shopper who cannot be on this step gets: an empty cart goes to /cart,
// nobody signed in to the sign-in-or-guest prompt.
func (a *checkoutHandlers) checkoutContext(c *fiber.Ctx) (*shop.User, shop.Cart, bool, error) {
	u := session.User(c)
	if u == nil {
		return nil, shop.Cart{}, false, c.Redirect("/checkout", fiber.StatusSeeOther)
	}
	cart, err := a.carts.Cart(c.UserContext(), u.ID)
	if err != nil {
		return nil, cart, false, err
	}
	if len(cart.Lines) == 0 {
		return nil, cart, false, c.Redirect("/cart", fiber.StatusSeeOther)
	}
	return u, cart, true, nil
}

// choice is what of the checkout so far changes the price: the address,
// the shipping method and the promo code. Before the address is known the
// price is the default country's, estimated.
func (a *checkoutHandlers) choice(c *fiber.Ctx, u *shop.User, st checkoutState) checkout.Choice {
	ch := checkout.Choice{Code: promoCode(c, a.sessions)}
	email := ""
	if st.Shipping != nil {
		ch.Country, ch.State, ch.MethodID, email = st.Shipping.Country, st.Shipping.State, st.ShipMethod, st.Shipping.Email
	}
	ch.Customer = customerOf(u, email)
	return ch
}

// price prices cart for the checkout so far.
func (a *checkoutHandlers) price(c *fiber.Ctx, u *shop.User, cart shop.Cart, st checkoutState) (checkout.Priced, error) {
	return a.prices.Price(c.UserContext(), cart, a.choice(c, u, st))
}

// summary is the order summary of a priced cart.
func summary(cart shop.Cart, p checkout.Priced) pages.CheckoutSummary {
	return pages.CheckoutSummary{Cart: cart, Totals: totalsView(p)}
}

func (a *checkoutHandlers) checkoutEntry(c *fiber.Ctx) error {
	owner := a.owners.cartOwner(c)
	n := 0
	if owner != "" {
		var err error
		if n, err = a.carts.CartCount(c.UserContext(), owner); err != nil {
			return err
		}
	}
	if n == 0 {
		return c.Redirect("/cart", fiber.StatusSeeOther)
	}
	if session.User(c) == nil {
		return web.Render(c, fiber.StatusOK, pages.CheckoutGate(a.Frame(c, "Checkout")))
	}
	st := a.loadCheckout(c)
	switch {
	case st.Shipping == nil:
		return c.Redirect("/checkout/shipping", fiber.StatusSeeOther)
	case !st.paymentChosen(a.paymethods):
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

func (a *checkoutHandlers) renderStep(c *fiber.Ctx, status int, p pages.CheckoutStep) error {
	p.Countries = checkout.ShippingCountries
	title := "Checkout – " + []string{"", "Shipping", "Payment", "Review"}[p.Step]
	f := a.Frame(c, title)
	if p.Step == 3 {
		f = a.ScriptFrame(c, title) // Place Order shows "Processing..."
	}
	return web.Render(c, status, pages.Checkout(f, p))
}

func (a *checkoutHandlers) shippingPage(c *fiber.Ctx) error {
	u, cart, ok, err := a.checkoutContext(c)
	if !ok {
		return err
	}
	st := a.loadCheckout(c)
	s := prefill(u)
	if st.Shipping != nil {
		s = *st.Shipping
	}
	return a.shippingStep(c, fiber.StatusOK, u, cart, st, s, "", nil)
}

// shippingStep renders the shipping step for the address typed, s: the
// methods offered are priced for the cart and, once it is known, the
// summary for the address.
func (a *checkoutHandlers) shippingStep(c *fiber.Ctx, status int, u *shop.User, cart shop.Cart, st checkoutState, s checkout.Shipping, msg string, errs shop.FieldErrors) error {
	priced, err := a.price(c, u, cart, st)
	if err != nil {
		return err
	}
	chosen := st.ShipMethod
	if chosen == "" {
		// The first method of the address's zone: Standard at home.
		probe, err := a.prices.Price(c.UserContext(), cart, checkout.Choice{Country: s.Country, State: s.State})
		if err != nil {
			return err
		}
		chosen = probe.Method.ID
	}
	return a.renderStep(c, status, pages.CheckoutStep{Step: 1, Summary: summary(cart, priced), Shipping: shippingForm(s),
		Zones: zoneChoices(priced, a.Now(), a.location), ShipMethod: chosen, Error: msg, Errors: errs})
}

func (a *checkoutHandlers) shippingSubmit(c *fiber.Ctx) error {
	u, cart, ok, err := a.checkoutContext(c)
	if !ok {
		return err
	}
	s := checkout.Shipping{FirstName: web.FormValue(c, "firstName"), LastName: web.FormValue(c, "lastName"), Email: web.FormValue(c, "email"),
		Phone: web.FormValue(c, "phone"), Address: web.FormValue(c, "address"), City: web.FormValue(c, "city"), State: web.FormValue(c, "state"),
		ZipCode: web.FormValue(c, "zipCode"), Country: web.FormValue(c, "country")}
	s.Normalize()
	st := a.loadCheckout(c)
	st.ShipMethod = web.FormValue(c, "shipMethod")
	if msg, errs := s.Validate(); msg != "" {
		return a.shippingStep(c, fiber.StatusUnprocessableEntity, u, cart, st, s, msg, errs)
	}
	// The method must deliver to the address; a zone with one method
	// needs no choice.
	at, err := a.prices.Price(c.UserContext(), cart, checkout.Choice{Country: s.Country, State: s.State, MethodID: st.ShipMethod})
	if err != nil {
		return err
	}
	switch {
	case at.NoMethod:
		return a.shippingStep(c, fiber.StatusUnprocessableEntity, u, cart, st, s, checkout.MsgNoShipping,
			shop.FieldErrors{"country": checkout.MsgNoShipping})
	case st.ShipMethod != "" && at.Method.ID != st.ShipMethod && len(at.Methods) > 1:
		msg := fmt.Sprintf(MsgChooseShipping, s.Country)
		return a.shippingStep(c, fiber.StatusUnprocessableEntity, u, cart, st, s, msg, shop.FieldErrors{"shipMethod": msg})
	}
	st.Shipping, st.ShipMethod = &s, at.Method.ID
	if err := a.saveCheckout(c, st); err != nil {
		return err
	}
	return c.Redirect("/checkout/payment", fiber.StatusSeeOther)
}

func (a *checkoutHandlers) paymentPage(c *fiber.Ctx) error {
	u, cart, ok, err := a.checkoutContext(c)
	if !ok {
		return err
	}
	st := a.loadCheckout(c)
	if st.Shipping == nil {
		return c.Redirect("/checkout/shipping", fiber.StatusSeeOther)
	}
	priced, err := a.price(c, u, cart, st)
	if err != nil {
		return err
	}
	p := pages.CheckoutStep{Step: 2, Summary: summary(cart, priced), Methods: a.methods(priced), Method: st.Method}
	if p.Method == "" && len(p.Methods) > 0 {
		p.Method = p.Methods[0].Value
	}
	if st.Card != nil {
		p.SaveCard = st.Card.Save
	}
	if !u.IsGuest {
		if p.SavedCard, err = a.orders.SavedCard(c.UserContext(), u.ID); err != nil {
			return err
		}
	}
	return a.renderStep(c, fiber.StatusOK, p)
}

func (a *checkoutHandlers) paymentSubmit(c *fiber.Ctx) error {
	u, cart, ok, err := a.checkoutContext(c)
	if !ok {
		return err
	}
	if web.FormValue(c, "action") == "back" {
		return c.Redirect("/checkout/shipping", fiber.StatusSeeOther)
	}
	st := a.loadCheckout(c)
	if st.Shipping == nil {
		return c.Redirect("/checkout/shipping", fiber.StatusSeeOther)
	}
	priced, err := a.price(c, u, cart, st)
	if err != nil {
		return err
	}
	method := web.FormValue(c, "method")
	if ms := a.methods(priced); len(ms) == 1 {
		method = ms[0].Value
	}
	var saved *shop.SavedCard
	if !u.IsGuest {
		if saved, err = a.orders.SavedCard(c.UserContext(), u.ID); err != nil {
			return err
		}
	}
	if !a.offers(method, priced) {
		return a.renderStep(c, fiber.StatusUnprocessableEntity, pages.CheckoutStep{Step: 2, Summary: summary(cart, priced), Methods: a.methods(priced),
			Error: MsgChooseMethod, Errors: shop.FieldErrors{"method": MsgChooseMethod}, CardName: strings.TrimSpace(web.FormValue(c, "cardName")),
			SavedCard: saved})
	}
	if msg, err := a.refusedMethod(c, u, st, method); err != nil {
		return err
	} else if msg != "" {
		return a.renderStep(c, fiber.StatusUnprocessableEntity, pages.CheckoutStep{Step: 2, Summary: summary(cart, priced), Methods: a.methods(priced),
			Method: method, Error: msg, Errors: shop.FieldErrors{"method": msg}, CardName: strings.TrimSpace(web.FormValue(c, "cardName")),
			SavedCard: saved})
	}
	if !a.paymethods.For(method).Words().Card {
		st.Method, st.Card = method, nil
		if err := a.saveCheckout(c, st); err != nil {
			return err
		}
		return c.Redirect("/checkout/review", fiber.StatusSeeOther)
	}
	in := checkout.Payment{CardNumber: web.FormValue(c, "cardNumber"), CardName: web.FormValue(c, "cardName"),
		Expiry: web.FormValue(c, "expiryDate"), CVV: web.FormValue(c, "cvv"), SaveCard: web.FormValue(c, "saveCard") != ""}
	var card checkout.Card
	var msg string
	var errs shop.FieldErrors
	if web.FormValue(c, "use_saved") != "" && saved != nil {
		card, msg, errs = checkout.ValidateSaved(*saved, in.CVV, a.Now())
	} else {
		card, msg, errs = checkout.ValidatePayment(in, a.Now())
	}
	if msg != "" {
		// The card number and CVV are never sent back; the name is.
		return a.renderStep(c, fiber.StatusUnprocessableEntity, pages.CheckoutStep{Step: 2, Summary: summary(cart, priced),
			Error: msg, Errors: errs, CardName: strings.TrimSpace(in.CardName), SaveCard: in.SaveCard, SavedCard: saved,
			Methods: a.methods(priced), Method: method})
	}
	if card.Token, err = a.checkout.Tokenize(c.UserContext(), method, in.CardNumber, card); err != nil {
		return err
	}
	st.Method = method
	st.Card = &keptCard{Brand: card.Brand, Last4: card.Last4, ExpMonth: card.ExpMonth, ExpYear: card.ExpYear, Token: card.Token, Save: card.Save}
	if err := a.saveCheckout(c, st); err != nil {
		return err
	}
	return c.Redirect("/checkout/review", fiber.StatusSeeOther)
}

// methods are the Payment step's choices for cart, in its words: a method
// is not offered below its minimum charge.
func (a *checkoutHandlers) methods(priced checkout.Priced) []pages.PayMethod {
	var out []pages.PayMethod
	for _, m := range a.paymethods.Offered() {
		w := m.Words()
		if priced.Total >= w.Minimum {
			out = append(out, pages.PayMethod{Value: m.Name(), Label: w.Label, Note: w.Note, Card: w.Card})
		}
	}
	return out
}

// refusedMethod is why the method chosen won't take an order from this
// shopper ("" when it will), said next to the choice rather than after
// Place Order; Place Order asks again.
func (a *checkoutHandlers) refusedMethod(c *fiber.Ctx, u *shop.User, st checkoutState, method string) (string, error) {
	err := a.checkout.Admit(c.UserContext(), checkout.PlaceInput{UserID: u.ID, CartOwner: u.ID, Shipping: *st.Shipping, Method: method})
	if shop.ErrorCode(err) == shop.EINVALID {
		return shop.ErrorMessage(err), nil
	}
	return "", err
}

// payment is what the review says of the method chosen: its words, or
// the card given.
func (a *checkoutHandlers) payment(st checkoutState) pages.ReviewPayment {
	if w := a.paymethods.For(st.Method).Words(); w.Review != "" {
		return pages.ReviewPayment{Label: w.Review, Note: w.ReviewNote}
	}
	card := st.card()
	return pages.ReviewPayment{Label: card.Label(), Note: "Expires " + card.Expiry()}
}

// offers reports whether the Payment step offers method for cart.
func (a *checkoutHandlers) offers(method string, priced checkout.Priced) bool {
	return slices.ContainsFunc(a.methods(priced), func(m pages.PayMethod) bool { return m.Value == method })
}
