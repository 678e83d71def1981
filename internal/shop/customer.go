package shop

import (
	"context"
	"strings"
	"time"
)

// Customer is someone who buys from the shop, as the back office lists
// them: an account (with or without orders), or a guest, known only by
// the e-mail address of their orders. A guest order whose e-mail is an
// account's belongs to that account's customer: the person is the same,
// whether or not they signed in to check out.
type Customer struct {
	// Key names the customer: the account's id, or a guest's e-mail
	// address (normalised). An address always holds an @ and an id never
	// does, so the two cannot be mistaken for each other.
	Key string
	// Name is the account's display name, or, when it has none (and for a
	// guest), the name on the newest order's address.
	Name  string
	Email string
	// Guest: no account; the customer is known by e-mail only.
	Guest bool
	// Orders counts placed orders (cancelled ones too); Spent is what
	// they paid, less what was refunded; LastOrder is the newest one's
	// time (zero for none).
	Orders    int
	Spent     Cents
	LastOrder time.Time
}

// GuestKey reports whether key names a guest (an e-mail address) rather
// than an account.
func GuestKey(key string) bool { return strings.Contains(key, "@") }

// CustomerOrder is one of a customer's orders; GuestOrder marks one
// placed without signing in, matched to the account by its e-mail.
type CustomerOrder struct {
	Order
	GuestOrder bool
}

// CustomerQuery selects a page of customers. Search matches a part of
// the name or e-mail, in any case, also the name or e-mail of any of the
// customer's orders.
type CustomerQuery struct {
	Search string
	Page   int
}

// CustomersPageSize is how many customers a back-office page lists;
// CustomerPageShows how many of a customer's orders and messages their
// page shows, newest first.
const (
	CustomersPageSize = 25
	CustomerPageShows = 50
)

// CustomerNote is the staff's note on a customer: one text, the last
// saved, with who saved it and when. Email is the customer's address,
// when saving an account's note: it replaces the one the address had as
// a guest's.
type CustomerNote struct {
	Key   string
	Email string
	Text  string
	By    string
	At    time.Time
}

// MaxCustomerNote bounds a note, in characters.
const MaxCustomerNote = 5000

// MsgCustomerNotFound is the ENOTFOUND of an unknown customer.
const MsgCustomerNotFound = "Customer not found."

// CustomerStore is the back office's view of customers.
type CustomerStore interface {
	// Customers lists a page (1-based) of customers, the one with the
	// newest order first (those without orders last), and counts those
	// that match.
	Customers(ctx context.Context, q CustomerQuery) ([]Customer, int, error)
	// Customer returns the customer key names, or an ENOTFOUND. A guest
	// key (an e-mail) that is an account's address returns the account's
	// customer, whose Key differs from the one asked for.
	Customer(ctx context.Context, key string) (*Customer, error)
	// CustomerOrders lists the customer's newest placed orders, at most
	// CustomerPageShows.
	CustomerOrders(ctx context.Context, key string) ([]CustomerOrder, error)
	// CustomerMessages lists the newest contact messages sent from email
	// (in any case), at most CustomerPageShows.
	CustomerMessages(ctx context.Context, email string) ([]ContactMessage, error)
	// CustomerNote returns the note on the customer (a zero note, with
	// Key set, when there is none). For an account with no note of its
	// own, the note kept under its e-mail from its guest days is returned.
	CustomerNote(ctx context.Context, key, email string) (CustomerNote, error)
	// SaveCustomerNote replaces the note on n.Key; an empty text deletes
	// it.
	SaveCustomerNote(ctx context.Context, n CustomerNote) error
}

// ExportRange is the time span of an export: From included, To excluded.
type ExportRange struct{ From, To time.Time }

// ExportLine is one order line of the order lines export, with its
// order's number, time and currency.
type ExportLine struct {
	OrderID   string
	CreatedAt time.Time
	Currency  string
	OrderLine
}

// ExportStore reads the rows of the accountant's exports one at a time,
// calling each for every row as it is read, so no export is ever held in
// memory whole. An error from each stops the read and is returned.
type ExportStore interface {
	// ExportOrders reads the placed orders of r (without their lines),
	// oldest first.
	ExportOrders(ctx context.Context, r ExportRange, each func(*Order) error) error
	// ExportOrderLines reads the lines of the placed orders of r, oldest
	// order first, each order's lines in their order.
	ExportOrderLines(ctx context.Context, r ExportRange, each func(ExportLine) error) error
	// ExportCustomers reads the customers who placed an order in r, with
	// their orders, spending and last order counted within r, by key.
	ExportCustomers(ctx context.Context, r ExportRange, each func(Customer) error) error
}
