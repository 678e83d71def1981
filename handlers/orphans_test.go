package handlers_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/stripepay"
)

// paidAfterRelease has the shopper open Stripe's page, the order released
// meanwhile (its page outlived it), and then the page paid and its
// webhook delivered: money with no order.
func paidAfterRelease(t *testing.T, b *backOffice, product string) (orderID, sessionID string) {
	t.Helper()
	orderID, sessionID = placeWithStripe(t, b, product, "1")
	if err := b.app.db.ReleaseOrder(context.Background(), orderID); err != nil {
		t.Fatal(err)
	}
	if err := b.app.stripe.Pay(sessionID); err != nil {
		t.Fatal(err)
	}
	if res := deliver(t, b.app, stripepay.EventSessionCompleted, sessionID); res.StatusCode != http.StatusOK {
		t.Fatalf("webhook of the paid page: %d, want 200 once it is kept", res.StatusCode)
	}
	return orderID, sessionID
}

// A paid Stripe page whose order is gone is kept as a payment without an
// order: admins see it on the dashboard and its page, never as revenue,
// and refund it through Stripe after a confirmation; the payer is mailed
// and the audit log has it. Fulfilment staff can't reach it.
func TestOrphanPayment_KeptShownAndRefunded(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t, withStripe())
	_, before := b.admin.get("/admin")
	revenue := text(before, `[data-testid="revenue-today"]`)
	orderID, sessionID := paidAfterRelease(t, b, "nb-011")
	// A repeated delivery keeps it once.
	deliver(t, b.app, stripepay.EventSessionCompleted, sessionID)

	_, doc := b.admin.get("/admin")
	if got := text(doc, `[data-testid="orphans-count"]`); got != "1" {
		t.Errorf("dashboard's payments without an order: %q, want 1", got)
	}
	if got := text(doc, `[data-testid="revenue-today"]`); got != revenue {
		t.Errorf("revenue today %q after the payment, want %q: it is not revenue", got, revenue)
	}
	res, doc := b.admin.get("/admin/payments")
	if res.StatusCode != http.StatusOK || doc.Find(`[data-testid="orphan"][data-id="`+sessionID+`"]`).Length() != 1 ||
		!strings.Contains(text(doc, `[data-testid="orphan"]`), orderID) {
		t.Fatalf("payments page: %d %q", res.StatusCode, text(doc, `[data-testid="orphans"]`))
	}
	if res, _ := b.fulfi.get("/admin/payments"); res.StatusCode == http.StatusOK {
		t.Errorf("fulfilment staff see payments without an order")
	}

	res, doc = b.admin.postFrom("/admin/payments", "/admin/payments/"+sessionID+"/refund", nil)
	if res.StatusCode != http.StatusOK || !strings.Contains(doc.Text(), "Refund") {
		t.Fatalf("refund asks for a confirmation: %d", res.StatusCode)
	}
	if p, _ := b.app.db.Orphan(context.Background(), sessionID); p.State != shop.OrphanOpen {
		t.Fatalf("the confirmation page changed the payment: %s", p.State)
	}
	res, _ = b.admin.postFrom("/admin/payments", "/admin/payments/"+sessionID+"/refund/confirm", nil)
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("confirm the refund: %d", res.StatusCode)
	}
	if p, _ := b.app.db.Orphan(context.Background(), sessionID); p.State != shop.OrphanRefunded || p.UpdatedBy != "admin@example.com" {
		t.Errorf("after the refund: %+v", p)
	}
	if s, _ := b.app.stripe.Session(sessionID); s.AmountRefunded != s.AmountTotal {
		t.Errorf("Stripe refunded %v of %v", s.AmountRefunded, s.AmountTotal)
	}
	// Confirmed twice: nothing more.
	b.admin.postFrom("/admin/payments", "/admin/payments/"+sessionID+"/refund/confirm", nil)
	if s, _ := b.app.stripe.Session(sessionID); s.AmountRefunded != s.AmountTotal {
		t.Errorf("a second confirmation refunded again: %v of %v", s.AmountRefunded, s.AmountTotal)
	}
	mailWithSubject(t, b.app, "Your payment for order "+orderID+" was refunded")
	entries, _, _ := b.app.db.AuditLog(context.Background(), 1)
	if len(entries) == 0 || entries[0].Action != "payment.refund" || entries[0].Subject != sessionID {
		t.Errorf("audit log's last entry: %+v", entries[0])
	}
}

// One left alone is refunded by the sweep after ORPHAN_PAYMENT_REFUND_AFTER,
// not before; one settled by hand needs a note and is never refunded.
func TestOrphanPayment_SettledOrRefundedBySweep(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t, withStripe())
	ctx := context.Background()
	_, left := paidAfterRelease(t, b, "nb-011")
	_, settled := paidAfterRelease(t, b, "nb-012")

	res, doc := b.admin.postFrom("/admin/payments", "/admin/payments/"+settled+"/settle", nil)
	if res.StatusCode != http.StatusUnprocessableEntity || text(doc, `#note-`+settled+`-error`) == "" && !strings.Contains(doc.Text(), shop.MsgOrphanNote) {
		t.Fatalf("settle without a note: %d", res.StatusCode)
	}
	res, _ = b.admin.postFrom("/admin/payments", "/admin/payments/"+settled+"/settle", map[string][]string{"note": {"Matched to NOC-1 by phone"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("settle: %d", res.StatusCode)
	}

	after := b.app.cfg.Payments.OrphanRefundAfter
	b.app.clock.Advance(after - time.Minute)
	if n, err := b.app.office.SweepOrphans(ctx, after); err != nil || n != 0 {
		t.Fatalf("sweep before its time: %d (%v)", n, err)
	}
	b.app.clock.Advance(2 * time.Minute)
	if n, err := b.app.office.SweepOrphans(ctx, after); err != nil || n != 1 {
		t.Fatalf("sweep after its time: %d (%v), want the one left alone", n, err)
	}
	if p, _ := b.app.db.Orphan(ctx, left); p.State != shop.OrphanRefunded {
		t.Errorf("left alone: %s, want refunded", p.State)
	}
	if p, _ := b.app.db.Orphan(ctx, settled); p.State != shop.OrphanSettled || p.Note != "Matched to NOC-1 by phone" {
		t.Errorf("settled: %+v", p)
	}
	if s, _ := b.app.stripe.Session(settled); s.AmountRefunded != 0 {
		t.Errorf("a settled payment was refunded: %v", s.AmountRefunded)
	}
}
