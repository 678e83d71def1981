package stripepay

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/stripe/stripe-go/v82"
)

// Session statuses and payment statuses as Stripe reports them.
const (
	StatusOpen     = "open"
	StatusComplete = "complete"
	StatusExpired  = "expired"

	PaymentPaid              = "paid"
	PaymentUnpaid            = "unpaid"
	PaymentNoPaymentRequired = "no_payment_required"
)

// maxKeyLen is Stripe's limit on an Idempotency-Key header.
const maxKeyLen = 255

// couponKeySuffix turns a session's idempotency key into its coupon's, so
// a retried CreateSession reuses the coupon it made the first time instead
// of leaving a second one behind.
const couponKeySuffix = "-coupon"

// Line is one cart line on the payment page.
type Line struct {
	Name       string
	UnitAmount shop.Cents
	Quantity   int64
}

// SessionRequest is what CreateSession needs to know about an order.
type SessionRequest struct {
	// OrderID is the shop's order; it travels as the session's
	// client_reference_id and as metadata["order_id"], and comes back on
	// every Session and event.
	OrderID string
	// Email pre-fills the payment page and receives Stripe's receipt.
	Email string
	// Currency is a lowercase ISO code; "" means "usd".
	Currency string
	// Lines are the cart lines, one line item each.
	Lines []Line
	// Shipping and Tax are each sent as a line item of their own
	// ("Shipping", "Tax") when above zero, so the page shows the same
	// breakdown as the shop's order summary and Stripe computes no tax of
	// its own.
	Shipping, Tax shop.Cents
	// Discount, when above zero, is applied as a one-off coupon made for
	// this order (amount_off, duration once, one redemption).
	Discount shop.Cents
	// SuccessURL is where Stripe sends the shopper after paying; it may
	// contain {CHECKOUT_SESSION_ID}, which Stripe replaces with the id.
	SuccessURL string
	// CancelURL is where the page's back link leads.
	CancelURL string
	// ExpiresAt closes the session; Stripe requires 30 minutes to 24
	// hours from now. Zero leaves Stripe's default of 24 hours.
	ExpiresAt time.Time
	// IdempotencyKey makes a retried call return the first call's session
	// instead of opening a second one. Derive it from the order (and the
	// attempt, if an order may be paid again after its session expired):
	// Stripe keeps keys for 24 hours and answers a reused key with the
	// first response, whatever the new request says.
	IdempotencyKey string
}

// Session is the part of a Checkout Session the shop acts on.
type Session struct {
	ID  string
	URL string // the hosted payment page; "" once the session is not open
	// Status is open, complete or expired.
	Status string
	// PaymentStatus is paid, unpaid or no_payment_required. A complete
	// session can still be unpaid while a delayed payment method settles.
	PaymentStatus string
	// OrderID comes from client_reference_id, or metadata["order_id"] when
	// that is missing.
	OrderID     string
	AmountTotal shop.Cents
	Currency    string
	// PaymentIntent is the payment's id, "" until the shopper pays; refunds
	// name it.
	PaymentIntent string
	ExpiresAt     time.Time
	// Email is who paid, as the page has it (customer_email, or the
	// details typed on the page).
	Email string
}

// Paid reports whether the session's money has been collected.
func (s *Session) Paid() bool {
	return s.Status == StatusComplete && s.PaymentStatus == PaymentPaid
}

func (r *SessionRequest) validate() error {
	if strings.TrimSpace(r.OrderID) == "" {
		return errors.New("no order id")
	}
	if r.IdempotencyKey == "" {
		return errors.New("no idempotency key")
	}
	if len(r.IdempotencyKey)+len(couponKeySuffix) > maxKeyLen {
		return fmt.Errorf("idempotency key longer than %d bytes", maxKeyLen-len(couponKeySuffix))
	}
	if r.SuccessURL == "" || r.CancelURL == "" {
		return errors.New("success and cancel URLs are both required")
	}
	if len(r.Lines) == 0 {
		return errors.New("no lines")
	}
	var total shop.Cents
	for i, l := range r.Lines {
		if strings.TrimSpace(l.Name) == "" {
			return fmt.Errorf("line %d has no name", i)
		}
		if l.UnitAmount < 0 || l.Quantity < 1 {
			return fmt.Errorf("line %d (%s): amount %d, quantity %d", i, l.Name, l.UnitAmount, l.Quantity)
		}
		total += l.UnitAmount * shop.Cents(l.Quantity)
	}
	if r.Shipping < 0 || r.Tax < 0 || r.Discount < 0 {
		return errors.New("shipping, tax and discount cannot be negative")
	}
	total += r.Shipping + r.Tax - r.Discount
	if r.currency() == "usd" && total < MinimumCharge {
		return fmt.Errorf("total %s is below Stripe's minimum charge of %s", total, MinimumCharge)
	}
	if total <= 0 {
		return fmt.Errorf("total %d is not above zero", total)
	}
	return nil
}

func (r *SessionRequest) currency() string {
	if r.Currency == "" {
		return "usd"
	}
	return strings.ToLower(r.Currency)
}

// CreateSession opens a Checkout Session in payment mode for card payments
// and returns it; send the shopper to its URL. Stripe computes no tax and
// offers no promotion-code box: the shop's own totals are the ones charged.
func (c *Client) CreateSession(ctx context.Context, r SessionRequest) (*Session, error) {
	if err := r.validate(); err != nil {
		return nil, fmt.Errorf("stripe: create checkout session: %w", err)
	}
	cur := r.currency()

	item := func(name string, amount shop.Cents, qty int64) *stripe.CheckoutSessionCreateLineItemParams {
		return &stripe.CheckoutSessionCreateLineItemParams{
			PriceData: &stripe.CheckoutSessionCreateLineItemPriceDataParams{
				Currency:    stripe.String(cur),
				UnitAmount:  stripe.Int64(int64(amount)),
				ProductData: &stripe.CheckoutSessionCreateLineItemPriceDataProductDataParams{Name: stripe.String(name)},
			},
			Quantity: stripe.Int64(qty),
		}
	}
	p := &stripe.CheckoutSessionCreateParams{
		Mode:               stripe.String(string(stripe.CheckoutSessionModePayment)),
		PaymentMethodTypes: []*string{stripe.String("card")},
		ClientReferenceID:  stripe.String(r.OrderID),
		Metadata:           map[string]string{"order_id": r.OrderID},
		// The payment itself carries the order too, so a charge or refund
		// found in Stripe's dashboard leads back to the order.
		PaymentIntentData: &stripe.CheckoutSessionCreatePaymentIntentDataParams{
			Metadata: map[string]string{"order_id": r.OrderID},
		},
		SuccessURL: stripe.String(r.SuccessURL),
		CancelURL:  stripe.String(r.CancelURL),
	}
	if r.Email != "" {
		p.CustomerEmail = stripe.String(r.Email)
	}
	if !r.ExpiresAt.IsZero() {
		p.ExpiresAt = stripe.Int64(r.ExpiresAt.Unix())
	}
	for _, l := range r.Lines {
		p.LineItems = append(p.LineItems, item(l.Name, l.UnitAmount, l.Quantity))
	}
	if r.Shipping > 0 {
		p.LineItems = append(p.LineItems, item("Shipping", r.Shipping, 1))
	}
	if r.Tax > 0 {
		p.LineItems = append(p.LineItems, item("Tax", r.Tax, 1))
	}

	if r.Discount > 0 {
		cp := &stripe.CouponCreateParams{
			AmountOff:      stripe.Int64(int64(r.Discount)),
			Currency:       stripe.String(cur),
			Duration:       stripe.String(string(stripe.CouponDurationOnce)),
			MaxRedemptions: stripe.Int64(1),
			Name:           stripe.String("Discount"),
			Metadata:       map[string]string{"order_id": r.OrderID},
		}
		cp.SetIdempotencyKey(r.IdempotencyKey + couponKeySuffix)
		coupon, err := c.sc.V1Coupons.Create(ctx, cp)
		if err != nil {
			return nil, wrap("create checkout session: create discount coupon", err)
		}
		p.Discounts = []*stripe.CheckoutSessionCreateDiscountParams{{Coupon: stripe.String(coupon.ID)}}
	}

	p.SetIdempotencyKey(r.IdempotencyKey)
	s, err := c.sc.V1CheckoutSessions.Create(ctx, p)
	if err != nil {
		return nil, wrap("create checkout session", err)
	}
	return fromStripe(s), nil
}

// Session reads a Checkout Session's current state, e.g. when the shopper
// lands on the success page before the webhook has arrived.
func (c *Client) Session(ctx context.Context, id string) (*Session, error) {
	if !validID(id, "cs_") {
		return nil, fmt.Errorf("stripe: get checkout session: malformed id %q", id)
	}
	s, err := c.sc.V1CheckoutSessions.Retrieve(ctx, id, nil)
	if err != nil {
		return nil, wrap("get checkout session "+id, err)
	}
	return fromStripe(s), nil
}

// ExpireSession closes an open session so it can no longer be paid (the
// shopper cancelled the order, or its stock was released). When Stripe
// says the session is no longer open (it was paid or had already expired)
// the session is read back and returned as it now is, without an error:
// the caller decides from its Status. An empty idempotencyKey uses one
// derived from the session id, since expiring is the same act every time.
func (c *Client) ExpireSession(ctx context.Context, id, idempotencyKey string) (*Session, error) {
	if !validID(id, "cs_") {
		return nil, fmt.Errorf("stripe: expire checkout session: malformed id %q", id)
	}
	if idempotencyKey == "" {
		idempotencyKey = "expire-" + id
	}
	p := &stripe.CheckoutSessionExpireParams{}
	p.SetIdempotencyKey(idempotencyKey)
	s, err := c.sc.V1CheckoutSessions.Expire(ctx, id, p)
	if err == nil {
		return fromStripe(s), nil
	}
	var se *stripe.Error
	if errors.As(err, &se) && se.HTTPStatusCode == http.StatusBadRequest && se.Type == stripe.ErrorTypeInvalidRequest {
		// Stripe refuses to expire a session that is not open. Whether that
		// is what happened is read from the session itself rather than from
		// the wording of the error.
		cur, gerr := c.Session(ctx, id)
		if gerr == nil && cur.Status != StatusOpen {
			return cur, nil
		}
	}
	return nil, wrap("expire checkout session "+id, err)
}

// fromStripe reduces a stripe-go session to the fields the shop reads.
func fromStripe(s *stripe.CheckoutSession) *Session {
	out := &Session{
		ID:            s.ID,
		URL:           s.URL,
		Status:        string(s.Status),
		PaymentStatus: string(s.PaymentStatus),
		OrderID:       s.ClientReferenceID,
		AmountTotal:   shop.Cents(s.AmountTotal),
		Currency:      string(s.Currency),
	}
	if out.OrderID == "" {
		out.OrderID = s.Metadata["order_id"]
	}
	out.Email = s.CustomerEmail
	if s.CustomerDetails != nil && s.CustomerDetails.Email != "" {
		out.Email = s.CustomerDetails.Email
	}
	if s.PaymentIntent != nil {
		out.PaymentIntent = s.PaymentIntent.ID
	}
	if s.ExpiresAt != 0 {
		out.ExpiresAt = time.Unix(s.ExpiresAt, 0)
	}
	return out
}
