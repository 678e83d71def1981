package storetest

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// RefundIntentStore is a payment store that also keeps refund intents.
type RefundIntentStore interface {
	PaymentStore
	shop.RefundIntentStore
}

// testRefundIntents checks that money leaving is an intent first: it is
// recorded with the refund's count, completed once with its audit entry
// and mail, listed for the sweep only once its lease ended, taken by one
// of two sweepers, and undone only while open.
func testRefundIntents(t *testing.T, b Backend) {
	open := func(t *testing.T) (RefundIntentStore, *Clock) {
		s, _, clock := b.open(t)
		rs, ok := s.(RefundIntentStore)
		if !ok {
			t.Skipf("%T does not keep refund intents", s)
		}
		return rs, clock
	}
	t.Run("Claim", func(t *testing.T) { s, c := open(t); intentClaim(t, s, c) })
	t.Run("MarkSentOnce", func(t *testing.T) { s, c := open(t); intentMarkSent(t, s, c) })
	t.Run("SweepListing", func(t *testing.T) { s, c := open(t); intentSweepListing(t, s, c) })
	t.Run("TwoSweepers", func(t *testing.T) { s, c := open(t); intentTwoSweepers(t, s, c) })
	t.Run("UndoOnlyOpen", func(t *testing.T) { s, c := open(t); intentUndo(t, s, c) })
	t.Run("Cancel", func(t *testing.T) { s, c := open(t); intentCancel(t, s, c) })
}

// paidOrder places owner's order of $10.00 and marks it paid.
func paidOrder(t *testing.T, s RefundIntentStore, owner string) *shop.Order {
	t.Helper()
	o := placeUnpaid(t, s, owner)
	_, err := s.MarkPaid(context.Background(), o.ID, "", time.Now())
	must(t, err)
	return o
}

// claimIntent claims a refund of amount from was with an intent of key,
// leased until lease.
func claimIntent(s RefundIntentStore, o *shop.Order, key string, was, amount shop.Cents, byHand bool, at, lease time.Time) error {
	return s.ClaimRefund(context.Background(), shop.RefundClaim{OrderID: o.ID, Was: was, Amount: amount, Note: "r", Actor: "ada@example.com", At: at,
		Intent: shop.RefundIntent{Key: key, Method: o.PaymentProvider, ByHand: byHand, Actor: "ada@example.com", Reason: "Scratched", LeaseUntil: lease}})
}

func intentClaim(t *testing.T, s RefundIntentStore, clock *Clock) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"p1": 5})
	o := paidOrder(t, s, "guest_1")
	now := clock.Now()
	must(t, claimIntent(s, o, "k1", 0, 400, false, now, now.Add(time.Minute)))
	in, err := s.RefundIntent(ctx, "k1")
	must(t, err)
	want := shop.RefundIntent{Key: "k1", OrderID: o.ID, Was: 0, Amount: 400, Method: o.PaymentProvider, Actor: "ada@example.com",
		Reason: "Scratched", State: shop.RefundOpen, LeaseUntil: now.Add(time.Minute).UTC(), CreatedAt: now.UTC()}
	if *in != want {
		t.Errorf("intent: got %+v, want %+v", *in, want)
	}
	// A claim refused (the refunded amount moved) records no intent.
	err = claimIntent(s, o, "k2", 0, 100, false, now, now)
	wantCode(t, "claim from a stale amount", err, shop.ECONFLICT, "")
	_, err = s.RefundIntent(ctx, "k2")
	wantCode(t, "intent of a refused claim", err, shop.ENOTFOUND, "")
}

func intentMarkSent(t *testing.T, s RefundIntentStore, clock *Clock) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"p1": 5})
	o := paidOrder(t, s, "guest_1")
	now := clock.Now()
	must(t, claimIntent(s, o, "k1", 0, 400, false, now, now.Add(time.Minute)))
	d := shop.RefundDone{Key: "k1", At: now, Audit: shop.AuditEntry{Actor: "ada@example.com", Action: "order.refund", Subject: o.ID},
		Mail: &shop.Email{To: o.Email, Subject: "Refund for order " + o.ID, Body: "We refunded $4.00"}}
	// Two completions at once (a request and a sweeper): one writes.
	var wg sync.WaitGroup
	dones := make([]bool, 2)
	for i := range dones {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			dones[i], err = s.FinishRefund(ctx, d)
			if err != nil {
				t.Errorf("finish refund: %v", err)
			}
		}()
	}
	wg.Wait()
	if dones[0] == dones[1] {
		t.Errorf("two completions: got %v, want exactly one", dones)
	}
	in, err := s.RefundIntent(ctx, "k1")
	must(t, err)
	if in.State != shop.RefundSent {
		t.Errorf("state: got %s, want sent", in.State)
	}
	mails, err := s.Outbox(ctx)
	must(t, err)
	if n := countSubject(mails, "Refund for order "+o.ID); n != 1 {
		t.Errorf("refund mails: got %d, want 1", n)
	}
	log, _, err := s.AuditLog(ctx, 1)
	must(t, err)
	audited := 0
	for _, e := range log {
		if e.Action == "order.refund" && e.Subject == o.ID {
			audited++
		}
	}
	if audited != 1 {
		t.Errorf("audit entries: got %d, want 1", audited)
	}
}

func countSubject(mails []shop.Email, subject string) int {
	n := 0
	for _, m := range mails {
		if strings.HasPrefix(m.Subject, subject) {
			n++
		}
	}
	return n
}

func intentSweepListing(t *testing.T, s RefundIntentStore, clock *Clock) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"p1": 5})
	a, b, c := paidOrder(t, s, "guest_a"), paidOrder(t, s, "guest_b"), paidOrder(t, s, "guest_c")
	now := clock.Now()
	must(t, claimIntent(s, a, "ka", 0, 100, false, now, now.Add(time.Minute)))
	must(t, claimIntent(s, b, "kb", 0, 100, true, now, now.Add(time.Minute)))
	must(t, claimIntent(s, c, "kc", 0, 100, false, now, now.Add(time.Minute)))
	_, err := s.FinishRefund(ctx, shop.RefundDone{Key: "kc", At: now, Audit: shop.AuditEntry{Action: "order.refund", Subject: c.ID}})
	must(t, err)
	stale, err := s.StaleRefunds(ctx, now)
	must(t, err)
	if len(stale) != 0 {
		t.Errorf("stale while leased: got %d, want none", len(stale))
	}
	stale, err = s.StaleRefunds(ctx, now.Add(2*time.Minute))
	must(t, err)
	if len(stale) != 1 || stale[0].Key != "ka" {
		t.Errorf("stale after the lease: got %+v, want ka only (kb is by hand, kc sent)", stale)
	}
	byHand, err := s.RefundsByHand(ctx)
	must(t, err)
	if len(byHand) != 1 || byHand[0].Key != "kb" || byHand[0].OrderID != b.ID {
		t.Errorf("by hand: got %+v, want kb", byHand)
	}
}

func intentTwoSweepers(t *testing.T, s RefundIntentStore, clock *Clock) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"p1": 5})
	o := paidOrder(t, s, "guest_1")
	now := clock.Now()
	must(t, claimIntent(s, o, "k1", 0, 400, false, now, now.Add(time.Minute)))
	if took, err := s.TakeRefund(ctx, "k1", now, now.Add(time.Hour)); err != nil || took {
		t.Errorf("take while leased: %v (%v), want not taken", took, err)
	}
	later := now.Add(2 * time.Minute)
	var wg sync.WaitGroup
	took := make([]bool, 4)
	for i := range took {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			took[i], err = s.TakeRefund(ctx, "k1", later, later.Add(time.Minute))
			if err != nil {
				t.Errorf("take: %v", err)
			}
		}()
	}
	wg.Wait()
	n := 0
	for _, ok := range took {
		if ok {
			n++
		}
	}
	if n != 1 {
		t.Errorf("4 sweepers: %d took the intent, want 1", n)
	}
	if stale, _ := s.StaleRefunds(ctx, later); len(stale) != 0 {
		t.Errorf("stale once taken: got %d, want none", len(stale))
	}
}

func intentUndo(t *testing.T, s RefundIntentStore, clock *Clock) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"p1": 5})
	o := paidOrder(t, s, "guest_1")
	now := clock.Now()
	must(t, claimIntent(s, o, "k1", 0, 400, false, now, now))
	_, err := s.FinishRefund(ctx, shop.RefundDone{Key: "k1", At: now, Audit: shop.AuditEntry{Action: "order.refund", Subject: o.ID}})
	must(t, err)
	// A sent refund is never taken back.
	undo := shop.RefundClaim{OrderID: o.ID, Was: 0, Amount: 400, At: now, Intent: shop.RefundIntent{Key: "k1"}}
	must(t, s.UndoRefund(ctx, undo))
	if got, _ := s.Order(ctx, o.ID); got.Refunded != 400 {
		t.Errorf("undo of a sent refund: refunded %v, want $4.00", got.Refunded)
	}
	must(t, claimIntent(s, o, "k2", 400, 600, false, now, now))
	must(t, s.UndoRefund(ctx, shop.RefundClaim{OrderID: o.ID, Was: 400, Amount: 600, At: now, Intent: shop.RefundIntent{Key: "k2"}}))
	got, err := s.Order(ctx, o.ID)
	must(t, err)
	in, err := s.RefundIntent(ctx, "k2")
	must(t, err)
	if got.Refunded != 400 || got.PaymentStatus != shop.PaymentPartiallyRefunded || in.State != shop.RefundUndone {
		t.Errorf("undo of an open refund: %v %s, intent %s; want $4.00 partially refunded, undone", got.Refunded, got.PaymentStatus, in.State)
	}
	if done, err := s.FinishRefund(ctx, shop.RefundDone{Key: "k2", At: now}); err != nil || done {
		t.Errorf("finish an undone refund: %v (%v), want nothing done", done, err)
	}
}

func intentCancel(t *testing.T, s RefundIntentStore, clock *Clock) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"p1": 5})
	o := paidOrder(t, s, "guest_1")
	now := clock.Now()
	must(t, claimIntent(s, o, "k1", 0, 300, false, now, now))
	_, err := s.TransitionOrder(ctx, shop.Transition{OrderID: o.ID, From: shop.StatusProcessing, To: shop.StatusCancelled, Reason: "Asked to",
		Actor: "ada@example.com", At: now, Refund: shop.RefundIntent{Key: "k-cancel", Method: o.PaymentProvider, Reason: "Asked to", LeaseUntil: now}})
	must(t, err)
	in, err := s.RefundIntent(ctx, "k-cancel")
	must(t, err)
	if in.Was != 300 || in.Amount != 700 || in.State != shop.RefundOpen || in.OrderID != o.ID {
		t.Errorf("cancel's intent: got %+v, want $3.00 was, $7.00 open", *in)
	}
	// An unpaid order's cancel refunds nothing and records no intent.
	u := placeUnpaid(t, s, "guest_2")
	_, err = s.TransitionOrder(ctx, shop.Transition{OrderID: u.ID, From: shop.StatusProcessing, To: shop.StatusCancelled, Reason: "x",
		At: now, Refund: shop.RefundIntent{Key: "k-unpaid"}})
	must(t, err)
	_, err = s.RefundIntent(ctx, "k-unpaid")
	wantCode(t, "intent of an unpaid cancel", err, shop.ENOTFOUND, "")
}
