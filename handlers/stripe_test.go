package handlers_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nocturne/storefront/handlers"
	"github.com/nocturne/storefront/internal/checkout"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/stripepay"
	"github.com/nocturne/storefront/internal/stripepay/stripestub"
)

// withStripe offers the demo card and Stripe Checkout (the stand-in).
func withStripe() testOption {
	return func(env map[string]string, _ *handlers.Deps) {
		env["PAYMENT_METHODS"] = "demo,stripe"
		env["STRIPE_SECRET_KEY"] = "sk_test_nocturne"
		env["STRIPE_WEBHOOK_SECRET"] = "whsec_stripestub"
	}
}

// placeWithStripe takes the back office's shopper to Stripe's page and
// returns the order id and the page's session id.
func placeWithStripe(t *testing.T, b *backOffice, product, qty string) (orderID, sessionID string) {
	t.Helper()
	return placeWithStripeAs(t, b, b.shopper, product, qty)
}

// placeWithStripeAs is placeWithStripe for shopper c.
func placeWithStripeAs(t *testing.T, b *backOffice, c *client, product, qty string) (orderID, sessionID string) {
	t.Helper()
	c.addToCart("/products", product, qty)
	c.postFrom("/checkout/shipping", "/checkout/shipping", shippingValues)
	res, _ := c.postFrom("/checkout/payment", "/checkout/payment", url.Values{"method": {"stripe"}, "action": {"next"}})
	if res.Header.Get("Location") != "/checkout/review" {
		t.Fatalf("payment with Stripe: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	res = placeOrder(t, c)
	loc := res.Header.Get("Location")
	if res.StatusCode != http.StatusSeeOther || !strings.Contains(loc, "/pay/cs_") {
		t.Fatalf("place order with Stripe: %d to %q, want Stripe's page", res.StatusCode, loc)
	}
	sessionID = loc[strings.LastIndex(loc, "/")+1:]
	o, err := b.app.db.OrderByKey(context.Background(), orderKeyOf(t, b, sessionID))
	if err != nil {
		t.Fatal(err)
	}
	return o.ID, sessionID
}

// orderKeyOf finds the idempotency key of the order whose page is id.
func orderKeyOf(t *testing.T, b *backOffice, id string) string {
	t.Helper()
	st, ok := b.app.stripe.Session(id)
	if !ok {
		t.Fatalf("no stand-in session %s", id)
	}
	o, err := b.app.db.Order(context.Background(), st.OrderID)
	if err != nil {
		t.Fatal(err)
	}
	return o.IdempotencyKey
}

// deliver posts the stand-in's signed event of type for session id to the
// webhook, as Stripe would.
func deliver(t *testing.T, app *testApp, typ, id string) *http.Response {
	t.Helper()
	payload, header, err := app.stripe.EventFor(typ, id)
	if err != nil {
		t.Fatal(err)
	}
	return postWebhook(t, app, payload, header)
}

func postWebhook(t *testing.T, app *testApp, payload []byte, header string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/webhooks/stripe", bytes.NewReader(payload))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Stripe-Signature", header)
	res, err := app.app.Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Pay on Stripe's page and come back: the order waits (stock held, cart
// kept) until the signed webhook says paid; then it is processing and
// paid, the cart is emptied and the shopper mailed once, however often the
// event comes.
func TestStripe_PayAndReturn(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t, withStripe())
	ctx := context.Background()
	stock, _ := b.app.db.Stock(ctx, "nb-005")
	id, sess := placeWithStripe(t, b, "nb-005", "2")
	o, _ := b.app.db.Order(ctx, id)
	if o.Status != shop.StatusPending || o.PaymentStatus != shop.PaymentAwaiting || o.PaymentRef != sess || o.PaymentProvider != stripepay.Name {
		t.Fatalf("order on Stripe's page: %s/%s ref %q provider %q", o.Status, o.PaymentStatus, o.PaymentRef, o.PaymentProvider)
	}
	if n, _ := b.app.db.Stock(ctx, "nb-005"); n != stock-2 {
		t.Errorf("stock while paying: %d, want %d", n, stock-2)
	}
	st, _ := b.app.stripe.Session(sess)
	if st.AmountTotal != o.Total {
		t.Errorf("Stripe was asked for %v, the order is %v", st.AmountTotal, o.Total)
	}

	// Back from Stripe before the webhook: processing, refreshing itself.
	_, doc := b.shopper.get(checkout.StatusURL(id))
	if got := doc.Find(`[data-testid="order-status"]`).AttrOr("data-state", ""); got != "processing" {
		t.Errorf("status before the webhook: %q", got)
	}
	if doc.Find(`meta[http-equiv="refresh"]`).Length() != 1 {
		t.Error("the processing page does not refresh itself")
	}
	if len(cartLines(t, b.shopper)) == 0 {
		t.Error("the cart was emptied before the payment")
	}

	if err := b.app.stripe.Pay(sess); err != nil {
		t.Fatal(err)
	}
	// The same event five times at once: one change, one mail.
	payload, header, err := b.app.stripe.EventFor(stripepay.EventSessionCompleted, sess)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if res := postWebhook(t, b.app, payload, header); res.StatusCode != http.StatusOK {
				t.Errorf("webhook: %d", res.StatusCode)
			}
		}()
	}
	wg.Wait()
	o, _ = b.app.db.Order(ctx, id)
	if o.Status != shop.StatusProcessing || o.PaymentStatus != shop.PaymentPaid || o.PaymentIntent == "" {
		t.Errorf("after the webhook: %s/%s intent %q", o.Status, o.PaymentStatus, o.PaymentIntent)
	}
	_, doc = b.shopper.get(checkout.StatusURL(id))
	if got := doc.Find(`[data-testid="order-status"]`).AttrOr("data-state", ""); got != "paid" || doc.Find(`meta[http-equiv="refresh"]`).Length() != 0 {
		t.Errorf("status after the webhook: %q (refreshing: %v)", got, doc.Find(`meta[http-equiv="refresh"]`).Length() != 0)
	}
	if got := len(cartLines(t, b.shopper)); got != 0 {
		t.Errorf("cart after payment: %d lines", got)
	}
	mailWithSubject(t, b.app, "Your order "+id)

	// An older event arriving late (the page expired) undoes nothing.
	if res := deliver(t, b.app, stripepay.EventSessionExpired, sess); res.StatusCode != http.StatusOK {
		t.Errorf("late expired event: %d", res.StatusCode)
	}
	if o, _ := b.app.db.Order(ctx, id); o.Status != shop.StatusProcessing || o.PaymentStatus != shop.PaymentPaid {
		t.Errorf("after a late expired event: %s/%s", o.Status, o.PaymentStatus)
	}
}

// Cancel at Stripe: the cancelled page only reads; "Return to cart" (a
// POST) expires the page through Stripe, releases the order and gives the
// stock back, and the cart is as it was.
func TestStripe_CancelRestoresCart(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t, withStripe())
	ctx := context.Background()
	stock, _ := b.app.db.Stock(ctx, "nb-006")
	id, sess := placeWithStripe(t, b, "nb-006", "1")
	_, doc := b.shopper.get(checkout.CancelURL(id))
	if doc.Find(`[data-testid="return-to-cart"]`).Length() != 1 {
		t.Fatal("no Return to cart on the cancelled page")
	}
	if o, _ := b.app.db.Order(ctx, id); o.Status != shop.StatusPending {
		t.Errorf("the cancelled page (a GET) changed the order: %s", o.Status)
	}
	res, _ := b.shopper.postFrom(checkout.CancelURL(id), "/orders/"+id+"/abandon", nil)
	if res.Header.Get("Location") != "/cart" {
		t.Fatalf("return to cart: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	if st, _ := b.app.stripe.Session(sess); st.Status != stripepay.StatusExpired {
		t.Errorf("Stripe's page is %q, want expired", st.Status)
	}
	if _, err := b.app.db.Order(ctx, id); shop.ErrorCode(err) != shop.ENOTFOUND {
		t.Errorf("the order after returning to the cart: %v, want released", err)
	}
	if n, _ := b.app.db.Stock(ctx, "nb-006"); n != stock {
		t.Errorf("stock after returning to the cart: %d, want %d", n, stock)
	}
	_, doc = b.shopper.get("/cart")
	if got := text(doc, `[data-testid="flash"]`); got != handlers.MsgPaymentAbandoned {
		t.Errorf("flash %q", got)
	}
	if lines := cartLines(t, b.shopper); len(lines) != 1 {
		t.Errorf("cart after returning: %d lines, want 1", len(lines))
	}
	// The page's own expired event, arriving now, changes nothing more.
	if res := deliver(t, b.app, stripepay.EventSessionExpired, sess); res.StatusCode != http.StatusOK {
		t.Errorf("expired event: %d", res.StatusCode)
	}
}

// The webhook refuses a bad signature and an amount that is not the
// order's, changing nothing.
func TestStripe_WebhookRefusals(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t, withStripe())
	ctx := context.Background()
	id, sess := placeWithStripe(t, b, "nb-007", "1")
	if err := b.app.stripe.Pay(sess); err != nil {
		t.Fatal(err)
	}
	payload, header, err := b.app.stripe.EventFor(stripepay.EventSessionCompleted, sess)
	if err != nil {
		t.Fatal(err)
	}
	for name, h := range map[string]string{"no signature": "", "another secret": strings.Replace(header, "v1=", "v1=00", 1)} {
		if res := postWebhook(t, b.app, payload, h); res.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %d, want 400", name, res.StatusCode)
		}
	}
	tampered := bytes.Replace(payload, []byte(`"amount_total":`), []byte(`"amount_total":1`), 1)
	if res := postWebhook(t, b.app, tampered, header); res.StatusCode != http.StatusBadRequest {
		t.Errorf("tampered body: %d, want 400", res.StatusCode)
	}
	if o, _ := b.app.db.Order(ctx, id); o.Status != shop.StatusPending {
		t.Fatalf("a refused webhook changed the order: %s", o.Status)
	}
	// A signed event whose amount is not the order's: refused and logged,
	// the order not paid.
	if err := b.app.db.SetPaymentRef(ctx, id, sess); err != nil {
		t.Fatal(err)
	}
	if _, err := b.app.db.SQL().ExecContext(ctx, `UPDATE orders SET total_cents = total_cents + 100 WHERE id = ?`, id); err != nil {
		t.Fatal(err)
	}
	if res := postWebhook(t, b.app, payload, header); res.StatusCode != http.StatusBadRequest {
		t.Errorf("wrong amount: %d, want 400", res.StatusCode)
	}
	if o, _ := b.app.db.Order(ctx, id); o.Status != shop.StatusPending || o.PaymentStatus != shop.PaymentAwaiting {
		t.Errorf("wrong amount marked the order %s/%s", o.Status, o.PaymentStatus)
	}
}

// No webhook ever comes (the instance died, the endpoint was down): once
// the page's time is up the sweep asks Stripe, completing a paid order and
// releasing an unpaid one, its stock back.
func TestStripe_SweepWithoutWebhook(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t, withStripe())
	ctx := context.Background()
	stock, _ := b.app.db.Stock(ctx, "nb-008")
	paid, paidSess := placeWithStripe(t, b, "nb-008", "1")
	if err := b.app.stripe.Pay(paidSess); err != nil {
		t.Fatal(err)
	}
	unpaid, _ := placeWithStripeAs(t, b, b.admin, "nb-009", "1")
	if _, _, err := b.app.checkout.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	if o, _ := b.app.db.Order(ctx, paid); o.Status != shop.StatusPending {
		t.Fatalf("swept before the page's time was up: %s", o.Status)
	}
	b.app.clock.Advance(b.app.cfg.Payments.StripeSessionTTL + stripepay.Margin + time.Second)
	if _, _, err := b.app.checkout.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	if o, _ := b.app.db.Order(ctx, paid); o.Status != shop.StatusProcessing || o.PaymentStatus != shop.PaymentPaid {
		t.Errorf("paid order after the sweep: %s/%s", o.Status, o.PaymentStatus)
	}
	if n, _ := b.app.db.Stock(ctx, "nb-008"); n != stock-1 {
		t.Errorf("stock of the paid order: %d, want %d", n, stock-1)
	}
	if _, err := b.app.db.Order(ctx, unpaid); shop.ErrorCode(err) != shop.ENOTFOUND {
		t.Errorf("unpaid order after the sweep: %v, want released", err)
	}
	mailWithSubject(t, b.app, "Your order "+paid)
}

// Staff cancelling a paid Stripe order refund it through Stripe in full; a
// refund made in Stripe's dashboard reaches the order by its webhook.
func TestStripe_Refunds(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t, withStripe())
	ctx := context.Background()
	id, sess := placeWithStripe(t, b, "nb-010", "1")
	if err := b.app.stripe.Pay(sess); err != nil {
		t.Fatal(err)
	}
	if res := deliver(t, b.app, stripepay.EventSessionCompleted, sess); res.StatusCode != http.StatusOK {
		t.Fatalf("webhook: %d", res.StatusCode)
	}
	shown, res := confirmThrough(t, b.admin, "/admin/orders/"+id+"/cancel", url.Values{"reason": {"Out of stock at the warehouse"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("cancel: %d", res.StatusCode)
	}
	if o, _ := b.app.db.Order(ctx, id); text(shown, `[data-testid="confirm-button"]`) != "Cancel order "+id+" and refund "+o.Total.String()+" through Stripe" {
		t.Errorf("the confirmation says %q", text(shown, `[data-testid="confirm-button"]`))
	}
	st, _ := b.app.stripe.Session(sess)
	o, _ := b.app.db.Order(ctx, id)
	if st.AmountRefunded != o.Total || o.PaymentStatus != shop.PaymentRefunded || o.Refunded != o.Total {
		t.Errorf("after cancelling: Stripe refunded %v, the order says %s %v of %v", st.AmountRefunded, o.PaymentStatus, o.Refunded, o.Total)
	}
	// Its charge.refunded event, arriving after, changes nothing more.
	if res := deliver(t, b.app, stripepay.EventChargeRefunded, sess); res.StatusCode != http.StatusOK {
		t.Errorf("refund event: %d", res.StatusCode)
	}

	// A partial refund made in the dashboard.
	b.shopper.addToCart("/products", "nb-011", "1")
	id2, sess2 := placeWithStripe(t, b, "nb-011", "1")
	if err := b.app.stripe.Pay(sess2); err != nil {
		t.Fatal(err)
	}
	deliver(t, b.app, stripepay.EventSessionCompleted, sess2)
	o2, _ := b.app.db.Order(ctx, id2)
	if _, err := b.app.stripePages().Refund(ctx, o2.PaymentIntent, 500, stripepay.ReasonRequestedByCustomer, "dashboard-1"); err != nil {
		t.Fatal(err)
	}
	if res := deliver(t, b.app, stripepay.EventChargeRefunded, sess2); res.StatusCode != http.StatusOK {
		t.Fatalf("refund event: %d", res.StatusCode)
	}
	o2, _ = b.app.db.Order(ctx, id2)
	if o2.PaymentStatus != shop.PaymentPartiallyRefunded || o2.Refunded != 500 {
		t.Errorf("after a $5.00 dashboard refund: %s %v", o2.PaymentStatus, o2.Refunded)
	}
	mailWithSubject(t, b.app, "Refund for order "+id2)
}

// Stripe can't be reached at Place Order: no order is left, the stock is
// back, and the review says the spec's "Failed to place order".
func TestStripe_PageFailsOrderReleased(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t, withStripe())
	ctx := context.Background()
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":{"type":"api_error","message":"down"}}`, http.StatusInternalServerError)
	}))
	defer down.Close()
	sc, err := stripepay.New(stripepay.Config{SecretKey: "sk_test_nocturne", WebhookSecret: "whsec_stripestub", APIURL: down.URL})
	if err != nil {
		t.Fatal(err)
	}
	b.app.checkout.Methods.For(stripepay.Name).(*stripepay.Method).Pages = sc
	stock, _ := b.app.db.Stock(ctx, "nb-012")
	c := b.shopper
	c.addToCart("/products", "nb-012", "1")
	c.postFrom("/checkout/shipping", "/checkout/shipping", shippingValues)
	c.postFrom("/checkout/payment", "/checkout/payment", url.Values{"method": {"stripe"}, "action": {"next"}})
	_, review := c.get("/checkout/review")
	res, doc := c.postFrom("/checkout/review", "/checkout/place", url.Values{"key": {review.Find(`input[name="key"]`).AttrOr("value", "")}})
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(text(doc, `[data-testid="form-alert"]`), checkout.MsgOrderFailed) {
		t.Fatalf("Stripe down: %d %q", res.StatusCode, text(doc, `[data-testid="form-alert"]`))
	}
	if n, _ := b.app.db.Stock(ctx, "nb-012"); n != stock {
		t.Errorf("stock after the failed page: %d, want %d", n, stock)
	}
	var left int
	if err := b.app.db.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM orders WHERE payment_provider = 'stripe'`).Scan(&left); err != nil || left != 0 {
		t.Errorf("Stripe orders left: %d (%v), want 0", left, err)
	}
	if n, _ := b.app.db.CartCount(ctx, userID(t, b.app, "sam@example.com")); n != 1 {
		t.Errorf("cart after the failed page: %d items, want 1", n)
	}
}

// A shopper who leaves Stripe's page without cancelling, changes the cart
// and places it again gets a new page; the first one is expired through
// Stripe, so it can't be paid too, and its order's stock is back.
func TestStripe_PlaceAgainClosesTheFirstPage(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t, withStripe())
	ctx := context.Background()
	first, firstSess := placeWithStripe(t, b, "nb-013", "1")
	second, secondSess := placeWithStripe(t, b, "nb-016", "1")
	if first == second || firstSess == secondSess {
		t.Fatalf("placing again reused order %s / page %s", first, firstSess)
	}
	if st, _ := b.app.stripe.Session(firstSess); st.Status != stripepay.StatusExpired {
		t.Errorf("the first page is %q, want expired", st.Status)
	}
	if _, err := b.app.db.Order(ctx, first); shop.ErrorCode(err) != shop.ENOTFOUND {
		t.Errorf("the first order: %v, want released", err)
	}
	o, _ := b.app.db.Order(ctx, second)
	if o.ItemCount() != 2 {
		t.Errorf("the second order has %d items, want both", o.ItemCount())
	}
}

// Stripe checks a page's expiry against its own clock when it creates the
// session: with Stripe's clock a second ahead of ours, a page of exactly
// the 30-minute minimum would be refused. The page asks for a minute more.
func TestStripe_PageExpiryAllowsClockTick(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t, withStripe())
	ahead := stripestub.New(stripestub.Options{WebhookSecret: "whsec_stripestub",
		Now: func() time.Time { return b.app.clock.Now().Add(time.Second) }})
	srv := httptest.NewServer(ahead)
	defer srv.Close()
	sc, err := stripepay.New(stripepay.Config{SecretKey: "sk_test_nocturne", WebhookSecret: "whsec_stripestub", APIURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	b.app.checkout.Methods.For(stripepay.Name).(*stripepay.Method).Pages = sc
	b.app.stripe = ahead
	placeWithStripe(t, b, "nb-015", "1")
}
