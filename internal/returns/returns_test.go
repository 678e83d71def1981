package returns_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/mail"
	"github.com/nocturne/storefront/internal/returns"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/store/sqlite"
)

// delivered is when the test orders were marked delivered.
var delivered = time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)

// fixture is a shop with two delivered orders, NOC-A (2 lamps, 1 final
// sale vase) and NOC-B (1 lamp, delivered and then returned in part), one
// processing order NOC-P, and a returns service whose clock the test sets.
type fixture struct {
	db  *sqlite.DB
	svc *returns.Service
	now time.Time
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(db.ReplaceCatalog(ctx, "builtin", []string{"home"}, []shop.Product{
		{ID: "lamp", Title: "Lamp", Category: "home", Price: 4000, Stock: 5},
		{ID: "vase", Title: "Vase", Category: "home", Price: 2000, Stock: 5},
	}))
	vase, err := db.AdminProduct(ctx, "vase")
	must(err)
	vase.FinalSale = true
	must(db.SaveProduct(ctx, shop.ProductEdit{Product: *vase, StockWas: vase.Stock}))
	for _, o := range []*shop.Order{
		{ID: "NOC-A", Status: shop.StatusShipped, Lines: []shop.OrderLine{{ProductID: "lamp", Name: "Lamp", Price: 4000, Quantity: 2},
			{ProductID: "vase", Name: "Vase", Price: 2000, Quantity: 1}}},
		{ID: "NOC-B", Status: shop.StatusShipped, Lines: []shop.OrderLine{{ProductID: "lamp", Name: "Lamp", Price: 4000, Quantity: 2}}},
		{ID: "NOC-P", Status: shop.StatusProcessing, Lines: []shop.OrderLine{{ProductID: "lamp", Name: "Lamp", Price: 4000, Quantity: 1}}},
	} {
		o.UserID, o.Email, o.IdempotencyKey, o.CreatedAt, o.PaymentStatus = "usr_1", "ada@example.com", o.ID, delivered.Add(-72*time.Hour), shop.PaymentPaid
		for _, l := range o.Lines {
			o.Subtotal += l.Total()
		}
		o.Total = o.Subtotal
		must(db.InsertOrder(ctx, o))
		if o.Status == shop.StatusShipped {
			_, err := db.TransitionOrder(ctx, shop.Transition{OrderID: o.ID, From: shop.StatusShipped, To: shop.StatusDelivered, At: delivered})
			must(err)
		}
	}
	must(db.CreateReturn(ctx, &shop.ReturnRequest{OrderID: "NOC-B", Reason: "other", Lines: []shop.ReturnLine{{Line: 0, Quantity: 1}}}))
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	f := &fixture{db: db, now: delivered.Add(time.Hour)}
	outbox := &mail.Outbox{Store: db, Log: log}
	office := &backoffice.Service{Orders: db, Audit: db, Mailer: outbox, Now: func() time.Time { return f.now }, Log: log}
	f.svc = &returns.Service{Orders: db, Products: db, Returns: db, Audit: office, Refunds: office, Mailer: outbox,
		WindowDays: 30, BaseURL: "https://shop.example", Now: func() time.Time { return f.now }, Log: log}
	return f
}

// Each refusal of the shopper's form comes back next to its field, and
// stores nothing.
func TestRequest_Refusals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		order string
		after time.Duration // since delivery
		form  returns.Form
		field string
		want  string
	}{
		{"NotDelivered", "NOC-P", time.Hour, returns.Form{Qty: []string{"1"}, Reason: "other"}, "items", shop.MsgReturnNotDelivered},
		{"WindowClosed", "NOC-A", 30 * 24 * time.Hour, returns.Form{Qty: []string{"1"}, Reason: "other"}, "items",
			fmt.Sprintf(returns.MsgWindowClosed, 30, "December 1, 2026")},
		{"FinalSale", "NOC-A", time.Hour, returns.Form{Qty: []string{"1", "1"}, Reason: "damaged"}, "qty-1", returns.MsgFinalSale},
		{"MoreThanBought", "NOC-A", time.Hour, returns.Form{Qty: []string{"3"}, Reason: "other"}, "qty-0", fmt.Sprintf(returns.MsgQuantity, 2)},
		{"NotANumber", "NOC-A", time.Hour, returns.Form{Qty: []string{"two"}, Reason: "other"}, "qty-0", fmt.Sprintf(returns.MsgQuantity, 2)},
		{"MoreThanLeft", "NOC-B", time.Hour, returns.Form{Qty: []string{"2"}, Reason: "other"}, "qty-0", fmt.Sprintf(shop.MsgReturnTooMany, 1)},
		{"NothingChosen", "NOC-A", time.Hour, returns.Form{Qty: []string{"0", ""}, Reason: "other"}, "items", returns.MsgNothingChosen},
		{"NoReason", "NOC-A", time.Hour, returns.Form{Qty: []string{"1"}}, "reason", returns.MsgReasonRequired},
		{"UnknownReason", "NOC-A", time.Hour, returns.Form{Qty: []string{"1"}, Reason: "bored"}, "reason", returns.MsgReasonRequired},
		{"CommentTooLong", "NOC-A", time.Hour, returns.Form{Qty: []string{"1"}, Reason: "other", Comment: strings.Repeat("x", 501)}, "comment",
			returns.MsgCommentTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			f.now = delivered.Add(tt.after)
			ctx := context.Background()
			o, err := f.db.Order(ctx, tt.order)
			if err != nil {
				t.Fatal(err)
			}
			before, _ := f.db.OrderReturns(ctx, tt.order)
			r, errs, err := f.svc.Request(ctx, o, "usr_1", tt.form)
			if err != nil || r != nil {
				t.Fatalf("got %+v, %v; want field errors", r, err)
			}
			if got := errs[tt.field]; got != tt.want {
				t.Errorf("%s: got %q, want %q (all: %v)", tt.field, got, tt.want, errs)
			}
			if after, _ := f.db.OrderReturns(ctx, tt.order); len(after) != len(before) {
				t.Errorf("a refused request was stored")
			}
		})
	}
}

// The window is counted from delivery, not from the order: its last
// second still takes a request, which is stored, audited and mailed.
func TestRequest_LastSecondOfTheWindow(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	f.now = delivered.Add(30*24*time.Hour - time.Second)
	o, _ := f.db.Order(ctx, "NOC-A")
	of, err := f.svc.Offer(ctx, o)
	if err != nil || !of.Open || !of.Until.Equal(delivered.Add(30*24*time.Hour)) || len(of.Lines) != 2 || !of.Lines[1].FinalSale || of.Lines[0].Left != 2 {
		t.Fatalf("offer: %+v, %v", of, err)
	}
	r, errs, err := f.svc.Request(ctx, o, "usr_1", returns.Form{Qty: []string{" 2 ", "0"}, Reason: "doesnt_fit", Comment: "Too tall\r\nfor the desk"})
	if err != nil || errs != nil || r.State != shop.ReturnRequested || r.ItemCount() != 2 || r.Comment != "Too tall\nfor the desk" {
		t.Fatalf("request: %+v, %v, %v", r, errs, err)
	}
	mails, _ := f.db.Outbox(ctx)
	if len(mails) != 1 || mails[0].To != "ada@example.com" || mails[0].Subject != "Return request "+r.ID+" for order NOC-A" ||
		!strings.Contains(mails[0].Body, "2 × Lamp") || !strings.Contains(mails[0].Body, "Reason: Doesn't fit") {
		t.Errorf("mail: %+v", mails)
	}
	entries, _, _ := f.db.AuditLog(ctx, 1)
	if len(entries) != 1 || entries[0].Action != "return.requested" || entries[0].Subject != r.ID || entries[0].Actor != shop.ActorShopper {
		t.Errorf("audit: %+v", entries)
	}
}

// Staff's steps: each only from the state before it, each audited and
// mailed; a refund is allowed once the items are received, and a request
// of another order is not found.
func TestSteps(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	rs, _ := f.db.OrderReturns(ctx, "NOC-B")
	id := rs[0].ID
	const staff = "fay@example.com"
	if err := f.svc.Approve(ctx, staff, "NOC-A", id); shop.ErrorCode(err) != shop.ENOTFOUND {
		t.Errorf("approve through another order: %v", err)
	}
	if errs, err := f.svc.Reject(ctx, staff, "NOC-B", id, "  "); err != nil || errs["message"] != returns.MsgRejectWhy {
		t.Errorf("reject without a message: %v, %v", errs, err)
	}
	if _, err := f.svc.Refundable(ctx, "NOC-B", id); shop.ErrorMessage(err) != fmt.Sprintf(returns.MsgRefundNotReceived, "requested") {
		t.Errorf("refund before receiving: %v", err)
	}
	if err := f.svc.Receive(ctx, staff, "NOC-B", id, []int{0}); shop.ErrorCode(err) != shop.ECONFLICT {
		t.Errorf("receive before approving: %v", err)
	}
	if err := f.svc.Approve(ctx, staff, "NOC-B", id); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.Receive(ctx, staff, "NOC-B", id, []int{0}); err != nil {
		t.Fatal(err)
	}
	if n, _ := f.db.Stock(ctx, "lamp"); n != 6 {
		t.Errorf("stock after a restock of 1: %d, want 6", n)
	}
	r, err := f.svc.Refundable(ctx, "NOC-B", id)
	if err != nil {
		t.Fatal(err)
	}
	if got := returns.RefundQty(r, 1); fmt.Sprint(got) != "[1]" {
		t.Errorf("refund quantities %v", got)
	}
	if err := f.svc.Refund(ctx, staff, "NOC-B", id, 0, 4400, returns.RefundReason(r)); err != nil {
		t.Fatal(err)
	}
	if o, _ := f.db.Order(ctx, "NOC-B"); o.Refunded != 4400 {
		t.Errorf("order refunded %v, want 44.00", o.Refunded)
	}
	var subjects []string
	mails, _ := f.db.Outbox(ctx)
	for _, m := range mails {
		subjects = append([]string{m.Subject}, subjects...)
	}
	want := []string{"Your return " + id + " is approved", "We received your return " + id, "Refund for order NOC-B", "Your return " + id + " is refunded"}
	if fmt.Sprint(subjects) != fmt.Sprint(want) {
		t.Errorf("mails %q, want %q", subjects, want)
	}
	entries, _, _ := f.db.AuditLog(ctx, 1)
	var actions []string
	for _, e := range entries {
		actions = append([]string{e.Action + " by " + e.Actor}, actions...)
	}
	if got := strings.Join(actions, ", "); got != "return.approved by "+staff+", return.received by "+staff+", order.refund by "+staff+", return.refunded by "+staff {
		t.Errorf("audit: %s", got)
	}
}
