package shop

import (
	"context"
	"strings"
	"time"
)

// UnnamedProvider is the payment method of an order that names none: the
// orders column's default, as orders from before several methods were
// offered were all paid with the demo card. Each method's name is its own
// package's (see checkout.Method).
const UnnamedProvider = "demo"

// OrderCurrency is the currency a new order is placed and paid in: the
// shop's, as a lower-case ISO 4217 code the way payment providers write
// it ("usd", "jpy"). Each order keeps its own.
func OrderCurrency() string { return strings.ToLower(CurrentCurrency().Code()) }

// Address is where an order goes.
type Address struct {
	Name, Street, City, State, ZipCode, Country, Phone string
}

// OrderLine is a snapshot of a cart line at the time of the order.
type OrderLine struct {
	ProductID string
	VariantID string
	Name      string
	// Variation names the variant sold ("Size: M / Colour: Black").
	Variation string
	Price     Cents
	Quantity  int
	Image     string
}

// Total is the line's price.
func (l OrderLine) Total() Cents { return l.Price * Cents(l.Quantity) }

// Label names what the line sold, with its variant when it has one:
// "Field Jacket (Size: M / Colour: Black)".
func (l OrderLine) Label() string {
	if l.Variation == "" {
		return l.Name
	}
	return l.Name + " (" + l.Variation + ")"
}

// Order is a placed order (the spec's entities).
type Order struct {
	ID             string
	UserID         string
	Email          string
	Status         OrderStatus
	Subtotal       Cents
	Shipping       Cents
	Tax            Cents
	Total          Cents
	ShipTo         Address
	PaymentMethod  string
	TrackingNumber string // "" until shipped
	Carrier        string // "" until shipped
	CancelReason   string // "" unless cancelled
	IdempotencyKey string
	CreatedAt      time.Time
	Lines          []OrderLine
	// CartOwner is whose cart the order was placed from; ChargeKey is the
	// gateway's idempotency key for its payment; LeaseUntil is when the
	// instance paying for a pending order gives it up to the recovery sweep.
	CartOwner  string
	ChargeKey  string
	LeaseUntil time.Time
	// Currency is the order's currency (OrderCurrency when placed). PaymentProvider
	// takes its money (a checkout.Method's name) and PaymentRef is the provider's
	// reference for it (a Stripe Checkout Session id), PaymentIntent what
	// it was paid with (a Stripe PaymentIntent id). PaymentStatus is
	// the payment's state (PaymentAwaiting, …), PaidAt when it was paid and
	// Refunded how much of Total went back.
	Currency        string
	PaymentProvider string
	PaymentStatus   PaymentState
	PaymentRef      string
	PaymentIntent   string
	PaidAt          time.Time
	Refunded        Cents
	// PromoCode is the code the order was placed with ("" none) and
	// Discount what it took off; the store counts the code's use in the
	// transaction that places the order. ShippingMethod names the method
	// chosen. TaxIncluded says Tax is the part of the prices that was tax
	// (VAT style) rather than added to them; TaxLines break Tax down by
	// rate as it was when the order was placed.
	PromoCode      string
	Discount       Cents
	ShippingMethod string
	TaxIncluded    bool
	TaxLines       []TaxLine
}

// Paid reports whether the order's money was taken (and not all given
// back): only such an order may be shipped.
func (o Order) Paid() bool {
	return o.PaymentStatus.Taken()
}

// ItemCount is the number of items in the order.
func (o Order) ItemCount() int {
	n := 0
	for _, l := range o.Lines {
		n += l.Quantity
	}
	return n
}

// OrderQuery selects a page of a user's orders.
type OrderQuery struct {
	UserID string
	Status OrderStatus // "" all
	Sort   string      // "date", "total", "status"
	Desc   bool
	Page   int
}

// SavedCard is what the shop keeps of a card: never enough to pay with.
type SavedCard struct {
	Brand    string
	Last4    string
	ExpMonth int
	ExpYear  int
	Name     string
}

// Claim is how a claim on a cart turned out.
type Claim int

const (
	// Claimed: the order is pending and this caller pays for it.
	Claimed Claim = iota
	// ClaimExists: an order with this idempotency key exists already.
	ClaimExists
	// ClaimBusy: another order of the same cart is being paid for.
	ClaimBusy
)

// OrderStore keeps orders.
type OrderStore interface {
	// ClaimCart makes owner's cart a pending order under key, in one
	// transaction: an order with key already there comes back with
	// ClaimExists, a pending order of the same cart with ClaimBusy;
	// otherwise build gets the cart as it is inside the transaction and the
	// number of orders placed from it before, and returns the order to
	// insert (with its lines) or an error that cancels the claim. An
	// order with a PromoCode counts the code's use in the same
	// transaction: a code unknown or paused (MsgPromoUnknown), used up
	// (MsgPromoUsedUp) or, once per customer, used by the same customer
	// before (MsgPromoAlreadyUsed) fails the claim with an EINVALID.
	ClaimCart(ctx context.Context, owner, key string, build func(c Cart, placed int) (*Order, error)) (*Order, Claim, error)
	// PlacedFromCart counts the orders placed from owner's cart (not
	// pending ones), which makes a cart's checkout key change after each.
	PlacedFromCart(ctx context.Context, owner string) (int, error)
	// CompleteOrder marks a pending order processing (and paid when paid
	// is true; a bank transfer is placed before it is paid) and takes
	// exactly its lines' quantities out of its cart (lines added meanwhile
	// stay), in one transaction. An order that is not pending is an
	// ECONFLICT.
	CompleteOrder(ctx context.Context, orderID string, paid bool) error
	// ReleaseOrder deletes a pending order whose payment did not happen,
	// giving back its stock and its promo code's use; the cart was never
	// touched.
	ReleaseOrder(ctx context.Context, orderID string) error
	// ExpiredClaims lists pending orders whose lease ended before now.
	ExpiredClaims(ctx context.Context, now time.Time) ([]Order, error)
	// TakeLease extends a pending order's lease from old to until, and
	// reports false when another instance took it first.
	TakeLease(ctx context.Context, orderID string, old, until time.Time) (bool, error)
	Order(ctx context.Context, id string) (*Order, error)
	OrderByKey(ctx context.Context, idempotencyKey string) (*Order, error)
	Orders(ctx context.Context, q OrderQuery) ([]Order, int, error)
	CountOrders(ctx context.Context, userID string) (int, error)
	SaveCard(ctx context.Context, userID string, c SavedCard) error
	SavedCard(ctx context.Context, userID string) (*SavedCard, error)
	// InsertOrder stores a complete order as it is (demo data).
	InsertOrder(ctx context.Context, o *Order) error
}

// PaymentStore moves orders' payments forward.
type PaymentStore interface {
	// MarkPaid marks an order awaiting payment paid at at, with an order
	// event by actor ("" for the shop itself); an order that is not
	// awaiting payment (paid already, cancelled) is an ECONFLICT with
	// MsgNotAwaitingPayment.
	MarkPaid(ctx context.Context, orderID, actor string, at time.Time) (*Order, error)
	// UnpaidSince lists placed orders of provider still awaiting payment
	// that were placed before before, oldest first.
	UnpaidSince(ctx context.Context, provider string, before time.Time) ([]Order, error)
	// UnpaidBy counts placed orders of provider still awaiting payment
	// that the account or session userID placed, or that were placed for
	// email (compared as NormalizeEmail writes it); an empty userID or
	// email matches nothing.
	UnpaidBy(ctx context.Context, provider, userID, email string) (int, error)
	// RecordPaymentEvent stores a provider event's id and reports whether
	// it is new: a repeated delivery reports false.
	RecordPaymentEvent(ctx context.Context, id, orderID, kind string, at time.Time) (bool, error)
	// SetPaymentRef records the provider's reference of a pending order's
	// payment (the hosted payment page made for it).
	SetPaymentRef(ctx context.Context, orderID, ref string) error
	// SetPaymentIntent records what an order was paid with.
	SetPaymentIntent(ctx context.Context, orderID, intent string) error
	// OrderByPaymentIntent finds the order paid with intent, or an
	// ENOTFOUND.
	OrderByPaymentIntent(ctx context.Context, intent string) (*Order, error)
	// RecordRefund raises what was refunded of a paid order to refunded
	// (never lowers it: a late event cannot undo a newer one), making the
	// payment partially refunded or refunded, with an order event; it
	// reports whether anything changed.
	RecordRefund(ctx context.Context, orderID string, refunded Cents, actor string, at time.Time) (bool, error)
	// ClaimRefund records a refund by staff before the provider is asked
	// for it, only while the refunded amount still is c.Was (what the
	// confirmation showed): two refunds, or one confirmed twice, can never
	// both count. A change meanwhile is an ECONFLICT with MsgRefundMoved;
	// more than is left an EINVALID. A refund of a return marks the return
	// refunded in the same transaction, or claims nothing (a return no
	// longer received is an ECONFLICT with MsgReturnMoved).
	ClaimRefund(ctx context.Context, c RefundClaim) error
	// UndoRefund takes back a claimed refund the provider refused, and
	// the mark of its return. With an intent key it acts only while that
	// intent is open, and marks it undone.
	UndoRefund(ctx context.Context, c RefundClaim) error
}

// RefundClaim is a staff refund of Amount of an order whose refunded
// amount was Was, with its timeline note, who and when; ReturnID is the
// received return it refunds ("" for none).
type RefundClaim struct {
	OrderID     string
	ReturnID    string
	Was, Amount Cents
	Note, Actor string
	At          time.Time
	// Intent, when its Key is set, is recorded in the claim's transaction
	// (its order, return and amounts are the claim's).
	Intent RefundIntent
}

// Messages of refunds.
const (
	// MsgRefundMoved: %s is the amount refunded now.
	MsgRefundMoved = "The refunds of this order changed meanwhile: %s is refunded now. Please check and try again."
	// MsgRefundTooMuch: %s is what is left to refund.
	MsgRefundTooMuch = "At most %s is left to refund."
)

// MsgNotAwaitingPayment refuses to mark paid an order that is not awaiting
// payment; %s is its payment state.
const MsgNotAwaitingPayment = "This order is not awaiting payment (it is %s)."

// MsgShipUnpaid refuses to ship an order whose payment has not arrived.
const MsgShipUnpaid = "This order isn't paid yet, so it can't be shipped."

// Charge outcomes the gateway records.
const (
	ChargeSucceeded = "succeeded"
	ChargeDeclined  = "declined"
)

// Charge is a payment gateway's record of one charge, by idempotency key.
type Charge struct {
	Key       string
	Amount    Cents
	Outcome   string
	CreatedAt time.Time
}

// ChargeStore keeps the simulated gateway's charge records.
type ChargeStore interface {
	// RecordCharge stores c unless a charge with its key exists, and
	// returns the stored record: the first outcome for a key wins.
	RecordCharge(ctx context.Context, c Charge) (Charge, error)
	// ChargeByKey returns the charge for key, or an ENOTFOUND.
	ChargeByKey(ctx context.Context, key string) (*Charge, error)
}

// MsgOrderExists refuses a second order under an id or idempotency key
// that an order already has.
const MsgOrderExists = "This order has already been placed."

// OwnedBy reports whether userID (a signed-in account or a guest; "" for a
// visitor) placed the order.
func (o *Order) OwnedBy(userID string) bool { return userID != "" && userID == o.UserID }

// VisibleTo is the one rule of who may see an order: whoever placed it, or a
// visitor who looked this order up in this session (lookedUp is the order
// id the lookup found, "" for none). Anyone else is told it does not exist.
func (o *Order) VisibleTo(userID, lookedUp string) bool {
	return o.OwnedBy(userID) || (lookedUp != "" && lookedUp == o.ID)
}

// MatchesLookup reports whether an e-mail address, as a visitor typed it,
// lets them look the order up: a placed order (not one whose payment is
// under way) with that address on it. Orders of deleted accounts have no
// address and cannot be looked up.
func (o *Order) MatchesLookup(email string) bool {
	return o.Status != StatusPending && o.Email != "" && o.Email == NormalizeEmail(email)
}

// Messages of the order and charge stores, written once.
const (
	// MsgOrderNotFound answers an order id nobody may see or that is not there.
	MsgOrderNotFound = "Order not found."
	// MsgOrderPlaced refuses to complete an order that is no longer pending.
	MsgOrderPlaced = "This order was already placed."
	// MsgNoCharge answers a charge key the gateway has no record of.
	MsgNoCharge = "No such charge."
)
