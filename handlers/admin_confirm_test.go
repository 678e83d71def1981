package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/democard"
	"github.com/nocturne/storefront/internal/shop"
)

// confirmPage posts form to action and returns the confirmation page it
// answers, and the form that confirmation posts (as a browser would send
// it).
func confirmPage(t *testing.T, c *client, action string, form url.Values) (*goquery.Document, string, url.Values) {
	t.Helper()
	res, doc := c.post(action, form)
	if res.StatusCode != http.StatusOK || doc.Find(`[data-testid="confirm"]`).Length() != 1 {
		t.Fatalf("POST %s: got %d, want the confirmation page", action, res.StatusCode)
	}
	f := doc.Find(`[data-testid="confirm"] form`)
	return doc, f.AttrOr("action", ""), formValues(f)
}

// confirmThrough goes through a confirmation as staff do: the first post
// shows the page, its button posts the confirmation. It returns the page
// and the confirmation's answer.
func confirmThrough(t *testing.T, c *client, action string, form url.Values) (*goquery.Document, *http.Response) {
	t.Helper()
	doc, to, values := confirmPage(t, c, action, form)
	res, _ := c.post(to, values)
	return doc, res
}

// flash follows a redirect and returns the flash message it set.
func flash(t *testing.T, c *client, res *http.Response) string {
	t.Helper()
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("got status %d, want 303", res.StatusCode)
	}
	_, doc := c.get(res.Header.Get("Location"))
	return text(doc, `[data-testid="flash"]`)
}

// Cancelling a paid order: the first post shows what will happen and
// changes nothing; the confirmation cancels and refunds; the same
// confirmation posted again does nothing more.
func TestAdmin_CancelConfirmation(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	ctx := context.Background()
	path := "/admin/orders/" + b.orderID
	before, _ := b.app.db.Order(ctx, b.orderID)

	doc, to, values := confirmPage(t, b.admin, path+"/cancel", url.Values{"reason": {" Damaged in the warehouse "}})
	want := fmt.Sprintf("Cancel order %s and refund %s to the demo card •••• 4242", b.orderID, before.Total)
	if got := text(doc, `[data-testid="confirm-button"]`); got != want {
		t.Errorf("got button %q, want %q", got, want)
	}
	if got := text(doc, `[data-testid="confirm-text"]`); got != want+"?" {
		t.Errorf("got question %q", got)
	}
	if !strings.Contains(doc.Find(`[data-testid="confirm"]`).Text(), "Damaged in the warehouse") {
		t.Error("the confirmation does not state the reason")
	}
	// Nothing has changed yet.
	if o, _ := b.app.db.Order(ctx, b.orderID); o.Status != shop.StatusProcessing || o.Refunded != 0 {
		t.Fatalf("after the first post: %s, %v refunded", o.Status, o.Refunded)
	}
	if n, _ := b.app.db.Stock(ctx, "nb-026"); n != 1 {
		t.Errorf("stock %d after the first post, want 1", n)
	}
	if n := countAudit(t, b, "order.cancelled", b.orderID); n != 0 {
		t.Errorf("the first post wrote %d audit entries", n)
	}

	// A confirmation that does not carry what was shown does nothing.
	if got := flash(t, b.admin, mustPost(t, b.admin, to, url.Values{"reason": {"x"}})); got != backoffice.MsgConfirmIncomplete {
		t.Errorf("incomplete confirmation: got %q", got)
	}

	res, _ := b.admin.post(to, values)
	if got := flash(t, b.admin, res); !strings.Contains(got, "cancelled and refunded") {
		t.Errorf("got flash %q", got)
	}
	o, _ := b.app.db.Order(ctx, b.orderID)
	if o.Status != shop.StatusCancelled || o.Refunded != o.Total || o.CancelReason != "Damaged in the warehouse" {
		t.Fatalf("after confirming: %s, %v of %v refunded, reason %q", o.Status, o.Refunded, o.Total, o.CancelReason)
	}
	if c, err := b.app.db.ChargeByKey(ctx, democard.RefundKey(o.ChargeKey)); err != nil || c.Amount != o.Total {
		t.Errorf("refund charge: %+v %v", c, err)
	}

	// The same confirmation again (a double submit, a reload).
	res, _ = b.admin.post(to, values)
	if got := flash(t, b.admin, res); got != fmt.Sprintf(backoffice.MsgCancelledAlready, b.orderID) {
		t.Errorf("second confirmation: got %q", got)
	}
	if n := countAudit(t, b, "order.cancelled", b.orderID); n != 1 {
		t.Errorf("got %d order.cancelled entries, want 1", n)
	}
	mailWithSubject(t, b.app, "Your order "+b.orderID+" was cancelled") // exactly one
	if n, _ := b.app.db.Stock(ctx, "nb-026"); n != 3 {
		t.Errorf("stock %d, want 3 (given back once)", n)
	}
	if o2, _ := b.app.db.Order(ctx, b.orderID); o2.Refunded != o.Total {
		t.Errorf("refunded %v after the second confirmation", o2.Refunded)
	}

	// A cancel reviewed, then overtaken by a partial refund: the amount it
	// stated is no longer so, and it does nothing.
	second := b.placeOrder(t, "nb-002", "1")
	_, to, values = confirmPage(t, b.admin, "/admin/orders/"+second+"/cancel", url.Values{"reason": {"Asked to"}})
	o, _ = b.app.db.Order(ctx, second)
	if err := b.app.office.Refund(ctx, "admin@example.com", second, 0, 100, "Scratch"); err != nil {
		t.Fatal(err)
	}
	res, _ = b.admin.post(to, values)
	if got := flash(t, b.admin, res); got != fmt.Sprintf(backoffice.MsgChangedSinceShown, "Order "+second) {
		t.Errorf("stale confirmation: got %q", got)
	}
	if o2, _ := b.app.db.Order(ctx, second); o2.Status != shop.StatusProcessing || o2.Refunded != 100 || o.Refunded != 0 {
		t.Errorf("after a stale confirmation: %s, %v refunded", o2.Status, o2.Refunded)
	}
}

func mustPost(t *testing.T, c *client, path string, form url.Values) *http.Response {
	t.Helper()
	res, _ := c.post(path, form)
	return res
}

// Removing a member of staff: the page names whom and changes nothing;
// the confirmation takes the role at once; posted again it does nothing
// more. Nobody removes themself.
func TestAdmin_RemoveStaffConfirmation(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	_, doc := b.admin.get("/admin/staff")
	if got := doc.Find(`[data-testid="remove-staff-form"]`).Length(); got != 1 {
		t.Errorf("got %d remove buttons, want 1 (not on the admin's own row)", got)
	}
	res, _ := b.admin.post("/admin/staff/remove", url.Values{"email": {"admin@example.com"}})
	if got := flash(t, b.admin, res); got != backoffice.MsgRemoveSelf {
		t.Errorf("removing oneself: got %q", got)
	}

	doc, to, values := confirmPage(t, b.admin, "/admin/staff/remove", url.Values{"email": {"FAY@example.com"}})
	if got := text(doc, `[data-testid="confirm-button"]`); got != "Remove fay@example.com from staff" {
		t.Errorf("got button %q", got)
	}
	if res, _ := b.fulfi.get("/admin/orders"); res.StatusCode != http.StatusOK {
		t.Fatalf("fay after the first post: %d, want 200 (nothing changed)", res.StatusCode)
	}
	if got := flash(t, b.admin, mustPost(t, b.admin, to, url.Values{"email": {"fay@example.com"}})); got != backoffice.MsgConfirmIncomplete {
		t.Errorf("incomplete confirmation: got %q", got)
	}

	res, _ = b.admin.post(to, values)
	if got := flash(t, b.admin, res); got != "Removed fay@example.com from staff." {
		t.Errorf("got flash %q", got)
	}
	if res, _ := b.fulfi.get("/admin/orders"); res.StatusCode != http.StatusNotFound {
		t.Errorf("fay after removal: %d, want 404", res.StatusCode)
	}
	res, _ = b.admin.post(to, values)
	if got := flash(t, b.admin, res); got != fmt.Sprintf(backoffice.MsgNotStaff, "fay@example.com") {
		t.Errorf("second confirmation: got %q", got)
	}
	if n := countAudit(t, b, "staff.remove", "fay@example.com"); n != 1 {
		t.Errorf("got %d staff.remove entries, want 1", n)
	}
	// Fulfilment staff have no staff page to remove anyone from.
	if res, _ := b.fulfi.post("/admin/staff/remove", url.Values{"email": {"admin@example.com"}}); res.StatusCode != http.StatusNotFound {
		t.Errorf("a shopper's remove: %d", res.StatusCode)
	}
}

// Deleting a product: the page names it and changes nothing; the
// confirmation deletes it (out of the shop and every cart; orders keep
// their lines); posted again it does nothing more.
func TestAdmin_DeleteProductConfirmation(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	ctx := context.Background()
	const id = "nb-026" // the shopper's order holds it
	p, err := b.app.db.AdminProduct(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if res := b.shopper.addToCart("/products", id, "1"); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("add to cart: %d", res.StatusCode)
	}
	_, doc := b.admin.get("/admin/products/" + id)
	if doc.Find(`[data-testid="delete-product-form"]`).Length() != 1 {
		t.Fatal("no delete button in the editor")
	}
	doc, to, values := confirmPage(t, b.admin, "/admin/products/"+id+"/delete", nil)
	if got, want := text(doc, `[data-testid="confirm-button"]`), "Delete product "+p.Title+" ("+id+")"; got != want {
		t.Errorf("got button %q, want %q", got, want)
	}
	if res, _ := b.app.client(t).get("/product/" + id); res.StatusCode != http.StatusOK {
		t.Fatalf("product page after the first post: %d", res.StatusCode)
	}
	if got := flash(t, b.admin, mustPost(t, b.admin, to, url.Values{"title": {"Another title"}})); got != fmt.Sprintf(backoffice.MsgChangedSinceShown, "Product "+id) {
		t.Errorf("a confirmation of another title: got %q", got)
	}

	res, _ := b.admin.post(to, values)
	if got := flash(t, b.admin, res); got != "Product "+p.Title+" ("+id+") deleted." {
		t.Errorf("got flash %q", got)
	}
	if res, _ := b.app.client(t).get("/product/" + id); res.StatusCode != http.StatusNotFound {
		t.Errorf("product page after delete: %d, want 404", res.StatusCode)
	}
	if _, ok := cartLines(t, b.shopper)[id]; ok {
		t.Error("the deleted product is still in the cart")
	}
	if res, doc := b.shopper.get("/orders/" + b.orderID); res.StatusCode != http.StatusOK || doc.Find(`[data-testid="order-line"]`).Length() != 1 {
		t.Errorf("the order that sold it: %d", res.StatusCode)
	}
	if res, _ := b.admin.get("/admin/orders/" + b.orderID); res.StatusCode != http.StatusOK {
		t.Errorf("the back office's order that sold it: %d", res.StatusCode)
	}

	res, _ = b.admin.post(to, values)
	if got := flash(t, b.admin, res); got != fmt.Sprintf(backoffice.MsgProductGone, id) {
		t.Errorf("second confirmation: got %q", got)
	}
	if n := countAudit(t, b, "product.delete", id); n != 1 {
		t.Errorf("got %d product.delete entries, want 1", n)
	}
	if res, _ := b.fulfi.post("/admin/products/nb-001/delete", nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("fulfilment delete: %d, want 404", res.StatusCode)
	}
}
