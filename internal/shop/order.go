package shop

import (
	"context"
	"time"
)

// Order statuses (the spec's states and transitions). Pending marks an order whose payment is under
// way; shoppers never see it.
const (
	StatusPending    = "pending"
	StatusProcessing = "processing"
	StatusShipped    = "shipped"
	StatusDelivered  = "delivered"
	StatusCancelled  = "cancelled"
)

// OrderStatuses are the statuses a shopper can filter by.
var OrderStatuses = []string{StatusProcessing, StatusShipped, StatusDelivered, StatusCancelled}

// Address is where an order goes.
type Address struct {
	Name, Street, City, State, ZipCode, Country, Phone string
}

// OrderLine is a snapshot of a cart line at the time of the order.
type OrderLine struct {
	ProductID string
	Name      string
	Price     Cents
	Quantity  int
	Image     string
}

// Total is the line's price.
func (l OrderLine) Total() Cents { return l.Price * Cents(l.Quantity) }

// Order is a placed order (the spec's entities).
type Order struct {
	ID             string
	UserID         string
	Email          string
	Status         string
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
}

// ItemCount is the number of items in the order.
func (o Order) ItemCount() int {
	n := 0
	for _, l := range o.Lines {
		n += l.Quantity
	}
	return n
}

// Totals are a checkout's sums (the spec's business constants): tax is 10% of the subtotal,
// rounded half up to the cent; total = subtotal + shipping + tax.
type Totals struct {
	Subtotal, Shipping, Tax, Total Cents
}

// CheckoutTotals computes the totals of a cart at checkout.
func CheckoutTotals(c Cart) Totals {
	t := Totals{Subtotal: c.Subtotal(), Shipping: c.Shipping()}
	t.Tax = (t.Subtotal*TaxPercent + 50) / 100
	t.Total = t.Subtotal + t.Shipping + t.Tax
	return t
}

// OrderQuery selects a page of a user's orders.
type OrderQuery struct {
	UserID string
	Status string // "" all
	Sort   string // "date", "total", "status"
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
	// insert (with its lines) or an error that cancels the claim.
	ClaimCart(ctx context.Context, owner, key string, build func(c Cart, placed int) (*Order, error)) (*Order, Claim, error)
	// PlacedFromCart counts the orders placed from owner's cart (not
	// pending ones), which makes a cart's checkout key change after each.
	PlacedFromCart(ctx context.Context, owner string) (int, error)
	// CompleteOrder marks a pending order processing and takes exactly its
	// lines' quantities out of its cart (lines added meanwhile stay), in
	// one transaction. An order that is not pending is an ECONFLICT.
	CompleteOrder(ctx context.Context, orderID string) error
	// ReleaseOrder deletes a pending order whose payment did not happen;
	// the cart was never touched.
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
