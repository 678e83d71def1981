package shop

import (
	"context"
	"time"
)

// Messages of the back-office stores, written once here so every backend
// says the same.
const (
	// MsgNoStaffAccount: %s is the e-mail that no account uses.
	MsgNoStaffAccount = "No account uses %s: the person signs up first."
	// MsgStaffUnverified: %s is the e-mail of an account nobody has shown
	// to be theirs yet; a role would go to whoever registered it.
	MsgStaffUnverified = "The account %s has not confirmed its e-mail address yet. Ask the person to open the link in their \"Confirm your e-mail address\" mail, to sign in with an e-mailed sign-in link, or to reset their password with \"Forgot password\"; then try again."
	MsgMessageNotFound = "Message not found."
	// MsgProductExists: %s is the id.
	MsgProductExists = "A product with id %s exists already."
	// MsgOrderMoved: %s is the order's status now.
	MsgOrderMoved = "This order is %s now: someone changed it meanwhile."
	// MsgNoSuchOrderMove refuses a move OrderMoves does not have (or one
	// only CompleteOrder makes); %s are the two statuses.
	MsgNoSuchOrderMove = "An order cannot go from %s to %s."
)

// Staff roles. An admin can do everything in the back office; a
// fulfilment member works orders and messages and sees the dashboard.
const (
	RoleAdmin      = "admin"
	RoleFulfilment = "fulfilment"
)

// StaffRoles are the roles `storefront staff add` accepts.
var StaffRoles = []string{RoleAdmin, RoleFulfilment}

// Staff is an account with a back-office role.
type Staff struct {
	UserID    string
	Email     string
	Role      string
	CreatedAt time.Time
}

// StaffStore keeps who is staff. Roles are read from the store on every
// back-office request, so a removed role takes effect at once on every
// instance.
type StaffStore interface {
	// GrantStaff gives the account with email the role (replacing any
	// other); an unknown e-mail is an ENOTFOUND, an account whose address
	// is not verified an EINVALID with MsgStaffUnverified.
	GrantStaff(ctx context.Context, email, role string) (*Staff, error)
	// RevokeStaff takes the role away and reports whether there was one.
	RevokeStaff(ctx context.Context, email string) (bool, error)
	// StaffRole is the user's role, "" for anyone who is not staff.
	StaffRole(ctx context.Context, userID string) (string, error)
	ListStaff(ctx context.Context) ([]Staff, error)
}

// AuditEntry is one staff action: who did what to what, when, and the
// state before and after (short texts, JSON for records).
type AuditEntry struct {
	ID        int64
	Actor     string
	Action    string
	Subject   string
	Before    string
	After     string
	CreatedAt time.Time
}

// AuditPageSize is how many audit entries a page shows.
const AuditPageSize = 50

// AuditStore keeps the audit log. It is append-only.
type AuditStore interface {
	RecordAudit(ctx context.Context, e AuditEntry) error
	// AuditLog returns a page (1-based) of entries, newest first, and the
	// number of entries.
	AuditLog(ctx context.Context, page int) ([]AuditEntry, int, error)
}

// OrderEvent is one step of an order's timeline.
type OrderEvent struct {
	Status string
	Note   string // carrier and tracking number, or why it was cancelled
	Actor  string // staff e-mail, ActorShopper, or "" for the shop itself
	At     time.Time
}

// ActorShopper marks what the shopper did themself.
const ActorShopper = "shopper"

// CancelWindow is how long after placing it a shopper may cancel an order
// themself: the returns policy's "modified or cancelled within 1 hour".
const CancelWindow = time.Hour

// AdminOrdersPageSize is how many orders a back-office page lists.
const AdminOrdersPageSize = 25

// AdminOrderQuery selects a page of all shoppers' orders. Zero values do
// not filter. To is exclusive.
type AdminOrderQuery struct {
	Status  OrderStatus
	Payment PaymentState // "" for any
	From    time.Time
	To      time.Time
	// Search matches an order number (prefix, any case) or the e-mail
	// address (exact, normalised).
	Search string
	Page   int
}

// Transition moves an order from one status to another.
type Transition struct {
	OrderID  string
	From, To OrderStatus
	Carrier  string // shipped only
	Tracking string // shipped only
	Reason   string // cancelled only
	// Unpaid cancels only while the payment is still awaited, so a payment
	// that arrives meanwhile is never cancelled and refunded behind the
	// staff's back.
	Unpaid bool
	Actor  string
	At     time.Time
	// Refund, when its Key is set, is the intent a cancel that refunds a
	// paid order records in its transaction, for what was left to refund
	// (its Was and Amount are filled in there).
	Refund RefundIntent
}

// FulfilmentStore is what the back office needs of orders.
type FulfilmentStore interface {
	// AdminOrders lists a page of placed orders (never pending ones),
	// newest first, and counts all that match.
	AdminOrders(ctx context.Context, q AdminOrderQuery) ([]Order, int, error)
	// OrderEvents is the order's timeline, oldest first.
	OrderEvents(ctx context.Context, orderID string) ([]OrderEvent, error)
	// TransitionOrder moves the order from t.From to t.To and records the
	// event, in one transaction; an order no longer in t.From is an
	// ECONFLICT (someone else moved it first), a move OrderMoves does not
	// have, or one from pending (CompleteOrder's), an EINVALID with
	// MsgNoSuchOrderMove. Cancelling puts the lines'
	// quantities back into stock and gives back the order's promo code
	// use in the same transaction.
	TransitionOrder(ctx context.Context, t Transition) (*Order, error)
}

// StockStore keeps product stock. Stock is taken in ClaimCart (one
// conditional update per line, in the claim's transaction: two shoppers
// racing for the last item cannot both get it) and given back by
// ReleaseOrder and by cancelling.
type StockStore interface {
	// Stock is a product's stock as it is now (never from a cache).
	Stock(ctx context.Context, productID string) (int, error)
	// StockChanges returns the stock of every product whose stock changed
	// at or after since, for the cards' in-memory copy.
	StockChanges(ctx context.Context, since time.Time) (map[string]int, error)
}

// ProductEdit is what staff change of a product.
type ProductEdit struct {
	Product
	New bool
	// StockWas is the stock the editor showed when it was loaded. Staff
	// change stock by typing a new number, but what is saved is the change
	// from StockWas, and only while the stored stock still is StockWas: a
	// sale made while the editor was open is never undone. When Stock
	// equals StockWas the save leaves stock alone.
	StockWas int
}

// MsgStockMoved is the message of the ECONFLICT a product save answers when
// the stock changed while staff were editing it; %d is the stock now.
const MsgStockMoved = "Stock changed while you were editing: it is now %d."

// AdminProductsPageSize is how many products a back-office page lists.
const AdminProductsPageSize = 25

// ProductAdminStore is the product editor's store.
type ProductAdminStore interface {
	// AdminProducts lists a page of every product (hidden ones included),
	// by id, whose id or title contains query, and counts them.
	AdminProducts(ctx context.Context, query string, page int) ([]Product, int, error)
	// AdminProduct returns a product, hidden or not.
	AdminProduct(ctx context.Context, id string) (*Product, error)
	// DeleteProduct removes a product with its variants and photos, takes
	// it out of every cart and wishlist and bumps the catalogue version;
	// orders keep their lines. A product that is gone (deleted already) is
	// an ENOTFOUND, so a delete confirmed twice deletes once.
	DeleteProduct(ctx context.Context, id string) error
	// SaveProduct creates (e.New, an existing id is an ECONFLICT) or
	// updates a product, marks it as edited by staff (imports leave it
	// alone from then on) and bumps the catalogue version. An update
	// changes stock as ProductEdit.StockWas says, and answers an ECONFLICT
	// with MsgStockMoved and the field "stock", saving nothing, when the
	// stored stock is no longer StockWas.
	SaveProduct(ctx context.Context, e ProductEdit) error
}

// InboxPageSize is how many messages a page of the inbox shows.
const InboxPageSize = 25

// InboxStore is the contact inbox.
type InboxStore interface {
	// Inbox lists a page of messages, newest first; unhandled only when
	// asked. It counts the messages that match.
	Inbox(ctx context.Context, unhandledOnly bool, page int) ([]ContactMessage, int, error)
	ContactMessage(ctx context.Context, id int64) (*ContactMessage, error)
	// MarkHandled marks a message handled by actor at; a message handled
	// already keeps its first mark and reports false.
	MarkHandled(ctx context.Context, id int64, actor string, at time.Time) (bool, error)
}

// DayTotal is one day of the dashboard's chart.
type DayTotal struct {
	Day     time.Time
	Orders  int
	Revenue Cents
}

// Dashboard is the back office's summary.
type Dashboard struct {
	OrdersToday  int
	RevenueToday Cents
	AwaitingShip int
	Unhandled    int
	LowStock     []Product // stock at or below LowStockLevel, least first
	Days         []DayTotal
}

// LowStockLevel is the stock at or below which the dashboard lists a
// product.
const LowStockLevel = 5

// DashboardStore computes the dashboard.
type DashboardStore interface {
	// Dashboard sums placed orders (cancelled ones left out of revenue)
	// from dayStart on for "today", and per day over the days days ending
	// with today.
	Dashboard(ctx context.Context, dayStart time.Time, days int) (Dashboard, error)
}
