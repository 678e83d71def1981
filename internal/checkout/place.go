package checkout

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/nocturne/storefront/internal/mail"
	"github.com/nocturne/storefront/internal/pricing"
	"github.com/nocturne/storefront/internal/shop"
)

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

// ErrDeclined is a refused payment.
var ErrDeclined = errors.New("card declined")

// ErrAmountMismatch refuses a payment whose amount or currency is not the
// order's: the order is not marked paid.
var ErrAmountMismatch = errors.New("payment amount or currency differs from the order's")

// Service places orders and sees their payments through, by their methods.
type Service struct {
	Orders   shop.OrderStore
	Carts    shop.CartStore
	Payments shop.PaymentStore
	// Methods are the payment methods (see Method).
	Methods *Methods
	Mailer  mail.Mailer
	BaseURL string
	// StaffEmail is mailed each new order; empty: none.
	StaffEmail string
	Now        func() time.Time
	Log        *slog.Logger
	// PaymentTimeout bounds one charge (DefaultPaymentTimeout if 0).
	PaymentTimeout time.Duration
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

// PlaceInput is everything Place Order needs.
type PlaceInput struct {
	UserID    string
	CartOwner string
	Shipping  Shipping
	// Method is the payment method's name; Card is the card given, for a
	// method that takes one.
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
	// Processing: a payment for this cart is under way: the card charge
	// Place just started, or another press's.
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
	// Code is the promo code Place priced the order with: the one typed,
	// or none when it no longer applied at review (Place only).
	Code string
}

// Truth is the Result an existing order stands for: processing while it is
// pending, else placed.
func Truth(o *shop.Order) Result {
	if o.Status == shop.StatusPending {
		return Result{State: Processing, Order: o}
	}
	return Result{State: Placed, Order: o}
}

// ReviewKey is the key the review step puts in its form for owner's cart.
func (s *Service) ReviewKey(ctx context.Context, owner string, cart shop.Cart, ch Choice) (string, error) {
	placed, err := s.Orders.PlacedFromCart(ctx, owner)
	if err != nil {
		return "", err
	}
	return CartKey(owner, placed, cart, ch), nil
}

// reviewed is the choice as the review step priced it: a promo code that no
// longer applies was left out of the review's price and key, so Place
// Order leaves it out too and charges what was reviewed.
func (s *Service) reviewed(ctx context.Context, owner string, ch Choice) (Choice, error) {
	if ch.Code == "" {
		return ch, nil
	}
	cart, err := s.Carts.Cart(ctx, owner)
	if err != nil {
		return ch, err
	}
	priced, err := s.Prices.Price(ctx, cart, ch)
	if err != nil {
		return ch, err
	}
	if priced.CodeErr != nil {
		ch.Code = ""
	}
	return ch, nil
}

// Tokenize hands the typed card number, normalised, to the method that
// takes cards and returns its token; the number goes no further.
func (s *Service) Tokenize(ctx context.Context, method, number string, c Card) (string, error) {
	cm, ok := s.Methods.For(method).(CardMethod)
	if !ok {
		return "", fmt.Errorf("payment method %s takes no card", method)
	}
	return cm.Tokenize(ctx, CardDigits(number), c)
}

// Place stores the order and starts its payment, at most once per cart: the
// claim is made first, in one transaction with reading the cart lines that
// are charged; a second press (another tab, another device, a replay) gets
// the truth about the first: placed, or still processing. A card is
// charged after Place returns (Processing, Fresh); Status tells the outcome.
func (s *Service) Place(ctx context.Context, in PlaceInput) (Result, error) {
	if in.Key == "" {
		return Result{}, shop.Errorf(shop.ECONFLICT, MsgCartChanged)
	}
	// Counted from before the claim, so a shutdown that finds no payment
	// under way cannot miss one that is about to start.
	s.inflight.Add(1)
	defer s.inflight.Done()
	ch, err := s.reviewed(ctx, in.CartOwner, in.Choice)
	if err != nil {
		return Result{}, err
	}
	in.Choice = ch
	if err := s.Admit(ctx, in); err != nil {
		return Result{}, err
	}
	res, err := s.placeOnce(ctx, in, false)
	res.Code = ch.Code
	return res, err
}

// placeOnce places the order; retried says an earlier busy claim's payment
// page was closed already, so a second busy claim is not another's to
// close.
func (s *Service) placeOnce(ctx context.Context, in PlaceInput, retried bool) (Result, error) {
	m := s.Methods.For(in.Method)
	now := s.Now().UTC()
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
		if CartKey(in.CartOwner, placed, cart, in.Choice) != in.Key && len(cart.Lines) > 0 {
			return nil, shop.Errorf(shop.ECONFLICT, MsgCartChanged)
		}
		t, err := priceClaim(cart, in.Choice, rules, code, now)
		if err != nil {
			return nil, err
		}
		o := newOrder(in, cart, t, code, now)
		o.LeaseUntil = now.Add(s.Lease())
		if err := m.Claim(o, in, now); err != nil {
			return nil, err
		}
		return o, nil
	})
	if err != nil {
		return Result{}, err
	}
	if claim == shop.Claimed {
		return m.Start(ctx, s, o, in)
	}
	// Another press's order: its own method answers for it.
	pm, pages := s.Methods.For(o.PaymentProvider).(PageMethod)
	if !pages {
		if claim == shop.ClaimBusy {
			return Result{State: Processing, Order: o}, nil
		}
		return Truth(o), nil
	}
	res, again, err := pm.Resume(ctx, s, o, claim == shop.ClaimBusy && !retried)
	if err != nil || !again {
		return res, err
	}
	return s.placeOnce(ctx, in, true)
}

// priceClaim prices the cart being claimed as it was reviewed, or refuses
// it: empty, a code no longer valid, no shipping to the address, the
// method reviewed no longer offered there, or a total of nothing.
func priceClaim(cart shop.Cart, ch Choice, rules pricing.Rules, code *shop.PromoCode, now time.Time) (pricing.Quote, error) {
	if len(cart.Lines) == 0 {
		return pricing.Quote{}, shop.Errorf(shop.EINVALID, MsgCartEmpty)
	}
	lines := Lines(cart)
	if code != nil {
		if err := pricing.CheckCode(*code, pricing.Subtotal(lines), now); err != nil {
			return pricing.Quote{}, err
		}
	}
	t := pricing.Price(rules.Input(lines, ch.Country, ch.State, ch.MethodID, code))
	switch {
	case t.NoMethod:
		return t, shop.Errorf(shop.EINVALID, MsgNoShipping)
	case ch.MethodID != "" && t.Method.ID != ch.MethodID:
		// The method reviewed is no longer offered there.
		return t, shop.Errorf(shop.ECONFLICT, MsgCartChanged)
	case t.Total <= 0:
		return t, shop.Errorf(shop.EINVALID, MsgZeroTotal)
	}
	return t, nil
}

// newOrder is the pending order of cart, priced t; its method fills in
// the rest.
func newOrder(in PlaceInput, cart shop.Cart, t pricing.Quote, code *shop.PromoCode, now time.Time) *shop.Order {
	o := &shop.Order{
		ID: newOrderID(now), UserID: in.UserID, Email: shop.NormalizeEmail(in.Shipping.Email),
		Subtotal: t.Subtotal, Shipping: t.Shipping, Tax: t.Tax, Total: t.Total, Discount: t.Discount,
		ShippingMethod: t.Method.Name, TaxIncluded: t.TaxIncluded, TaxLines: t.TaxLines,
		ShipTo: in.Shipping.ShipTo(), PaymentProvider: in.Method,
		CreatedAt: now.Truncate(time.Second), Currency: shop.OrderCurrency(),
	}
	if code != nil {
		o.PromoCode = code.Code
	}
	for _, l := range cart.Lines {
		o.Lines = append(o.Lines, shop.OrderLine{ProductID: l.Product.ID, VariantID: l.VariantID, Variation: l.Variation,
			Name: l.Product.Title, Price: l.Product.Price, Quantity: l.Quantity, Image: l.Product.Image})
	}
	return o
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
		return Truth(o), nil
	} else if shop.ErrorCode(err) != shop.ENOTFOUND {
		return Result{}, err
	}
	if token != "" {
		for _, m := range s.Methods.All() {
			cm, ok := m.(CardMethod)
			if !ok {
				continue
			}
			if declined, err := cm.Declined(ctx, key, token); err != nil {
				return Result{}, err
			} else if declined {
				return Result{State: Declined}, nil
			}
		}
	}
	return Result{}, shop.Errorf(shop.ENOTFOUND, shop.MsgOrderNotFound)
}

// Abandon closes the payment page of a pending order whose shopper chose
// to go back to the cart, through its method: the order is released (its
// stock back, the cart as it was). It reports paid when the payment went
// through first; an order no longer pending was paid.
func (s *Service) Abandon(ctx context.Context, o *shop.Order) (paid bool, err error) {
	pm, ok := s.Methods.For(o.PaymentProvider).(PageMethod)
	if o.Status != shop.StatusPending || !ok {
		return o.Status != shop.StatusPending, nil
	}
	return pm.Abandon(ctx, s, o)
}

// Webhook hands one webhook delivery to the method named name. A method
// that takes no webhooks is an ENOTFOUND.
func (s *Service) Webhook(ctx context.Context, name string, payload []byte, signature string) error {
	wm, ok := s.Methods.For(name).(WebhookMethod)
	if !ok {
		return shop.Errorf(shop.ENOTFOUND, "no such webhook")
	}
	return wm.Webhook(ctx, s, payload, signature)
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

// Recover resolves every pending order whose lease has ended, as its
// method answers for its payment: completed if paid, released (its cart
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
		switch paid, err := s.Methods.For(o.PaymentProvider).Check(ctx, s, &o); {
		case err != nil:
			// Ask again at the next sweep.
			s.Log.Error("recover order", "err", err, "order", o.ID, "method", o.PaymentProvider)
		case paid:
			completed++
			s.Log.Info("recovered order: paid, completed", "order", o.ID)
		default:
			released++
			s.Log.Info("recovered order: not paid, released", "order", o.ID)
		}
	}
	return completed, released, nil
}

// Paid completes a pending order whose money is in and mails the shopper
// its confirmation, once: an order completed meanwhile (by another
// delivery or instance) is left as it is.
func (s *Service) Paid(ctx context.Context, o *shop.Order, charged bool, card *shop.SavedCard) error {
	bg := context.WithoutCancel(ctx)
	err := s.Orders.CompleteOrder(bg, o.ID, charged)
	if shop.ErrorCode(err) == shop.ECONFLICT {
		return nil
	} else if err != nil {
		return fmt.Errorf("complete order %s: %w", o.ID, err)
	}
	o.Status, o.PaymentStatus = shop.StatusProcessing, shop.PaymentAwaiting
	if charged {
		o.PaymentStatus = shop.PaymentPaid
	}
	if card != nil && !strings.HasPrefix(o.UserID, shop.GuestIDPrefix) {
		if err := s.Orders.SaveCard(bg, o.UserID, *card); err != nil {
			s.Log.Error("save card", "err", err)
		}
	}
	if len(o.Lines) == 0 {
		// Read back from a lease: the mail lists the lines.
		if full, err := s.Orders.Order(bg, o.ID); err == nil {
			o = full
		}
	}
	s.sendConfirmation(bg, o)
	s.notifyStaff(bg, o)
	return nil
}

// Unpaid releases a pending order: its stock goes back and its cart is as
// it was.
func (s *Service) Unpaid(ctx context.Context, o *shop.Order) error {
	if err := s.Orders.ReleaseOrder(context.WithoutCancel(ctx), o.ID); err != nil {
		return fmt.Errorf("release order %s: %w", o.ID, err)
	}
	return nil
}

// Go runs the rest of a payment after Place Order answered, counted as
// under way until it ends.
func (s *Service) Go(fn func()) {
	s.inflight.Add(1)
	go func() {
		defer s.inflight.Done()
		fn()
	}()
}

// Timeout bounds one charge.
func (s *Service) Timeout() time.Duration { return s.paymentTimeout() }

// Clock is the service's time.
func (s *Service) Clock() time.Time { return s.Now() }

// LogError logs what went wrong with a payment.
func (s *Service) LogError(msg string, args ...any) { s.Log.Error(msg, args...) }

// Refunded tells the shopper that amount of order o went back.
func (s *Service) Refunded(ctx context.Context, o *shop.Order, amount shop.Cents) {
	body := fmt.Sprintf("We refunded %s of your order %s %s. Refunds take 3-5 business days, plus 5-10 days for your bank.\n\nSee your order at %s/orders/%s.\n",
		amount, o.ID, s.Methods.For(o.PaymentProvider).Explain(o).RefundTo, s.BaseURL, o.ID)
	if err := s.Mailer.Send(context.WithoutCancel(ctx), shop.Email{To: o.Email, Subject: "Refund for order " + o.ID, Body: body}); err != nil {
		s.Log.Error("refund e-mail", "err", err, "order", o.ID)
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
	b.WriteString(s.Methods.For(o.PaymentProvider).Explain(o).Confirmation)
	b.WriteString("\n")
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
		name, rate = o.TaxLines[0].Name, " ("+pricing.TaxRateText(o.TaxLines[0].Exact())+")"
	}
	if o.TaxIncluded {
		fmt.Fprintf(&b, "Total %s\nIncludes %s%s %s\n", o.Total, name, rate, o.Tax)
	} else {
		fmt.Fprintf(&b, "%s%s %s\nTotal %s\n", name, rate, o.Tax, o.Total)
	}
	return b.String()
}
