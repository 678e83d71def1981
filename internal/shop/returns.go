package shop

import (
	"context"
	"time"
)

// ReturnLine is some of one order line sent back.
type ReturnLine struct {
	// Line is the order line's position in Order.Lines.
	Line int
	// VariantID is the variant the line sold, which a restock goes to.
	VariantID string
	Quantity  int
	// Restock says the items went back into stock when received.
	Restock bool
	// Label names the item as the order line does (OrderLine.Label); the
	// store fills it in when it reads a request.
	Label string
}

// ReturnRequest is a shopper's request to send items of a delivered order
// back, and where it stands.
type ReturnRequest struct {
	ID      string
	OrderID string
	// Email is the order's address, read with the request (the back
	// office's list shows whose it is).
	Email string
	State ReturnState
	// Reason is one of the fixed reasons' codes (package returns);
	// Comment what the shopper added; StaffMessage what staff told the
	// shopper (why a request was rejected).
	Reason       string
	Comment      string
	StaffMessage string
	// Refunded is the refund made for it.
	Refunded Cents
	// RequestedBy is the shopper's account or guest id ("" for a visitor
	// who looked the order up); UpdatedBy the staff member of the last
	// step.
	RequestedBy string
	UpdatedBy   string
	CreatedAt   time.Time
	UpdatedAt   time.Time
	Lines       []ReturnLine
}

// ItemCount is the number of items sent back.
func (r ReturnRequest) ItemCount() int {
	n := 0
	for _, l := range r.Lines {
		n += l.Quantity
	}
	return n
}

// ReturnsPageSize is how many return requests a back-office page lists.
const ReturnsPageSize = 25

// ReturnQuery selects a page of every order's return requests.
type ReturnQuery struct {
	State ReturnState // "" any
	Page  int
}

// ReturnMove takes a return from one of From to To, with a message for the
// shopper (rejected), the lines put back into stock (received, by their
// Line) or the amount refunded (refunded). Each of From must be a move to
// To that ReturnMoves has; the returns service passes ReturnMoves.From(To).
type ReturnMove struct {
	ID       string
	From     []ReturnState
	To       ReturnState
	Message  string
	Restock  []int
	Refunded Cents
	Actor    string
	At       time.Time
}

// ReturnStore keeps return requests.
type ReturnStore interface {
	// CreateReturn stores r as requested, with its lines and an order
	// event, in one transaction; r.ID and r.CreatedAt are set when empty.
	// Each line is counted against what is left of its order line by a
	// conditional update, so requests racing for the same items never
	// return more than was bought: a line with too few left is an EINVALID
	// with MsgReturnTooMany or MsgReturnNoneLeft, placed next to the field
	// "qty-<line>", and nothing is stored. An order that is not delivered
	// is an ECONFLICT with MsgReturnNotDelivered; an unknown order or line
	// an ENOTFOUND.
	CreateReturn(ctx context.Context, r *ReturnRequest) error
	// ReturnRequest reads one request with its lines, or an ENOTFOUND with
	// MsgReturnNotFound.
	ReturnRequest(ctx context.Context, id string) (*ReturnRequest, error)
	// OrderReturns lists an order's requests, oldest first.
	OrderReturns(ctx context.Context, orderID string) ([]ReturnRequest, error)
	// ReturnRequests lists a page of every order's requests, newest first,
	// and counts all that match.
	ReturnRequests(ctx context.Context, q ReturnQuery) ([]ReturnRequest, int, error)
	// MoveReturn moves a request from one of m.From to m.To with an order
	// event, in one transaction; a request in another state is an
	// ECONFLICT with MsgReturnMoved (someone moved it first), and a move
	// ReturnMoves does not have (or no From) an EINVALID with
	// MsgReturnNoSuchMove, before anything is read. Rejecting
	// gives its items back to what may still be returned; receiving marks
	// the lines of m.Restock restocked and adds their quantities to their
	// variants' stock (a change, never an overwrite; a variant deleted
	// since is skipped); refunding records m.Refunded.
	MoveReturn(ctx context.Context, m ReturnMove) (*ReturnRequest, error)
}

// Messages of the return store, written once.
const (
	MsgReturnNotFound = "Return request not found."
	// MsgReturnMoved: %s is the request's state now.
	MsgReturnMoved = "This return is %s now: someone changed it meanwhile."
	// MsgReturnTooMany: %d is how many of the item may still be returned.
	MsgReturnTooMany = "You can return at most %d of this item."
	// MsgReturnNoneLeft: every one of the item is in a request already.
	MsgReturnNoneLeft = "This item is already in a return request."
	// MsgReturnNoSuchMove refuses a step ReturnMoves does not have.
	MsgReturnNoSuchMove = "That is not a step a return can take."
	// MsgReturnNotDelivered refuses a return of an order not delivered.
	MsgReturnNotDelivered = "Items can be returned once the order has been delivered."
)
