package main

import (
	"database/sql"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/stripepay/stripestub"
)

var stubSession = regexp.MustCompile(`/pay/(cs_[A-Za-z0-9_]+)`)

// Kill -9 while Stripe is making a refund (it made it; its answer never
// came back) leaves the refund counted and its intent open; the next start's
// refund sweep sends it again with the same key, so Stripe refunds once,
// and the shopper is mailed and the refund audited once. A shopper's
// cancel, a staff refund and a return's refund alike.
func TestProcess_KillDuringRefundIsFinished(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the server twice per path")
	}
	for _, path := range []string{"cancel", "refund", "return"} {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			killDuringRefund(t, path)
		})
	}
}

func killDuringRefund(t *testing.T, path string) {
	stub := stripestub.New(stripestub.Options{WebhookSecret: "whsec_test_kill"})
	var hold atomic.Bool
	arrived := make(chan struct{}, 1)
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hold.Load() && r.URL.Path == "/v1/refunds" {
			// Stripe makes the refund; the shop never hears back.
			stub.ServeHTTP(httptest.NewRecorder(), r)
			arrived <- struct{}{}
			<-r.Context().Done()
			return
		}
		stub.ServeHTTP(w, r)
	}))
	t.Cleanup(api.Close)
	stripeEnv := []string{"PAYMENT_METHODS=stripe", "STRIPE_SECRET_KEY=sk_test_kill", "STRIPE_WEBHOOK_SECRET=whsec_test_kill", "STRIPE_API_URL=" + api.URL}
	dir := t.TempDir()
	srv := startServer(t, dir, append(stripeEnv, restartEnv...)...)
	stub.SetWebhookURL(srv.base + "/webhooks/stripe")

	sh := newShopper(t, srv.base)
	sh.register("kill-refund@example.com")
	key := sh.checkoutToReview("kill-refund@example.com", "nb-001", "1", url.Values{"method": {"stripe"}, "action": {"next"}})
	res, _ := sh.post("/checkout/place", url.Values{"key": {key}})
	m := stubSession.FindStringSubmatch(res.Header.Get("Location"))
	if m == nil {
		t.Fatalf("place: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	if err := stub.Pay(m[1]); err != nil {
		t.Fatal(err)
	}
	orderID := ""
	waitFor(t, "the paid webhook", func() bool {
		orderID = scalar(t, dir, `SELECT id FROM orders WHERE payment_status = 'paid'`)
		return orderID != ""
	})

	hold.Store(true)
	actor := sh
	form, action := url.Values{}, "/orders/"+orderID+"/cancel"
	if path != "cancel" {
		actor = newShopper(t, srv.base)
		actor.register("kill-admin@example.com")
		makeAdmin(t, dir, "kill-admin@example.com")
		form, action = url.Values{"was": {"0"}, "amount": {"5.00"}, "reason": {"Scratched"}}, "/admin/orders/"+orderID+"/refund/confirm"
	}
	if path == "return" {
		form.Set("return", receiveReturn(t, sh, actor, dir, orderID))
	}
	go func() {
		req, _ := http.NewRequest(http.MethodPost, srv.base+action, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		req.Header.Set("Origin", srv.base)
		if res, err := actor.hc.Do(req); err == nil {
			res.Body.Close()
		}
	}()
	select {
	case <-arrived:
	case <-time.After(time.Minute):
		t.Fatalf("the refund never reached Stripe\n%s", srv.logs)
	}
	_ = srv.cmd.Process.Signal(syscall.SIGKILL)
	<-srv.done
	if got := scalar(t, dir, `SELECT state FROM refund_intents`); got != "open" {
		t.Fatalf("after the kill: intent %q, want open", got)
	}

	hold.Store(false)
	srv = startServer(t, dir, append(stripeEnv, restartEnv...)...)
	stub.SetWebhookURL(srv.base + "/webhooks/stripe")
	waitFor(t, "the refund sweep", func() bool { return scalar(t, dir, `SELECT state FROM refund_intents`) == "sent" })
	refunds := 0
	for _, d := range stub.Deliveries() {
		if d.Type == "charge.refunded" {
			refunds++
		}
	}
	mails := scalar(t, dir, `SELECT COUNT(*) FROM outbox WHERE subject = 'Refund for order `+orderID+`'`)
	audits := scalar(t, dir, `SELECT COUNT(*) FROM audit_log WHERE action = 'order.refund' AND subject = '`+orderID+`'`)
	if refunds != 1 || mails != "1" || audits != "1" {
		t.Errorf("after the sweep: Stripe refunded %d times, %s refund mails, %s audit entries; want 1, 1, 1", refunds, mails, audits)
	}
	if id := form.Get("return"); id != "" {
		if got := scalar(t, dir, `SELECT state FROM return_requests WHERE id = '`+id+`'`); got != "refunded" {
			t.Errorf("the return after the sweep: %q, want refunded", got)
		}
	}
}

// receiveReturn ships and delivers the order (staff), has the shopper
// return one item, and staff approve and receive it; it returns its id.
func receiveReturn(t *testing.T, shopper, staff *shopper, dir, orderID string) string {
	t.Helper()
	admin := "/admin/orders/" + orderID
	staff.post(admin+"/ship", url.Values{"carrier": {"UPS"}, "tracking": {"1Z999"}})
	staff.post(admin+"/deliver", nil)
	shopper.post("/orders/"+orderID+"/returns", url.Values{"qty-0": {"1"}, "reason": {"doesnt_fit"}})
	id := scalar(t, dir, `SELECT id FROM return_requests WHERE order_id = '`+orderID+`'`)
	staff.post(admin+"/returns/approve", url.Values{"return": {id}})
	staff.post(admin+"/returns/receive", url.Values{"return": {id}})
	if got := scalar(t, dir, `SELECT state FROM return_requests WHERE id = '`+id+`'`); got != "received" {
		t.Fatalf("return %q is %q, want received", id, got)
	}
	return id
}

// scalar reads one value straight from the database file ("" for no row).
func scalar(t *testing.T, dir, query string) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "nocturne.db")+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v sql.NullString
	if err := db.QueryRow(query).Scan(&v); err != nil && err != sql.ErrNoRows {
		t.Fatal(err)
	}
	return v.String
}

// makeAdmin verifies email's address and gives it the admin role with the
// binary's own staff command.
func makeAdmin(t *testing.T, dir, email string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "nocturne.db")+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(`UPDATE users SET email_verified = 1 WHERE email = ?`, email)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "staff", "add", email, "--role", "admin")
	cmd.Env = append(os.Environ(), "STOREFRONT_TEST_SERVE=1", "DATA_DIR="+dir, "LOG_LEVEL=warn", "SESSION_SECRET="+strings.Repeat("s", 40))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("staff add: %v\n%s", err, out)
	}
}
