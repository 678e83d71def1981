package handlers_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/checkout"
	"github.com/nocturne/storefront/internal/mail"
	"github.com/nocturne/storefront/internal/shop"
)

// errCrash is what a crashing refund panics with: nothing after the point
// it is thrown from runs, as in a process killed there.
var errCrash = errors.New("process killed")

// provider stands in for a payment provider's refund API: a refund is made
// once per idempotency key, as Stripe's are. It can stop the process
// before or after it acts, or refuse.
type provider struct {
	words *checkout.Service // the methods' words and sentences
	mu    sync.Mutex
	made  map[string]shop.Cents
	// crashBefore and crashAfter panic with errCrash before or after the
	// provider makes the refund; refuse declines it.
	crashBefore, crashAfter, refuse bool
}

var _ backoffice.Refunder = (*provider)(nil)

func (p *provider) Refund(_ context.Context, _ *shop.Order, amount shop.Cents, key string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.crashBefore {
		panic(errCrash)
	}
	if p.refuse {
		return errors.New("refund declined")
	}
	if _, done := p.made[key]; !done {
		p.made[key] = amount
	}
	if p.crashAfter {
		panic(errCrash)
	}
	return nil
}

func (p *provider) Explain(o *shop.Order) checkout.Explanation { return p.words.Explain(o) }
func (p *provider) MethodWords(name string) checkout.Words     { return p.words.MethodWords(name) }
func (p *provider) RefundOrphan(ctx context.Context, o shop.OrphanPayment) error {
	return p.Refund(ctx, nil, o.Amount, "orphan-"+o.ID)
}

// total is what the provider paid back in all.
func (p *provider) total() (shop.Cents, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var sum shop.Cents
	for _, a := range p.made {
		sum += a
	}
	return sum, len(p.made)
}

// crashed runs fn and reports whether it stopped with errCrash.
func crashed(fn func()) (stopped bool) {
	defer func() {
		if r := recover(); r != nil {
			if r != errCrash {
				panic(r)
			}
			stopped = true
		}
	}()
	fn()
	return false
}

// refundTrail counts the refund mails and audit entries of order id.
func refundTrail(t *testing.T, b *backOffice, id string) (mails, audits int) {
	t.Helper()
	ctx := context.Background()
	kept, err := b.app.db.Outbox(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range kept {
		if m.Subject == "Refund for order "+id {
			mails++
		}
	}
	log, _, err := b.app.db.AuditLog(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range log {
		if e.Action == "order.refund" && e.Subject == id {
			audits++
		}
	}
	return mails, audits
}

// A refund the process stopped in, between counting it and hearing from
// the provider (before the provider was asked, or after it paid), is
// finished by the refund sweep of a new process over the same database:
// paid back once, mailed once, audited once. Refused by the provider, it
// is taken back instead. Staff refunds and a cancel's refund alike.
func TestRefund_InterruptedThenSwept(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name                   string
		cancel, ret            bool
		crashAfter, refuseThen bool
	}{
		{name: "RefundBeforeProvider"},
		{name: "RefundAfterProvider", crashAfter: true},
		{name: "CancelBeforeProvider", cancel: true},
		{name: "CancelAfterProvider", cancel: true, crashAfter: true},
		{name: "RefundRefusedOnResend", refuseThen: true},
		{name: "ReturnBeforeProvider", ret: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := newBackOffice(t)
			ctx := context.Background()
			o, err := b.app.db.Order(ctx, b.orderID)
			if err != nil {
				t.Fatal(err)
			}
			p := &provider{words: b.app.checkout, made: map[string]shop.Cents{}, crashBefore: !tt.crashAfter, crashAfter: tt.crashAfter}
			first := *b.app.office
			first.Refunder = p
			amount := shop.Cents(1000)
			retID := ""
			if tt.ret {
				retID = receivedReturn(t, b)
			}
			stopped := crashed(func() {
				if tt.ret {
					_ = first.RefundReturn(ctx, "admin@example.com", o.ID, retID, 0, amount, "Sent back")
					return
				}
				if tt.cancel {
					amount = o.Total
					_, _ = first.Cancel(ctx, "admin@example.com", o.ID, "Out of stock")
					return
				}
				_ = first.Refund(ctx, "admin@example.com", o.ID, 0, amount, "Scratched")
			})
			if !stopped {
				t.Fatal("the refund did not reach the provider")
			}
			if got, _ := b.app.db.Order(ctx, o.ID); got.Refunded != amount {
				t.Fatalf("after the crash: refunded %v, want %v counted", got.Refunded, amount)
			}

			// A new process: its own service over the same database.
			p.crashBefore, p.crashAfter, p.refuse = false, false, tt.refuseThen
			log := slog.New(slog.NewTextHandler(io.Discard, nil))
			restart := &backoffice.Service{Orders: b.app.db, Audit: b.app.db, Mailer: &mail.Outbox{Store: b.app.db, Log: log},
				Refunder: p, BaseURL: "http://shop.test", Now: b.app.clock.Now, Log: log}
			if sent, undone, err := restart.SweepRefunds(ctx); err != nil || sent+undone != 0 {
				t.Errorf("sweep within the lease: %d sent, %d undone (%v); want it left to its request", sent, undone, err)
			}
			b.app.clock.Advance(10 * time.Minute)
			sent, undone, err := restart.SweepRefunds(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if again, back, _ := restart.SweepRefunds(ctx); again+back != 0 {
				t.Errorf("second sweep: %d sent, %d undone; want nothing left", again, back)
			}
			got, _ := b.app.db.Order(ctx, o.ID)
			paid, refunds := p.total()
			mails, audits := refundTrail(t, b, o.ID)
			if tt.refuseThen {
				if sent != 0 || undone != 1 || got.Refunded != 0 || paid != 0 || mails != 0 || audits != 0 {
					t.Errorf("refused on resend: sent %d undone %d, refunded %v, provider paid %v, %d mails, %d audits; want it taken back, nothing said",
						sent, undone, got.Refunded, paid, mails, audits)
				}
				return
			}
			if sent != 1 || got.Refunded != amount || paid != amount || refunds != 1 || mails != 1 || audits != 1 {
				t.Errorf("after the sweep: sent %d, refunded %v, provider paid %v in %d refunds, %d mails, %d audit entries; want 1, %v, %v in 1, 1, 1",
					sent, got.Refunded, paid, refunds, mails, audits, amount, amount)
			}
			if tt.ret {
				if rs, _ := b.app.db.OrderReturns(ctx, o.ID); len(rs) != 1 || rs[0].State != shop.ReturnRefunded || rs[0].Refunded != amount {
					t.Errorf("the return after the sweep: %+v, want refunded %v", rs, amount)
				}
			}
		})
	}
}

// receivedReturn has the shopper return one item of the delivered order
// and staff approve and receive it; it returns the return's id.
func receivedReturn(t *testing.T, b *backOffice) string {
	t.Helper()
	b.deliver(t, b.orderID)
	if res, _ := b.shopper.post("/orders/"+b.orderID+"/returns", url.Values{"qty-0": {"1"}, "reason": {"doesnt_fit"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("return request: %d", res.StatusCode)
	}
	rs, err := b.app.db.OrderReturns(context.Background(), b.orderID)
	if err != nil || len(rs) != 1 {
		t.Fatalf("returns: %v %v", rs, err)
	}
	admin := "/admin/orders/" + b.orderID
	for _, step := range []string{"/returns/approve", "/returns/receive"} {
		if res, _ := b.fulfi.post(admin+step, url.Values{"return": {rs[0].ID}}); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("%s: %d", step, res.StatusCode)
		}
	}
	return rs[0].ID
}

// Money is for admins: fulfilment staff see no refund form (the order page
// says an admin refunds), and their refund or "mark received" posts change
// nothing; an admin's do.
func TestAdmin_OnlyAdminsMoveMoney(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t, withBankTransfer())
	ctx := context.Background()
	path := "/admin/orders/" + b.orderID
	_, doc := b.fulfi.get(path)
	if doc.Find(`[data-testid="refund-form"]`).Length() != 0 || !strings.Contains(text(doc, `[data-testid="refund-admin-only"]`), "An admin refunds this") {
		t.Errorf("fulfilment's order page: a refund form %d, note %q; want none and the note",
			doc.Find(`[data-testid="refund-form"]`).Length(), text(doc, `[data-testid="refund-admin-only"]`))
	}
	refund := url.Values{"was": {"0"}, "amount": {"5.00"}, "reason": {"Scratched"}}
	for _, step := range []string{"/refund", "/refund/confirm", "/refund/items"} {
		if res, _ := b.fulfi.post(path+step, refund); res.StatusCode != http.StatusNotFound {
			t.Errorf("fulfilment POST %s: %d, want 404", step, res.StatusCode)
		}
	}
	if o, _ := b.app.db.Order(ctx, b.orderID); o.Refunded != 0 {
		t.Errorf("after fulfilment's refund: refunded %v, want nothing", o.Refunded)
	}
	// Cancelling a paid order refunds it: an admin's too.
	if doc.Find(`[data-testid="cancel-form"]`).Length() != 0 || text(doc, `[data-testid="cancel-admin-only"]`) == "" {
		t.Errorf("fulfilment's order page offers to cancel a paid order")
	}
	cancel := url.Values{"reason": {"Asked by phone"}, "status": {"processing"}, "refunded": {"0"}}
	for _, step := range []string{"/cancel", "/cancel/confirm"} {
		b.fulfi.post(path+step, cancel)
	}
	if o, _ := b.app.db.Order(ctx, b.orderID); o.Status != shop.StatusProcessing || o.Refunded != 0 {
		t.Errorf("after fulfilment's cancel: %s, refunded %v; want untouched", o.Status, o.Refunded)
	}
	transfer := payByTransfer(t, b, "nb-004", "1")
	if res, _ := b.fulfi.post("/admin/orders/"+transfer+"/paid", nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("fulfilment mark received: %d, want 404", res.StatusCode)
	}
	if o, _ := b.app.db.Order(ctx, transfer); o.PaymentStatus != shop.PaymentAwaiting {
		t.Errorf("after fulfilment's mark received: %s, want still awaiting", o.PaymentStatus)
	}

	if res, _ := b.admin.post(path+"/refund/confirm", refund); res.StatusCode != http.StatusSeeOther {
		t.Errorf("admin refund: %d", res.StatusCode)
	}
	if o, _ := b.app.db.Order(ctx, b.orderID); o.Refunded != 500 {
		t.Errorf("after the admin's refund: refunded %v, want $5.00", o.Refunded)
	}
	if res, _ := b.admin.post("/admin/orders/"+transfer+"/paid", nil); res.StatusCode != http.StatusSeeOther {
		t.Errorf("admin mark received: %d", res.StatusCode)
	}
	if o, _ := b.app.db.Order(ctx, transfer); o.PaymentStatus != shop.PaymentPaid {
		t.Errorf("after the admin's mark received: %s, want paid", o.PaymentStatus)
	}
}

// A bank transfer's refund is paid back by hand: it waits, on the
// dashboard and the order's page, until an admin says it was sent; only
// then is the shopper mailed and the refund audited, once.
func TestRefund_ByHandWaitsForStaff(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t, withBankTransfer())
	ctx := context.Background()
	id := payByTransfer(t, b, "nb-004", "1")
	path := "/admin/orders/" + id
	if res, _ := b.admin.post(path+"/paid", nil); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("mark received: %d", res.StatusCode)
	}
	form := url.Values{"was": {"0"}, "amount": {"1.00"}, "reason": {"Price match"}}
	if res, _ := b.admin.post(path+"/refund/confirm", form); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("refund: %d", res.StatusCode)
	}
	if mails, audits := refundTrail(t, b, id); mails+audits != 0 {
		t.Errorf("before staff send it: %d mails, %d audits; want none", mails, audits)
	}
	if _, doc := b.admin.get(path); !strings.Contains(text(doc, `[data-testid="flash"]`), "Send the money back") {
		t.Errorf("flash after a refund by hand: %q", text(doc, `[data-testid="flash"]`))
	}
	_, doc := b.admin.get("/admin")
	if !strings.Contains(text(doc, `[data-testid="refunds-due"]`), id) {
		t.Errorf("the dashboard does not remind of %s's refund", id)
	}
	_, doc = b.fulfi.get(path)
	if doc.Find(`[data-testid="refund-sent-form"]`).Length() != 0 {
		t.Error("fulfilment staff are offered to confirm a refund")
	}
	_, doc = b.admin.get(path)
	confirm := formValues(doc.Find(`[data-testid="refund-sent-form"]`))
	if confirm.Get("refund") == "" {
		t.Fatalf("no confirm button on the order page: %q", text(doc, `[data-testid="refunds-by-hand"]`))
	}
	if res, _ := b.fulfi.post(path+"/refund/sent", confirm); res.StatusCode != http.StatusNotFound {
		t.Errorf("fulfilment confirms: %d, want 404", res.StatusCode)
	}
	for range 2 {
		if res, _ := b.admin.post(path+"/refund/sent", confirm); res.StatusCode != http.StatusSeeOther {
			t.Errorf("confirm: %d", res.StatusCode)
		}
	}
	if mails, audits := refundTrail(t, b, id); mails != 1 || audits != 1 {
		t.Errorf("after confirming twice: %d mails, %d audits; want 1, 1", mails, audits)
	}
	if due, _ := b.app.office.RefundsByHand(ctx); len(due) != 0 {
		t.Errorf("still due: %d", len(due))
	}
	if got, _ := b.app.db.Order(ctx, id); got.Refunded != 100 {
		t.Errorf("refunded %v, want $1.00", got.Refunded)
	}
}
