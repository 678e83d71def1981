package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// StatesStore is what the walk of the transition tables needs: orders,
// their payments and their returns.
type StatesStore interface {
	ReturnsStore
	shop.PaymentStore
}

// testStates walks every pair (from, to) of each transition table of
// package shop and proves the store performs each move the table has and
// refuses every other one, leaving the state as it was. Each move is made
// by the store operation that moves into to, as the services call it.
// The walk shares one store: every pair gets its own order or request.
func testStates(t *testing.T, b Backend) {
	s, _, clock := b.open(t)
	ss, ok := s.(StatesStore)
	if !ok {
		t.Skipf("%T does not implement the order, payment and return stores", s)
	}
	t.Run("OrderMoves", func(t *testing.T) { walkOrderMoves(t, ss, clock) })
	t.Run("PaymentMoves", func(t *testing.T) { walkPaymentMoves(t, ss, clock) })
	t.Run("ReturnMoves", func(t *testing.T) { walkReturnMoves(t, ss, clock) })
}

// onHold stands for a status a newer release wrote: no move leads out of
// it or into it.
const onHold shop.OrderStatus = "on_hold"

func walkOrderMoves(t *testing.T, s StatesStore, clock *Clock) {
	ctx := context.Background()
	states := append(append([]shop.OrderStatus{}, shop.AllOrderStatuses...), onHold)
	allowed := 0
	for _, from := range states {
		for _, to := range states {
			id := fmt.Sprintf("NOC-%s-%s", from, to)
			o := order(id, "u1", from, 1000, clock.Now())
			o.PaymentStatus, o.PaidAt = shop.PaymentPaid, clock.Now()
			if from == shop.StatusPending {
				o.PaymentStatus, o.PaidAt = shop.PaymentAwaiting, time.Time{}
			}
			must(t, s.InsertOrder(ctx, o))
			var err error
			if to == shop.StatusProcessing {
				// Only completing a pending order's payment places it.
				err = s.CompleteOrder(ctx, id, true)
			} else {
				_, err = s.TransitionOrder(ctx, shop.Transition{OrderID: id, From: from, To: to,
					Carrier: "UPS", Tracking: "1Z999", Reason: "Out of stock", At: clock.Now()})
			}
			got, rerr := s.Order(ctx, id)
			must(t, rerr)
			if shop.OrderMoves.CanMove(from, to) {
				allowed++
				if err != nil || got.Status != to {
					t.Errorf("%s → %s: got %s, %v; want the move made", from, to, got.Status, err)
				}
			} else if err == nil || got.Status != from {
				t.Errorf("%s → %s: got %s, %v; want it refused and the order left %s", from, to, got.Status, err, from)
			}
		}
	}
	if allowed != len(shop.OrderMoves) {
		t.Errorf("walked %d allowed moves, the table has %d", allowed, len(shop.OrderMoves))
	}
	// A pending order is placed only by completing its payment, never by
	// a staff move, though the table has the move.
	o := order("NOC-pending-by-staff", "u1", shop.StatusPending, 1000, clock.Now())
	o.PaymentStatus = shop.PaymentAwaiting
	must(t, s.InsertOrder(ctx, o))
	_, err := s.TransitionOrder(ctx, shop.Transition{OrderID: o.ID, From: shop.StatusPending, To: shop.StatusProcessing})
	wantCode(t, "pending → processing by a staff move", err, shop.EINVALID, "")
}

// paymentMove is the store operation that moves a payment into a state,
// as the services call it; awaiting has none (a claim starts there).
func paymentMove(ctx context.Context, s StatesStore, o *shop.Order, to shop.PaymentState, at time.Time) error {
	switch to {
	case shop.PaymentPaid:
		_, err := s.MarkPaid(ctx, o.ID, "ada@example.com", at)
		return err
	case shop.PaymentPartiallyRefunded:
		return s.ClaimRefund(ctx, shop.RefundClaim{OrderID: o.ID, Was: o.Refunded, Amount: 100, Note: "Refunded 1.00", Actor: "ada@example.com", At: at})
	case shop.PaymentRefunded:
		return s.ClaimRefund(ctx, shop.RefundClaim{OrderID: o.ID, Was: o.Refunded, Amount: o.Total - o.Refunded, Note: "Refunded in full", Actor: "ada@example.com", At: at})
	case shop.PaymentFailed:
		_, err := s.TransitionOrder(ctx, shop.Transition{OrderID: o.ID, From: shop.StatusProcessing, To: shop.StatusCancelled,
			Reason: "Not paid", Unpaid: true, At: at})
		return err
	}
	return fmt.Errorf("no operation moves a payment to %s", to)
}

func walkPaymentMoves(t *testing.T, s StatesStore, clock *Clock) {
	ctx := context.Background()
	if from := shop.PaymentMoves.From(shop.PaymentAwaiting); len(from) != 0 {
		t.Errorf("moves into awaiting: %v; the walk has no operation for them", from)
	}
	// What each state has refunded of a total of 1000.
	refunded := map[shop.PaymentState]shop.Cents{shop.PaymentPartiallyRefunded: 400, shop.PaymentRefunded: 1000}
	allowed := 0
	for _, from := range shop.PaymentStates {
		for _, to := range shop.PaymentStates {
			o := order(fmt.Sprintf("NOC-pay-%s-%s", from, to), "u1", shop.StatusProcessing, 1000, clock.Now())
			o.PaymentStatus, o.Refunded = from, refunded[from]
			if from.Taken() || from == shop.PaymentRefunded {
				o.PaidAt = clock.Now()
			}
			must(t, s.InsertOrder(ctx, o))
			err := paymentMove(ctx, s, o, to, clock.Now())
			got, rerr := s.Order(ctx, o.ID)
			must(t, rerr)
			if shop.PaymentMoves.CanMove(from, to) {
				allowed++
				if err != nil || got.PaymentStatus != to {
					t.Errorf("%s → %s: got %s, %v; want the move made", from, to, got.PaymentStatus, err)
				}
			} else if err == nil || got.PaymentStatus != from {
				t.Errorf("%s → %s: got %s, %v; want it refused and the payment left %s", from, to, got.PaymentStatus, err, from)
			}
		}
	}
	if allowed != len(shop.PaymentMoves) {
		t.Errorf("walked %d allowed moves, the table has %d", allowed, len(shop.PaymentMoves))
	}
}

// returnPath is the moves that take a new request to state, found in the
// table itself (breadth first from requested).
func returnPath(t *testing.T, state shop.ReturnState) []shop.ReturnState {
	t.Helper()
	paths := map[shop.ReturnState][]shop.ReturnState{shop.ReturnRequested: nil}
	queue := []shop.ReturnState{shop.ReturnRequested}
	for len(queue) > 0 {
		at := queue[0]
		queue = queue[1:]
		for _, next := range shop.ReturnMoves.Next(at) {
			if _, seen := paths[next]; !seen {
				paths[next] = append(append([]shop.ReturnState{}, paths[at]...), next)
				queue = append(queue, next)
			}
		}
	}
	path, ok := paths[state]
	if !ok {
		t.Fatalf("no request can reach %s", state)
	}
	return path
}

func walkReturnMoves(t *testing.T, s StatesStore, clock *Clock) {
	ctx := context.Background()
	// One delivered order with enough of its item for a request per pair.
	o := order("NOC-returns", "u1", shop.StatusDelivered, 1000, clock.Now())
	o.Lines[0].Quantity = len(shop.ReturnStates) * len(shop.ReturnStates)
	must(t, s.InsertOrder(ctx, o))
	move := func(id string, from []shop.ReturnState, to shop.ReturnState) (*shop.ReturnRequest, error) {
		return s.MoveReturn(ctx, shop.ReturnMove{ID: id, From: from, To: to, Message: "Not as sent", Refunded: 100,
			Actor: "ada@example.com", At: clock.Now()})
	}
	allowed := 0
	for _, from := range shop.ReturnStates {
		for _, to := range shop.ReturnStates {
			r := &shop.ReturnRequest{ID: fmt.Sprintf("RET-%s-%s", from, to), OrderID: o.ID, Reason: "other",
				Lines: []shop.ReturnLine{{Line: 0, Quantity: 1}}}
			must(t, s.CreateReturn(ctx, r))
			for _, step := range returnPath(t, from) {
				_, err := move(r.ID, shop.ReturnMoves.From(step), step)
				must(t, err)
			}
			// As the returns service asks: from every state the table
			// moves to to.
			_, err := move(r.ID, shop.ReturnMoves.From(to), to)
			got, rerr := s.ReturnRequest(ctx, r.ID)
			must(t, rerr)
			if shop.ReturnMoves.CanMove(from, to) {
				allowed++
				if err != nil || got.State != to {
					t.Errorf("%s → %s: got %s, %v; want the move made", from, to, got.State, err)
				}
				continue
			}
			if err == nil || got.State != from {
				t.Errorf("%s → %s: got %s, %v; want it refused and the request left %s", from, to, got.State, err, from)
			}
			// Asked for in so many words, the move is refused too.
			_, err = move(r.ID, []shop.ReturnState{from}, to)
			wantCode(t, fmt.Sprintf("%s → %s asked for", from, to), err, shop.EINVALID, shop.MsgReturnNoSuchMove)
			if got, _ := s.ReturnRequest(ctx, r.ID); got.State != from {
				t.Errorf("%s → %s asked for: got %s, want it left %s", from, to, got.State, from)
			}
		}
	}
	if allowed != len(shop.ReturnMoves) {
		t.Errorf("walked %d allowed moves, the table has %d", allowed, len(shop.ReturnMoves))
	}
}
