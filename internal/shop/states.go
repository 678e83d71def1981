package shop

// An order's status, its payment's state and a return's state each have a
// named type and one table of the moves it may take. Every rule that
// decides a move reads that table: the services before they ask for one,
// and the stores, whose conditional updates take their "from" states from
// it (OrderMoves.From(to) becomes "status IN (…)"). A move is written in
// one place, so a guard in Go and a WHERE in SQL cannot disagree. See
// decision 0019.
//
// The types keep the spellings stored in the database. A value no table
// knows (a status written by a newer release) is still read and listed:
// its label is the value itself, and no move leads out of it.

// A Move is one step a state may take, from From to To.
type Move[S ~string] struct{ From, To S }

// Moves is a transition table: every move a kind of state may take, and
// no other.
type Moves[S ~string] []Move[S]

// CanMove reports whether the table has the move from → to.
func (m Moves[S]) CanMove(from, to S) bool {
	for _, mv := range m {
		if mv.From == from && mv.To == to {
			return true
		}
	}
	return false
}

// From lists the states that may move to to, in the table's order: the
// states a conditional update to to may start from.
func (m Moves[S]) From(to S) []S {
	var out []S
	for _, mv := range m {
		if mv.To == to {
			out = append(out, mv.From)
		}
	}
	return out
}

// Next lists the states from may move to, in the table's order.
func (m Moves[S]) Next(from S) []S {
	var out []S
	for _, mv := range m {
		if mv.From == from {
			out = append(out, mv.To)
		}
	}
	return out
}

// OrderStatus is where an order is in its fulfilment (the spec's states
// and transitions). Pending marks an order whose payment is under way;
// shoppers and staff never see it.
type OrderStatus string

// Order statuses, as stored.
const (
	StatusPending    OrderStatus = "pending"
	StatusProcessing OrderStatus = "processing"
	StatusShipped    OrderStatus = "shipped"
	StatusDelivered  OrderStatus = "delivered"
	StatusCancelled  OrderStatus = "cancelled"
)

// OrderMoves are the moves of an order's status. A pending order becomes
// processing when its payment is settled (OrderStore.CompleteOrder); staff
// ship a processing order (only a paid one: TransitionOrder checks the
// payment in the same statement) or cancel it, and mark a shipped one
// delivered. Delivered and cancelled are the ends. A shopper cancels
// through the same move as staff.
var OrderMoves = Moves[OrderStatus]{
	{StatusPending, StatusProcessing},
	{StatusProcessing, StatusShipped},
	{StatusProcessing, StatusCancelled},
	{StatusShipped, StatusDelivered},
}

// AllOrderStatuses are every status the table knows, in the order an
// order goes through them.
var AllOrderStatuses = []OrderStatus{StatusPending, StatusProcessing, StatusShipped, StatusDelivered, StatusCancelled}

// OrderStatuses are the statuses a shopper or staff member can filter by:
// every placed one.
var OrderStatuses = []OrderStatus{StatusProcessing, StatusShipped, StatusDelivered, StatusCancelled}

// Known reports whether the table knows s; a status written by a newer
// release is not known, and no move leads out of it.
func (s OrderStatus) Known() bool { return known(AllOrderStatuses, s) }

// StatusLabel is how an order status reads on a page; a status the shop
// does not know reads as it is stored.
func StatusLabel(s OrderStatus) string {
	switch s {
	case StatusPending:
		return "Confirming payment"
	case StatusProcessing:
		return "Processing"
	case StatusShipped:
		return "Shipped"
	case StatusDelivered:
		return "Delivered"
	case StatusCancelled:
		return "Cancelled"
	}
	return string(s)
}

// PaymentState is an order's payment, apart from where its parcel is.
type PaymentState string

// Payment states, as stored.
const (
	PaymentAwaiting          PaymentState = "awaiting"
	PaymentPaid              PaymentState = "paid"
	PaymentPartiallyRefunded PaymentState = "partially_refunded"
	PaymentRefunded          PaymentState = "refunded"
	PaymentFailed            PaymentState = "failed"
)

// PaymentMoves are the moves of a payment, which only goes forward: an
// awaited payment arrives (paid) or the order is cancelled unpaid
// (failed); a paid one is refunded in part, again in part, or in full (a
// refund that reaches the total, or cancelling). PaymentStore.UndoRefund
// is no move of its own: it takes back a refund the provider refused, in
// the moment after it was claimed, so the state is the one before it.
var PaymentMoves = Moves[PaymentState]{
	{PaymentAwaiting, PaymentPaid},
	{PaymentAwaiting, PaymentFailed},
	{PaymentPaid, PaymentPartiallyRefunded},
	{PaymentPaid, PaymentRefunded},
	{PaymentPartiallyRefunded, PaymentPartiallyRefunded},
	{PaymentPartiallyRefunded, PaymentRefunded},
}

// PaymentStates are the payment states staff can filter by, in their order.
var PaymentStates = []PaymentState{PaymentAwaiting, PaymentPaid, PaymentPartiallyRefunded, PaymentRefunded, PaymentFailed}

// Known reports whether the table knows s.
func (s PaymentState) Known() bool { return known(PaymentStates, s) }

// Taken reports whether the payment's money was taken and not all given
// back: exactly the states a refund may still start from.
func (s PaymentState) Taken() bool { return PaymentMoves.CanMove(s, PaymentRefunded) }

// PaymentLabel is how a payment state reads on a page; a state the shop
// does not know reads as it is stored.
func PaymentLabel(state PaymentState) string {
	switch state {
	case PaymentAwaiting:
		return "Awaiting payment"
	case PaymentPaid:
		return "Paid"
	case PaymentPartiallyRefunded:
		return "Partially refunded"
	case PaymentRefunded:
		return "Refunded"
	case PaymentFailed:
		return "Not paid"
	}
	return string(state)
}

// ReturnState is where a return request stands.
type ReturnState string

// Return states, as stored.
const (
	ReturnRequested ReturnState = "requested"
	ReturnApproved  ReturnState = "approved"
	ReturnRejected  ReturnState = "rejected"
	ReturnReceived  ReturnState = "received"
	ReturnRefunded  ReturnState = "refunded"
)

// ReturnMoves are the moves of a return (decision 0015): staff approve or
// reject a request, reject an approved one whose items never came, mark
// an approved one's items received, and refund a received one. Rejected
// and refunded are the ends.
var ReturnMoves = Moves[ReturnState]{
	{ReturnRequested, ReturnApproved},
	{ReturnRequested, ReturnRejected},
	{ReturnApproved, ReturnRejected},
	{ReturnApproved, ReturnReceived},
	{ReturnReceived, ReturnRefunded},
}

// ReturnStates are the states in the order a return goes through them,
// for the back office's filter.
var ReturnStates = []ReturnState{ReturnRequested, ReturnApproved, ReturnReceived, ReturnRefunded, ReturnRejected}

// Known reports whether the table knows s.
func (s ReturnState) Known() bool { return known(ReturnStates, s) }

// ReturnStateLabel is how a return's state reads on a page or in a mail;
// a state the shop does not know reads as it is stored.
func ReturnStateLabel(state ReturnState) string {
	switch state {
	case ReturnRequested:
		return "Requested"
	case ReturnApproved:
		return "Approved"
	case ReturnRejected:
		return "Rejected"
	case ReturnReceived:
		return "Received"
	case ReturnRefunded:
		return "Refunded"
	}
	return string(state)
}

// ReturnEvent is the order event a return reaching state records
// ("return_approved"), so an order's timeline tells its returns too.
func ReturnEvent(state ReturnState) string { return "return_" + string(state) }

// known reports whether s is one of all.
func known[S ~string](all []S, s S) bool {
	for _, x := range all {
		if x == s {
			return true
		}
	}
	return false
}
