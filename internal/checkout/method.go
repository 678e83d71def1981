package checkout

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// Method is one way to pay for an order: the demo card, Stripe's hosted
// page, a bank transfer. The checkout, the recovery sweep, refunds and the
// mails ask the order's method instead of comparing its name, so a new
// method is its own package and one line in package paymethods (decision
// 0017).
type Method interface {
	// Name is the method's word in PAYMENT_METHODS and on the orders it
	// took (shop.Order.PaymentProvider). It never changes once orders
	// carry it.
	Name() string
	// Words are how the shop speaks of the method.
	Words() Words
	// Claim fills in what the order records of the method before its cart
	// is claimed (PaymentMethod, ChargeKey, LeaseUntil), or refuses an
	// order the method can't take (a total below its minimum charge).
	Claim(o *shop.Order, in PlaceInput, now time.Time) error
	// Start begins paying for an order just claimed: a charge in the
	// background, a hosted page to send the shopper to, or nothing (money
	// that comes later).
	Start(ctx context.Context, p Payer, o *shop.Order, in PlaceInput) (Result, error)
	// Check is what the recovery sweep asks of a pending order whose lease
	// ended: whether it was paid. The method settles it through p.
	Check(ctx context.Context, p Payer, o *shop.Order) (paid bool, err error)
	// Refund gives amount of o back through whoever took the money. key
	// is the refund intent's: a provider with an API is sent it as the
	// idempotency key, so the refund sweep resending it pays once.
	Refund(ctx context.Context, o *shop.Order, amount shop.Cents, key string) error
	// Explain is what the mails and the back office say of o's payment.
	Explain(o *shop.Order) Explanation
}

// Words are what the shop shows of a method, whatever the order.
type Words struct {
	// Label and Note are its choice on the Payment step.
	Label, Note string
	// Review and ReviewNote are what the review step says of it; an empty
	// Review shows the card given.
	Review, ReviewNote string
	// Card says the Payment step takes a card for it (CardMethod), whose
	// charge runs after Place Order while a status page waits for it.
	Card bool
	// ByHand says staff mark its orders paid when the money arrives; its
	// unpaid orders hold their stock until Hold ends, then are cancelled.
	ByHand bool
	Hold   time.Duration
	// Lapsed is why an order unpaid after Hold is cancelled.
	Lapsed string
	// Minimum is the smallest total the method takes (0: any); the
	// Payment step doesn't offer it below.
	Minimum shop.Cents
}

// StatusURL is the order-status page a shopper returns to from a payment.
func StatusURL(orderID string) string { return "/orders/" + orderID + "/status" }

// CancelURL is where a hosted payment page sends a shopper who cancels.
func CancelURL(orderID string) string { return "/checkout/cancelled?order=" + orderID }

// Explanation is what is said of one order's payment.
type Explanation struct {
	// Confirmation is the order confirmation's paragraph on paying.
	Confirmation string
	// Instructions are where to send the money, shown on the order's page
	// while it is awaited ("" when nothing is to be sent).
	Instructions string
	// RefundTo ends "We refunded $X of your order N …" in the refund mail.
	RefundTo string
	// Refund says what confirming a refund does, with %s for the amount.
	Refund string
}

// HoldDays is a hold in whole days, as shoppers are told it.
func HoldDays(hold time.Duration) int { return int(hold.Hours()+23) / 24 }

// CardMethod is a method that takes a card on the Payment step.
type CardMethod interface {
	Method
	// Tokenize exchanges the card for a token that can be charged once;
	// the number goes no further.
	Tokenize(ctx context.Context, number string, c Card) (string, error)
	// Declined reports whether the charge of the cart key with token was
	// refused: what the status page of a released order tells.
	Declined(ctx context.Context, cartKey, token string) (bool, error)
}

// PageMethod is a method whose shopper pays on a page of its own: a
// second Place Order finds that page again, and a shopper who leaves it
// closes it.
type PageMethod interface {
	Method
	// Resume answers a second Place Order of a cart whose order is this
	// method's: the same page while it is open, else the truth. busy says
	// the order's lease is running; again asks to close it and place anew.
	Resume(ctx context.Context, p Payer, o *shop.Order, busy bool) (res Result, again bool, err error)
	// Abandon closes the page of a pending order whose shopper went back to
	// the cart, and reports whether it was paid first.
	Abandon(ctx context.Context, p Payer, o *shop.Order) (paid bool, err error)
}

// WebhookMethod is a method whose provider calls back with signed events.
type WebhookMethod interface {
	Method
	// Webhook verifies and acts on one delivery. ErrBadWebhook refuses it
	// (a bad signature: 400); ErrAmountMismatch too, where the amount is
	// not the order's; any other error asks for a retry.
	Webhook(ctx context.Context, p Payer, payload []byte, signature string) error
}

// ErrBadWebhook refuses a webhook delivery whose signature or age is wrong.
var ErrBadWebhook = fmt.Errorf("webhook refused")

// Payer is what a method may do to the order it is paying for: complete
// it once the money is in (its cart emptied, the shopper mailed once),
// release it when it never will be (its stock back, the cart as it was),
// and run the rest of a payment after Place Order answered.
type Payer interface {
	// Paid completes a pending order whose money is in (charged says the
	// payment state becomes paid, else awaiting); one completed meanwhile
	// is no error. card, when not nil, is kept for next time.
	Paid(ctx context.Context, o *shop.Order, charged bool, card *shop.SavedCard) error
	// Unpaid releases a pending order.
	Unpaid(ctx context.Context, o *shop.Order) error
	// Refunded tells the shopper amount of o went back.
	Refunded(ctx context.Context, o *shop.Order, amount shop.Cents)
	// Go runs the rest of a payment, counted as under way until it ends,
	// so a shutdown waits for it.
	Go(fn func())
	// Timeout bounds one charge.
	Timeout() time.Duration
	// Lease is how long a pending order's claim lasts.
	Lease() time.Duration
	// Clock is the time now.
	Clock() time.Time
	// LogError logs what went wrong with a payment, with slog's pairs.
	LogError(msg string, args ...any)
}

// Methods are the shop's payment methods: every method its orders may
// carry (a method no longer offered still recovers and refunds its
// orders), and which of them the Payment step offers, in order.
type Methods struct {
	all     []Method
	offered []Method
}

// NewMethods registers all and offers those named in offered (in its
// order); a name no method has is refused, naming the ones there are.
func NewMethods(offered []string, all ...Method) (*Methods, error) {
	ms := &Methods{all: all}
	for _, name := range offered {
		m, ok := ms.lookup(name)
		if !ok {
			names := make([]string, len(all))
			for i, m := range all {
				names[i] = m.Name()
			}
			return nil, fmt.Errorf("PAYMENT_METHODS must list %s, separated by commas, got %q", orList(names), name)
		}
		ms.offered = append(ms.offered, m)
	}
	if len(ms.offered) == 0 {
		return nil, fmt.Errorf("PAYMENT_METHODS must list at least one payment method")
	}
	return ms, nil
}

// orList writes "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

func (ms *Methods) lookup(name string) (Method, bool) {
	for _, m := range ms.all {
		if m.Name() == name {
			return m, true
		}
	}
	return nil, false
}

// For is the method named name, offered or not. A name no method has (an
// order of a method this release doesn't know, or one whose settings are
// gone) gets a stand-in that can neither be paid nor refund.
func (ms *Methods) For(name string) Method {
	if m, ok := ms.lookup(name); ok {
		return m
	}
	return missing(name)
}

// Offered are the methods the Payment step offers.
func (ms *Methods) Offered() []Method { return ms.offered }

// Offers reports whether the Payment step offers the method named name.
func (ms *Methods) Offers(name string) bool {
	for _, m := range ms.offered {
		if m.Name() == name {
			return true
		}
	}
	return false
}

// All are every registered method, offered or not.
func (ms *Methods) All() []Method { return ms.all }

// missing is the method of an order whose method is not registered.
type missing string

func (m missing) Name() string { return string(m) }
func (m missing) Words() Words { return Words{Label: string(m), Review: string(m)} }
func (m missing) Claim(*shop.Order, PlaceInput, time.Time) error {
	return fmt.Errorf("payment method %s is not configured", string(m))
}
func (m missing) Start(context.Context, Payer, *shop.Order, PlaceInput) (Result, error) {
	return Result{}, fmt.Errorf("payment method %s is not configured", string(m))
}

// Check releases the order: with its method gone, no one could pay it.
func (m missing) Check(ctx context.Context, p Payer, o *shop.Order) (bool, error) {
	return false, p.Unpaid(ctx, o)
}
func (m missing) Refund(_ context.Context, o *shop.Order, _ shop.Cents, _ string) error {
	return fmt.Errorf("refund %s: payment method %s is not configured", o.ID, string(m))
}
func (m missing) Explain(o *shop.Order) Explanation {
	return Explanation{Confirmation: "Paid with " + o.PaymentMethod + ".", RefundTo: "to your " + o.PaymentMethod,
		Refund: "Refund %s"}
}
