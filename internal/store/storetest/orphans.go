package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/nocturne/storefront/internal/shop"
)

// testOrphans checks payments without an order: kept once however often
// the provider says so, listed by state, and moved only along the table,
// once even when two instances act at the same moment.
func testOrphans(t *testing.T, b Backend) {
	s, _, clock := b.open(t)
	os, ok := s.(shop.OrphanStore)
	if !ok {
		t.Skipf("%T does not keep payments without an order", s)
	}
	ctx := context.Background()
	p := shop.OrphanPayment{ID: "cs_gone", Method: "stripe", OrderID: "NOC-GONE", PaymentIntent: "pi_1", Amount: 4200, Currency: "usd",
		Email: "sam@example.com", CreatedAt: clock.Now()}
	for i, want := range []bool{true, false} {
		if got, err := os.RecordOrphan(ctx, p); err != nil || got != want {
			t.Fatalf("record %d: %v, %v; want %v", i+1, got, err, want)
		}
	}
	late := p
	late.ID, late.CreatedAt = "cs_later", clock.Now().Add(1)
	if _, err := os.RecordOrphan(ctx, late); err != nil {
		t.Fatal(err)
	}
	open, err := os.Orphans(ctx, shop.OrphanOpen)
	if err != nil || len(open) != 2 || open[0].ID != "cs_gone" || open[0].Amount != 4200 || open[0].State != shop.OrphanOpen {
		t.Fatalf("open payments: %+v, %v", open, err)
	}

	// Two instances refund the same payment at once: one claims it.
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = os.MoveOrphan(ctx, "cs_gone", shop.OrphanRefunding, "", "sweep", clock.Now())
		}()
	}
	wg.Wait()
	if (errs[0] == nil) == (errs[1] == nil) {
		t.Fatalf("two claims of one refund: %v, %v; want exactly one", errs[0], errs[1])
	}
	for _, err := range errs {
		if err != nil {
			wantCode(t, "the second claim", err, shop.ECONFLICT, fmt.Sprintf(shop.MsgOrphanMoved, shop.OrphanRefunding))
		}
	}
	// Settling is no longer open to it; finishing the refund is.
	err = os.MoveOrphan(ctx, "cs_gone", shop.OrphanSettled, "paid back by hand", "ada@example.com", clock.Now())
	wantCode(t, "settle a payment being refunded", err, shop.ECONFLICT, "")
	must(t, os.MoveOrphan(ctx, "cs_gone", shop.OrphanRefunded, "", "sweep", clock.Now()))
	must(t, os.MoveOrphan(ctx, "cs_later", shop.OrphanSettled, "matched to NOC-2", "ada@example.com", clock.Now()))
	got, err := os.Orphan(ctx, "cs_later")
	if err != nil || got.State != shop.OrphanSettled || got.Note != "matched to NOC-2" || got.UpdatedBy != "ada@example.com" {
		t.Errorf("settled: %+v, %v", got, err)
	}
	if rest, _ := os.Orphans(ctx, shop.OrphanOpen, shop.OrphanRefunding); len(rest) != 0 {
		t.Errorf("still to act on: %+v", rest)
	}
	_, err = os.Orphan(ctx, "cs_none")
	wantCode(t, "an unknown payment", err, shop.ENOTFOUND, shop.MsgOrphanNotFound)
}
