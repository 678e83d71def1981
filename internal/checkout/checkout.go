// Package checkout owns the three-step checkout's rules: what a valid
// shipping address and card are (the spec's validation rules), the simulated payment gateway,
// and placing an order exactly once.
package checkout

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nocturne/storefront/internal/mail"
	"github.com/nocturne/storefront/internal/pricing"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/stripepay"
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

// Tokenize hands the typed card number, normalised, to the gateway and
// returns its token; the number goes no further.
func (s *Service) Tokenize(ctx context.Context, number string, c Card) (string, error) {
	return s.Gateway.Tokenize(ctx, CardDigits(number), c)
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

// Gateway takes payments. The shop's is simulated, as the spec asks; a real one
// (Stripe, Adyen) implements the same calls.
type Gateway interface {
	// Tokenize exchanges card details for a token that can be charged once;
	// the card number never goes further than this call.
	Tokenize(ctx context.Context, number string, c Card) (string, error)
	// Charge charges the token once per idempotency key: a second call with
	// the same key answers the first call's outcome without charging again.
	Charge(ctx context.Context, token string, amount shop.Cents, idempotencyKey string) error
	// Lookup answers what happened to the charge with idempotency key:
	// shop.ChargeSucceeded, shop.ChargeDeclined, or an ENOTFOUND when no
	// charge was made under it.
	Lookup(ctx context.Context, idempotencyKey string) (string, error)
}

// ErrDeclined is a refused payment.
var ErrDeclined = errors.New("card declined")

// DeclinedCard is the test card the simulated gateway always refuses.
const DeclinedCard = "4000000000000002"

// SimulatedGateway approves every card except DeclinedCard, after Delay
// (the spec's business constants: 2 s). Like a real gateway it keeps a record per idempotency key
// (in Charges, the shop's database, so the records survive a crash and
// every instance sees them); with Charges nil it remembers nothing.
type SimulatedGateway struct {
	Delay   time.Duration
	Charges shop.ChargeStore
}

// Tokenize returns a token; a declined card's token says so.
func (g *SimulatedGateway) Tokenize(ctx context.Context, number string, c Card) (string, error) {
	prefix := "tok_"
	if number == DeclinedCard {
		prefix = "tok_decline_"
	}
	return prefix + shop.RandomHex(12), nil
}

// Charge waits Delay and approves or declines; a key charged before gets
// its recorded outcome at once.
func (g *SimulatedGateway) Charge(ctx context.Context, token string, amount shop.Cents, key string) error {
	if g.Charges != nil {
		if c, err := g.Charges.ChargeByKey(ctx, key); err == nil {
			return outcomeErr(c.Outcome)
		} else if shop.ErrorCode(err) != shop.ENOTFOUND {
			return fmt.Errorf("gateway: %w", err)
		}
	}
	if g.Delay > 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(g.Delay):
		}
	}
	outcome := shop.ChargeSucceeded
	if strings.HasPrefix(token, "tok_decline_") || token == "" {
		outcome = shop.ChargeDeclined
	}
	if g.Charges != nil {
		c, err := g.Charges.RecordCharge(context.WithoutCancel(ctx), shop.Charge{Key: key, Amount: amount, Outcome: outcome})
		if err != nil {
			return fmt.Errorf("gateway: %w", err)
		}
		outcome = c.Outcome
	}
	return outcomeErr(outcome)
}

// Lookup answers from the charge records.
func (g *SimulatedGateway) Lookup(ctx context.Context, key string) (string, error) {
	if g.Charges == nil {
		return "", shop.Errorf(shop.ENOTFOUND, shop.MsgNoCharge)
	}
	c, err := g.Charges.ChargeByKey(ctx, key)
	if err != nil {
		return "", err
	}
	return c.Outcome, nil
}

func outcomeErr(outcome string) error {
	if outcome == shop.ChargeSucceeded {
		return nil
	}
	return ErrDeclined
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

// ChargeKey is the gateway idempotency key of paying for cart key with a
// card token: a retry with the same card is the same charge (a replay gets
// its outcome), another card is a new attempt.
func ChargeKey(cartKey, token string) string {
	sum := sha256.Sum256([]byte("charge\x00" + cartKey + "\x00" + token))
	return "chg_" + hex.EncodeToString(sum[:16])
}

// DefaultPaymentTimeout bounds one charge when the Service sets none.
const DefaultPaymentTimeout = 30 * time.Second

// Messages of placing an order.
const (
	MsgCartChanged = "Your cart changed since you reviewed it. Please check your order and place it again."
	MsgCartEmpty   = "Your cart is empty."
	// MsgZeroTotal refuses an order that would cost nothing: without
	// discounts a total of zero can only come from a price that should
	// never have been.
	MsgZeroTotal = "This order comes to nothing, so it can't be placed. Please contact us about the items in your cart."
	// MsgNoShipping: no shipping method delivers to the address.
	MsgNoShipping = "We don't ship to that address yet. Please choose another country."
	// MsgBelowMinimum: a card payment provider refuses charges below its
	// minimum (%s); another method can still pay for the order.
	MsgBelowMinimum = "Card payments start at %s. Please add to your order or choose another way to pay."
)

// Service places orders.
type Service struct {
	Orders  shop.OrderStore
	Carts   shop.CartStore
	Gateway Gateway
	Mailer  mail.Mailer
	BaseURL string
	Now     func() time.Time
	Log     *slog.Logger
	// PaymentTimeout bounds one charge (DefaultPaymentTimeout if 0).
	PaymentTimeout time.Duration
	// BankTransfer says where to send a bank transfer and how long its
	// order holds its stock.
	BankTransfer BankTransfer
	// Stripe is Stripe Checkout's hosted page (its Pages nil when Stripe
	// is not offered); Payments moves payments forward.
	Stripe   Stripe
	Payments shop.PaymentStore
	// Prices prices the order from the shop's settings.
	Prices *Prices

	inflight sync.WaitGroup
}

func (s *Service) paymentTimeout() time.Duration {
	if s.PaymentTimeout > 0 {
		return s.PaymentTimeout
	}
	return DefaultPaymentTimeout
}

// Lease is how long a claim is left to the instance that made it: the
// payment timeout plus as much again as a margin (for the time between the
// claim and the charge, and clocks of instances that differ a little), so
// the sweep never releases an order whose payment may still be running.
func (s *Service) Lease() time.Duration { return 2 * s.paymentTimeout() }

// SweepInterval is how often the recovery sweep looks for stuck orders:
// half a lease, between a second and a minute.
func (s *Service) SweepInterval() time.Duration {
	return min(max(s.Lease()/2, time.Second), time.Minute)
}

// BankTransfer is the bank-transfer method's settings.
type BankTransfer struct {
	Instructions string
	Hold         time.Duration
}

// HoldDays is the hold in whole days, as shoppers are told it.
func (b BankTransfer) HoldDays() int { return int(b.Hold.Hours()+23) / 24 }

// PlaceInput is everything Place Order needs.
type PlaceInput struct {
	UserID    string
	CartOwner string
	Shipping  Shipping
	// Method is the payment method (shop.ProviderDemo when empty); Card is
	// the demo card's.
	Method string
	Card   Card
	Key    string // the reviewed cart's CartKey
	// Choice is the shipping method and promo code reviewed, with the
	// address's country and state.
	Choice Choice
}

// State is the truth a Place Order press ends in.
type State int

const (
	// Placed: the order exists and is paid.
	Placed State = iota
	// Processing: a payment for this cart is under way: the demo card's
	// charge Place just started, or another press's.
	Processing
	// Declined: the card was refused and the order released; the cart is
	// as it was. Only Status answers it: Place never waits for a charge.
	Declined
	// Redirect: the order waits for the shopper to pay on the hosted
	// payment page at Result.URL.
	Redirect
)

// Result is the outcome of Place or Status.
type Result struct {
	State State
	Order *shop.Order // set when Placed or Processing
	// Fresh is true when this very call claimed the cart (and so placed
	// the order, or is left waiting for the gateway's answer).
	Fresh bool
	// URL is the hosted payment page to send the shopper to (Redirect).
	URL string
}

// ReviewKey is the key the review step puts in its form for owner's cart.
func (s *Service) ReviewKey(ctx context.Context, owner string, cart shop.Cart, ch Choice) (string, error) {
	placed, err := s.Orders.PlacedFromCart(ctx, owner)
	if err != nil {
		return "", err
	}
	return CartKey(owner, placed, cart, ch), nil
}

// Place stores the order and starts its payment, at most once per cart: the
// claim is made first, in one transaction with reading the cart lines that
// are charged; a second press (another tab, another device, a replay) gets
// the truth about the first: placed, or still processing. The demo card is
// charged after Place returns (Processing, Fresh); Status tells the outcome.
func (s *Service) Place(ctx context.Context, in PlaceInput) (Result, error) {
	if in.Key == "" {
		return Result{}, shop.Errorf(shop.ECONFLICT, MsgCartChanged)
	}
	// Counted from before the claim, so a shutdown that finds no payment
	// under way cannot miss one that is about to start.
	s.inflight.Add(1)
	defer s.inflight.Done()
	return s.placeOnce(ctx, in, false)
}

// placeOnce places the order; retried says a busy earlier Stripe page was
// closed already, so a second busy claim is not another's to close.
func (s *Service) placeOnce(ctx context.Context, in PlaceInput, retried bool) (Result, error) {
	now := s.Now().UTC()
	transfer, hosted := in.Method == shop.ProviderBankTransfer, in.Method == shop.ProviderStripe
	chargeKey, method, provider := ChargeKey(in.Key, in.Card.Token), in.Card.Label(), shop.ProviderDemo
	lease := now.Add(s.Lease())
	switch {
	case transfer:
		chargeKey, method, provider = "", "Bank transfer", shop.ProviderBankTransfer
	case hosted:
		if s.Stripe.Pages == nil {
			return Result{}, errors.New("stripe is not configured")
		}
		// The order holds its stock while its page is open, and a little
		// longer, for the webhook to arrive before the sweep asks.
		chargeKey, method, provider, lease = "", StripeMethod, shop.ProviderStripe, now.Add(s.Stripe.TTL+StripeMargin)
	}
	// The settings and the code are read before the claim's transaction;
	// the store counts the code's use in it, against its cap.
	rules, err := s.Prices.Rules(ctx)
	if err != nil {
		return Result{}, err
	}
	code, err := s.Prices.lookUpCode(ctx, in.Choice.Code, in.Choice.Customer)
	if err != nil {
		return Result{}, err
	}
	o, claim, err := s.Orders.ClaimCart(ctx, in.CartOwner, in.Key, func(cart shop.Cart, placed int) (*shop.Order, error) {
		if len(cart.Lines) == 0 {
			return nil, shop.Errorf(shop.EINVALID, MsgCartEmpty)
		}
		if CartKey(in.CartOwner, placed, cart, in.Choice) != in.Key {
			return nil, shop.Errorf(shop.ECONFLICT, MsgCartChanged)
		}
		lines := Lines(cart)
		if code != nil {
			if err := pricing.CheckCode(*code, pricing.Subtotal(lines), now); err != nil {
				return nil, err
			}
		}
		t := pricing.Price(rules.Input(lines, in.Choice.Country, in.Choice.State, in.Choice.MethodID, code))
		switch {
		case t.NoMethod:
			return nil, shop.Errorf(shop.EINVALID, MsgNoShipping)
		case in.Choice.MethodID != "" && t.Method.ID != in.Choice.MethodID:
			// The method reviewed is no longer offered there.
			return nil, shop.Errorf(shop.ECONFLICT, MsgCartChanged)
		}
		if t.Total <= 0 {
			return nil, shop.Errorf(shop.EINVALID, MsgZeroTotal)
		}
		if hosted && t.Total < stripepay.MinimumCharge {
			return nil, shop.Errorf(shop.EINVALID, MsgBelowMinimum, stripepay.MinimumCharge)
		}
		o := &shop.Order{
			ID: newOrderID(now), UserID: in.UserID, Email: shop.NormalizeEmail(in.Shipping.Email),
			Subtotal: t.Subtotal, Shipping: t.Shipping, Tax: t.Tax, Total: t.Total, Discount: t.Discount,
			ShippingMethod: t.Method.Name, TaxIncluded: t.TaxIncluded, TaxLines: t.TaxLines,
			ShipTo: in.Shipping.ShipTo(), PaymentMethod: method, PaymentProvider: provider, ChargeKey: chargeKey,
			CreatedAt: now.Truncate(time.Second), LeaseUntil: lease, Currency: shop.OrderCurrency(),
		}
		if code != nil {
			o.PromoCode = code.Code
		}
		for _, l := range cart.Lines {
			o.Lines = append(o.Lines, shop.OrderLine{ProductID: l.Product.ID, VariantID: l.VariantID, Variation: l.Variation,
				Name: l.Product.Title, Price: l.Product.Price, Quantity: l.Quantity, Image: l.Product.Image})
		}
		return o, nil
	})
	if err != nil {
		return Result{}, err
	}
	switch {
	case claim == shop.ClaimExists && o.PaymentProvider == shop.ProviderStripe:
		return s.resumePage(ctx, o)
	case claim == shop.ClaimExists:
		return s.truth(o), nil
	case claim == shop.ClaimBusy && o.PaymentProvider == shop.ProviderStripe && !retried:
		// The shopper left an earlier Stripe page of this cart open and
		// came back to place it again (changed, or by another method):
		// close that page first, then place this one.
		if paid, err := s.Abandon(ctx, o); err != nil {
			return Result{}, err
		} else if paid {
			// That page was paid first: the cart's order is placed.
			o.Status = shop.StatusProcessing
			return s.truth(o), nil
		}
		return s.placeOnce(ctx, in, true)
	case claim == shop.ClaimBusy:
		return Result{State: Processing, Order: o}, nil
	case hosted:
		return s.openPage(ctx, o)
	}

	if transfer {
		// Nothing to charge now: the order is placed, its stock held,
		// and it waits for the money (staff mark it paid).
		if err := s.Orders.CompleteOrder(context.WithoutCancel(ctx), o.ID, false); err != nil {
			return Result{}, fmt.Errorf("complete order: %w", err)
		}
		o.Status, o.PaymentStatus = shop.StatusProcessing, shop.PaymentAwaiting
		s.sendConfirmation(context.WithoutCancel(ctx), o)
		return Result{State: Placed, Order: o, Fresh: true}, nil
	}

	// The demo card's charge runs on after Place Order has answered: the
	// shopper is sent to the order's status page at once, which refreshes
	// itself until the outcome is known. It is counted as in flight from
	// before this call returns, so a shutdown waits for it.
	s.inflight.Add(1)
	paying := *o // the caller keeps o; the charge gets its own copy
	go func() {
		defer s.inflight.Done()
		s.charge(context.WithoutCancel(ctx), &paying, in)
	}()
	return Result{State: Processing, Order: o, Fresh: true}, nil
}

// charge pays for a claimed order with the demo card and completes it, or
// releases it (its cart untouched) when the card is declined. An outcome
// the gateway can't tell is left to the recovery sweep.
func (s *Service) charge(bg context.Context, o *shop.Order, in PlaceInput) {
	// The payment runs to its own time limit: neither a closed connection
	// nor a shutdown cuts a charge in half.
	pctx, cancel := context.WithTimeout(bg, s.paymentTimeout())
	defer cancel()
	cerr := s.Gateway.Charge(pctx, in.Card.Token, o.Total, o.ChargeKey)
	if cerr != nil && !errors.Is(cerr, ErrDeclined) {
		// The outcome is unknown (timeout, network): ask the gateway.
		outcome, lerr := s.Gateway.Lookup(bg, o.ChargeKey)
		switch {
		case lerr == nil && outcome == shop.ChargeSucceeded:
			cerr = nil
		case lerr == nil || shop.ErrorCode(lerr) == shop.ENOTFOUND:
			// Declined, or never charged: release below.
		default:
			// Unknown still: the recovery sweep resolves the claim once its
			// lease ends.
			s.Log.Error("charge outcome unknown", "err", cerr, "lookup_err", lerr, "order", o.ID)
			return
		}
	}
	if cerr != nil {
		if !errors.Is(cerr, ErrDeclined) {
			s.Log.Error("charge failed", "err", cerr, "order", o.ID)
		}
		if rerr := s.Orders.ReleaseOrder(bg, o.ID); rerr != nil {
			s.Log.Error("release order", "err", rerr, "order", o.ID)
		}
		return
	}
	if err := s.Orders.CompleteOrder(bg, o.ID, true); err != nil {
		// The charge stands; the sweep completes the order once its lease
		// ends, as the gateway says it was paid.
		s.Log.Error("complete order", "err", err, "order", o.ID)
		return
	}
	o.Status = shop.StatusProcessing
	if in.Card.Save && !strings.HasPrefix(in.UserID, shop.GuestIDPrefix) {
		if err := s.Orders.SaveCard(bg, in.UserID, shop.SavedCard{Brand: in.Card.Brand, Last4: in.Card.Last4,
			ExpMonth: in.Card.ExpMonth, ExpYear: in.Card.ExpYear, Name: in.Card.Name}); err != nil {
			s.Log.Error("save card", "err", err)
		}
	}
	s.sendConfirmation(bg, o)
}

func (s *Service) truth(o *shop.Order) Result {
	if o.Status == shop.StatusPending {
		return Result{State: Processing, Order: o}
	}
	return Result{State: Placed, Order: o}
}

// Status answers what became of the checkout of cart key for userID, paid
// with token: placed, still processing, or declined. It only reads. An
// unknown key (a stale form) is an ENOTFOUND.
func (s *Service) Status(ctx context.Context, userID, key, token string) (Result, error) {
	o, err := s.Orders.OrderByKey(ctx, key)
	if err == nil {
		if o.UserID != userID {
			return Result{}, shop.Errorf(shop.ENOTFOUND, shop.MsgOrderNotFound)
		}
		return s.truth(o), nil
	} else if shop.ErrorCode(err) != shop.ENOTFOUND {
		return Result{}, err
	}
	if token != "" {
		outcome, err := s.Gateway.Lookup(ctx, ChargeKey(key, token))
		if err == nil && outcome == shop.ChargeDeclined {
			return Result{State: Declined}, nil
		} else if err != nil && shop.ErrorCode(err) != shop.ENOTFOUND {
			return Result{}, err
		}
	}
	return Result{}, shop.Errorf(shop.ENOTFOUND, shop.MsgOrderNotFound)
}

// Wait blocks until every payment under way has finished, or ctx ends; it
// reports whether they all finished. Shutdown calls it.
func (s *Service) Wait(ctx context.Context) bool {
	done := make(chan struct{})
	go func() { s.inflight.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-ctx.Done():
		return false
	}
}

// Recover resolves every pending order whose lease has ended, as the
// gateway answers for its charge: completed if charged, released (its cart
// untouched) if not. It takes each order's lease first, so two instances
// sweeping at once resolve an order once.
func (s *Service) Recover(ctx context.Context) (completed, released int, err error) {
	now := s.Now().UTC()
	stale, err := s.Orders.ExpiredClaims(ctx, now)
	if err != nil {
		return 0, 0, err
	}
	for _, o := range stale {
		ok, err := s.Orders.TakeLease(ctx, o.ID, o.LeaseUntil, now.Add(s.Lease()))
		if err != nil {
			return completed, released, err
		}
		if !ok {
			continue
		}
		if o.PaymentProvider == shop.ProviderStripe {
			switch paid, err := s.recoverStripe(ctx, &o); {
			case err != nil:
				// Ask again at the next sweep.
				s.Log.Error("recover order: stripe", "err", err, "order", o.ID)
			case paid:
				completed++
			default:
				released++
			}
			continue
		}
		outcome := ""
		if o.ChargeKey != "" {
			outcome, err = s.Gateway.Lookup(ctx, o.ChargeKey)
			if err != nil && shop.ErrorCode(err) != shop.ENOTFOUND {
				// Ask again at the next sweep.
				s.Log.Error("recover order: gateway lookup", "err", err, "order", o.ID)
				continue
			}
		}
		if outcome == shop.ChargeSucceeded {
			if err := s.Orders.CompleteOrder(ctx, o.ID, true); err != nil {
				return completed, released, fmt.Errorf("recover order %s: %w", o.ID, err)
			}
			full, err := s.Orders.Order(ctx, o.ID)
			if err == nil {
				s.sendConfirmation(ctx, full)
			}
			completed++
			s.Log.Info("recovered order: charged, completed", "order", o.ID)
			continue
		}
		if err := s.Orders.ReleaseOrder(ctx, o.ID); err != nil {
			return completed, released, fmt.Errorf("recover order %s: %w", o.ID, err)
		}
		released++
		s.Log.Info("recovered order: not charged, released", "order", o.ID)
	}
	return completed, released, nil
}

// Sweep runs Recover now and then every interval until ctx ends.
func (s *Service) Sweep(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if c, r, err := s.Recover(ctx); err != nil && !errors.Is(err, context.Canceled) {
			s.Log.Error("recovery sweep", "err", err)
		} else if c+r > 0 {
			s.Log.Info("recovery sweep", "completed", c, "released", r)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (s *Service) sendConfirmation(ctx context.Context, o *shop.Order) {
	var b strings.Builder
	fmt.Fprintf(&b, "Thank you for your order %s.\n\n", o.ID)
	for _, l := range o.Lines {
		fmt.Fprintf(&b, "%d × %s  %s\n", l.Quantity, l.Label(), l.Total())
	}
	b.WriteString("\n")
	b.WriteString(OrderSums(o))
	b.WriteString("\n")
	if o.PaymentProvider == shop.ProviderBankTransfer {
		fmt.Fprintf(&b, "Please pay %s by bank transfer, with %s as the reference:\n\n%s\n\nWe hold your items for %d days and ship once the money arrives; an order not paid by then is cancelled.\n",
			o.Total, o.ID, s.BankTransfer.Instructions, s.BankTransfer.HoldDays())
	} else {
		fmt.Fprintf(&b, "Paid with %s.\n", o.PaymentMethod)
	}
	fmt.Fprintf(&b, "Shipping to %s, %s, %s, %s %s, %s.\n\n",
		o.ShipTo.Name, o.ShipTo.Street, o.ShipTo.City, o.ShipTo.State, o.ShipTo.ZipCode, o.ShipTo.Country)
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
	return "NOC-" + now.UTC().Format("060102") + "-" + strings.ToUpper(shop.RandomHex(4))
}

// OrderSums are an order's sums as its e-mails state them, one per line:
// the subtotal, the code's discount, shipping by its method, the tax (or
// the tax the prices held) and the total.
func OrderSums(o *shop.Order) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Subtotal %s\n", o.Subtotal)
	if o.Discount > 0 {
		fmt.Fprintf(&b, "Discount (%s) -%s\n", o.PromoCode, o.Discount)
	}
	shipping := o.Shipping.String()
	if o.Shipping == 0 {
		shipping = "Free"
	}
	if o.ShippingMethod != "" {
		fmt.Fprintf(&b, "Shipping (%s) %s\n", o.ShippingMethod, shipping)
	} else {
		fmt.Fprintf(&b, "Shipping %s\n", shipping)
	}
	name, rate := "Tax", ""
	if len(o.TaxLines) > 0 {
		name, rate = o.TaxLines[0].Name, " ("+pricing.RateText(o.TaxLines[0].Rate)+")"
	}
	if o.TaxIncluded {
		fmt.Fprintf(&b, "Total %s\nIncludes %s%s %s\n", o.Total, name, rate, o.Tax)
	} else {
		fmt.Fprintf(&b, "%s%s %s\nTotal %s\n", name, rate, o.Tax, o.Total)
	}
	return b.String()
}
