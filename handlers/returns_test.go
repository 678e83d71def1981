package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/nocturne/storefront/handlers"
	"github.com/nocturne/storefront/internal/returns"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// deliver has staff ship and deliver the order.
func (b *backOffice) deliver(t *testing.T, orderID string) {
	t.Helper()
	path := "/admin/orders/" + orderID
	if res, _ := b.fulfi.post(path+"/ship", url.Values{"carrier": {"UPS"}, "tracking": {"1Z999AA10123456784"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("ship: %d", res.StatusCode)
	}
	if res, _ := b.fulfi.post(path+"/deliver", nil); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("deliver: %d", res.StatusCode)
	}
}

// latestMail is the newest e-mail to the shopper's order address.
func (b *backOffice) latestMail(t *testing.T) shop.Email {
	t.Helper()
	mails, err := b.app.db.Outbox(context.Background())
	if err != nil || len(mails) == 0 {
		t.Fatalf("outbox: %d mails, %v", len(mails), err)
	}
	return mails[0]
}

// returnState is the state the shopper's order page shows of its only (or
// newest) return, and its action's message.
func returnState(t *testing.T, c *client, orderID string) (string, *goquery.Document) {
	t.Helper()
	res, doc := c.get("/orders/" + orderID)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("order page: %d", res.StatusCode)
	}
	return text(doc, `[data-testid="return"]:last-child [data-testid="return-state"]`), doc
}

// Each refusal of the return form shows the order again (422) with its
// message next to its field and what was typed kept; nothing is stored.
func TestReturns_Refusals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// setup delivers (or not) the order and returns the form to post.
		setup func(t *testing.T, b *backOffice) url.Values
		field string // the message's data-testid
		want  string
	}{
		{"NotDelivered", func(t *testing.T, b *backOffice) url.Values {
			return url.Values{"qty-0": {"1"}, "reason": {"doesnt_fit"}}
		}, "form-alert", shop.MsgReturnNotDelivered},
		{"WindowClosed", func(t *testing.T, b *backOffice) url.Values {
			// A window shorter than a session lasts (RETURN_WINDOW_DAYS is
			// 3 in these tests), so the shopper is still signed in after it.
			b.deliver(t, b.orderID)
			b.app.clock.Advance(3*24*time.Hour + time.Minute)
			return url.Values{"qty-0": {"1"}, "reason": {"doesnt_fit"}}
		}, "return-closed", fmt.Sprintf(returns.MsgWindowClosed, 3, "November 24, 2026")},
		{"FinalSale", func(t *testing.T, b *backOffice) url.Values {
			ctx := context.Background()
			p, err := b.app.db.AdminProduct(ctx, "nb-002")
			if err != nil {
				t.Fatal(err)
			}
			p.FinalSale = true
			if err := b.app.db.SaveProduct(ctx, shop.ProductEdit{Product: *p, StockWas: p.Stock}); err != nil {
				t.Fatal(err)
			}
			if err := b.app.catalog.Reload(ctx); err != nil {
				t.Fatal(err)
			}
			b.orderID = b.placeOrder(t, "nb-002", "1")
			b.deliver(t, b.orderID)
			return url.Values{"qty-0": {"1"}, "reason": {"damaged"}, "comment": {"Cracked"}}
		}, "return-qty-0-error", returns.MsgFinalSale},
		{"MoreThanBought", func(t *testing.T, b *backOffice) url.Values {
			b.deliver(t, b.orderID)
			return url.Values{"qty-0": {"3"}, "reason": {"doesnt_fit"}, "comment": {"Three?"}}
		}, "return-qty-0-error", fmt.Sprintf(returns.MsgQuantity, 2)},
		{"AlreadyAskedFor", func(t *testing.T, b *backOffice) url.Values {
			b.deliver(t, b.orderID)
			if res, _ := b.shopper.post("/orders/"+b.orderID+"/returns", url.Values{"qty-0": {"2"}, "reason": {"other"}}); res.StatusCode != http.StatusSeeOther {
				t.Fatalf("first request: %d", res.StatusCode)
			}
			return url.Values{"qty-0": {"1"}, "reason": {"changed_mind"}}
		}, "return-qty-0-error", shop.MsgReturnNoneLeft},
		{"NothingChosen", func(t *testing.T, b *backOffice) url.Values {
			b.deliver(t, b.orderID)
			return url.Values{"qty-0": {"0"}, "reason": {"other"}, "comment": {"Never mind"}}
		}, "return-items-error", returns.MsgNothingChosen},
		{"NoReason", func(t *testing.T, b *backOffice) url.Values {
			b.deliver(t, b.orderID)
			return url.Values{"qty-0": {"1"}, "reason": {""}, "comment": {"Kept"}}
		}, "return-reason-error", returns.MsgReasonRequired},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := newBackOffice(t, withEnv("RETURN_WINDOW_DAYS", "3"))
			form := tt.setup(t, b)
			before, _ := b.app.db.OrderReturns(context.Background(), b.orderID)
			res, doc := b.shopper.post("/orders/"+b.orderID+"/returns", form)
			if res.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("status %d, want 422", res.StatusCode)
			}
			if got := text(doc, fmt.Sprintf(`[data-testid="%s"]`, tt.field)); !strings.Contains(got, tt.want) {
				t.Errorf("%s: got %q, want %q", tt.field, got, tt.want)
			}
			if after, _ := b.app.db.OrderReturns(context.Background(), b.orderID); len(after) != len(before) {
				t.Error("a refused request was stored")
			}
			// What was typed is kept.
			f := doc.Find(`[data-testid="return-form"]`)
			if f.Length() == 0 {
				return // no form to keep it in: the order can't take a return
			}
			if got := f.Find(`select[name="reason"] option[selected]`).AttrOr("value", ""); got != form.Get("reason") {
				t.Errorf("reason kept as %q, want %q", got, form.Get("reason"))
			}
			if got := f.Find(`textarea[name="comment"]`).Text(); got != form.Get("comment") {
				t.Errorf("comment kept as %q, want %q", got, form.Get("comment"))
			}
			if q := f.Find(`input[name="qty-0"]`); q.Length() == 1 && q.AttrOr("value", "") != form.Get("qty-0") {
				t.Errorf("quantity kept as %q, want %q", q.AttrOr("value", ""), form.Get("qty-0"))
			}
		})
	}
}

// A shopper returns 1 of 2 items; staff approve, mark it received (back
// in stock) and refund it through the order's refund form; the shopper
// sees each state on the order page and gets each mail, and every step
// is on the timeline and in the audit log.
func TestReturns_RequestApproveReceiveRefund(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	ctx := context.Background()
	order := "/orders/" + b.orderID
	admin := "/admin/orders/" + b.orderID

	// Not delivered yet: no form.
	_, doc := b.shopper.get(order)
	if doc.Find(`[data-testid="return-form"]`).Length() != 0 {
		t.Fatal("a processing order offers returns")
	}
	b.deliver(t, b.orderID)
	_, doc = b.shopper.get(order)
	f := doc.Find(`[data-testid="return-form"]`)
	if f.Length() != 1 {
		t.Fatal("no return form on a delivered order")
	}
	if got := text(doc, `[data-testid="return-until"]`); got != "You can return items until December 21, 2026." {
		t.Errorf("window: %q", got)
	}
	if got := f.Find(`select[name="reason"] option`).Length(); got != len(returns.Reasons)+1 {
		t.Errorf("%d reasons offered", got)
	}

	// The request: 1 of the 2.
	res, _ := b.shopper.post(order+"/returns", url.Values{"qty-0": {"1"}, "reason": {"doesnt_fit"}, "comment": {"Too loud"}})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != order {
		t.Fatalf("request: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	rs, _ := b.app.db.OrderReturns(ctx, b.orderID)
	if len(rs) != 1 || rs[0].ItemCount() != 1 {
		t.Fatalf("stored: %+v", rs)
	}
	id := rs[0].ID
	state, doc := returnState(t, b.shopper, b.orderID)
	if state != "Requested" || !strings.Contains(text(doc, `[data-testid="flash"]`), fmt.Sprintf(handlers.MsgReturnRequested, id)) {
		t.Errorf("after the request: %q, flash %q", state, text(doc, `[data-testid="flash"]`))
	}
	if got := text(doc, `[data-testid="return-items"]`); !strings.HasPrefix(got, "1 × ") {
		t.Errorf("items shown %q", got)
	}
	// One item is left to return: the form still offers it.
	if got := doc.Find(`[data-testid="return-form"] input[name="qty-0"]`).Length(); got != 1 {
		t.Errorf("the other item is not offered: %d", got)
	}
	mailSubjects := []string{b.latestMail(t).Subject}

	// Staff see it on the order and in the list.
	_, doc = b.fulfi.get("/admin/returns")
	if doc.Find(`[data-testid="admin-returns-item"]`).Length() != 1 || !strings.Contains(doc.Text(), id) {
		t.Error("the list does not show the request")
	}
	if got := doc.Find(`nav[aria-label="Back office"] a[aria-current="page"]`).Text(); got != "Returns" {
		t.Errorf("current link on /admin/returns: %q", got)
	}
	_, doc = b.fulfi.get(admin)
	if got := doc.Find(`nav[aria-label="Back office"] a[aria-current="page"]`).Text(); got != "Orders" {
		t.Errorf("current link on an order: %q", got)
	}
	if got := text(doc, `[data-testid="admin-return-comment"]`); got != "Shopper's note: Too loud" {
		t.Errorf("comment %q", got)
	}
	if doc.Find(`[data-testid="return-refund-form"]`).Length() != 0 {
		t.Error("a requested return offers its refund")
	}

	// A rejection needs a message, asked for next to its box.
	res, doc = b.fulfi.post(admin+"/returns/reject", url.Values{"return": {id}, "message": {" "}})
	if res.StatusCode != http.StatusUnprocessableEntity || text(doc, `[data-testid="reject-`+id+`-error"]`) != returns.MsgRejectWhy {
		t.Errorf("reject without a message: %d %q", res.StatusCode, text(doc, `[data-testid="reject-`+id+`-error"]`))
	}

	// Approve.
	if res, _ := b.fulfi.post(admin+"/returns/approve", url.Values{"return": {id}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("approve: %d", res.StatusCode)
	}
	if state, doc := returnState(t, b.shopper, b.orderID); state != "Approved" || !strings.Contains(text(doc, `[data-testid="return-next"]`), id+" written on the parcel") {
		t.Errorf("after approval: %q", state)
	}
	mailSubjects = append(mailSubjects, b.latestMail(t).Subject)
	// Approving twice says it moved on.
	b.fulfi.post(admin+"/returns/approve", url.Values{"return": {id}})
	if _, doc := b.fulfi.get(admin); !strings.Contains(text(doc, `[data-testid="flash"]`), "This return is approved now") {
		t.Errorf("second approval: %q", text(doc, `[data-testid="flash"]`))
	}

	// Received, back in stock.
	stock, _ := b.app.db.Stock(ctx, "nb-026")
	_, doc = b.fulfi.get(admin)
	form := formValues(doc.Find(`[data-testid="return-receive-form"]`))
	form.Set("restock", doc.Find(`[data-testid="return-restock"]`).AttrOr("value", ""))
	if res, _ := b.fulfi.post(admin+"/returns/receive", form); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("receive: %d", res.StatusCode)
	}
	if n, _ := b.app.db.Stock(ctx, "nb-026"); n != stock+1 {
		t.Errorf("stock after a restock of 1: %d, want %d", n, stock+1)
	}
	if state, _ := returnState(t, b.shopper, b.orderID); state != "Received" {
		t.Errorf("after receiving: %q", state)
	}
	mailSubjects = append(mailSubjects, b.latestMail(t).Subject)

	// Refund: the return's button fills the order's refund form, which
	// carries the return through review and confirmation.
	_, doc = b.admin.get(admin)
	res, doc = b.admin.post(admin+"/refund/items", formValues(doc.Find(`[data-testid="return-refund-form"]`)))
	if res.StatusCode != http.StatusOK {
		t.Fatalf("work out the refund: %d", res.StatusCode)
	}
	refund := formValues(doc.Find(`[data-testid="refund-form"]`))
	// Working the amount out again (the shipping ticked, say) keeps the
	// return.
	if items := formValues(doc.Find(`[data-testid="refund-items-form"]`)); items.Get("return") != id || items.Get("qty-0") != "1" {
		t.Errorf("items form after the return's refund: %v", items)
	}
	o, _ := b.app.db.Order(ctx, b.orderID)
	if refund.Get("return") != id || refund.Get("reason") != returns.RefundReason(&rs[0]) || refund.Get("amount") == "" {
		t.Fatalf("refund form: %v", refund)
	}
	res, doc = b.admin.post(admin+"/refund", refund)
	if res.StatusCode != http.StatusOK || !strings.Contains(text(doc, `[data-testid="refund-confirm-return"]`), id) {
		t.Fatalf("review: %d", res.StatusCode)
	}
	confirm := formValues(doc.Find(`[data-testid="refund-confirm"] form`))
	if res, _ := b.admin.post(admin+"/refund/confirm", confirm); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("confirm: %d", res.StatusCode)
	}
	after, _ := b.app.db.Order(ctx, b.orderID)
	r, _ := b.app.db.ReturnRequest(ctx, id)
	if after.PaymentStatus != shop.PaymentPartiallyRefunded || after.Refunded <= 0 || after.Refunded >= o.Total || r.State != shop.ReturnRefunded || r.Refunded != after.Refunded {
		t.Errorf("after the refund: order %s %s refunded, return %s %s", after.PaymentStatus, after.Refunded, r.State, r.Refunded)
	}
	state, doc = returnState(t, b.shopper, b.orderID)
	if state != "Refunded" || !strings.Contains(text(doc, `[data-testid="return-next"]`), after.Refunded.String()+" was refunded") {
		t.Errorf("after the refund: %q", state)
	}
	mails, _ := b.app.db.Outbox(ctx)
	mailSubjects = append(mailSubjects, mails[1].Subject, mails[0].Subject)
	want := []string{"Return request " + id + " for order " + b.orderID, "Your return " + id + " is approved", "We received your return " + id,
		"Refund for order " + b.orderID, "Your return " + id + " is refunded"}
	if fmt.Sprint(mailSubjects) != fmt.Sprint(want) {
		t.Errorf("mails:\n got %q\nwant %q", mailSubjects, want)
	}
	for _, m := range mails[:5] {
		if m.To != "ada@example.com" {
			t.Errorf("mail %q to %s", m.Subject, m.To)
		}
	}
	// A return refunded cannot be refunded again through the form.
	res, _ = b.admin.post(admin+"/refund/items", url.Values{"return": {id}, "qty-0": {"1"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Errorf("refund of a refunded return: %d", res.StatusCode)
	}

	// The timeline and the audit log tell the whole story.
	_, doc = b.shopper.get(order)
	timeline := doc.Find(`[data-testid="timeline"]`).Text()
	for _, step := range []string{"Return requested", "Return approved", "Return received", "Return refunded"} {
		if !strings.Contains(timeline, step) {
			t.Errorf("timeline lacks %q", step)
		}
	}
	entries, _, _ := b.app.db.AuditLog(ctx, 1)
	var actions []string
	for _, e := range entries {
		if strings.HasPrefix(e.Action, "return.") {
			actions = append([]string{e.Action}, actions...)
		}
	}
	if got := strings.Join(actions, " "); got != "return.requested return.approved return.received return.refunded" {
		t.Errorf("audit log: %s", got)
	}
}

// A visitor who looked the order up may return its items, as they may
// cancel it; anyone else gets the ordinary 404.
func TestReturns_GuestWhoLookedItUp(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	b.deliver(t, b.orderID)
	form := url.Values{"qty-0": {"1"}, "reason": {"not_as_described"}}
	if res, _ := b.app.client(t).post("/orders/"+b.orderID+"/returns", form); res.StatusCode != http.StatusNotFound {
		t.Errorf("a stranger's return: %d, want 404", res.StatusCode)
	}
	visitor := b.app.client(t)
	if res, _ := visitor.postFrom("/orders/lookup", "/orders/lookup", url.Values{"order": {b.orderID}, "email": {"ada@example.com"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("lookup: %d", res.StatusCode)
	}
	if _, doc := visitor.get("/orders/" + b.orderID); doc.Find(`[data-testid="return-form"]`).Length() != 1 {
		t.Fatal("no return form for the visitor who looked the order up")
	}
	if res, _ := visitor.post("/orders/"+b.orderID+"/returns", form); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("the visitor's return: %d", res.StatusCode)
	}
	if state, _ := returnState(t, visitor, b.orderID); state != "Requested" {
		t.Errorf("the visitor sees %q", state)
	}
	rs, _ := b.app.db.OrderReturns(context.Background(), b.orderID)
	if len(rs) != 1 || rs[0].RequestedBy != "" {
		t.Errorf("stored: %+v", rs)
	}
}

// A rejection tells the shopper why, on the page and by mail, and the
// items may be asked for again.
func TestReturns_Reject(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	b.deliver(t, b.orderID)
	order := "/orders/" + b.orderID
	b.shopper.post(order+"/returns", url.Values{"qty-0": {"2"}, "reason": {"changed_mind"}})
	rs, _ := b.app.db.OrderReturns(context.Background(), b.orderID)
	if len(rs) != 1 {
		t.Fatalf("%d requests", len(rs))
	}
	const why = "These were worn; we can only take back unused items."
	if res, _ := b.admin.post("/admin/orders/"+b.orderID+"/returns/reject", url.Values{"return": {rs[0].ID}, "message": {why}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("reject: %d", res.StatusCode)
	}
	state, doc := returnState(t, b.shopper, b.orderID)
	if state != "Rejected" || text(doc, `[data-testid="return-message"]`) != "Our note: "+why {
		t.Errorf("after the rejection: %q, %q", state, text(doc, `[data-testid="return-message"]`))
	}
	if m := b.latestMail(t); m.Subject != "Your return "+rs[0].ID+" was not approved" || !strings.Contains(m.Body, why) {
		t.Errorf("mail %q", m.Subject)
	}
	if res, _ := b.shopper.post(order+"/returns", url.Values{"qty-0": {"2"}, "reason": {"other"}}); res.StatusCode != http.StatusSeeOther {
		t.Errorf("asking again after a rejection: %d", res.StatusCode)
	}
	// The customer's page lists both requests with their states.
	u, _, err := b.app.db.UserByEmail(context.Background(), "sam@example.com")
	if err != nil {
		t.Fatal(err)
	}
	_, doc = b.admin.get(pages.CustomerURL(u.ID))
	if got := doc.Find(`[data-testid="customer-return"]`).Length(); got != 2 || !strings.Contains(text(doc, `[data-testid="customer-returns"]`), "Rejected") {
		t.Errorf("customer page: %d returns, %q", got, text(doc, `[data-testid="customer-returns"]`))
	}
	// A return of another order, or none, is said so on the order.
	if res, _ := b.admin.post("/admin/orders/"+b.orderID+"/returns/approve", url.Values{"return": {"RET-NONE"}}); res.StatusCode != http.StatusSeeOther {
		t.Errorf("approve an unknown return: %d", res.StatusCode)
	}
	if _, doc := b.admin.get("/admin/orders/" + b.orderID); text(doc, `[data-testid="flash"]`) != shop.MsgReturnNotFound {
		t.Errorf("unknown return: %q", text(doc, `[data-testid="flash"]`))
	}
}

// Staff mark a product final sale in the editor; its page says so.
func TestReturns_FinalSaleInTheEditor(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	form := b.editorForm(t, "nb-002")
	if form.Get("final_sale") != "" {
		t.Fatal("a product is final sale before anyone said so")
	}
	form.Set("final_sale", "1")
	if res, _ := b.admin.post("/admin/products/nb-002", form); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: %d", res.StatusCode)
	}
	if p, err := b.app.db.AdminProduct(context.Background(), "nb-002"); err != nil || !p.FinalSale {
		t.Fatalf("after the save: %v, %v", p != nil && p.FinalSale, err)
	}
	if got := b.editorForm(t, "nb-002").Get("final_sale"); got != "1" {
		t.Errorf("the editor shows final sale as %q", got)
	}
	if _, doc := b.shopper.get("/product/nb-002"); text(doc, `[data-testid="final-sale"]`) != "Final sale: this item can't be returned." {
		t.Errorf("product page: %q", text(doc, `[data-testid="final-sale"]`))
	}
	if e := b.lastAudit(t, "product.update"); !strings.Contains(e.After, `"final_sale":true`) {
		t.Errorf("audit: %s", e.After)
	}
}
