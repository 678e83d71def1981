package shop

import (
	"context"
	"time"
)

// Order statuses (spec §4). Pending marks an order whose payment is under
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

// Order is a placed order (spec §3).
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
	IdempotencyKey string
	CreatedAt      time.Time
	Lines          []OrderLine
}

// ItemCount is the number of items in the order.
func (o Order) ItemCount() int {
	n := 0
	for _, l := range o.Lines {
		n += l.Quantity
	}
	return n
}

// Totals are a checkout's sums (spec §9): tax is 10% of the subtotal,
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

// OrderStore keeps orders.
type OrderStore interface {
	// ClaimOrder inserts o as pending under its idempotency key. A key used
	// before returns the existing order and false.
	ClaimOrder(ctx context.Context, o *Order) (existing *Order, claimed bool, err error)
	// CompleteOrder marks a claimed order processing, stores its lines and
	// empties cartOwner's cart, in one transaction.
	CompleteOrder(ctx context.Context, orderID, cartOwner string, lines []OrderLine) error
	// ReleaseOrder deletes a claimed order whose payment failed.
	ReleaseOrder(ctx context.Context, orderID string) error
	Order(ctx context.Context, id string) (*Order, error)
	OrderByKey(ctx context.Context, idempotencyKey string) (*Order, error)
	Orders(ctx context.Context, q OrderQuery) ([]Order, int, error)
	CountOrders(ctx context.Context, userID string) (int, error)
	SaveCard(ctx context.Context, userID string, c SavedCard) error
	SavedCard(ctx context.Context, userID string) (*SavedCard, error)
	// InsertOrder stores a complete order as it is (demo data).
	InsertOrder(ctx context.Context, o *Order) error
}
