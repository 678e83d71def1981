// Package checkout owns the three-step checkout's rules: what a valid
// shipping address and card are (spec §5), the simulated payment gateway,
// and placing an order exactly once.
package checkout

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/nocturne/storefront/internal/mail"
	"github.com/nocturne/storefront/internal/shop"
)

// Messages of the checkout (spec §5, §8).
const (
	MsgMissingPrefix = "Please fill in all required fields: "
	MsgBadEmail      = "Please enter a valid email address"
	MsgBadCard       = "Please enter a valid 16-digit card number"
	MsgBadExpiry     = "Please enter a valid expiry date (MM/YY)"
	MsgExpired       = "This card has expired. Please use another card."
	MsgBadCVV        = "Please enter a valid CVV"
	MsgOrderFailed   = "Failed to place order. Please try again."
	MsgCardDeclined  = "Your card was declined. Try another card."
	MsgBadCountry    = "Please choose a country from the list."
)

// ShippingCountries are the checkout's country choices (spec §3).
var ShippingCountries = []string{"United States", "Canada", "United Kingdom"}

// Shipping is step 1's form.
type Shipping struct {
	FirstName, LastName, Email, Phone, Address, City, State, ZipCode, Country string
}

// Normalize trims every field and defaults the country.
func (s *Shipping) Normalize() {
	for _, f := range []*string{&s.FirstName, &s.LastName, &s.Email, &s.Phone, &s.Address, &s.City, &s.State, &s.ZipCode, &s.Country} {
		*f = strings.TrimSpace(*f)
	}
	if s.Country == "" {
		s.Country = shop.DefaultCountry
	}
}

// field is one required form field: its name, its label in messages and
// what was typed.
type field struct{ key, label, value string }

// required checks that every field was filled in: the spec's one message
// lists the missing ones, and each is marked. Over-long values are marked
// too.
func required(fields []field) (string, shop.FieldErrors) {
	errs := shop.FieldErrors{}
	var missing []string
	for _, f := range fields {
		if f.value == "" {
			missing = append(missing, f.label)
			errs[f.key] = f.label + " is required."
		} else if len(f.value) > 200 {
			errs[f.key] = f.label + " is too long (at most 200 characters)."
		}
	}
	if len(missing) > 0 {
		return MsgMissingPrefix + strings.Join(missing, ", "), errs
	}
	if len(errs) > 0 {
		return "Please correct the fields marked below.", errs
	}
	return "", nil
}

// Validate returns the form-level message (spec: one message listing the
// missing fields) and the fields to mark.
func (s Shipping) Validate() (string, shop.FieldErrors) {
	if msg, errs := required([]field{
		{"firstName", "First Name", s.FirstName}, {"lastName", "Last Name", s.LastName}, {"email", "Email", s.Email},
		{"phone", "Phone", s.Phone}, {"address", "Address", s.Address}, {"city", "City", s.City},
		{"state", "State", s.State}, {"zipCode", "ZIP Code", s.ZipCode},
	}); msg != "" {
		return msg, errs
	}
	if !shop.ValidEmail(s.Email) {
		return MsgBadEmail, shop.FieldErrors{"email": MsgBadEmail}
	}
	valid := false
	for _, c := range ShippingCountries {
		valid = valid || c == s.Country
	}
	if !valid {
		return MsgBadCountry, shop.FieldErrors{"country": MsgBadCountry}
	}
	return s.validateContact()
}

// ShipTo is the shipping form as an order's address.
func (s Shipping) ShipTo() shop.Address {
	return shop.Address{Name: s.FirstName + " " + s.LastName, Street: s.Address, City: s.City, State: s.State,
		ZipCode: s.ZipCode, Country: s.Country, Phone: s.Phone}
}

// Payment is step 2's form. It lives only for the request that posts it.
type Payment struct {
	CardNumber, CardName, Expiry, CVV string
	SaveCard                          bool
}

// Card is what the checkout keeps of a validated card: brand, last four,
// expiry and the gateway's token — never the number or the CVV.
type Card struct {
	Brand    string
	Last4    string
	ExpMonth int
	ExpYear  int
	Name     string
	Token    string
	Save     bool
}

// Label is how the card is shown: "Visa ending 4242".
func (c Card) Label() string { return c.Brand + " ending " + c.Last4 }

// Expiry is MM/YY.
func (c Card) Expiry() string { return fmt.Sprintf("%02d/%02d", c.ExpMonth, c.ExpYear%100) }

// ValidatePayment checks the card form at time now (an expiry in the past
// is refused). It returns the parsed card, or the message and fields.
func ValidatePayment(p Payment, now time.Time) (Card, string, shop.FieldErrors) {
	digits := strings.NewReplacer(" ", "", "-", "").Replace(p.CardNumber)
	if msg, errs := required([]field{
		{"cardNumber", "Card Number", digits}, {"cardName", "Name on Card", strings.TrimSpace(p.CardName)},
		{"expiryDate", "Expiry Date", strings.TrimSpace(p.Expiry)}, {"cvv", "CVV", strings.TrimSpace(p.CVV)},
	}); msg != "" {
		return Card{}, msg, errs
	}
	if len(digits) != 16 || strings.Trim(digits, "0123456789") != "" {
		return Card{}, MsgBadCard, shop.FieldErrors{"cardNumber": MsgBadCard}
	}
	month, year, ok := parseExpiry(strings.TrimSpace(p.Expiry))
	if !ok {
		return Card{}, MsgBadExpiry, shop.FieldErrors{"expiryDate": MsgBadExpiry}
	}
	if expired(month, year, now) {
		return Card{}, MsgExpired, shop.FieldErrors{"expiryDate": MsgExpired}
	}
	if !validCVV(p.CVV) {
		return Card{}, MsgBadCVV, shop.FieldErrors{"cvv": MsgBadCVV}
	}
	name := strings.TrimSpace(p.CardName)
	return Card{Brand: Brand(digits), Last4: digits[12:], ExpMonth: month, ExpYear: year, Name: name, Save: p.SaveCard}, "", nil
}

// ValidateSaved checks a payment with the saved card: only the CVV is typed.
func ValidateSaved(c shop.SavedCard, cvv string, now time.Time) (Card, string, shop.FieldErrors) {
	if msg, errs := required([]field{{"cvv", "CVV", strings.TrimSpace(cvv)}}); msg != "" {
		return Card{}, msg, errs
	}
	if !validCVV(cvv) {
		return Card{}, MsgBadCVV, shop.FieldErrors{"cvv": MsgBadCVV}
	}
	if expired(c.ExpMonth, c.ExpYear, now) {
		return Card{}, MsgExpired, shop.FieldErrors{"expiryDate": MsgExpired}
	}
	return Card{Brand: c.Brand, Last4: c.Last4, ExpMonth: c.ExpMonth, ExpYear: c.ExpYear, Name: c.Name, Save: true}, "", nil
}

// expired reports whether a card expiring in month/year is past at now: a
// card is valid through the last day of its expiry month.
func expired(month, year int, now time.Time) bool {
	return !time.Date(year, time.Month(month)+1, 1, 0, 0, 0, 0, time.UTC).After(now)
}

func validCVV(cvv string) bool {
	cvv = strings.TrimSpace(cvv)
	return (len(cvv) == 3 || len(cvv) == 4) && strings.Trim(cvv, "0123456789") == ""
}

func parseExpiry(s string) (month, year int, ok bool) {
	mm, yy, found := strings.Cut(s, "/")
	if !found || len(mm) != 2 || len(strings.TrimSpace(yy)) != 2 {
		return 0, 0, false
	}
	m, err1 := strconv.Atoi(mm)
	y, err2 := strconv.Atoi(strings.TrimSpace(yy))
	if err1 != nil || err2 != nil || m < 1 || m > 12 || y < 0 {
		return 0, 0, false
	}
	return m, 2000 + y, true
}

// Brand names a card by its first digits.
func Brand(digits string) string {
	switch {
	case strings.HasPrefix(digits, "4"):
		return "Visa"
	case len(digits) >= 2 && digits[0] == '5' && digits[1] >= '1' && digits[1] <= '5', strings.HasPrefix(digits, "2"):
		return "Mastercard"
	case strings.HasPrefix(digits, "34"), strings.HasPrefix(digits, "37"):
		return "American Express"
	case strings.HasPrefix(digits, "6"):
		return "Discover"
	}
	return "Card"
}

// Gateway takes payments. The shop's is simulated (spec §1); a real one
// (Stripe, Adyen) implements the same two calls.
type Gateway interface {
	// Tokenize exchanges card details for a token that can be charged once;
	// the card number never goes further than this call.
	Tokenize(ctx context.Context, number string, c Card) (string, error)
	Charge(ctx context.Context, token string, amount shop.Cents, idempotencyKey string) error
}

// ErrDeclined is a refused payment.
var ErrDeclined = errors.New("card declined")

// DeclinedCard is the test card the simulated gateway always refuses.
const DeclinedCard = "4000000000000002"

// SimulatedGateway approves every card except DeclinedCard, after Delay
// (spec §9: 2 s), and remembers nothing but which tokens to decline.
type SimulatedGateway struct {
	Delay time.Duration
}

// Tokenize returns a token; a declined card's token says so.
func (g *SimulatedGateway) Tokenize(ctx context.Context, number string, c Card) (string, error) {
	prefix := "tok_"
	if number == DeclinedCard {
		prefix = "tok_decline_"
	}
	return prefix + randomHex(12), nil
}

// Charge waits Delay and approves or declines.
func (g *SimulatedGateway) Charge(ctx context.Context, token string, amount shop.Cents, key string) error {
	if g.Delay > 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(g.Delay):
		}
	}
	if strings.HasPrefix(token, "tok_decline_") || token == "" {
		return ErrDeclined
	}
	return nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return hex.EncodeToString(b)
}

// NewKey returns a fresh idempotency key for one checkout.
func NewKey() string { return randomHex(16) }

// Service places orders.
type Service struct {
	Orders  shop.OrderStore
	Carts   shop.CartStore
	Gateway Gateway
	Mailer  mail.Mailer
	BaseURL string
	Now     func() time.Time
	Log     *slog.Logger
}

// PlaceInput is everything Place Order needs.
type PlaceInput struct {
	UserID    string
	CartOwner string
	Shipping  Shipping
	Card      Card
	Key       string // the checkout's idempotency key
}

// Place charges the card and stores the order, once per key: a second call
// with the same key returns the first order without charging again. The
// cart is read here, so prices are the catalogue's at this moment.
func (s *Service) Place(ctx context.Context, in PlaceInput) (*shop.Order, error) {
	cart, err := s.Carts.Cart(ctx, in.CartOwner)
	if err != nil {
		return nil, err
	}
	t := shop.CheckoutTotals(cart)
	o := &shop.Order{
		ID: newOrderID(s.Now()), UserID: in.UserID, Email: shop.NormalizeEmail(in.Shipping.Email),
		Subtotal: t.Subtotal, Shipping: t.Shipping, Tax: t.Tax, Total: t.Total,
		ShipTo: in.Shipping.ShipTo(), PaymentMethod: in.Card.Label(), IdempotencyKey: in.Key,
		CreatedAt: s.Now().UTC().Truncate(time.Second),
	}
	existing, claimed, err := s.Orders.ClaimOrder(ctx, o)
	if err != nil {
		return nil, err
	}
	if !claimed {
		// Pressed twice: the first press is placing (or placed) the order.
		return existing, nil
	}
	if len(cart.Lines) == 0 {
		_ = s.Orders.ReleaseOrder(ctx, o.ID)
		return nil, shop.Errorf(shop.EINVALID, "Your cart is empty.")
	}
	if err := s.Gateway.Charge(ctx, in.Card.Token, t.Total, in.Key); err != nil {
		if rerr := s.Orders.ReleaseOrder(context.WithoutCancel(ctx), o.ID); rerr != nil {
			s.Log.Error("release order", "err", rerr, "order", o.ID)
		}
		if errors.Is(err, ErrDeclined) {
			// The spec's message for the shopper, and ErrDeclined in the
			// chain so the page can say why and lead back to the card.
			return nil, fmt.Errorf("%w: %w", shop.Errorf(shop.EINVALID, MsgOrderFailed), ErrDeclined)
		}
		return nil, fmt.Errorf("charge: %w", err)
	}
	for _, l := range cart.Lines {
		o.Lines = append(o.Lines, shop.OrderLine{ProductID: l.Product.ID, Name: l.Product.Title, Price: l.Product.Price,
			Quantity: l.Quantity, Image: l.Product.Image})
	}
	if err := s.Orders.CompleteOrder(context.WithoutCancel(ctx), o.ID, in.CartOwner, o.Lines); err != nil {
		return nil, fmt.Errorf("complete order: %w", err)
	}
	o.Status = shop.StatusProcessing
	if in.Card.Save && !strings.HasPrefix(in.UserID, shop.GuestIDPrefix) {
		if err := s.Orders.SaveCard(ctx, in.UserID, shop.SavedCard{Brand: in.Card.Brand, Last4: in.Card.Last4,
			ExpMonth: in.Card.ExpMonth, ExpYear: in.Card.ExpYear, Name: in.Card.Name}); err != nil {
			s.Log.Error("save card", "err", err)
		}
	}
	s.sendConfirmation(ctx, o)
	return o, nil
}

func (s *Service) sendConfirmation(ctx context.Context, o *shop.Order) {
	var b strings.Builder
	fmt.Fprintf(&b, "Thank you for your order %s.\n\n", o.ID)
	for _, l := range o.Lines {
		fmt.Fprintf(&b, "%d × %s  %s\n", l.Quantity, l.Name, l.Total())
	}
	shipping := o.Shipping.String()
	if o.Shipping == 0 {
		shipping = "Free"
	}
	fmt.Fprintf(&b, "\nSubtotal %s\nShipping %s\nTax %s\nTotal %s\n\nPaid with %s.\nShipping to %s, %s, %s, %s %s, %s.\n\n",
		o.Subtotal, shipping, o.Tax, o.Total, o.PaymentMethod, o.ShipTo.Name, o.ShipTo.Street, o.ShipTo.City, o.ShipTo.State, o.ShipTo.ZipCode, o.ShipTo.Country)
	fmt.Fprintf(&b, "Follow your order at %s/orders/lookup with your order number and this e-mail address.\n", s.BaseURL)
	if err := s.Mailer.Send(ctx, shop.Email{To: o.Email, Subject: "Your order " + o.ID, Body: b.String()}); err != nil {
		// The order stands; a lost e-mail is logged, not a failed checkout.
		s.Log.Error("order confirmation", "err", err, "order", o.ID)
	}
}

// newOrderID makes an order number that is short enough to read out on the
// phone and unguessable enough for the guest lookup (which also needs the
// e-mail).
func newOrderID(now time.Time) string {
	return "NOC-" + now.UTC().Format("060102") + "-" + strings.ToUpper(randomHex(4))
}
