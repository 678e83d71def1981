package stripepay

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nocturne/storefront/internal/checkout"
	"github.com/nocturne/storefront/internal/shop"
)

// Name is the method's word in PAYMENT_METHODS and on its orders.
const Name = "stripe"

// Pages is Stripe's API as the method calls it: a Client.
type Pages interface {
	CreateSession(ctx context.Context, r SessionRequest) (*Session, error)
	Session(ctx context.Context, id string) (*Session, error)
	ExpireSession(ctx context.Context, id, idempotencyKey string) (*Session, error)
	Refund(ctx context.Context, paymentIntent string, amount shop.Cents, reason, idempotencyKey string) (string, error)
	ParseWebhook(payload []byte, signatureHeader string) (Event, error)
}

// Orders is what the method reads and records of orders.
type Orders interface {
	Order(ctx context.Context, id string) (*shop.Order, error)
	TakeLease(ctx context.Context, orderID string, old, until time.Time) (bool, error)
	shop.PaymentStore
	shop.OrphanStore
}

// Method is Stripe Checkout as a checkout.Method: the shopper pays on
// Stripe's page, and the order learns the outcome from a signed webhook,
// or by reading the page back.
type Method struct {
	Pages  Pages
	Orders Orders
	// BaseURL is the shop's public address, where Stripe's page sends the
	// shopper back to.
	BaseURL string
	// TTL is how long a payment page stays open, holding the order's
	// stock (Stripe allows 30 minutes to a day).
	TTL time.Duration
}

var (
	_ checkout.PageMethod    = (*Method)(nil)
	_ checkout.WebhookMethod = (*Method)(nil)
)

// Margin is how long after its page expires (pageSlack included) a
// pending Stripe order is left to the webhook before the sweep asks Stripe
// itself.
const Margin = 5 * time.Minute

// pageSlack is added to a page's time: Stripe refuses an expiry less than
// 30 minutes after it creates the session, by its own clock, so a page of
// exactly STRIPE_SESSION_TTL=30m would be refused whenever a second ticks
// over (or the clocks differ) between our call and Stripe's check.
const pageSlack = time.Minute

// PaymentMethod is how an order paid on Stripe's page names its payment.
const PaymentMethod = "Card (Stripe)"

// Name is "stripe".
func (m *Method) Name() string { return Name }

// Words are Stripe's choice and review.
func (m *Method) Words() checkout.Words {
	return checkout.Words{Label: "Card", Note: "on Stripe's secure payment page",
		Review: "Card", ReviewNote: "After you place the order, you pay on Stripe's secure page; your card details never reach this shop.",
		Minimum: MinimumCharge}
}

// Claim names the payment. The order keeps the checkout's short lease
// until its page is recorded (Start extends it then): an order whose page
// was never recorded, as when the database failed meanwhile, is released
// by the next sweep instead of holding its stock for the page's life.
// An order below Stripe's minimum charge is refused.
func (m *Method) Claim(o *shop.Order, _ checkout.PlaceInput, _ time.Time) error {
	if o.Total < MinimumCharge {
		return shop.Errorf(shop.EINVALID, checkout.MsgBelowMinimum, MinimumCharge)
	}
	o.PaymentMethod = PaymentMethod
	return nil
}

// sessionKey is the idempotency key of an order's payment page: a repeated
// press, or a retry after a timeout, makes one page.
func sessionKey(orderID string) string { return "nocturne-session-" + orderID }

// Start makes the Stripe payment page of a pending order and records it.
// When that fails the order is released: its stock goes back and the cart
// is as it was. If the release fails too (the database is down), the
// order's short lease lets the sweep release it, and the next press opens
// the same page again (openPage).
func (m *Method) Start(ctx context.Context, p checkout.Payer, o *shop.Order, _ checkout.PlaceInput) (checkout.Result, error) {
	bg := context.WithoutCancel(ctx)
	url, err := m.openPage(bg, o)
	if err != nil {
		if rerr := p.Unpaid(bg, o); rerr != nil {
			p.LogError("release order", "err", rerr, "order", o.ID)
		}
		return checkout.Result{}, err
	}
	return checkout.Result{State: checkout.Redirect, Order: o, URL: url, Fresh: true}, nil
}

// openPage makes (or, by the order's idempotency key, finds again) the
// order's payment page, records it on the order and holds the order for
// the page's life and a margin for its webhook. The request is made from
// the order alone, its expiry from when the order was placed, so a second
// call sends the same request and Stripe answers with the same page.
func (m *Method) openPage(ctx context.Context, o *shop.Order) (string, error) {
	req := SessionRequest{
		OrderID: o.ID, Email: o.Email, Currency: o.Currency, Shipping: o.Shipping, Tax: o.Tax, Discount: o.Discount,
		SuccessURL: m.BaseURL + checkout.StatusURL(o.ID), CancelURL: m.BaseURL + checkout.CancelURL(o.ID),
		ExpiresAt: o.CreatedAt.Add(m.TTL + pageSlack), IdempotencyKey: sessionKey(o.ID),
	}
	if o.TaxIncluded {
		req.Tax = 0 // in the prices already, as the order states it
	}
	for _, l := range o.Lines {
		req.Lines = append(req.Lines, Line{Name: l.Label(), UnitAmount: l.Price, Quantity: int64(l.Quantity)})
	}
	sess, err := m.Pages.CreateSession(ctx, req)
	if err != nil {
		return "", fmt.Errorf("stripe payment page for %s: %w", o.ID, err)
	}
	if err := m.Orders.SetPaymentRef(ctx, o.ID, sess.ID); err != nil {
		return "", fmt.Errorf("record payment page of %s: %w", o.ID, err)
	}
	until := o.CreatedAt.Add(m.TTL + Margin)
	if ok, err := m.Orders.TakeLease(ctx, o.ID, o.LeaseUntil, until); err != nil {
		return "", fmt.Errorf("hold order %s for its page: %w", o.ID, err)
	} else if !ok {
		// The sweep took the order meanwhile (it is resolving it): the
		// page is not the shopper's to pay.
		return "", fmt.Errorf("order %s was taken by the recovery sweep before its page was recorded", o.ID)
	}
	o.PaymentRef, o.LeaseUntil = sess.ID, until
	return sess.URL, nil
}

// Resume answers a second Place Order of a cart whose Stripe order exists:
// its page again while it is open, else the truth. An order still being
// paid (busy) is another page of the same cart the shopper left open and
// came back from to place it again (changed, or by another method): that
// page is closed first, and then this one placed (again), unless it was
// paid first.
func (m *Method) Resume(ctx context.Context, p checkout.Payer, o *shop.Order, busy bool) (checkout.Result, bool, error) {
	if busy {
		paid, err := m.Abandon(ctx, p, o)
		if err != nil {
			return checkout.Result{}, false, err
		} else if paid {
			// That page was paid first: the cart's order is placed.
			o.Status = shop.StatusProcessing
			return checkout.Truth(o), false, nil
		}
		return checkout.Result{}, true, nil
	}
	if o.Status != shop.StatusPending {
		return checkout.Truth(o), false, nil
	}
	if o.PaymentRef == "" {
		// An earlier press claimed the order but never recorded its page
		// (the database or Stripe failed meanwhile): open it again, the
		// same page if Stripe made it.
		full, err := m.Orders.Order(ctx, o.ID)
		if err != nil {
			return checkout.Result{}, false, err
		}
		url, err := m.openPage(context.WithoutCancel(ctx), full)
		if err != nil {
			return checkout.Result{}, false, err
		}
		return checkout.Result{State: checkout.Redirect, Order: full, URL: url}, false, nil
	}
	sess, err := m.Pages.Session(ctx, o.PaymentRef)
	if err != nil {
		return checkout.Result{}, false, err
	}
	if sess.Status == StatusOpen {
		return checkout.Result{State: checkout.Redirect, Order: o, URL: sess.URL}, false, nil
	}
	return checkout.Truth(o), false, nil
}

// Abandon closes the Stripe page of a pending order: the page is expired
// through Stripe, so it can no longer be paid, and the order released. It
// reports paid when the payment went through first.
func (m *Method) Abandon(ctx context.Context, p checkout.Payer, o *shop.Order) (bool, error) {
	if o.Status != shop.StatusPending {
		return true, nil
	}
	if o.PaymentRef == "" {
		return false, p.Unpaid(ctx, o)
	}
	sess, err := m.Pages.ExpireSession(context.WithoutCancel(ctx), o.PaymentRef, "nocturne-expire-"+o.ID)
	if err != nil {
		return false, err
	}
	if err := m.settle(ctx, p, sess, ""); err != nil {
		return false, err
	}
	return sess.Paid(), nil
}

// Check resolves a pending Stripe order past its page's expiry from what
// Stripe says (the webhook may never have come).
func (m *Method) Check(ctx context.Context, p checkout.Payer, o *shop.Order) (bool, error) {
	if o.PaymentRef == "" {
		// The page was never made: no one could have paid.
		return false, p.Unpaid(ctx, o)
	}
	sess, err := m.Pages.Session(ctx, o.PaymentRef)
	if err == nil && sess.Status == StatusOpen {
		sess, err = m.Pages.ExpireSession(ctx, o.PaymentRef, "nocturne-expire-"+o.ID)
	}
	if err != nil {
		return false, fmt.Errorf("stripe: %w", err)
	}
	return sess.Paid(), m.settle(ctx, p, sess, "")
}

// Refund asks Stripe's Refund API with the refund intent's key as the
// idempotency key, so a refund the sweep sends again is made once.
func (m *Method) Refund(ctx context.Context, o *shop.Order, amount shop.Cents, key string) error {
	_, err := m.Pages.Refund(ctx, o.PaymentIntent, amount, ReasonRequestedByCustomer, key)
	if err != nil {
		return fmt.Errorf("stripe refund of %s: %w", o.ID, err)
	}
	return nil
}

// Explain names the card paid on Stripe's page.
func (m *Method) Explain(o *shop.Order) checkout.Explanation {
	return checkout.Explanation{Confirmation: "Paid with " + o.PaymentMethod + ".", RefundTo: "to your " + o.PaymentMethod,
		Refund: "Refund %s through Stripe"}
}

// settle brings an order in line with its Stripe payment page: paid, the
// order is completed (its cart emptied, the shopper mailed, once however
// often this runs); expired or failed, it is released; otherwise it waits.
// Orders only move forward: a page that is no longer pending changes
// nothing. event is the webhook event type that brought the page ("" for
// a page read back from Stripe).
func (m *Method) settle(ctx context.Context, p checkout.Payer, sess *Session, event string) error {
	bg := context.WithoutCancel(ctx)
	o, err := m.Orders.Order(bg, sess.OrderID)
	if shop.ErrorCode(err) == shop.ENOTFOUND {
		return m.orphan(bg, p, sess)
	} else if err != nil {
		return err
	}
	if o.PaymentProvider != Name || o.PaymentRef != sess.ID {
		if sess.Paid() {
			// Paid on a page the order no longer has: the money is kept
			// apart for staff, not put on the order.
			return m.orphan(bg, p, sess)
		}
		p.LogError("stripe: page does not belong to the order", "order", o.ID, "session", sess.ID)
		return fmt.Errorf("stripe page %s is not order %s's: %w", sess.ID, o.ID, checkout.ErrAmountMismatch)
	}
	switch {
	case sess.Paid():
		if sess.AmountTotal != o.Total || !strings.EqualFold(sess.Currency, o.Currency) {
			p.LogError("stripe: paid amount is not the order's; not marked paid", "order", o.ID, "session", sess.ID,
				"paid", sess.AmountTotal.String(), "currency", sess.Currency, "total", o.Total.String(), "order_currency", o.Currency)
			return fmt.Errorf("order %s: %w", o.ID, checkout.ErrAmountMismatch)
		}
		if err := m.Orders.SetPaymentIntent(bg, o.ID, sess.PaymentIntent); err != nil {
			return err
		}
		if o.Status != shop.StatusPending {
			return nil
		}
		return p.Paid(bg, o, true, nil)
	case sess.Status == StatusExpired, event == EventSessionAsyncPaymentFailed:
		if o.Status == shop.StatusPending {
			return p.Unpaid(bg, o)
		}
	}
	return nil
}

// orphan keeps a paid page whose order is gone (released meanwhile) as a
// payment without an order, once, for staff to refund or settle (it is
// refunded by itself after a while); an unpaid one needs nothing.
// Answering Stripe only once it is stored means a failure is retried.
func (m *Method) orphan(ctx context.Context, p checkout.Payer, sess *Session) error {
	if !sess.Paid() {
		return nil
	}
	fresh, err := m.Orders.RecordOrphan(ctx, shop.OrphanPayment{ID: sess.ID, Method: Name, OrderID: sess.OrderID,
		PaymentIntent: sess.PaymentIntent, Amount: sess.AmountTotal, Currency: sess.Currency, Email: sess.Email, CreatedAt: p.Clock()})
	if err != nil {
		return fmt.Errorf("keep payment %s without an order: %w", sess.ID, err)
	}
	if fresh {
		p.LogError("stripe: a paid page names no pending order; kept as a payment without an order",
			"order", sess.OrderID, "session", sess.ID, "amount", sess.AmountTotal.String())
	}
	return nil
}

// Webhook verifies a delivery's signature and acts on its event. Every
// change it makes is a conditional update that only moves an order
// forward, so a repeated delivery, one racing on another instance, or an
// old event arriving late changes nothing twice and undoes nothing; the
// mails go with the change, so they are sent once. The event's id is
// stored after acting: a process that dies in between acts again on
// Stripe's retry, which is harmless, rather than skipping it.
func (m *Method) Webhook(ctx context.Context, p checkout.Payer, payload []byte, signature string) error {
	ev, err := m.Pages.ParseWebhook(payload, signature)
	if err != nil {
		return fmt.Errorf("%w: %w", checkout.ErrBadWebhook, err)
	}
	if err := m.actOn(ctx, p, ev); err != nil {
		return fmt.Errorf("stripe event %s (%s): %w", ev.ID, ev.Type, err)
	}
	orderID := ""
	if ev.Session != nil {
		orderID = ev.Session.OrderID
	}
	_, err = m.Orders.RecordPaymentEvent(context.WithoutCancel(ctx), ev.ID, orderID, ev.Type, p.Clock())
	return err
}

func (m *Method) actOn(ctx context.Context, p checkout.Payer, ev Event) error {
	switch ev.Type {
	case EventSessionCompleted, EventSessionAsyncPaymentSucceeded, EventSessionAsyncPaymentFailed, EventSessionExpired:
		if ev.Session == nil {
			return nil
		}
		return m.settle(ctx, p, ev.Session, ev.Type)
	case EventChargeRefunded:
		o, err := m.Orders.OrderByPaymentIntent(ctx, ev.PaymentIntent)
		if shop.ErrorCode(err) == shop.ENOTFOUND {
			p.LogError("stripe: refund of a payment no order knows", "payment_intent", ev.PaymentIntent)
			return nil
		} else if err != nil {
			return err
		}
		if !strings.EqualFold(ev.Currency, o.Currency) {
			return fmt.Errorf("refund of order %s: %w", o.ID, checkout.ErrAmountMismatch)
		}
		changed, err := m.Orders.RecordRefund(ctx, o.ID, ev.AmountRefunded, "", p.Clock())
		if err != nil || !changed {
			return err
		}
		p.Refunded(context.WithoutCancel(ctx), o, ev.AmountRefunded-o.Refunded)
	}
	return nil
}

// Settings are the Stripe method's: the API key and webhook secret, the
// API's address, how long a payment page stays open, and the shop's
// address and currency.
type Settings struct {
	SecretKey, WebhookSecret, APIURL string
	TTL                              time.Duration
	BaseURL, Currency                string
}

// NewMethod checks the settings and builds the method on a Client made
// from them, or on pages when it is not nil. The settings' values are
// never echoed: they are secrets.
func NewMethod(s Settings, orders Orders, pages Pages) (*Method, error) {
	switch {
	case !strings.HasPrefix(s.SecretKey, "sk_") && !strings.HasPrefix(s.SecretKey, "rk_"):
		return nil, errors.New("PAYMENT_METHODS includes stripe, so STRIPE_SECRET_KEY must be set to a Stripe secret or restricted key (sk_… or rk_…)")
	case !strings.HasPrefix(s.WebhookSecret, "whsec_"):
		return nil, errors.New("PAYMENT_METHODS includes stripe, so STRIPE_WEBHOOK_SECRET must be set to the webhook endpoint's signing secret (whsec_…)")
	case LiveKey(s.SecretKey) && !strings.HasPrefix(s.BaseURL, "https://"):
		return nil, errors.New("STRIPE_SECRET_KEY is a live key, which takes real money: BASE_URL must be https")
	}
	if err := CheckCurrency(s.Currency); err != nil {
		return nil, fmt.Errorf("PAYMENT_METHODS includes stripe, which cannot take SHOP_CURRENCY %s: %w", strings.ToUpper(s.Currency), err)
	}
	if pages == nil {
		c, err := New(Config{SecretKey: s.SecretKey, WebhookSecret: s.WebhookSecret, APIURL: s.APIURL})
		if err != nil {
			return nil, fmt.Errorf("stripe: %w", err)
		}
		pages = c
	}
	return &Method{Pages: pages, Orders: orders, BaseURL: s.BaseURL, TTL: s.TTL}, nil
}
