package checkout

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/stripepay"
)

// Hosted is a hosted payment page: Stripe Checkout (stripepay.Client), or
// a stand-in of it in tests.
type Hosted interface {
	CreateSession(ctx context.Context, r stripepay.SessionRequest) (*stripepay.Session, error)
	Session(ctx context.Context, id string) (*stripepay.Session, error)
	ExpireSession(ctx context.Context, id, idempotencyKey string) (*stripepay.Session, error)
	Refund(ctx context.Context, paymentIntent string, amount shop.Cents, reason, idempotencyKey string) (string, error)
}

// Stripe is the Stripe method's part of the checkout.
type Stripe struct {
	Pages Hosted
	// TTL is how long a payment page stays open, holding the order's
	// stock (Stripe allows 30 minutes to a day).
	TTL time.Duration
}

// StripeMargin is how long after its page expires (pageSlack included) a
// pending Stripe order is left to the webhook before the sweep asks Stripe
// itself.
const StripeMargin = 5 * time.Minute

// pageSlack is added to a page's time: Stripe refuses an expiry less than
// 30 minutes after it creates the session, by its own clock, so a page of
// exactly STRIPE_SESSION_TTL=30m would be refused whenever a second ticks
// over (or the clocks differ) between our call and Stripe's check.
const pageSlack = time.Minute

// StripeMethod is how an order paid on Stripe's page names its payment.
const StripeMethod = "Card (Stripe)"

// ErrAmountMismatch refuses a payment whose amount or currency is not the
// order's: the order is not marked paid.
var ErrAmountMismatch = errors.New("payment amount or currency differs from the order's")

// StatusURL is the order-status page a shopper returns to from a payment.
func StatusURL(orderID string) string { return "/orders/" + orderID + "/status" }

// CancelURL is where Stripe's page sends a shopper who cancels.
func CancelURL(orderID string) string { return "/checkout/cancelled?order=" + orderID }

// sessionKey is the idempotency key of an order's payment page: a repeated
// press, or a retry after a timeout, makes one page.
func sessionKey(orderID string) string { return "nocturne-session-" + orderID }

// openPage makes the Stripe payment page of a pending order claimed for
// it and records its reference. When that fails the order is released:
// its stock goes back and the cart is as it was.
func (s *Service) openPage(ctx context.Context, o *shop.Order) (Result, error) {
	bg := context.WithoutCancel(ctx)
	req := stripepay.SessionRequest{
		OrderID: o.ID, Email: o.Email, Currency: o.Currency, Shipping: o.Shipping, Tax: o.Tax, Discount: o.Discount,
		SuccessURL: s.BaseURL + StatusURL(o.ID), CancelURL: s.BaseURL + CancelURL(o.ID),
		ExpiresAt: s.Now().Add(s.Stripe.TTL + pageSlack), IdempotencyKey: sessionKey(o.ID),
	}
	if o.TaxIncluded {
		req.Tax = 0 // in the prices already, as the order states it
	}
	for _, l := range o.Lines {
		req.Lines = append(req.Lines, stripepay.Line{Name: l.Label(), UnitAmount: l.Price, Quantity: int64(l.Quantity)})
	}
	sess, err := s.Stripe.Pages.CreateSession(bg, req)
	if err == nil {
		err = s.Payments.SetPaymentRef(bg, o.ID, sess.ID)
	}
	if err != nil {
		if rerr := s.Orders.ReleaseOrder(bg, o.ID); rerr != nil {
			s.Log.Error("release order", "err", rerr, "order", o.ID)
		}
		return Result{}, fmt.Errorf("stripe payment page for %s: %w", o.ID, err)
	}
	o.PaymentRef = sess.ID
	return Result{State: Redirect, Order: o, URL: sess.URL, Fresh: true}, nil
}

// resumePage answers a second Place Order of a cart whose Stripe page is
// open: the same page again, or the truth when it is no longer open.
func (s *Service) resumePage(ctx context.Context, o *shop.Order) (Result, error) {
	if o.Status != shop.StatusPending || o.PaymentRef == "" {
		return s.truth(o), nil
	}
	sess, err := s.Stripe.Pages.Session(ctx, o.PaymentRef)
	if err != nil {
		return Result{}, err
	}
	if sess.Status == stripepay.StatusOpen {
		return Result{State: Redirect, Order: o, URL: sess.URL}, nil
	}
	return s.truth(o), nil
}

// Abandon closes the Stripe page of a pending order whose shopper chose to
// go back to the cart: the page is expired through Stripe, so it can no
// longer be paid, and the order released (its stock back, the cart as it
// was). It reports paid when the payment went through first.
func (s *Service) Abandon(ctx context.Context, o *shop.Order) (paid bool, err error) {
	if o.Status != shop.StatusPending || o.PaymentProvider != shop.ProviderStripe || s.Stripe.Pages == nil {
		return o.Status != shop.StatusPending, nil
	}
	if o.PaymentRef == "" {
		return false, s.Orders.ReleaseOrder(context.WithoutCancel(ctx), o.ID)
	}
	sess, err := s.Stripe.Pages.ExpireSession(context.WithoutCancel(ctx), o.PaymentRef, "nocturne-expire-"+o.ID)
	if err != nil {
		return false, err
	}
	if err := s.Settle(ctx, sess, ""); err != nil {
		return false, err
	}
	return sess.Paid(), nil
}

// Settle brings an order in line with its Stripe payment page: paid, the
// order is completed (its cart emptied, the shopper mailed, once however
// often this runs); expired or failed, it is released; otherwise it waits.
// Orders only move forward: a page that is no longer pending changes
// nothing. event is the webhook event type that brought the page ("" for
// a page read back from Stripe).
func (s *Service) Settle(ctx context.Context, sess *stripepay.Session, event string) error {
	bg := context.WithoutCancel(ctx)
	o, err := s.Orders.Order(bg, sess.OrderID)
	if shop.ErrorCode(err) == shop.ENOTFOUND {
		if sess.Paid() {
			s.Log.Error("stripe: a paid page names no pending order", "order", sess.OrderID, "session", sess.ID)
		}
		return nil
	} else if err != nil {
		return err
	}
	if o.PaymentProvider != shop.ProviderStripe || o.PaymentRef != sess.ID {
		s.Log.Error("stripe: page does not belong to the order", "order", o.ID, "session", sess.ID)
		return fmt.Errorf("stripe page %s is not order %s's: %w", sess.ID, o.ID, ErrAmountMismatch)
	}
	switch {
	case sess.Paid():
		if sess.AmountTotal != o.Total || !strings.EqualFold(sess.Currency, o.Currency) {
			s.Log.Error("stripe: paid amount is not the order's; not marked paid", "order", o.ID, "session", sess.ID,
				"paid", sess.AmountTotal.String(), "currency", sess.Currency, "total", o.Total.String(), "order_currency", o.Currency)
			return fmt.Errorf("order %s: %w", o.ID, ErrAmountMismatch)
		}
		if err := s.Payments.SetPaymentIntent(bg, o.ID, sess.PaymentIntent); err != nil {
			return err
		}
		if o.Status != shop.StatusPending {
			return nil
		}
		err := s.Orders.CompleteOrder(bg, o.ID, true)
		if shop.ErrorCode(err) == shop.ECONFLICT {
			return nil // completed meanwhile, by another delivery or instance
		} else if err != nil {
			return fmt.Errorf("complete order %s: %w", o.ID, err)
		}
		o.Status, o.PaymentStatus = shop.StatusProcessing, shop.PaymentPaid
		s.sendConfirmation(bg, o)
		s.Log.Info("stripe: order paid", "order", o.ID)
	case sess.Status == stripepay.StatusExpired, event == stripepay.EventSessionAsyncPaymentFailed:
		if o.Status == shop.StatusPending {
			if err := s.Orders.ReleaseOrder(bg, o.ID); err != nil {
				return fmt.Errorf("release order %s: %w", o.ID, err)
			}
			s.Log.Info("stripe: order not paid, released", "order", o.ID, "event", event)
		}
	}
	return nil
}

// recoverStripe resolves a pending Stripe order past its page's expiry
// from what Stripe says (the webhook may never have come), and reports
// whether it was paid.
func (s *Service) recoverStripe(ctx context.Context, o *shop.Order) (bool, error) {
	if o.PaymentRef == "" || s.Stripe.Pages == nil {
		// The page was never made (or Stripe is no longer configured):
		// no one could have paid.
		return false, s.Orders.ReleaseOrder(ctx, o.ID)
	}
	sess, err := s.Stripe.Pages.Session(ctx, o.PaymentRef)
	if err == nil && sess.Status == stripepay.StatusOpen {
		sess, err = s.Stripe.Pages.ExpireSession(ctx, o.PaymentRef, "nocturne-expire-"+o.ID)
	}
	if err != nil {
		return false, err
	}
	return sess.Paid(), s.Settle(ctx, sess, "")
}

// HandleEvent acts on a verified Stripe webhook event. Every change it
// makes is a conditional update that only moves an order forward, so a
// repeated delivery, one racing on another instance, or an old event
// arriving late changes nothing twice and undoes nothing; the mails go
// with the change, so they are sent once. The event's id is stored after
// acting: a process that dies in between acts again on Stripe's retry,
// which is harmless, rather than skipping it.
func (s *Service) HandleEvent(ctx context.Context, ev stripepay.Event) error {
	if err := s.actOn(ctx, ev); err != nil {
		return err
	}
	orderID := ""
	if ev.Session != nil {
		orderID = ev.Session.OrderID
	}
	_, err := s.Payments.RecordPaymentEvent(context.WithoutCancel(ctx), ev.ID, orderID, ev.Type, s.Now())
	return err
}

func (s *Service) actOn(ctx context.Context, ev stripepay.Event) error {
	switch ev.Type {
	case stripepay.EventSessionCompleted, stripepay.EventSessionAsyncPaymentSucceeded,
		stripepay.EventSessionAsyncPaymentFailed, stripepay.EventSessionExpired:
		if ev.Session == nil {
			return nil
		}
		return s.Settle(ctx, ev.Session, ev.Type)
	case stripepay.EventChargeRefunded:
		o, err := s.Payments.OrderByPaymentIntent(ctx, ev.PaymentIntent)
		if shop.ErrorCode(err) == shop.ENOTFOUND {
			s.Log.Warn("stripe: refund of a payment no order knows", "payment_intent", ev.PaymentIntent)
			return nil
		} else if err != nil {
			return err
		}
		if !strings.EqualFold(ev.Currency, o.Currency) {
			return fmt.Errorf("refund of order %s: %w", o.ID, ErrAmountMismatch)
		}
		changed, err := s.Payments.RecordRefund(ctx, o.ID, ev.AmountRefunded, "", s.Now())
		if err != nil || !changed {
			return err
		}
		s.sendRefunded(context.WithoutCancel(ctx), o, ev.AmountRefunded-o.Refunded)
	}
	return nil
}

// sendRefunded tells the shopper that amount of order o went back.
func (s *Service) sendRefunded(ctx context.Context, o *shop.Order, amount shop.Cents) {
	body := fmt.Sprintf("We refunded %s of your order %s to your %s. Refunds take 3-5 business days, plus 5-10 days for your bank.\n\nSee your order at %s/orders/%s.\n",
		amount, o.ID, o.PaymentMethod, s.BaseURL, o.ID)
	if err := s.Mailer.Send(ctx, shop.Email{To: o.Email, Subject: "Refund for order " + o.ID, Body: body}); err != nil {
		s.Log.Error("refund e-mail", "err", err, "order", o.ID)
	}
}
