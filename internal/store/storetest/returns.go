package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// ReturnsStore is a back-office store that also keeps return requests.
type ReturnsStore interface {
	BackOfficeStore
	shop.ReturnStore
}

// testReturns checks return requests: only a delivered order takes one,
// each line never returns more than was bought (also with requests racing
// for the last items), every move is conditional and leaves an order
// event, a rejection frees the items, receiving restocks only the lines
// asked for, and the back office's list pages and filters.
func testReturns(t *testing.T, b Backend) {
	open := func(t *testing.T) (ReturnsStore, *Clock) {
		s, _, clock := b.open(t)
		rs, ok := s.(ReturnsStore)
		if !ok {
			t.Skipf("%T does not implement the return store", s)
		}
		return rs, clock
	}
	t.Run("Flow", func(t *testing.T) { s, clock := open(t); returnFlow(t, s, clock) })
	t.Run("RejectFreesItems", func(t *testing.T) { s, _ := open(t); returnReject(t, s) })
	t.Run("Race", func(t *testing.T) { s, _ := open(t); returnRace(t, s) })
	t.Run("List", func(t *testing.T) { s, clock := open(t); returnList(t, s, clock) })
	t.Run("FinalSale", func(t *testing.T) { s, _ := open(t); finalSale(t, s) })
	t.Run("RefundMarksReturn", func(t *testing.T) { s, _ := open(t); refundMarksReturn(t, s) })
}

// A return's refund is counted and the return marked refunded in one
// transaction: a return not (or no longer) received fails the claim and
// counts nothing, and taking the refund back unmarks the return.
func refundMarksReturn(t *testing.T, s ReturnsStore) {
	ctx := context.Background()
	pay, ok := s.(shop.PaymentStore)
	if !ok {
		t.Skipf("%T does not implement the payment store", s)
	}
	seedStock(t, s, map[string]int{"lamp": 5})
	o := deliveredOrder(t, s, "guest_r", map[string]int{"lamp": 2}, "lamp")
	r := &shop.ReturnRequest{OrderID: o.ID, Reason: "other", Lines: []shop.ReturnLine{{Line: 0, Quantity: 1}}}
	must(t, s.CreateReturn(ctx, r))
	c := shop.RefundClaim{OrderID: o.ID, ReturnID: r.ID, Amount: 300, Note: "Refunded 3.00", Actor: "ada@example.com", At: time.Now()}
	err := pay.ClaimRefund(ctx, c)
	wantCode(t, "refund of a return only requested", err, shop.ECONFLICT, fmt.Sprintf(shop.MsgReturnMoved, "requested"))
	if got, _ := s.Order(ctx, o.ID); got.Refunded != 0 {
		t.Fatalf("a refused claim counted %v", got.Refunded)
	}
	for _, to := range []shop.ReturnState{shop.ReturnApproved, shop.ReturnReceived} {
		_, err := s.MoveReturn(ctx, shop.ReturnMove{ID: r.ID, From: shop.ReturnMoves.From(to), To: to, Actor: "ada@example.com"})
		must(t, err)
	}
	must(t, pay.ClaimRefund(ctx, c))
	got, _ := s.Order(ctx, o.ID)
	back, err := s.ReturnRequest(ctx, r.ID)
	must(t, err)
	if got.Refunded != 300 || back.State != shop.ReturnRefunded || back.Refunded != 300 {
		t.Fatalf("after the claim: order refunded %v, return %s with %v", got.Refunded, back.State, back.Refunded)
	}
	// The same return again: marked already, so nothing more is counted.
	again := c
	again.Was = 300
	err = pay.ClaimRefund(ctx, again)
	wantCode(t, "a second refund of the return", err, shop.ECONFLICT, fmt.Sprintf(shop.MsgReturnMoved, "refunded"))
	if got, _ := s.Order(ctx, o.ID); got.Refunded != 300 {
		t.Errorf("a second claim of the return counted: %v", got.Refunded)
	}
	// The provider refused: both are taken back.
	must(t, pay.UndoRefund(ctx, c))
	got, _ = s.Order(ctx, o.ID)
	back, _ = s.ReturnRequest(ctx, r.ID)
	if got.Refunded != 0 || back.State != shop.ReturnReceived || back.Refunded != 0 {
		t.Errorf("after the undo: order refunded %v, return %s with %v", got.Refunded, back.State, back.Refunded)
	}
}

// Every product can be returned until staff mark it final sale; an import
// leaves the mark alone.
func finalSale(t *testing.T, s ReturnsStore) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"lamp": 5})
	p, err := s.AdminProduct(ctx, "lamp")
	must(t, err)
	if p.FinalSale {
		t.Fatal("a new product is final sale")
	}
	p.FinalSale = true
	must(t, s.SaveProduct(ctx, shop.ProductEdit{Product: *p, StockWas: p.Stock}))
	seedStock(t, s, map[string]int{"lamp": 5}) // a re-import
	for what, read := range map[string]func() (*shop.Product, error){
		"editor": func() (*shop.Product, error) { return s.AdminProduct(ctx, "lamp") },
		"shop":   func() (*shop.Product, error) { return s.Product(ctx, "lamp") },
	} {
		if p, err := read(); err != nil || !p.FinalSale {
			t.Errorf("%s: final sale %v, %v", what, p != nil && p.FinalSale, err)
		}
	}
	p.FinalSale = false
	must(t, s.SaveProduct(ctx, shop.ProductEdit{Product: *p, StockWas: p.Stock}))
	if p, _ := s.AdminProduct(ctx, "lamp"); p.FinalSale {
		t.Error("final sale could not be taken back")
	}
}

// deliveredOrder has owner buy qty of each product (in that order) and
// takes the order through shipping to delivered.
func deliveredOrder(t *testing.T, s ReturnsStore, owner string, qty map[string]int, ids ...string) *shop.Order {
	t.Helper()
	ctx := context.Background()
	for _, id := range ids {
		must(t, s.AddToCart(ctx, owner, id, qty[id]))
	}
	o, err := claim(ctx, s, owner, owner)
	must(t, err)
	must(t, s.CompleteOrder(ctx, o.ID, true))
	_, err = s.TransitionOrder(ctx, shop.Transition{OrderID: o.ID, From: shop.StatusProcessing, To: shop.StatusShipped, Carrier: "UPS", Tracking: "1Z1"})
	must(t, err)
	o, err = s.TransitionOrder(ctx, shop.Transition{OrderID: o.ID, From: shop.StatusShipped, To: shop.StatusDelivered})
	must(t, err)
	return o
}

// lineOf is the position in o of the line that sold product.
func lineOf(t *testing.T, o *shop.Order, product string) int {
	t.Helper()
	for i, l := range o.Lines {
		if l.ProductID == product {
			return i
		}
	}
	t.Fatalf("order %s has no line of %s", o.ID, product)
	return -1
}

func returnFlow(t *testing.T, s ReturnsStore, clock *Clock) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"lamp": 5, "torch": 5})

	// An order not delivered yet takes no request.
	must(t, s.AddToCart(ctx, "guest_early", "lamp", 1))
	early, err := claim(ctx, s, "guest_early", "early")
	must(t, err)
	must(t, s.CompleteOrder(ctx, early.ID, true))
	err = s.CreateReturn(ctx, &shop.ReturnRequest{OrderID: early.ID, Reason: "other", Lines: []shop.ReturnLine{{Line: 0, Quantity: 1}}})
	wantCode(t, "return of a processing order", err, shop.ECONFLICT, shop.MsgReturnNotDelivered)
	err = s.CreateReturn(ctx, &shop.ReturnRequest{OrderID: "NOC-NONE", Reason: "other", Lines: []shop.ReturnLine{{Line: 0, Quantity: 1}}})
	wantCode(t, "return of an unknown order", err, shop.ENOTFOUND, shop.MsgOrderNotFound)

	o := deliveredOrder(t, s, "guest_1", map[string]int{"lamp": 2, "torch": 1}, "lamp", "torch")
	lamp, torch := lineOf(t, o, "lamp"), lineOf(t, o, "torch")
	if n, _ := s.Stock(ctx, "lamp"); n != 2 { // the early order's and this one's taken
		t.Fatalf("lamp stock after the orders: %d", n)
	}

	// More than was bought is refused next to the line, and stores nothing.
	err = s.CreateReturn(ctx, &shop.ReturnRequest{OrderID: o.ID, Reason: "doesnt_fit",
		Lines: []shop.ReturnLine{{Line: torch, Quantity: 1}, {Line: lamp, Quantity: 3}}})
	wantCode(t, "return of 3 of 2", err, shop.EINVALID, fmt.Sprintf(shop.MsgReturnTooMany, 2))
	if f := shop.ErrorField(err); f != fmt.Sprintf("qty-%d", lamp) {
		t.Errorf("refusal's field %q, want the lamp's", f)
	}
	if rs, err := s.OrderReturns(ctx, o.ID); err != nil || len(rs) != 0 {
		t.Fatalf("a refused request left %+v, %v", rs, err)
	}

	clock.Add(time.Hour)
	r := &shop.ReturnRequest{OrderID: o.ID, Reason: "doesnt_fit", Comment: "Too small", RequestedBy: "guest_1",
		Lines: []shop.ReturnLine{{Line: lamp, Quantity: 1}, {Line: torch, Quantity: 1}}}
	must(t, s.CreateReturn(ctx, r))
	if r.ID == "" || r.State != shop.ReturnRequested || !r.CreatedAt.Equal(clock.Now()) {
		t.Errorf("created: %+v", r)
	}
	got, err := s.ReturnRequest(ctx, r.ID)
	if err != nil || got.OrderID != o.ID || got.Email != o.Email || got.State != shop.ReturnRequested || got.Reason != "doesnt_fit" ||
		got.Comment != "Too small" || got.RequestedBy != "guest_1" || len(got.Lines) != 2 || got.ItemCount() != 2 {
		t.Fatalf("read back: %+v, %v", got, err)
	}
	if l := got.Lines[0]; l.Line != min(lamp, torch) || l.VariantID == "" || l.Label == "" || l.Restock {
		t.Errorf("first line: %+v", l)
	}
	// What is left: one lamp, no torch.
	err = s.CreateReturn(ctx, &shop.ReturnRequest{OrderID: o.ID, Reason: "other", Lines: []shop.ReturnLine{{Line: torch, Quantity: 1}}})
	wantCode(t, "a second return of the torch", err, shop.EINVALID, shop.MsgReturnNoneLeft)
	if _, err := s.ReturnRequest(ctx, "RET-NONE"); shop.ErrorCode(err) != shop.ENOTFOUND {
		t.Errorf("unknown return: %v", err)
	}

	// Steps taken out of turn are refused with the state there is.
	_, err = s.MoveReturn(ctx, shop.ReturnMove{ID: r.ID, From: []shop.ReturnState{shop.ReturnApproved}, To: shop.ReturnReceived, Actor: "ada@example.com"})
	wantCode(t, "receive a return not approved", err, shop.ECONFLICT, fmt.Sprintf(shop.MsgReturnMoved, "requested"))
	_, err = s.MoveReturn(ctx, shop.ReturnMove{ID: "RET-NONE", From: []shop.ReturnState{shop.ReturnRequested}, To: shop.ReturnApproved})
	wantCode(t, "move an unknown return", err, shop.ENOTFOUND, shop.MsgReturnNotFound)

	clock.Add(time.Hour)
	got, err = s.MoveReturn(ctx, shop.ReturnMove{ID: r.ID, From: []shop.ReturnState{shop.ReturnRequested}, To: shop.ReturnApproved, Actor: "ada@example.com"})
	if err != nil || got.State != shop.ReturnApproved || got.UpdatedBy != "ada@example.com" || !got.UpdatedAt.Equal(clock.Now()) {
		t.Fatalf("approve: %+v, %v", got, err)
	}
	// Received: only the lamp goes back on sale, as a change of the stock
	// there is now (a sale meanwhile stays counted).
	must(t, s.AddToCart(ctx, "guest_later", "lamp", 1))
	later, err := claim(ctx, s, "guest_later", "later")
	must(t, err)
	must(t, s.CompleteOrder(ctx, later.ID, true))
	got, err = s.MoveReturn(ctx, shop.ReturnMove{ID: r.ID, From: []shop.ReturnState{shop.ReturnApproved}, To: shop.ReturnReceived, Restock: []int{lamp}, Actor: "ada@example.com"})
	if err != nil || got.State != shop.ReturnReceived {
		t.Fatalf("receive: %+v, %v", got, err)
	}
	for _, l := range got.Lines {
		if l.Restock != (l.Line == lamp) {
			t.Errorf("line %d restock %v", l.Line, l.Restock)
		}
	}
	if n, _ := s.Stock(ctx, "lamp"); n != 2 {
		t.Errorf("lamp stock after a sale and a restock of 1: %d, want 2", n)
	}
	if n, _ := s.Stock(ctx, "torch"); n != 4 {
		t.Errorf("torch stock, not restocked: %d, want 4", n)
	}
	got, err = s.MoveReturn(ctx, shop.ReturnMove{ID: r.ID, From: []shop.ReturnState{shop.ReturnReceived}, To: shop.ReturnRefunded, Refunded: 1234, Actor: "ada@example.com"})
	if err != nil || got.State != shop.ReturnRefunded || got.Refunded != 1234 {
		t.Fatalf("refund: %+v, %v", got, err)
	}
	_, err = s.MoveReturn(ctx, shop.ReturnMove{ID: r.ID, From: []shop.ReturnState{shop.ReturnReceived}, To: shop.ReturnRefunded, Refunded: 1234})
	wantCode(t, "refund twice", err, shop.ECONFLICT, fmt.Sprintf(shop.MsgReturnMoved, "refunded"))

	// Every step is on the order's timeline, by whom.
	events, err := s.OrderEvents(ctx, o.ID)
	must(t, err)
	var steps []string
	for _, e := range events {
		steps = append(steps, e.Status+"/"+e.Actor)
	}
	want := []string{"shipped/", "delivered/", "return_requested/shopper", "return_approved/ada@example.com",
		"return_received/ada@example.com", "return_refunded/ada@example.com"}
	if fmt.Sprint(steps) != fmt.Sprint(want) {
		t.Errorf("timeline %v, want %v", steps, want)
	}
	if n := events[2].Note; n != r.ID+": 1 × Product lamp, 1 × Product torch" && n != r.ID+": 1 × Product torch, 1 × Product lamp" {
		t.Errorf("request's note %q", n)
	}
}

// A rejected request gives its items back to what may be returned, with
// the staff's message kept and on the timeline.
func returnReject(t *testing.T, s ReturnsStore) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"lamp": 5})
	o := deliveredOrder(t, s, "guest_1", map[string]int{"lamp": 1}, "lamp")
	r := &shop.ReturnRequest{OrderID: o.ID, Reason: "changed_mind", Lines: []shop.ReturnLine{{Line: 0, Quantity: 1}}}
	must(t, s.CreateReturn(ctx, r))
	got, err := s.MoveReturn(ctx, shop.ReturnMove{ID: r.ID, From: []shop.ReturnState{shop.ReturnRequested, shop.ReturnApproved}, To: shop.ReturnRejected,
		Message: "Worn items can't be returned.", Actor: "ada@example.com"})
	if err != nil || got.State != shop.ReturnRejected || got.StaffMessage != "Worn items can't be returned." {
		t.Fatalf("reject: %+v, %v", got, err)
	}
	events, _ := s.OrderEvents(ctx, o.ID)
	if last := events[len(events)-1]; last.Status != shop.ReturnEvent(shop.ReturnRejected) || last.Note != r.ID+": Worn items can't be returned." {
		t.Errorf("rejection event %+v", last)
	}
	again := &shop.ReturnRequest{OrderID: o.ID, Reason: "other", Lines: []shop.ReturnLine{{Line: 0, Quantity: 1}}}
	if err := s.CreateReturn(ctx, again); err != nil {
		t.Errorf("the item of a rejected request cannot be asked for again: %v", err)
	}
	if n, _ := s.Stock(ctx, "lamp"); n != 4 {
		t.Errorf("a rejection changed the stock: %d", n)
	}
}

// Shoppers (or tabs) racing to return the same items: exactly as many
// requests as items go through, the rest are refused next to the line.
func returnRace(t *testing.T, s ReturnsStore) {
	ctx := context.Background()
	for _, tc := range []struct{ bought, racers int }{{1, 6}, {3, 10}} {
		id := fmt.Sprintf("race-%d", tc.bought)
		seedStock(t, s, map[string]int{id: 20})
		o := deliveredOrder(t, s, "guest_"+id, map[string]int{id: tc.bought}, id)
		var wg sync.WaitGroup
		start := make(chan struct{})
		errs := make([]error, tc.racers)
		for i := range tc.racers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				errs[i] = s.CreateReturn(ctx, &shop.ReturnRequest{OrderID: o.ID, Reason: "other", Lines: []shop.ReturnLine{{Line: 0, Quantity: 1}}})
			}()
		}
		close(start)
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case shop.ErrorCode(err) != shop.EINVALID || shop.ErrorField(err) != "qty-0":
				t.Errorf("a refused request failed with %v (field %q), want an EINVALID next to the line", err, shop.ErrorField(err))
			}
		}
		if won != tc.bought {
			t.Errorf("%d racers for %d items: %d requests went through", tc.racers, tc.bought, won)
		}
		rs, err := s.OrderReturns(ctx, o.ID)
		if err != nil || len(rs) != tc.bought {
			t.Errorf("stored requests: %d, %v; want %d", len(rs), err, tc.bought)
		}
	}
}

// The back office's list: newest first, a page at a time, by state.
func returnList(t *testing.T, s ReturnsStore, clock *Clock) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"lamp": 50})
	// More than a cart holds, so placed as it is.
	o := &shop.Order{ID: "NOC-MANY", UserID: "usr_1", Email: "ada@example.com", Status: shop.StatusDelivered, IdempotencyKey: "many",
		CreatedAt: clock.Now(), PaymentMethod: "Visa ending 4242", PaymentStatus: shop.PaymentPaid,
		Lines: []shop.OrderLine{{ProductID: "lamp", VariantID: "lamp", Name: "Product lamp", Price: 1000, Quantity: shop.ReturnsPageSize + 2}}}
	must(t, s.InsertOrder(ctx, o))
	var ids []string
	for range shop.ReturnsPageSize + 2 {
		clock.Add(time.Minute)
		r := &shop.ReturnRequest{OrderID: o.ID, Reason: "other", Lines: []shop.ReturnLine{{Line: 0, Quantity: 1}}}
		must(t, s.CreateReturn(ctx, r))
		ids = append(ids, r.ID)
	}
	_, err := s.MoveReturn(ctx, shop.ReturnMove{ID: ids[0], From: []shop.ReturnState{shop.ReturnRequested}, To: shop.ReturnApproved})
	must(t, err)
	page, total, err := s.ReturnRequests(ctx, shop.ReturnQuery{Page: 1})
	if err != nil || total != len(ids) || len(page) != shop.ReturnsPageSize || page[0].ID != ids[len(ids)-1] || len(page[0].Lines) != 1 ||
		page[0].Lines[0].Label != "Product lamp" || page[0].Email != o.Email {
		t.Fatalf("first page: %d of %d, %v", len(page), total, err)
	}
	page, _, _ = s.ReturnRequests(ctx, shop.ReturnQuery{Page: 2})
	if len(page) != 2 || page[1].ID != ids[0] {
		t.Errorf("second page: %d", len(page))
	}
	page, total, err = s.ReturnRequests(ctx, shop.ReturnQuery{State: shop.ReturnApproved, Page: 1})
	if err != nil || total != 1 || len(page) != 1 || page[0].ID != ids[0] || page[0].State != shop.ReturnApproved {
		t.Errorf("approved only: %+v, %d, %v", page, total, err)
	}
	if rs, err := s.OrderReturns(ctx, o.ID); err != nil || len(rs) != len(ids) || rs[0].ID != ids[0] {
		t.Errorf("the order's returns, oldest first: %d, %v", len(rs), err)
	}
}
