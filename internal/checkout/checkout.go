// Package checkout owns the three-step checkout's rules: what a valid
// shipping address and card are (the spec's validation rules), the
// payment methods' one interface (Method), and placing an order exactly
// once, paid through its method.
package checkout

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// Messages of the checkout, in the spec's words (its validation rules and
// error catalogue).
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

// ShippingCountries are the checkout's country choices (the spec's checkout list, shorter than the profile's).
var ShippingCountries = []string{"United States", "Canada", "United Kingdom"}

// Shipping is step 1's form.
type Shipping struct {
	FirstName, LastName, Email, Phone, Address, City, State, ZipCode, Country string
}

// Normalize trims every field, defaults the country and writes a state it
// recognises as its code, which is what is stored and priced; one it does
// not is kept as typed for Validate to refuse next to the field.
func (s *Shipping) Normalize() {
	for _, f := range []*string{&s.FirstName, &s.LastName, &s.Email, &s.Phone, &s.Address, &s.City, &s.State, &s.ZipCode, &s.Country} {
		*f = strings.TrimSpace(*f)
	}
	if s.Country == "" {
		s.Country = shop.DefaultCountry
	}
	s.State, _ = shop.StateCode(s.Country, s.State)
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
	digits := CardDigits(p.CardNumber)
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

// CardDigits is a typed card number without the spaces and dashes shoppers
// group it with: what is validated and what the gateway gets.
func CardDigits(number string) string {
	return strings.NewReplacer(" ", "", "-", "").Replace(number)
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

// CartKey is the idempotency key of one cart's checkout: a digest of whose
// cart it is, how many orders were placed from it before, and its lines
// (variant, quantity, price, when added). Every device and tab reviewing
// the same cart posts the same key, so they can only make one order of
// it; a cart that changed, or was ordered meanwhile, has another key. What
// changes the price (the address's country and state, the shipping method,
// the promo code) is in the key too, so the order is the price reviewed.
func CartKey(owner string, placed int, cart shop.Cart, ch Choice) string {
	h := sha256.New()
	fmt.Fprintf(h, "cart\x00%s\x00%d\x00%s\x00%s\x00%s\x00%s", owner, placed, ch.Country, ch.State, ch.MethodID,
		strings.ToUpper(strings.TrimSpace(ch.Code)))
	for _, l := range cart.Lines {
		fmt.Fprintf(h, "\x00%s\x00%d\x00%d\x00%d", l.VariantID, l.Quantity, l.Product.Price, l.AddedAt.Unix())
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}
