package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/nocturne/storefront/handlers"
	"github.com/nocturne/storefront/internal/banktransfer"
	"github.com/nocturne/storefront/internal/money"
	"github.com/nocturne/storefront/internal/shop"
)

const testInstructions = "Nocturne Ltd\nIBAN GB00 NOCT 0000 0000 0000 00"

// withBankTransfer offers the demo card and bank transfer.
func withBankTransfer() testOption {
	return func(env map[string]string, _ *handlers.Deps) {
		env["PAYMENT_METHODS"] = "demo,bank_transfer"
		env["BANK_TRANSFER_INSTRUCTIONS"] = testInstructions
		env["BANK_TRANSFER_HOLD"] = "3d"
	}
}

// payByTransfer takes the back office's shopper through checkout paying by
// bank transfer and returns the order id.
func payByTransfer(t *testing.T, b *backOffice, product, qty string) string {
	t.Helper()
	c := b.shopper
	c.addToCart("/products", product, qty)
	if res, _ := c.postFrom("/checkout/shipping", "/checkout/shipping", shippingValues); res.Header.Get("Location") != "/checkout/payment" {
		t.Fatalf("shipping: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	res, _ := c.postFrom("/checkout/payment", "/checkout/payment", url.Values{"method": {"bank_transfer"}, "action": {"next"}})
	if res.Header.Get("Location") != "/checkout/review" {
		t.Fatalf("payment by bank transfer: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	_, doc := c.get("/checkout/review")
	if got := text(doc, `[data-testid="review-card"]`); got != "Bank transfer" {
		t.Errorf("review payment %q, want Bank transfer", got)
	}
	res = placeOrder(t, c)
	loc := res.Header.Get("Location")
	if !strings.HasPrefix(loc, "/orders/NOC-") {
		t.Fatalf("place order: %d to %q", res.StatusCode, loc)
	}
	return strings.TrimPrefix(loc, "/orders/")
}

// The Payment step offers each configured method as a radio choice; a post
// without one (or with one not offered) is told to choose, by the choice,
// keeping the name on the card.
func TestPayment_MethodChoice(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t, withBankTransfer())
	c := b.shopper
	c.addToCart("/products", "nb-001", "1")
	c.postFrom("/checkout/shipping", "/checkout/shipping", shippingValues)
	_, doc := c.get("/checkout/payment")
	for _, m := range []string{"demo", "bank_transfer"} {
		if doc.Find(`input[type="radio"][name="method"][value="`+m+`"]`).Length() != 1 {
			t.Errorf("no %s choice", m)
		}
	}
	if !strings.Contains(text(doc, `[data-testid="pay-methods"]`), "no money is taken") {
		t.Errorf("the demo card does not say plainly that no money is taken: %q", text(doc, `[data-testid="pay-methods"]`))
	}
	for _, method := range []string{"", "paypal", "stripe"} {
		res, doc := c.postFrom("/checkout/payment", "/checkout/payment", url.Values{"method": {method}, "cardName": {"Ada L"}, "action": {"next"}})
		if res.StatusCode != http.StatusUnprocessableEntity || text(doc, `[data-testid="method-error"]`) != handlers.MsgChooseMethod {
			t.Errorf("method %q: %d, error %q", method, res.StatusCode, text(doc, `[data-testid="method-error"]`))
		}
		if got := doc.Find(`input[name="cardName"]`).AttrOr("value", ""); got != "Ada L" {
			t.Errorf("method %q: name on card kept as %q", method, got)
		}
	}
	// The demo card still works beside it.
	res, _ := c.postFrom("/checkout/payment", "/checkout/payment", func() url.Values {
		v := paymentValues(testCard)
		v.Set("method", "demo")
		return v
	}())
	if res.Header.Get("Location") != "/checkout/review" {
		t.Fatalf("demo card: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
}

// A bank transfer places the order awaiting payment: its page and mail give
// the instructions, its stock is held, staff can't ship it until they mark
// the money received, and then they can.
func TestBankTransfer_PlaceMarkPaidShip(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t, withBankTransfer())
	ctx := context.Background()
	stockBefore, _ := b.app.db.Stock(ctx, "nb-003")
	id := payByTransfer(t, b, "nb-003", "2")
	_, doc := b.shopper.get("/orders/" + id)
	if got := text(doc, `main [data-testid="payment-status"]`); got != "Awaiting payment" {
		t.Errorf("payment state on the order page %q", got)
	}
	if got := text(doc, `[data-testid="status"]`); got != "Processing" {
		t.Errorf("status %q", got)
	}
	if got := text(doc, `[data-testid="bank-instructions"]`); !strings.Contains(got, "IBAN GB00 NOCT") || !strings.Contains(got, id) {
		t.Errorf("instructions on the order page: %q", got)
	}
	if n, _ := b.app.db.Stock(ctx, "nb-003"); n != stockBefore-2 {
		t.Errorf("stock while awaiting payment: %d, want %d (held)", n, stockBefore-2)
	}
	if got := len(cartLines(t, b.shopper)); got != 0 {
		t.Errorf("cart after placing: %d lines, want 0", got)
	}
	last := mailWithSubject(t, b.app, "Your order "+id)
	if !strings.Contains(last.Body, "IBAN GB00 NOCT") || !strings.Contains(last.Body, "with "+id+" as the reference") ||
		!strings.Contains(last.Body, "hold your items for 3 days") || strings.Contains(last.Body, "Paid with") {
		t.Errorf("confirmation mail:\n%s", last.Body)
	}

	path := "/admin/orders/" + id
	_, doc = b.fulfi.get(path)
	if doc.Find(`[data-testid="ship-form"]`).Length() != 0 || text(doc, `[data-testid="ship-unpaid"]`) != shop.MsgShipUnpaid {
		t.Error("an unpaid order offers shipping")
	}
	if res, _ := b.fulfi.post(path+"/ship", url.Values{"carrier": {"UPS"}, "tracking": {"1Z999"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("ship unpaid: %d", res.StatusCode)
	}
	if _, doc := b.fulfi.get(path); !strings.Contains(doc.Text(), shop.MsgShipUnpaid) || text(doc, `[data-testid="status"]`) != "Processing" {
		t.Errorf("shipping an unpaid order was not refused with %q", shop.MsgShipUnpaid)
	}
	_, doc = b.fulfi.get("/admin/orders?payment=awaiting")
	if n := doc.Find(`[data-testid="admin-order-row"]`).Length(); n != 1 || !strings.Contains(text(doc, `[data-testid="admin-orders"]`), id) {
		t.Errorf("orders awaiting payment: %d rows", n)
	}

	if res, _ := b.admin.post(path+"/paid", nil); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("mark paid: %d", res.StatusCode)
	}
	if res, _ := b.admin.post(path+"/paid", nil); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("mark paid again: %d", res.StatusCode)
	}
	_, doc = b.admin.get(path)
	if got := text(doc, `main [data-testid="payment-status"]`); got != "Paid" || !strings.Contains(doc.Text(), "not awaiting payment (it is Paid)") {
		t.Errorf("after marking paid twice: state %q, the second not refused", got)
	}
	if res, _ := b.fulfi.post(path+"/ship", url.Values{"carrier": {"UPS"}, "tracking": {"1Z999"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("ship paid: %d", res.StatusCode)
	}
	if _, doc := b.shopper.get("/orders/" + id); text(doc, `[data-testid="status"]`) != "Shipped" || doc.Find(`[data-testid="bank-instructions"]`).Length() != 0 {
		t.Errorf("after payment and shipping: status %q, instructions still shown: %v", text(doc, `[data-testid="status"]`),
			doc.Find(`[data-testid="bank-instructions"]`).Length() != 0)
	}
	mails, _ := b.app.db.Outbox(ctx)
	paidMails := 0
	for _, m := range mails {
		if m.Subject == "Payment received for order "+id {
			paidMails++
		}
	}
	if paidMails != 1 {
		t.Errorf("%d payment-received mails, want 1", paidMails)
	}
	entries, _, _ := b.app.db.AuditLog(ctx, 1)
	if !auditHas(entries, "order.paid", id) {
		t.Error("marking paid is not in the audit log")
	}
}

// mailWithSubject is the one mail in the outbox with subject.
func mailWithSubject(t *testing.T, app *testApp, subject string) shop.Email {
	t.Helper()
	mails, err := app.db.Outbox(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var found []shop.Email
	for _, m := range mails {
		if m.Subject == subject {
			found = append(found, m)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d mails with subject %q, want 1", len(found), subject)
	}
	return found[0]
}

func auditHas(entries []shop.AuditEntry, action, subject string) bool {
	for _, e := range entries {
		if e.Action == action && e.Subject == subject {
			return true
		}
	}
	return false
}

// A bank transfer not paid within the hold is cancelled by the sweep: the
// stock goes back and the shopper is told no payment was taken. One paid in
// time is left alone.
func TestBankTransfer_HoldExpires(t *testing.T) {
	t.Parallel()
	// One shopper holds two unpaid transfers at once.
	b := newBackOffice(t, withBankTransfer(), withEnv("BANK_TRANSFER_MAX_OPEN", "2"))
	ctx := context.Background()
	stockBefore, _ := b.app.db.Stock(ctx, "nb-004")
	unpaid := payByTransfer(t, b, "nb-004", "1")
	paid := payByTransfer(t, b, "nb-004", "1")
	if res, _ := b.admin.post("/admin/orders/"+paid+"/paid", nil); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("mark paid: %d", res.StatusCode)
	}
	hold := b.app.cfg.Payments.BankTransferHold
	words := b.app.checkout.MethodWords(banktransfer.Name)
	b.app.clock.Advance(hold - time.Minute)
	if n, err := b.app.office.ExpireUnpaid(ctx, banktransfer.Name, words); err != nil || n != 0 {
		t.Fatalf("sweep before the hold ends: %d cancelled (%v), want 0", n, err)
	}
	b.app.clock.Advance(2 * time.Minute)
	if n, err := b.app.office.ExpireUnpaid(ctx, banktransfer.Name, words); err != nil || n != 1 {
		t.Fatalf("sweep after the hold: %d cancelled (%v), want 1", n, err)
	}
	if n, err := b.app.office.ExpireUnpaid(ctx, banktransfer.Name, words); err != nil || n != 0 {
		t.Errorf("sweep again: %d cancelled (%v), want 0", n, err)
	}
	o, _ := b.app.db.Order(ctx, unpaid)
	want := "Your bank transfer did not arrive within 3 days, so the items went back on sale."
	if o.Status != shop.StatusCancelled || o.PaymentStatus != shop.PaymentFailed || o.CancelReason != want {
		t.Errorf("expired transfer: %s/%s %q", o.Status, o.PaymentStatus, o.CancelReason)
	}
	if p, _ := b.app.db.Order(ctx, paid); p.Status != shop.StatusProcessing || p.PaymentStatus != shop.PaymentPaid {
		t.Errorf("paid transfer after the sweep: %s/%s", p.Status, p.PaymentStatus)
	}
	if n, _ := b.app.db.Stock(ctx, "nb-004"); n != stockBefore-1 {
		t.Errorf("stock after the sweep: %d, want %d (the unpaid one back)", n, stockBefore-1)
	}
	last := mailWithSubject(t, b.app, "Your order "+unpaid+" was cancelled")
	if !strings.Contains(last.Body, want) || !strings.Contains(last.Body, "No payment was taken") {
		t.Errorf("cancellation mail %q:\n%s", last.Subject, last.Body)
	}
	_ = banktransfer.MsgNotReceived
}

// Staff refund part of a paid order after a confirmation page that says
// what will happen in the payment method's words; the confirmation posted
// twice refunds once; the rest can follow; more than is left is refused by
// the field.
func TestRefund_PartialThenRest(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	ctx := context.Background()
	path := "/admin/orders/" + b.orderID
	o, _ := b.app.db.Order(ctx, b.orderID)
	_, doc := b.admin.get(path)
	if got := doc.Find(`[data-testid="refund-form"] input[name="amount"]`).AttrOr("value", ""); got != money.Text(o.Total) {
		t.Errorf("amount prefilled %q, want %q", got, money.Text(o.Total))
	}
	for _, tt := range []struct{ amount, reason, field string }{
		{"", "Scratched", "amount"},
		{"0", "Scratched", "amount"},
		{"1.005", "Scratched", "amount"},
		{money.Text(o.Total + 1), "Scratched", "amount"},
		{"10", "", "reason"},
	} {
		res, doc := b.admin.post(path+"/refund", url.Values{"amount": {tt.amount}, "reason": {tt.reason}})
		if res.StatusCode != http.StatusUnprocessableEntity || text(doc, `[data-testid="`+"refund-"+tt.field+`-error"]`) == "" {
			t.Errorf("refund %q %q: %d, no message by the %s field", tt.amount, tt.reason, res.StatusCode, tt.field)
		}
		if got := doc.Find(`input[name="amount"]`).AttrOr("value", ""); got != tt.amount {
			t.Errorf("typed amount %q came back as %q", tt.amount, got)
		}
	}
	res, doc := b.admin.post(path+"/refund", url.Values{"amount": {"10"}, "reason": {"Scratched on arrival"}})
	if res.StatusCode != http.StatusOK || text(doc, `[data-testid="refund-confirm-button"]`) != "Refund $10.00 to the demo card •••• 4242" {
		t.Fatalf("confirmation: %d %q", res.StatusCode, text(doc, `[data-testid="refund-confirm-button"]`))
	}
	if got, _ := b.app.db.Order(ctx, b.orderID); got.Refunded != 0 {
		t.Fatalf("the confirmation page refunded %v already", got.Refunded)
	}
	confirm := formValues(doc.Find(`[data-testid="refund-confirm"] form`))
	for range 2 {
		if res, _ := b.admin.post(path+"/refund/confirm", confirm); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("confirm: %d", res.StatusCode)
		}
	}
	got, _ := b.app.db.Order(ctx, b.orderID)
	if got.Refunded != 1000 || got.PaymentStatus != shop.PaymentPartiallyRefunded {
		t.Errorf("after confirming twice: refunded %v (%s), want $10.00 once", got.Refunded, got.PaymentStatus)
	}
	_, doc = b.shopper.get("/orders/" + b.orderID)
	if text(doc, `main [data-testid="payment-status"]`) != "Partially refunded" || !strings.Contains(text(doc, `[data-testid="order-refunded"]`), "$10.00") {
		t.Errorf("shopper's order: %q, %q", text(doc, `main [data-testid="payment-status"]`), text(doc, `[data-testid="order-refunded"]`))
	}
	if !strings.Contains(mailWithSubject(t, b.app, "Refund for order "+b.orderID).Body, "Scratched on arrival") {
		t.Error("the refund mail does not give the reason")
	}
	entries, _, _ := b.app.db.AuditLog(ctx, 1)
	if !auditHas(entries, "order.refund", b.orderID) {
		t.Error("the refund is not in the audit log")
	}
	// The rest.
	_, doc = b.admin.post(path+"/refund", url.Values{"amount": {money.Text(o.Total - 1000)}, "reason": {"Returned"}})
	if res, _ := b.admin.post(path+"/refund/confirm", formValues(doc.Find(`[data-testid="refund-confirm"] form`))); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("confirm the rest: %d", res.StatusCode)
	}
	if got, _ := b.app.db.Order(ctx, b.orderID); got.Refunded != o.Total || got.PaymentStatus != shop.PaymentRefunded {
		t.Errorf("after refunding the rest: %v (%s)", got.Refunded, got.PaymentStatus)
	}
	if _, doc := b.admin.get(path); doc.Find(`[data-testid="refund-form"]`).Length() != 0 {
		t.Error("a refunded order still offers a refund")
	}
}

// Staff work out a refund from the items sent back: a line's share of the
// order's tax comes with it, by the rule that priced the order, and the
// amount lands in the refund form; a number the line does not have is
// refused next to it.
func TestRefund_ItemsWorkedOut(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t) // the shopper bought 2 of nb-026
	ctx := context.Background()
	path := "/admin/orders/" + b.orderID
	o, err := b.app.db.Order(ctx, b.orderID)
	if err != nil {
		t.Fatal(err)
	}
	res, doc := b.admin.post(path+"/refund/items", url.Values{"qty-0": {"3"}})
	if res.StatusCode != http.StatusUnprocessableEntity || text(doc, `[data-testid="refund-qty-0-error"]`) != "Enter a number from 0 to 2." {
		t.Errorf("3 of 2 back: %d %q", res.StatusCode, text(doc, `[data-testid="refund-qty-0-error"]`))
	}
	if got := doc.Find(`input[name="qty-0"]`).AttrOr("value", ""); got != "3" {
		t.Errorf("typed 3 came back as %q", got)
	}
	for _, tt := range []struct {
		form url.Values
		want shop.Cents
	}{
		{url.Values{"qty-0": {"1"}}, o.Lines[0].Price + o.Tax/2},
		{url.Values{"qty-0": {"2"}, "shipping": {"1"}}, o.Total},
	} {
		res, doc = b.admin.post(path+"/refund/items", tt.form)
		if got := doc.Find(`[data-testid="refund-form"] input[name="amount"]`).AttrOr("value", ""); res.StatusCode != http.StatusOK || got != money.Text(tt.want) {
			t.Errorf("%v back: %d, amount %q, want %s", tt.form, res.StatusCode, got, money.Text(tt.want))
		}
		if !strings.Contains(text(doc, `[data-testid="refund-breakdown"]`), "of tax") {
			t.Errorf("%v back: breakdown %q", tt.form, text(doc, `[data-testid="refund-breakdown"]`))
		}
	}
	if got, _ := b.app.db.Order(ctx, b.orderID); got.Refunded != 0 {
		t.Errorf("working the amount out refunded %v", got.Refunded)
	}
}
