package shop_test

import (
	"slices"
	"testing"

	"github.com/nocturne/storefront/internal/shop"
)

// Every table names only states its type lists, and each move once: a
// typo in a table would otherwise be a move nothing can make.
func TestMoves_KnownStates(t *testing.T) {
	checkTable(t, "order", shop.OrderMoves, shop.OrderStatus.Known)
	checkTable(t, "payment", shop.PaymentMoves, shop.PaymentState.Known)
	checkTable(t, "return", shop.ReturnMoves, shop.ReturnState.Known)
}

func checkTable[S ~string](t *testing.T, name string, m shop.Moves[S], known func(S) bool) {
	t.Helper()
	seen := map[shop.Move[S]]bool{}
	for _, mv := range m {
		if !known(mv.From) || !known(mv.To) {
			t.Errorf("%s move %s → %s: a state the type does not list", name, mv.From, mv.To)
		}
		if seen[mv] {
			t.Errorf("%s move %s → %s: listed twice", name, mv.From, mv.To)
		}
		seen[mv] = true
	}
}

func TestMoves_Queries(t *testing.T) {
	for _, tt := range []struct {
		name string
		got  []shop.ReturnState
		want []shop.ReturnState
	}{
		{"FromRejected", shop.ReturnMoves.From(shop.ReturnRejected), []shop.ReturnState{shop.ReturnRequested, shop.ReturnApproved}},
		{"FromRequested", shop.ReturnMoves.From(shop.ReturnRequested), nil},
		{"NextApproved", shop.ReturnMoves.Next(shop.ReturnApproved), []shop.ReturnState{shop.ReturnRejected, shop.ReturnReceived}},
		{"NextRefunded", shop.ReturnMoves.Next(shop.ReturnRefunded), nil},
	} {
		if !slices.Equal(tt.got, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, tt.got, tt.want)
		}
	}
	if !shop.OrderMoves.CanMove(shop.StatusShipped, shop.StatusDelivered) || shop.OrderMoves.CanMove(shop.StatusDelivered, shop.StatusShipped) {
		t.Error("order moves: shipped → delivered must be a move, delivered → shipped not")
	}
}

// A state written by a newer release reads as it is stored, has no moves
// and is not paid.
func TestStates_Unknown(t *testing.T) {
	for _, tt := range []struct{ name, got, want string }{
		{"Status", shop.StatusLabel("on_hold"), "on_hold"},
		{"Payment", shop.PaymentLabel("disputed"), "disputed"},
		{"Return", shop.ReturnStateLabel("lost"), "lost"},
		{"KnownStatus", shop.StatusLabel(shop.StatusShipped), "Shipped"},
	} {
		if tt.got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, tt.got, tt.want)
		}
	}
	if shop.OrderStatus("on_hold").Known() || len(shop.OrderMoves.Next("on_hold")) != 0 {
		t.Error("on_hold is known or has moves")
	}
	if (shop.Order{PaymentStatus: "disputed"}).Paid() {
		t.Error("an unknown payment state counts as paid")
	}
}
