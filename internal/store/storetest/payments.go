package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/banktransfer"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/stripepay"
)

// PaymentStore is a back-office store that also moves payments forward.
type PaymentStore interface {
	BackOfficeStore
	shop.PaymentStore
}

// testPayments checks payment states: what placing, paying, shipping and
// cancelling do to them, that they only move forward, and that provider
// events are acted on once.
func testPayments(t *testing.T, b Backend) {
	open := func(t *testing.T) PaymentStore {
		s, _, _ := b.open(t)
		ps, ok := s.(PaymentStore)
		if !ok {
			t.Skipf("%T does not implement the payment store", s)
		}
		return ps
	}
	t.Run("AwaitingThenPaid", func(t *testing.T) { awaitingThenPaid(t, open(t)) })
	t.Run("ShipOnlyPaid", func(t *testing.T) { shipOnlyPaid(t, open(t)) })
	t.Run("CancelStates", func(t *testing.T) { cancelStates(t, open(t)) })
	t.Run("UnpaidSince", func(t *testing.T) { unpaidSince(t, open(t)) })
	t.Run("UnpaidBy", func(t *testing.T) { unpaidBy(t, open(t)) })
	t.Run("EventsOnce", func(t *testing.T) { eventsOnce(t, open(t)) })
	t.Run("AdminFilter", func(t *testing.T) { paymentFilter(t, open(t)) })
	t.Run("RefundsForwardOnly", func(t *testing.T) { refundsForwardOnly(t, open(t)) })
	t.Run("ClaimRefund", func(t *testing.T) { claimRefund(t, open(t)) })
}

func claimRefund(t *testing.T, s PaymentStore) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"p1": 5})
	o := placeUnpaid(t, s, "guest_1")
	err := s.ClaimRefund(ctx, shop.RefundClaim{OrderID: o.ID, Was: 0, Amount: 100, Note: "r", Actor: "ada@example.com", At: time.Now()})
	wantCode(t, "refund an unpaid order", err, shop.EINVALID, "This order is not awaiting payment (it is Awaiting payment).")
	_, err = s.MarkPaid(ctx, o.ID, "", time.Now())
	must(t, err)
	// The same confirmation posted four times at once: one refund counts.
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.ClaimRefund(ctx, shop.RefundClaim{OrderID: o.ID, Was: 0, Amount: 300, Note: "Refunded $3.00: scratched", Actor: "ada@example.com", At: time.Now()})
		}()
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		if err == nil {
			ok++
		} else if shop.ErrorCode(err) != shop.ECONFLICT {
			t.Errorf("racing refund claims: %v", err)
		}
	}
	got, err := s.Order(ctx, o.ID)
	must(t, err)
	if ok != 1 || got.Refunded != 300 || got.PaymentStatus != shop.PaymentPartiallyRefunded {
		t.Errorf("4 racing claims of $3.00: %d succeeded, refunded %v (%s); want 1, $3.00, partially refunded", ok, got.Refunded, got.PaymentStatus)
	}
	err = s.ClaimRefund(ctx, shop.RefundClaim{OrderID: o.ID, Was: 300, Amount: 701, Note: "r", Actor: "", At: time.Now()})
	wantCode(t, "refund more than is left", err, shop.EINVALID, "At most $7.00 is left to refund.")
	if shop.ErrorField(err) != "amount" {
		t.Errorf("too much: field %q, want amount", shop.ErrorField(err))
	}
	must(t, s.ClaimRefund(ctx, shop.RefundClaim{OrderID: o.ID, Was: 300, Amount: 700, Note: "r", Actor: "", At: time.Now()}))
	must(t, s.UndoRefund(ctx, shop.RefundClaim{OrderID: o.ID, Was: 300, Amount: 700}))
	got, err = s.Order(ctx, o.ID)
	must(t, err)
	if got.Refunded != 300 || got.PaymentStatus != shop.PaymentPartiallyRefunded {
		t.Errorf("after undoing the second refund: %v %s, want $3.00 partially refunded", got.Refunded, got.PaymentStatus)
	}
	must(t, s.ClaimRefund(ctx, shop.RefundClaim{OrderID: o.ID, Was: 300, Amount: 700, Note: "r", Actor: "", At: time.Now()}))
	if got, _ := s.Order(ctx, o.ID); got.PaymentStatus != shop.PaymentRefunded || got.Refunded != 1000 {
		t.Errorf("refunded in full: %s %v", got.PaymentStatus, got.Refunded)
	}
}

func refundsForwardOnly(t *testing.T, s PaymentStore) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"p1": 5})
	o := placeUnpaid(t, s, "guest_1")
	must(t, s.SetPaymentRef(ctx, o.ID, "cs_test_1"))
	if ok, err := s.RecordRefund(ctx, o.ID, 100, "", time.Now()); err != nil || ok {
		t.Errorf("refund of an unpaid order: changed %v (%v), want no change", ok, err)
	}
	_, err := s.MarkPaid(ctx, o.ID, "", time.Now())
	must(t, err)
	must(t, s.SetPaymentIntent(ctx, o.ID, "pi_test_1"))
	got, err := s.OrderByPaymentIntent(ctx, "pi_test_1")
	must(t, err)
	if got.ID != o.ID || got.PaymentRef != "cs_test_1" || got.PaymentIntent != "pi_test_1" {
		t.Errorf("by payment intent: %s ref %q intent %q", got.ID, got.PaymentRef, got.PaymentIntent)
	}
	_, err = s.OrderByPaymentIntent(ctx, "pi_nope")
	wantCode(t, "unknown payment intent", err, shop.ENOTFOUND, shop.MsgOrderNotFound)
	for _, tt := range []struct {
		refunded shop.Cents
		changed  bool
		state    shop.PaymentState
		total    shop.Cents
	}{
		{400, true, shop.PaymentPartiallyRefunded, 400},
		{400, false, shop.PaymentPartiallyRefunded, 400},  // a repeated event
		{300, false, shop.PaymentPartiallyRefunded, 400},  // an older event, late
		{1001, false, shop.PaymentPartiallyRefunded, 400}, // more than was paid
		{1000, true, shop.PaymentRefunded, 1000},
		{1000, false, shop.PaymentRefunded, 1000},
	} {
		ok, err := s.RecordRefund(ctx, o.ID, tt.refunded, "ada@example.com", time.Now())
		must(t, err)
		got, err := s.Order(ctx, o.ID)
		must(t, err)
		if ok != tt.changed || got.PaymentStatus != tt.state || got.Refunded != tt.total {
			t.Errorf("refund up to %v: changed %v, %s, refunded %v; want %v, %s, %v", tt.refunded, ok, got.PaymentStatus, got.Refunded,
				tt.changed, tt.state, tt.total)
		}
	}
}

// placeUnpaid places owner's cart of one p1 as an order awaiting payment
// by bank transfer.
func placeUnpaid(t *testing.T, s PaymentStore, owner string) *shop.Order {
	t.Helper()
	ctx := context.Background()
	must(t, s.AddToCart(ctx, owner, "p1", 1))
	o, _, err := s.ClaimCart(ctx, owner, "k-"+owner, func(c shop.Cart, placed int) (*shop.Order, error) {
		o := &shop.Order{ID: "NOC-" + owner, UserID: owner, Email: owner + "@example.com", ShipTo: shop.Address{Name: "A"},
			PaymentMethod: "Bank transfer", PaymentProvider: banktransfer.Name, Subtotal: 1000, Total: 1000,
			LeaseUntil: time.Now().Add(time.Minute)}
		o.Lines = []shop.OrderLine{{ProductID: "p1", Name: "Product p1", Price: 1000, Quantity: 1}}
		return o, nil
	})
	must(t, err)
	must(t, s.CompleteOrder(ctx, o.ID, false))
	return o
}

func awaitingThenPaid(t *testing.T, s PaymentStore) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"p1": 5})
	o := placeUnpaid(t, s, "guest_1")
	got, err := s.Order(ctx, o.ID)
	must(t, err)
	if got.Status != shop.StatusProcessing || got.PaymentStatus != shop.PaymentAwaiting || !got.PaidAt.IsZero() ||
		got.PaymentProvider != banktransfer.Name || got.Currency != shop.OrderCurrency() {
		t.Fatalf("placed by bank transfer: status %q, payment %q, paid at %v, provider %q, currency %q; want processing, awaiting, never, bank_transfer, usd",
			got.Status, got.PaymentStatus, got.PaidAt, got.PaymentProvider, got.Currency)
	}
	if n, err := s.Stock(ctx, "p1"); err != nil || n != 4 {
		t.Errorf("stock while awaiting payment: %d (%v), want 4 (held)", n, err)
	}
	at := time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)
	// Two staff members (or a webhook and the sweep) at once: one marks it.
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() { defer wg.Done(); _, errs[i] = s.MarkPaid(ctx, o.ID, "ada@example.com", at) }()
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case shop.ErrorCode(err) != shop.ECONFLICT:
			t.Errorf("racing mark paid: %v, want success or ECONFLICT", err)
		}
	}
	if ok != 1 {
		t.Errorf("%d of 4 racing mark-paids succeeded, want 1", ok)
	}
	got, err = s.Order(ctx, o.ID)
	must(t, err)
	if got.PaymentStatus != shop.PaymentPaid || !got.PaidAt.Equal(at) || !got.Paid() {
		t.Errorf("after mark paid: %q at %v, want paid at %v", got.PaymentStatus, got.PaidAt, at)
	}
	events, err := s.OrderEvents(ctx, o.ID)
	must(t, err)
	if n := len(events); n != 1 || events[0].Status != string(shop.PaymentPaid) || events[0].Actor != "ada@example.com" {
		t.Errorf("events after mark paid: %+v, want one paid event by ada", events)
	}
	_, err = s.MarkPaid(ctx, o.ID, "ada@example.com", at)
	wantCode(t, "mark paid twice", err, shop.ECONFLICT, "This order is not awaiting payment (it is Paid).")
	_, err = s.MarkPaid(ctx, "NOC-nope", "", at)
	wantCode(t, "mark an unknown order paid", err, shop.ENOTFOUND, shop.MsgOrderNotFound)
}

func shipOnlyPaid(t *testing.T, s PaymentStore) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"p1": 5})
	o := placeUnpaid(t, s, "guest_1")
	ship := shop.Transition{OrderID: o.ID, From: shop.StatusProcessing, To: shop.StatusShipped, Carrier: "UPS", Tracking: "1Z999"}
	_, err := s.TransitionOrder(ctx, ship)
	wantCode(t, "ship an unpaid order", err, shop.ECONFLICT, shop.MsgShipUnpaid)
	_, err = s.MarkPaid(ctx, o.ID, "", time.Now())
	must(t, err)
	got, err := s.TransitionOrder(ctx, ship)
	must(t, err)
	if got.Status != shop.StatusShipped || got.PaymentStatus != shop.PaymentPaid {
		t.Errorf("shipped after payment: %q/%q, want shipped/paid", got.Status, got.PaymentStatus)
	}
}

func cancelStates(t *testing.T, s PaymentStore) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"p1": 5})
	unpaid := placeUnpaid(t, s, "guest_1")
	paid := placeUnpaid(t, s, "guest_2")
	_, err := s.MarkPaid(ctx, paid.ID, "", time.Now())
	must(t, err)
	for _, tt := range []struct {
		id       string
		payment  shop.PaymentState
		refunded shop.Cents
	}{
		{unpaid.ID, shop.PaymentFailed, 0},
		{paid.ID, shop.PaymentRefunded, 1000},
	} {
		got, err := s.TransitionOrder(ctx, shop.Transition{OrderID: tt.id, From: shop.StatusProcessing, To: shop.StatusCancelled, Reason: "r"})
		must(t, err)
		if got.PaymentStatus != tt.payment || got.Refunded != tt.refunded {
			t.Errorf("cancelled %s: payment %q, refunded %v; want %q, %v", tt.id, got.PaymentStatus, got.Refunded, tt.payment, tt.refunded)
		}
		_, err = s.MarkPaid(ctx, tt.id, "", time.Now())
		wantCode(t, "mark a cancelled order paid", err, shop.ECONFLICT, "This order is not awaiting payment (it is cancelled).")
	}
	if n, err := s.Stock(ctx, "p1"); err != nil || n != 5 {
		t.Errorf("stock after both cancelled: %d (%v), want 5", n, err)
	}
	// Cancelling "only while unpaid" leaves an order paid meanwhile alone.
	late := placeUnpaid(t, s, "guest_3")
	_, err = s.MarkPaid(ctx, late.ID, "", time.Now())
	must(t, err)
	_, err = s.TransitionOrder(ctx, shop.Transition{OrderID: late.ID, From: shop.StatusProcessing, To: shop.StatusCancelled, Reason: "r", Unpaid: true})
	wantCode(t, "cancel a paid order as unpaid", err, shop.ECONFLICT, "This order is not awaiting payment (it is Paid).")
	if got, err := s.Order(ctx, late.ID); err != nil || got.Status != shop.StatusProcessing || got.PaymentStatus != shop.PaymentPaid {
		t.Errorf("after the refused cancel: %v (%v), want processing and paid", got, err)
	}
}

func unpaidSince(t *testing.T, s PaymentStore) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"p1": 5})
	a := placeUnpaid(t, s, "guest_1")
	b := placeUnpaid(t, s, "guest_2")
	_, err := s.MarkPaid(ctx, b.ID, "", time.Now())
	must(t, err)
	later := a.CreatedAt.Add(time.Second)
	got, err := s.UnpaidSince(ctx, banktransfer.Name, later)
	must(t, err)
	if len(got) != 1 || got[0].ID != a.ID {
		t.Errorf("unpaid bank transfers placed before %v: %v, want only %s", later, orderIDs(got), a.ID)
	}
	if got, err := s.UnpaidSince(ctx, banktransfer.Name, a.CreatedAt); err != nil || len(got) != 0 {
		t.Errorf("unpaid placed before the first was placed: %v (%v), want none", orderIDs(got), err)
	}
	if got, err := s.UnpaidSince(ctx, stripepay.Name, later); err != nil || len(got) != 0 {
		t.Errorf("unpaid Stripe orders: %v (%v), want none", orderIDs(got), err)
	}
}

// Unpaid bank transfers are counted by the account or session that placed
// them and by their e-mail in any case; paid or cancelled ones, and other
// providers', are not.
func unpaidBy(t *testing.T, s PaymentStore) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"p1": 5})
	a := placeUnpaid(t, s, "guest_1") // guest_1@example.com
	placeUnpaid(t, s, "guest_2")
	b := placeUnpaid(t, s, "guest_3")
	_, err := s.MarkPaid(ctx, b.ID, "", time.Now())
	must(t, err)
	for _, tt := range []struct {
		name, provider, user, email string
		want                        int
	}{
		{"the session", banktransfer.Name, "guest_1", "", 1},
		{"the e-mail in another case, another session", banktransfer.Name, "guest_9", " Guest_1@Example.COM ", 1},
		{"both", banktransfer.Name, "guest_1", "guest_2@example.com", 2},
		{"paid", banktransfer.Name, "guest_3", "guest_3@example.com", 0},
		{"another address", banktransfer.Name, "guest_9", "guest_1+x@example.com", 0},
		{"nobody", banktransfer.Name, "", "", 0},
		{"another provider", stripepay.Name, "guest_1", "guest_1@example.com", 0},
	} {
		if n, err := s.UnpaidBy(ctx, tt.provider, tt.user, tt.email); err != nil || n != tt.want {
			t.Errorf("%s: %d unpaid (%v), want %d", tt.name, n, err, tt.want)
		}
	}
	_, err = s.TransitionOrder(ctx, shop.Transition{OrderID: a.ID, From: shop.StatusProcessing, To: shop.StatusCancelled, Reason: "r", Unpaid: true})
	must(t, err)
	if n, err := s.UnpaidBy(ctx, banktransfer.Name, "guest_1", "guest_1@example.com"); err != nil || n != 0 {
		t.Errorf("cancelled: %d unpaid (%v), want 0", n, err)
	}
}

func orderIDs(os []shop.Order) []string {
	var out []string
	for _, o := range os {
		out = append(out, o.ID)
	}
	return out
}

func eventsOnce(t *testing.T, s PaymentStore) {
	ctx := context.Background()
	var wg sync.WaitGroup
	fresh := make([]bool, 5)
	for i := range fresh {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			fresh[i], err = s.RecordPaymentEvent(ctx, "evt_1", "NOC-1", "checkout.session.completed", time.Now())
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	n := 0
	for _, f := range fresh {
		if f {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the same event recorded 5 times at once: new %d times, want 1", n)
	}
	if ok, err := s.RecordPaymentEvent(ctx, "evt_2", "NOC-1", "charge.refunded", time.Now()); err != nil || !ok {
		t.Errorf("another event: new %v (%v), want true", ok, err)
	}
}

func paymentFilter(t *testing.T, s PaymentStore) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"p1": 5})
	a := placeUnpaid(t, s, "guest_1")
	b := placeUnpaid(t, s, "guest_2")
	_, err := s.MarkPaid(ctx, b.ID, "", time.Now())
	must(t, err)
	for _, tt := range []struct {
		payment shop.PaymentState
		want    []string
	}{
		{shop.PaymentAwaiting, []string{a.ID}},
		{shop.PaymentPaid, []string{b.ID}},
		{shop.PaymentRefunded, nil},
	} {
		got, total, err := s.AdminOrders(ctx, shop.AdminOrderQuery{Payment: tt.payment})
		must(t, err)
		if total != len(tt.want) || len(got) != len(tt.want) || (len(got) == 1 && got[0].ID != tt.want[0]) {
			t.Errorf("orders %s: %v (total %d), want %v", tt.payment, orderIDs(got), total, tt.want)
		}
	}
}
