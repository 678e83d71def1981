package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/banktransfer"
)

// guestToPayment is a new guest session with product in its cart and the
// shipping step done for email.
func guestToPayment(t *testing.T, app *testApp, product, email string) *client {
	t.Helper()
	c := app.client(t)
	c.addToCart("/products", product, "1")
	c.postFrom("/checkout", "/guest", url.Values{"from": {"/checkout"}})
	address := usAddress("")
	address.Set("email", email)
	if res, _ := c.postFrom("/checkout/shipping", "/checkout/shipping", address); res.Header.Get("Location") != "/checkout/payment" {
		t.Fatalf("shipping: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	return c
}

// chooseTransfer posts bank transfer on the Payment step.
func chooseTransfer(c *client) (*http.Response, string, bool) {
	res, doc := c.postFrom("/checkout/payment", "/checkout/payment", url.Values{"method": {banktransfer.Name}, "action": {"next"}})
	_, checked := doc.Find(`input[name="method"][value="bank_transfer"]`).Attr("checked")
	return res, text(doc, `[data-testid="method-error"]`), checked
}

// A shopper with an unpaid bank transfer can't hold more stock with
// another (BANK_TRANSFER_MAX_OPEN, 1 by default): the Payment step refuses
// it next to the choice, keeping it chosen, in the same session and in a
// new guest session with the same e-mail in another case; Place Order
// refuses it too when another tab placed one meanwhile. Another shopper,
// and the same one once the first is paid, may.
func TestBankTransfer_OneUnpaidPerShopper(t *testing.T) {
	t.Parallel()
	app := newTestApp(t, withBankTransfer())
	ctx := context.Background()

	// Another tab: a second session of the same address reaches the
	// review before the first transfer is placed.
	later := guestToPayment(t, app, "nb-003", "ada@example.com")
	if res, msg, _ := chooseTransfer(later); res.Header.Get("Location") != "/checkout/review" {
		t.Fatalf("a first transfer refused: %d, %q", res.StatusCode, msg)
	}

	c := guestToPayment(t, app, "nb-001", "ada@example.com")
	if res, msg, _ := chooseTransfer(c); res.Header.Get("Location") != "/checkout/review" {
		t.Fatalf("a first transfer refused: %d, %q", res.StatusCode, msg)
	}
	res := placeOrder(t, c)
	first := strings.TrimPrefix(res.Header.Get("Location"), "/orders/")
	if !strings.HasPrefix(first, "NOC-") {
		t.Fatalf("first transfer: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}

	c.addToCart("/products", "nb-002", "1")
	c.postFrom("/checkout/shipping", "/checkout/shipping", usAddress(""))
	other := guestToPayment(t, app, "nb-002", " ADA@Example.com ")
	for name, c := range map[string]*client{"the same session": c, "a new session with the same e-mail": other} {
		res, msg, checked := chooseTransfer(c)
		if res.StatusCode != http.StatusUnprocessableEntity || msg != banktransfer.MsgAwaitingTransfer {
			t.Errorf("%s: a second transfer answered %d, %q; want 422, %q", name, res.StatusCode, msg, banktransfer.MsgAwaitingTransfer)
		}
		if !checked {
			t.Errorf("%s: bank transfer no longer chosen after the refusal", name)
		}
	}

	_, doc := later.get("/checkout/review")
	res, doc = later.post("/checkout/place", url.Values{"key": {doc.Find(`input[name="key"]`).AttrOr("value", "")}})
	later.settle()
	if res.StatusCode != http.StatusUnprocessableEntity || text(doc, `[data-testid="form-alert"]`) != banktransfer.MsgAwaitingTransfer {
		t.Errorf("Place Order of a second transfer from another tab: %d, %q; want 422, %q", res.StatusCode,
			text(doc, `[data-testid="form-alert"]`), banktransfer.MsgAwaitingTransfer)
	}

	if res, msg, _ := chooseTransfer(guestToPayment(t, app, "nb-002", "bo@example.com")); res.Header.Get("Location") != "/checkout/review" {
		t.Errorf("another shopper's transfer: %d, %q", res.StatusCode, msg)
	}
	if _, err := app.db.MarkPaid(ctx, first, "", time.Now()); err != nil {
		t.Fatal(err)
	}
	if res, msg, _ := chooseTransfer(other); res.Header.Get("Location") != "/checkout/review" {
		t.Errorf("a transfer once the first is paid: %d, %q", res.StatusCode, msg)
	}
}
