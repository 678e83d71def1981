package handlers_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/nocturne/storefront/handlers"
	"github.com/nocturne/storefront/handlers/admin"
	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/democard"
	"github.com/nocturne/storefront/internal/images"
	"github.com/nocturne/storefront/internal/images/imagestest"
	"github.com/nocturne/storefront/internal/money"
	"github.com/nocturne/storefront/internal/shop"
)

const staffPassword = "night-owl-41"

// backOffice is a test shop with a shopper who placed an order, a contact
// message, and a member of staff of each role.
type backOffice struct {
	app                   *testApp
	shopper, admin, fulfi *client
	orderID               string
	messageID             int64
}

func newBackOffice(t *testing.T, opts ...testOption) *backOffice {
	t.Helper()
	app := newTestApp(t, opts...)
	b := &backOffice{app: app}
	b.shopper = app.register(t, "Sam Shopper", "sam@example.com", staffPassword)
	b.admin = app.register(t, "Ada Admin", "admin@example.com", staffPassword)
	b.fulfi = app.register(t, "Fay Fulfilment", "fay@example.com", staffPassword)
	ctx := context.Background()
	// Only an account whose address is verified can be staff.
	for _, email := range []string{"admin@example.com", "fay@example.com"} {
		u, _, err := app.db.UserByEmail(ctx, email)
		if err != nil {
			t.Fatal(err)
		}
		if err := app.db.MarkEmailVerified(ctx, u.ID); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := app.db.GrantStaff(ctx, "admin@example.com", shop.RoleAdmin); err != nil {
		t.Fatal(err)
	}
	if _, err := app.db.GrantStaff(ctx, "FAY@example.com", shop.RoleFulfilment); err != nil {
		t.Fatal(err)
	}
	b.orderID = b.placeOrder(t, "nb-026", "2")
	m := &shop.ContactMessage{Name: "Sam", Email: "sam@example.com", Subject: "Where is my parcel?", Message: "Hello"}
	if err := app.db.CreateContactMessage(ctx, m); err != nil {
		t.Fatal(err)
	}
	b.messageID = m.ID
	return b
}

// placeOrder has the shopper buy qty of product and returns the order id.
func (b *backOffice) placeOrder(t *testing.T, product, qty string) string {
	t.Helper()
	if res := b.shopper.addToCart("/products", product, qty); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("add to cart: %d", res.StatusCode)
	}
	checkoutToReview(t, b.shopper, testCard)
	res := placeOrder(t, b.shopper)
	loc := orderPath(res)
	if !strings.HasPrefix(loc, "/orders/NOC-") {
		t.Fatalf("place order: %d to %q", res.StatusCode, loc)
	}
	return strings.TrimPrefix(loc, "/orders/")
}

func (b *backOffice) routePath(path string) string {
	path = strings.Replace(path, "/orders/:id", "/orders/"+b.orderID, 1)
	path = strings.Replace(path, "/messages/:id", fmt.Sprintf("/messages/%d", b.messageID), 1)
	path = strings.Replace(path, "/zones/:id", "/zones/us", 1) // seeded
	path = strings.Replace(path, "/methods/:id", "/methods/express", 1)
	path = strings.Replace(path, "/rates/:id", "/rates/default", 1)
	path = strings.Replace(path, "/carriers/:id", "/carriers/ups", 1)
	path = strings.Replace(path, "/mail/:id", "/mail/1", 1)
	path = strings.Replace(path, "/customers/:key", "/customers/sam@example.com", 1) // leads to Sam's account
	return strings.Replace(path, "/products/:id", "/products/nb-001", 1)
}

func (b *backOffice) request(c *client, method, path string) *http.Response {
	if method == http.MethodPost {
		res, _ := c.post(path, url.Values{})
		return res
	}
	res, _ := c.get(path)
	return res
}

// Every /admin route answers 404 to anyone who is not staff (signed out, a
// guest, a shopper), exactly as an address that does not exist; fulfilment
// staff get the same 404 on products, staff, the audit log and money (refunds,
// marking a transfer received), and reach the rest; admins reach everything.
func TestAdmin_RoleChecks(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	guest := b.app.client(t)
	guest.postFrom("/checkout", "/guest", nil)
	outsiders := map[string]*client{"signed out": b.app.client(t), "guest": guest, "shopper": b.shopper}

	_, missing := b.app.client(t).get("/no-such-page")
	missingTitle := missing.Find("title").Text()
	if len(admin.Routes()) < 17 {
		t.Fatalf("only %d admin routes listed", len(admin.Routes()))
	}
	for _, r := range admin.Routes() {
		path := b.routePath(r.Path)
		for who, c := range outsiders {
			req := c
			var res *http.Response
			var doc *goquery.Document
			if r.Method == http.MethodPost {
				res, doc = req.post(path, url.Values{"tracking": {"1Z999"}, "carrier": {"UPS"}, "reason": {"x"}})
			} else {
				res, doc = req.get(path)
			}
			if res.StatusCode != http.StatusNotFound {
				t.Errorf("%s %s %s: status %d, want 404", who, r.Method, path, res.StatusCode)
			}
			if got := doc.Find("title").Text(); got != missingTitle {
				t.Errorf("%s %s %s: title %q, want the ordinary 404's %q", who, r.Method, path, got, missingTitle)
			}
			if strings.Contains(strings.ToLower(doc.Find("main").Text()), "back office") {
				t.Errorf("%s %s %s: the 404 hints at the back office", who, r.Method, path)
			}
		}
		res := b.request(b.fulfi, r.Method, path)
		allowed := r.Area == backoffice.AreaDashboard || r.Area == backoffice.AreaOrders || r.Area == backoffice.AreaMessages
		if allowed && res.StatusCode == http.StatusNotFound || !allowed && res.StatusCode != http.StatusNotFound {
			t.Errorf("fulfilment %s %s: status %d (allowed: %v)", r.Method, path, res.StatusCode, allowed)
		}
		if res := b.request(b.admin, r.Method, path); res.StatusCode == http.StatusNotFound || res.StatusCode >= 500 {
			t.Errorf("admin %s %s: status %d", r.Method, path, res.StatusCode)
		}
	}
	// Staff pages are never stored by a cache.
	res, _ := b.admin.get("/admin")
	if got := res.Header.Get("Cache-Control"); got != "private, no-store" {
		t.Errorf("/admin Cache-Control %q", got)
	}
	// A removed role takes effect at once.
	if _, err := b.app.db.RevokeStaff(context.Background(), "fay@example.com"); err != nil {
		t.Fatal(err)
	}
	if res, _ := b.fulfi.get("/admin/orders"); res.StatusCode != http.StatusNotFound {
		t.Errorf("after staff remove: %d", res.StatusCode)
	}
}

func TestAdmin_ShipThenDeliver(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	path := "/admin/orders/" + b.orderID
	_, doc := b.fulfi.get(path)
	if doc.Find(`[data-testid="ship-form"]`).Length() != 1 {
		t.Fatal("no ship form on a processing order")
	}
	if got := text(doc, `[data-testid="admin-order-payment"]`); got != "Visa ending 4242" {
		t.Errorf("payment %q", got)
	}

	// Tracking number missing: the field says so and the carrier stays.
	res, doc := b.fulfi.post(path+"/ship", url.Values{"carrier": {"DHL"}, "tracking": {""}})
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("ship without tracking: %d", res.StatusCode)
	}
	if got := text(doc, `[data-testid="tracking-error"]`); got != backoffice.MsgTrackingRequired {
		t.Errorf("tracking error %q", got)
	}
	if got := doc.Find(`select[name="carrier"] option[selected]`).AttrOr("value", ""); got != "DHL" {
		t.Errorf("carrier kept as %q", got)
	}
	res, doc = b.fulfi.post(path+"/ship", url.Values{"carrier": {"Pigeon"}, "tracking": {"1Z 999"}})
	if res.StatusCode != http.StatusUnprocessableEntity || text(doc, `[data-testid="carrier-error"]`) != backoffice.MsgCarrierRequired ||
		text(doc, `[data-testid="tracking-error"]`) != backoffice.MsgTrackingInvalid {
		t.Errorf("bad carrier and tracking: %d", res.StatusCode)
	}

	// Delivering an order that hasn't shipped says what comes first.
	if res, _ := b.fulfi.post(path+"/deliver", nil); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("deliver a processing order: %d", res.StatusCode)
	}
	if _, doc := b.fulfi.get(path); !strings.Contains(doc.Text(), backoffice.MsgShipFirst) || strings.Contains(doc.Text(), "meanwhile") {
		t.Errorf("delivering a processing order does not say it must be shipped first")
	}

	// Shipped: the shopper sees the tracking number and gets an e-mail.
	res, _ = b.fulfi.post(path+"/ship", url.Values{"carrier": {"UPS"}, "tracking": {"1z999aa10123456784"}})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != path {
		t.Fatalf("ship: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	_, doc = b.shopper.get("/orders/" + b.orderID)
	if got := text(doc, `[data-testid="status"]`); got != "Shipped" {
		t.Errorf("shopper sees status %q", got)
	}
	if got := text(doc, `[data-testid="tracking"]`); got != "1Z999AA10123456784" {
		t.Errorf("shopper sees tracking %q", got)
	}
	if got := doc.Find(`[data-testid="timeline-event"]`).Length(); got != 1 {
		t.Errorf("timeline has %d events", got)
	}
	if doc.Find(`[data-testid="shopper-cancel"]`).Length() != 0 {
		t.Error("a shipped order offers the shopper's cancel")
	}
	mails, err := b.app.db.Outbox(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(mails) == 0 || mails[0].To != "ada@example.com" || !strings.Contains(mails[0].Subject, "has shipped") ||
		!strings.Contains(mails[0].Body, "1Z999AA10123456784") {
		t.Errorf("shipping e-mail: %+v", mails[:min(1, len(mails))])
	}

	// Shipping twice, or cancelling a shipped order, is refused.
	res, _ = b.admin.post(path+"/ship", url.Values{"carrier": {"UPS"}, "tracking": {"1Z0000"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Errorf("ship again: %d", res.StatusCode)
	}
	_, doc = b.admin.get(path)
	if !strings.Contains(text(doc, `[data-testid="flash"]`)+doc.Find(".flash").Text(), "shipped now") {
		t.Errorf("no conflict message after shipping twice: %q", doc.Find(".flash, [role=alert], [role=status]").Text())
	}
	if res, _ := b.admin.post(path+"/cancel", url.Values{"reason": {"Too late"}}); res.StatusCode != http.StatusSeeOther {
		t.Errorf("cancel a shipped order: %d", res.StatusCode)
	}
	if o, _ := b.app.db.Order(context.Background(), b.orderID); o.Status != shop.StatusShipped {
		t.Errorf("status %s after refused cancel", o.Status)
	}

	if res, _ := b.fulfi.post(path+"/deliver", nil); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("deliver: %d", res.StatusCode)
	}
	_, doc = b.shopper.get("/orders/" + b.orderID)
	if got := text(doc, `[data-testid="status"]`); got != "Delivered" {
		t.Errorf("shopper sees %q after delivery", got)
	}
	mails, _ = b.app.db.Outbox(context.Background())
	if !strings.Contains(mails[0].Subject, "was delivered") {
		t.Errorf("delivery e-mail: %q", mails[0].Subject)
	}

	// The audit log has both actions, by whom, with before and after.
	_, doc = b.admin.get("/admin/audit")
	entries := doc.Find(`[data-testid="audit-entry"]`)
	if entries.Length() < 2 {
		t.Fatalf("audit log has %d entries", entries.Length())
	}
	first := strings.Join(strings.Fields(entries.First().Text()), " ")
	if !strings.Contains(first, "fay@example.com") || !strings.Contains(first, "order.delivered") ||
		!strings.Contains(first, `"status":"shipped"`) || !strings.Contains(first, `"status":"delivered"`) {
		t.Errorf("newest audit entry %q", first)
	}
}

func TestAdmin_CancelReturnsStockAndRefunds(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	ctx := context.Background()
	if n, _ := b.app.db.Stock(ctx, "nb-026"); n != 1 {
		t.Fatalf("stock after ordering 2 of 3: %d", n)
	}
	path := "/admin/orders/" + b.orderID
	res, doc := b.admin.post(path+"/cancel", url.Values{"reason": {"  "}})
	if res.StatusCode != http.StatusUnprocessableEntity || text(doc, `[data-testid="reason-error"]`) != backoffice.MsgReasonRequired {
		t.Fatalf("cancel without reason: %d", res.StatusCode)
	}
	if _, res := confirmThrough(t, b.admin, path+"/cancel", url.Values{"reason": {"Out of stock at the warehouse"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("cancel: %d", res.StatusCode)
	}
	if n, _ := b.app.db.Stock(ctx, "nb-026"); n != 3 {
		t.Errorf("stock after cancel: %d, want 3", n)
	}
	o, _ := b.app.db.Order(ctx, b.orderID)
	if c, err := b.app.db.ChargeByKey(ctx, democard.RefundKey(o.ChargeKey)); err != nil || c.Amount != o.Total || c.Outcome != democard.ChargeRefunded {
		t.Errorf("refund: %+v, %v", c, err)
	}
	_, doc = b.shopper.get("/orders/" + b.orderID)
	if got := text(doc, `[data-testid="status"]`); got != "Cancelled" {
		t.Errorf("shopper sees %q", got)
	}
	if !strings.Contains(doc.Find(`[data-testid="timeline"]`).Text(), "Out of stock at the warehouse") {
		t.Error("the reason is not on the shopper's timeline")
	}
	mails, _ := b.app.db.Outbox(ctx)
	if !strings.Contains(mails[0].Subject, "was cancelled") || !strings.Contains(mails[0].Body, "Out of stock at the warehouse") {
		t.Errorf("cancel e-mail %q", mails[0].Subject)
	}
}

func TestShopperCancel_WithinTheHour(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	ctx := context.Background()
	// Another visitor cannot cancel it.
	if res, _ := b.app.client(t).post("/orders/"+b.orderID+"/cancel", nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("stranger's cancel: %d", res.StatusCode)
	}
	_, doc := b.shopper.get("/orders/" + b.orderID)
	if doc.Find(`[data-testid="shopper-cancel"]`).Length() != 1 {
		t.Fatal("no cancel button within the hour")
	}
	if res, _ := b.shopper.post("/orders/"+b.orderID+"/cancel", nil); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("cancel: %d", res.StatusCode)
	}
	if o, _ := b.app.db.Order(ctx, b.orderID); o.Status != shop.StatusCancelled {
		t.Errorf("status %s", o.Status)
	}
	if n, _ := b.app.db.Stock(ctx, "nb-026"); n != 3 {
		t.Errorf("stock %d after the shopper's cancel", n)
	}

	// An hour later the button is gone and the post is refused.
	second := b.placeOrder(t, "nb-002", "1")
	b.app.clock.Advance(shop.CancelWindow + time.Minute)
	_, doc = b.shopper.get("/orders/" + second)
	if doc.Find(`[data-testid="shopper-cancel"]`).Length() != 0 {
		t.Error("cancel offered after the hour")
	}
	res, _ := b.shopper.post("/orders/"+second+"/cancel", nil)
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("late cancel: %d", res.StatusCode)
	}
	_, doc = b.shopper.get("/orders/" + second)
	if !strings.Contains(doc.Text(), "within 1 hour") {
		t.Error("no message about the hour")
	}
	if o, _ := b.app.db.Order(ctx, second); o.Status != shop.StatusProcessing {
		t.Errorf("late cancel changed the status to %s", o.Status)
	}
}

func TestStock_ShownAndEnforced(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.client(t)
	for id, want := range map[string]string{"nb-001": "In stock", "nb-031": "Only 2 left", "nb-037": "Out of stock"} {
		_, doc := c.get("/product/" + id)
		if got := text(doc, `[data-testid="stock"]`); got != want {
			t.Errorf("%s product page says %q, want %q", id, got, want)
		}
	}
	_, doc := c.get("/products?category=jewelery")
	if doc.Find(`[data-testid="product-card"] [data-testid="stock"]`).Length() == 0 {
		t.Error("cards show no stock")
	}
	// Sold out: refused before any session is made.
	res := c.addToCart("/product/nb-037", "nb-037", "1")
	if res.StatusCode != http.StatusSeeOther || setCookie(res, "nocturne_session") != "" {
		t.Errorf("sold-out add: %d, session %q", res.StatusCode, setCookie(res, "nocturne_session"))
	}
	_, doc = c.get("/product/nb-037")
	if got := doc.Text(); !strings.Contains(got, "Sorry, Sterling") && !strings.Contains(got, "is out of stock") {
		t.Error("no out-of-stock message")
	}
	// Two of nb-031 are left: 2 go in, a third is refused, and so is 3.
	c.addToCart("/product/nb-031", "nb-031", "2")
	c.addToCart("/product/nb-031", "nb-031", "1")
	_, doc = c.get("/product/nb-031")
	if !strings.Contains(doc.Text(), "only 2 of") {
		t.Error("no 'only 2 left' message")
	}
	if got := cartLines(t, c)["nb-031"]; got != "2" {
		t.Errorf("cart holds %q of nb-031", got)
	}
	if res, _ := c.post("/cart/items/nb-031", url.Values{"quantity": {"3"}, "return_to": {"/cart"}}); res.StatusCode != http.StatusSeeOther {
		t.Errorf("set 3: %d", res.StatusCode)
	}
	if got := cartLines(t, c)["nb-031"]; got != "2" {
		t.Errorf("cart holds %q of nb-031 after asking for 3", got)
	}
}

// Place Order refuses what another shopper bought meanwhile.
func TestStock_PlaceOrderRefusesWhatIsGone(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t) // took 2 of nb-026's 3
	other := b.app.register(t, "Olive Other", "olive@example.com", staffPassword)
	other.addToCart("/products", "nb-026", "1")
	checkoutToReview(t, other, testCard)
	b.shopper.addToCart("/products", "nb-026", "1")
	checkoutToReview(t, b.shopper, testCard)
	if res := placeOrder(t, other); !strings.HasPrefix(res.Header.Get("Location"), "/orders/") {
		t.Fatalf("first order: %d", res.StatusCode)
	}
	res := placeOrder(t, b.shopper)
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("second order of the last item: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	if n, _ := b.app.db.Stock(context.Background(), "nb-026"); n != 0 {
		t.Errorf("stock %d", n)
	}
}

func TestAdmin_ProductEditor(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	// Errors keep what was typed.
	res, doc := b.admin.post("/admin/products/nb-001", url.Values{"title": {"Aurora II"}, "category": {"electronics"}, "price": {"abc"}, "stock": {"-1"}})
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("bad edit: %d", res.StatusCode)
	}
	if doc.Find(`input[name="title"]`).AttrOr("value", "") != "Aurora II" || text(doc, `[data-testid="price-error"]`) == "" || text(doc, `[data-testid="stock-error"]`) == "" {
		t.Error("field errors or typed values missing")
	}
	form := b.editorForm(t, "nb-001")
	for k, v := range map[string]string{"title": "Aurora II", "description": "New", "price": "199.00", "original": "249.00", "stock": "4"} {
		form.Set(k, v)
	}
	res, _ = b.admin.post("/admin/products/nb-001", form)
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("edit: %d", res.StatusCode)
	}
	_, doc = b.app.client(t).get("/product/nb-001")
	if text(doc, `[data-testid="product-title"]`) != "Aurora II" || text(doc, `[data-testid="stock"]`) != "Only 4 left" {
		t.Errorf("product page: %q, %q", text(doc, `[data-testid="product-title"]`), text(doc, `[data-testid="stock"]`))
	}
	// A new product, then hidden.
	form = url.Values{"id": {"nb-900"}, "title": {"Moon Lamp"}, "category": {"home"}, "price": {"30"}, "stock": {"7"}, "visible": {"1"}}
	if res, _ := b.admin.post("/admin/products/new", form); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("new: %d", res.StatusCode)
	}
	if res, doc := b.admin.post("/admin/products/new", form); res.StatusCode != http.StatusUnprocessableEntity || text(doc, `[data-testid="pid-error"]`) == "" {
		t.Errorf("duplicate id: %d %q", res.StatusCode, doc.Find(".field-error").Text())
	}
	if res, _ := b.app.client(t).get("/product/nb-900"); res.StatusCode != http.StatusOK {
		t.Errorf("new product page: %d", res.StatusCode)
	}
	form = b.editorForm(t, "nb-900")
	form.Del("visible")
	if res, _ := b.admin.post("/admin/products/nb-900", form); res.StatusCode != http.StatusSeeOther {
		t.Fatal("hide")
	}
	if res, _ := b.app.client(t).get("/product/nb-900"); res.StatusCode != http.StatusNotFound {
		t.Errorf("hidden product page: %d", res.StatusCode)
	}
	// Fulfilment cannot edit products.
	if res, _ := b.fulfi.post("/admin/products/nb-001", form); res.StatusCode != http.StatusNotFound {
		t.Errorf("fulfilment edit: %d", res.StatusCode)
	}
	_, doc = b.admin.get("/admin/audit")
	if !strings.Contains(doc.Text(), "product.update") || !strings.Contains(doc.Text(), "product.create") {
		t.Error("product edits not in the audit log")
	}
}

// editorForm is the product editor's form as an admin's browser would
// submit it unchanged.
func (b *backOffice) editorForm(t *testing.T, id string) url.Values {
	t.Helper()
	res, doc := b.admin.get("/admin/products/" + id)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("editor of %s: %d", id, res.StatusCode)
	}
	return formValues(doc.Find(`[data-testid="product-form"]`))
}

// formValues collects what a browser would submit of a form's text
// fields, text areas and checked boxes.
func formValues(f *goquery.Selection) url.Values {
	v := url.Values{}
	f.Find("input[name], textarea[name]").Each(func(_ int, in *goquery.Selection) {
		name := in.AttrOr("name", "")
		switch in.AttrOr("type", "text") {
		case "file", "submit":
		case "checkbox", "radio":
			if _, checked := in.Attr("checked"); checked {
				v.Add(name, in.AttrOr("value", "on"))
			}
		default:
			if goquery.NodeName(in) == "textarea" {
				v.Add(name, in.Text())
			} else {
				v.Add(name, in.AttrOr("value", ""))
			}
		}
	})
	return v
}

// A shopper buys while staff have the editor open: saving other fields
// leaves the stock the sale left, and a typed stock is refused with the
// stock as it is now, keeping what was typed.
func TestAdmin_ProductEditor_SaleWhileEditing(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	form := b.editorForm(t, "nb-031")
	form.Set("stock", "5")
	if res, _ := b.admin.post("/admin/products/nb-031", form); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("set stock 5: %d", res.StatusCode)
	}
	stale := b.editorForm(t, "nb-031") // staff open the editor: 5 in stock
	b.placeOrder(t, "nb-031", "2")     // a shopper buys 2: 3 left
	stale.Set("title", "Renamed while selling")
	if res, _ := b.admin.post("/admin/products/nb-031", stale); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("title-only save: %d", res.StatusCode)
	}
	if n, _ := b.app.db.Stock(context.Background(), "nb-031"); n != 3 {
		t.Errorf("after a title-only save the stock is %d, want the 3 the sale left", n)
	}
	entries, _, err := b.app.db.AuditLog(context.Background(), 1)
	if err != nil || len(entries) == 0 {
		t.Fatal(entries, err)
	}
	if e := entries[0]; !strings.Contains(e.Before, `"stock":3`) || !strings.Contains(e.After, `"stock":3`) {
		t.Errorf("the audit log says stock %s → %s, want 3 → 3", e.Before, e.After)
	}
	stale.Set("stock", "10")
	res, doc := b.admin.post("/admin/products/nb-031", stale)
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("a stock typed over a sale: %d, want 422", res.StatusCode)
	}
	if got := text(doc, `[data-testid="stock-error"]`); got != "Stock changed while you were editing: it is now 3." {
		t.Errorf("stock message %q", got)
	}
	again := formValues(doc.Find(`[data-testid="product-form"]`))
	if again.Get("stock") != "10" || again.Get("title") != "Renamed while selling" {
		t.Errorf("typed values lost: stock %q, title %q", again.Get("stock"), again.Get("title"))
	}
	if n, _ := b.app.db.Stock(context.Background(), "nb-031"); n != 3 {
		t.Errorf("a refused save changed the stock to %d", n)
	}
	// Saving the re-rendered form is checked against the stock found then.
	if res, _ := b.admin.post("/admin/products/nb-031", again); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("save after the refusal: %d", res.StatusCode)
	}
	if n, _ := b.app.db.Stock(context.Background(), "nb-031"); n != 10 {
		t.Errorf("stock %d, want the 10 typed", n)
	}
	// A form that doesn't say what stock it was loaded with writes none.
	stale.Del("stock_was")
	if res, doc := b.admin.post("/admin/products/nb-031", stale); res.StatusCode != http.StatusUnprocessableEntity || text(doc, `[data-testid="stock-error"]`) == "" {
		t.Errorf("a save without stock_was: %d", res.StatusCode)
	}
}

func TestAdmin_MessagesAndDashboard(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	_, doc := b.fulfi.get("/admin")
	if text(doc, `[data-testid="orders-today"]`) != "1" || text(doc, `[data-testid="awaiting"]`) != "1" || text(doc, `[data-testid="unhandled"]`) != "1" {
		t.Errorf("dashboard: %q %q %q", text(doc, `[data-testid="orders-today"]`), text(doc, `[data-testid="awaiting"]`), text(doc, `[data-testid="unhandled"]`))
	}
	if doc.Find(`svg[data-testid="revenue-chart"] rect`).Length() != 14 {
		t.Error("no 14-day chart")
	}
	if !strings.Contains(doc.Find(`[data-testid="low-stock"]`).Text(), "Only 1 left") {
		t.Error("low stock does not list nb-026")
	}
	_, doc = b.fulfi.get("/admin/messages")
	if doc.Find(`[data-testid="inbox-message"]`).Length() != 1 {
		t.Fatal("inbox")
	}
	path := fmt.Sprintf("/admin/messages/%d", b.messageID)
	if res, doc := b.fulfi.post(path+"/reply", url.Values{"reply": {" "}}); res.StatusCode != http.StatusUnprocessableEntity || text(doc, `[data-testid="reply-error"]`) == "" {
		t.Errorf("empty reply: %d", res.StatusCode)
	}
	if res, _ := b.fulfi.post(path+"/reply", url.Values{"reply": {"It left today."}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("reply: %d", res.StatusCode)
	}
	mails, _ := b.app.db.Outbox(context.Background())
	if mails[0].To != "sam@example.com" || mails[0].Subject != "Re: Where is my parcel?" || !strings.HasPrefix(mails[0].Body, "It left today.") {
		t.Errorf("reply mail %+v", mails[0])
	}
	_, doc = b.fulfi.get(path)
	if !strings.Contains(text(doc, `[data-testid="handled"]`), "fay@example.com") {
		t.Error("a replied message is not handled")
	}
	// Marking it handled again changes nothing, so the audit log says
	// nothing more.
	if res, _ := b.admin.post(path+"/handled", nil); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("mark handled again: %d", res.StatusCode)
	}
	entries, _, err := b.app.db.AuditLog(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	handled := 0
	for _, e := range entries {
		if e.Action == "message.handled" {
			handled++
		}
	}
	if handled != 1 {
		t.Errorf("the audit log has %d message.handled entries, want 1", handled)
	}
}

// The back office's pages only read.
func TestAdmin_ReadsNeverWrite(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "shop.db")
	b := newBackOffice(t, withDBFile(path))
	before := tableSums(t, path)
	for _, r := range admin.Routes() {
		if r.Method != http.MethodGet {
			continue
		}
		for _, q := range []string{"", "?page=2", "?status=processing&from=2026-01-01&to=2026-12-31&q=sam@example.com"} {
			if res, _ := b.admin.get(b.routePath(r.Path) + q); res.StatusCode != http.StatusOK && res.StatusCode != http.StatusFound {
				t.Errorf("GET %s%s: %d", r.Path, q, res.StatusCode)
			}
		}
	}
	after := tableSums(t, path)
	for table, sum := range before {
		if after[table] != sum {
			t.Errorf("table %s changed on GET", table)
		}
	}
}

// A photo uploaded in the editor goes through the image pipeline and is
// served from /img/; a file that is not an image is refused next to the
// field.
func TestAdmin_PhotoUpload(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	b.app.catalog.Images = &images.Service{Store: b.app.db, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	post := func(name string, body []byte) (*http.Response, *goquery.Document) {
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		for k, v := range map[string]string{"title": "Aurora", "category": "electronics", "price": "229", "stock": "5", "stock_was": "5", "visible": "1"} {
			w.WriteField(k, v)
		}
		fw, _ := w.CreateFormFile("image", name)
		fw.Write(body)
		w.Close()
		req := httptest.NewRequest(http.MethodPost, "/admin/products/nb-001", &buf)
		req.Header.Set("Content-Type", w.FormDataContentType())
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		req.Header.Set("Origin", "http://"+req.Host)
		res := b.admin.do(req)
		return res, b.admin.parse(res)
	}
	if res, doc := post("notes.txt", []byte("hello, not a photo")); res.StatusCode != http.StatusUnprocessableEntity || text(doc, `#image-error`) == "" {
		t.Fatalf("text file: %d", res.StatusCode)
	}
	// A phone's photo of a few megabytes is taken, past the 1 MiB every
	// other form is held to.
	big := paddedPNG(t, 2<<20)
	if len(big) < 2<<20 {
		t.Fatalf("the test photo is %d bytes, want over 2 MiB", len(big))
	}
	if res, doc := post("phone.png", big); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("a %d-byte photo: %d %q", len(big), res.StatusCode, doc.Find(".field-error, h1").Text())
	}
	// A photo just over the maximum is refused by its field, not by a bare
	// error from the server.
	over := append(imagestest.PNG(t, 40, 30), make([]byte, handlers.MaxUpload)...)
	if res, doc := post("huge.png", over); res.StatusCode != http.StatusUnprocessableEntity || text(doc, `#image-error`) != "The photo is too large." {
		t.Errorf("a photo over the maximum: %d %q", res.StatusCode, text(doc, `#image-error`))
	}
	// A photo over the pixel limit is refused from its header, next to the field.
	if res, doc := post("bomb.png", imagestest.PNGHeader(100000, 100000)); res.StatusCode != http.StatusUnprocessableEntity ||
		!strings.Contains(text(doc, `#image-error`), "100000×100000 pixels, more than the 40 megapixels") {
		t.Fatalf("huge photo: %d, %q", res.StatusCode, text(doc, `#image-error`))
	}
	if res, _ := post("moon.png", imagestest.PNG(t, 400, 300)); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("photo: %d", res.StatusCode)
	}
	_, doc := b.app.client(t).get("/product/nb-001")
	src := doc.Find(`[data-testid="product-detail"] img`).AttrOr("src", "")
	if !strings.HasPrefix(src, "/img/nb-001/") {
		t.Fatalf("product image %q", src)
	}
	if res, _ := b.app.client(t).get(src); res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "image/jpeg" {
		t.Errorf("GET %s: %d %s", src, res.StatusCode, res.Header.Get("Content-Type"))
	}
}

// paddedPNG is a 400×300 photo of about size bytes: a phone's photo is
// large for its pixels, but the limits are about bytes, and a private
// ancillary chunk (which decoders skip) makes the bytes without the cost
// of processing megapixels.
func paddedPNG(t *testing.T, size int) []byte {
	t.Helper()
	photo := imagestest.PNG(t, 400, 300)
	iend := len(photo) - 12 // the IEND chunk closes every PNG
	pad := make([]byte, size)
	chunk := binary.BigEndian.AppendUint32(nil, uint32(len(pad)))
	chunk = append(chunk, "prVt"...)
	chunk = append(chunk, pad...)
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
	return append(append(append([]byte{}, photo[:iend]...), chunk...), photo[iend:]...)
}

// Every other request is held to 1 MiB, refused by its Content-Length with
// the plain 413 page.
func TestBodyLimit_OtherRoutes(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	form := url.Values{"name": {"Ada"}, "email": {"ada@example.com"}, "subject": {"Hi"}, "message": {strings.Repeat("x", 1<<20)}}
	res, doc := app.client(t).post("/contact", form)
	if res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("a 1 MiB contact form: %d, want 413", res.StatusCode)
	}
	if doc.Find("main h1").Length() == 0 || !strings.Contains(doc.Find("main").Text(), "too large") {
		t.Errorf("413 is not the shop's page: %q", doc.Find("main").Text())
	}
	if msgs, _ := app.db.ContactMessages(context.Background()); len(msgs) != 0 {
		t.Error("an oversized message was stored")
	}
}

// The product page reads stock live, for a visitor without a session too:
// the page cache, which would keep it for seconds, leaves product pages to
// the handler.
func TestStock_VisitorsProductPageIsLive(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	visitor := app.client(t)
	if _, doc := visitor.get("/product/nb-031"); text(doc, `[data-testid="stock"]`) != "Only 2 left" {
		t.Fatalf("before: %q", text(doc, `[data-testid="stock"]`))
	}
	buyer := app.register(t, "Olive Other", "olive@example.com", "night-owl-41")
	buyer.addToCart("/products", "nb-031", "1")
	checkoutToReview(t, buyer, testCard)
	if res := placeOrder(t, buyer); !strings.HasPrefix(res.Header.Get("Location"), "/orders/") {
		t.Fatalf("order: %d", res.StatusCode)
	}
	if _, doc := visitor.get("/product/nb-031"); text(doc, `[data-testid="stock"]`) != "Only 1 left" {
		t.Errorf("right after the order the visitor's product page says %q, want Only 1 left", text(doc, `[data-testid="stock"]`))
	}
}

// Prices the old float parser mishandled are refused next to the field,
// never saved rounded and never a 500.
func TestAdmin_ProductEditor_PricesAreExact(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	for _, tt := range []struct{ price, want string }{
		{"0.001", "Use at most 2 decimal places."},
		{"0.004", "Use at most 2 decimal places."},
		{"1e-9", money.MsgSyntax()},
		{"NaN", money.MsgSyntax()},
		{"5e2", money.MsgSyntax()},
		{"1.005", "Use at most 2 decimal places."},
		{"0", money.MsgPositive()},
		{"1000000.01", money.MsgTooLarge()},
	} {
		form := b.editorForm(t, "nb-001")
		form.Set("price", tt.price)
		res, doc := b.admin.post("/admin/products/nb-001", form)
		if res.StatusCode != http.StatusUnprocessableEntity || text(doc, `[data-testid="price-error"]`) != tt.want {
			t.Errorf("price %q: %d %q, want 422 %q", tt.price, res.StatusCode, text(doc, `[data-testid="price-error"]`), tt.want)
		}
		if doc.Find(`input[name="price"]`).AttrOr("value", "") != tt.price {
			t.Errorf("price %q not kept in the field", tt.price)
		}
	}
	if p, _ := b.app.db.AdminProduct(context.Background(), "nb-001"); p.Price <= 0 {
		t.Errorf("a refused price was saved: %d", p.Price)
	}
}
