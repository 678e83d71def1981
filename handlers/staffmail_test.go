package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/nocturne/storefront/internal/shop"
)

const staffInbox = "orders@nocturne.example"

// staffMails are the outbox's mails to STAFF_NOTIFY_EMAIL, newest first.
func staffMails(t *testing.T, a *testApp) []shop.Email {
	t.Helper()
	all, err := a.db.Outbox(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out []shop.Email
	for _, m := range all {
		if m.To == staffInbox {
			out = append(out, m)
		}
	}
	return out
}

// With STAFF_NOTIFY_EMAIL set, staff are mailed a new order, a return
// request and a contact message; unset, nobody is.
func TestStaffNotify_OrderReturnContact(t *testing.T) {
	t.Parallel()
	t.Run("Set", func(t *testing.T) {
		t.Parallel()
		b := newBackOffice(t, withEnv("STAFF_NOTIFY_EMAIL", staffInbox))
		got := staffMails(t, b.app)
		if len(got) != 1 || !strings.Contains(got[0].Subject, "New order "+b.orderID+" (paid)") {
			t.Fatalf("after the order: staff mails %+v, want the new order", got)
		}
		b.deliver(t, b.orderID)
		if res, _ := b.shopper.post("/orders/"+b.orderID+"/returns", url.Values{"qty-0": {"1"}, "reason": {"doesnt_fit"}}); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("return request: %d", res.StatusCode)
		}
		got = staffMails(t, b.app)
		if len(got) != 2 || !strings.HasPrefix(got[0].Subject, "Return requested: ") || !strings.Contains(got[0].Body, b.orderID) {
			t.Fatalf("after the return: staff mails %+v, want the return request", got)
		}
		form := url.Values{"name": {"Sam"}, "email": {"sam@example.com"}, "subject": {"Lamp colour"}, "message": {"Is it warm white?"}}
		if res, _ := b.app.client(t).postFrom("/contact", "/contact", form); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("contact: %d", res.StatusCode)
		}
		got = staffMails(t, b.app)
		if len(got) != 3 || got[0].Subject != "Contact message: Lamp colour" || !strings.Contains(got[0].Body, "Is it warm white?") {
			t.Fatalf("after the contact message: staff mails %+v, want it", got)
		}
	})
	t.Run("Unset", func(t *testing.T) {
		t.Parallel()
		b := newBackOffice(t)
		form := url.Values{"name": {"Sam"}, "email": {"sam@example.com"}, "subject": {"Hi"}, "message": {"Hello"}}
		if res, _ := b.app.client(t).postFrom("/contact", "/contact", form); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("contact: %d", res.StatusCode)
		}
		all, _ := b.app.db.Outbox(context.Background())
		for _, m := range all {
			if strings.HasPrefix(m.Subject, "New order") || strings.HasPrefix(m.Subject, "Contact message") {
				t.Errorf("a staff mail with no STAFF_NOTIFY_EMAIL: %+v", m)
			}
		}
	})
}
