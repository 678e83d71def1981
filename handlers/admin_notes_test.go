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
	"github.com/nocturne/storefront/internal/shop"
)

// countAudit counts the audit log's entries of action on subject.
func countAudit(t *testing.T, b *backOffice, action, subject string) int {
	t.Helper()
	entries, _, err := b.app.db.AuditLog(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if e.Action == action && e.Subject == subject {
			n++
		}
	}
	return n
}

// Staff notes are on the back office's timeline, with who wrote them and
// when, and in the audit log; the shopper's order page and a guest's
// lookup of the order never show them.
func TestAdmin_NotesNeverReachTheShopper(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	path := "/admin/orders/" + b.orderID
	const secret = "Called the shopper: fragile, double-box it"

	for _, tt := range []struct {
		name, note, want string
	}{
		{"ErrNoteRequired", " \r\n ", backoffice.MsgNoteRequired},
		{"ErrNoteTooLong", strings.Repeat("x", shop.MaxNoteLength+1), backoffice.MsgNoteTooLong},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, doc := b.fulfi.post(path+"/notes", url.Values{"note": {tt.note}})
			if res.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("got status %d, want 422", res.StatusCode)
			}
			if got := text(doc, `[data-testid="note-error"]`); got != tt.want {
				t.Errorf("got error %q, want %q", got, tt.want)
			}
		})
	}
	if res, _ := b.fulfi.post(path+"/notes", url.Values{"note": {secret}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("add note: got %d, want 303", res.StatusCode)
	}
	if res, _ := b.admin.post(path+"/notes", url.Values{"note": {"Second look: fine"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("add second note: got %d, want 303", res.StatusCode)
	}
	// Shipping after the notes: the timeline keeps every kind in order.
	if res, _ := b.fulfi.post(path+"/ship", url.Values{"carrier": {"UPS"}, "tracking": {"1Z999AA10123456784"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("ship: %d", res.StatusCode)
	}

	_, doc := b.admin.get(path)
	var kinds, actors []string
	doc.Find(`[data-testid="timeline-event"]`).Each(func(_ int, s *goquery.Selection) {
		kinds = append(kinds, s.AttrOr("data-kind", ""))
		actors = append(actors, strings.Join(strings.Fields(s.Find(`[data-testid="timeline-actor"]`).Text()), " "))
	})
	if want := []string{shop.EventNote, shop.EventNote, string(shop.StatusShipped)}; fmt.Sprint(kinds) != fmt.Sprint(want) {
		t.Errorf("got timeline kinds %v, want %v", kinds, want)
	}
	if want := []string{"by fay@example.com", "by admin@example.com", "by fay@example.com"}; fmt.Sprint(actors) != fmt.Sprint(want) {
		t.Errorf("got timeline actors %v, want %v", actors, want)
	}
	if got := doc.Find(`[data-testid="timeline"]`).Text(); !strings.Contains(got, secret) || !strings.Contains(got, "Internal note") {
		t.Errorf("the back office's timeline lacks the note: %q", got)
	}
	if n := countAudit(t, b, "order.note", b.orderID); n != 2 {
		t.Errorf("got %d order.note audit entries, want 2", n)
	}

	// The shopper who placed it.
	_, doc = b.shopper.get("/orders/" + b.orderID)
	if strings.Contains(doc.Text(), secret) || strings.Contains(doc.Text(), "Internal note") || strings.Contains(doc.Text(), "Second look") {
		t.Error("the shopper's order page shows a staff note")
	}
	if got := doc.Find(`[data-testid="timeline-event"]`).Length(); got != 1 {
		t.Errorf("the shopper's timeline has %d events, want 1 (shipped)", got)
	}
	// A visitor who looks the order up by its number and e-mail.
	o, err := b.app.db.Order(context.Background(), b.orderID)
	if err != nil {
		t.Fatal(err)
	}
	guest := b.app.client(t)
	res, _ := guest.postFrom("/orders/lookup", "/orders/lookup", url.Values{"order": {b.orderID}, "email": {o.Email}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("lookup: %d", res.StatusCode)
	}
	res, doc = guest.get("/orders/" + b.orderID)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("looked-up order: %d", res.StatusCode)
	}
	if strings.Contains(doc.Text(), secret) || strings.Contains(doc.Text(), "Second look") {
		t.Error("the guest lookup shows a staff note")
	}
	// Nor does the shopper's mail.
	for _, m := range mustOutbox(t, b) {
		if strings.Contains(m.Body, secret) {
			t.Errorf("mail %q carries a staff note", m.Subject)
		}
	}
}

func mustOutbox(t *testing.T, b *backOffice) []shop.Email {
	t.Helper()
	mails, err := b.app.db.Outbox(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return mails
}

// A shipped order's tracking number links to its carrier's page, on the
// shopper's order page and in the shipped mail; the number is escaped
// into the template, whatever it holds.
func TestAdmin_TrackingLinks(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	ctx := context.Background()
	path := "/admin/orders/" + b.orderID
	if res, _ := b.fulfi.post(path+"/ship", url.Values{"carrier": {"UPS"}, "tracking": {"1z999aa10123456784"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("ship: %d", res.StatusCode)
	}
	const want = "https://www.ups.com/track?tracknum=1Z999AA10123456784"
	_, doc := b.shopper.get("/orders/" + b.orderID)
	link := doc.Find(`[data-testid="tracking"] a[data-testid="tracking-link"]`)
	if got := link.AttrOr("href", ""); got != want {
		t.Errorf("got tracking link %q, want %q", got, want)
	}
	if got := text(doc, `[data-testid="tracking"]`); got != "1Z999AA10123456784" {
		t.Errorf("got tracking text %q", got)
	}
	mail := mailWithSubject(t, b.app, "Your order "+b.orderID+" has shipped")
	if !strings.Contains(mail.Body, "Track it: "+want+"\n") {
		t.Errorf("the shipped mail lacks the link:\n%s", mail.Body)
	}

	// A template edited later: every order's link follows it.
	if res, _ := b.admin.post("/admin/carriers/ups", url.Values{"url_template": {"https://track.example/p/{tracking}#top"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("edit template: %d", res.StatusCode)
	}
	// A number that holds what a URL reads as syntax (as one typed before
	// numbers were checked might): it stays one path segment.
	second := b.placeOrder(t, "nb-002", "1")
	if _, err := b.app.db.TransitionOrder(ctx, shop.Transition{OrderID: second, From: shop.StatusProcessing, To: shop.StatusShipped,
		Carrier: "UPS", Tracking: "A B/C?d=1&e#f+g%"}); err != nil {
		t.Fatal(err)
	}
	_, doc = b.shopper.get("/orders/" + second)
	if got, want := doc.Find(`[data-testid="tracking-link"]`).AttrOr("href", ""), "https://track.example/p/A%20B%2FC%3Fd%3D1%26e%23f%2Bg%25#top"; got != want {
		t.Errorf("got escaped link %q, want %q", got, want)
	}
	// A carrier the table no longer knows: the number, without a link.
	third := b.placeOrder(t, "nb-003", "1")
	if _, err := b.app.db.TransitionOrder(ctx, shop.Transition{OrderID: third, From: shop.StatusProcessing, To: shop.StatusShipped,
		Carrier: "Pony Express", Tracking: "PX-1"}); err != nil {
		t.Fatal(err)
	}
	_, doc = b.shopper.get("/orders/" + third)
	if doc.Find(`[data-testid="tracking-link"]`).Length() != 0 || text(doc, `[data-testid="tracking"]`) != "PX-1" {
		t.Errorf("unknown carrier: %q", doc.Find(`[data-testid="tracking"]`).Text())
	}
}

// Admins add carriers and edit their templates: an https address that
// holds {tracking}, nothing else. The ship form offers what the table
// holds, and each change is in the audit log.
func TestAdmin_Carriers(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	if res, _ := b.fulfi.get("/admin/carriers"); res.StatusCode != http.StatusNotFound {
		t.Errorf("fulfilment GET /admin/carriers: got %d, want 404", res.StatusCode)
	}
	_, doc := b.admin.get("/admin/carriers")
	var names []string
	doc.Find(`[data-testid="carrier"] h3`).Each(func(_ int, s *goquery.Selection) { names = append(names, s.Text()) })
	if want := "[UPS FedEx USPS DHL Royal Mail Canada Post]"; fmt.Sprint(names) != want {
		t.Errorf("got seeded carriers %v, want %s", names, want)
	}

	for _, tt := range []struct {
		name, carrier, template string
		field, want             string
	}{
		{"ErrNameRequired", " ", "https://t.example/{tracking}", "carrier-name-error", shop.MsgCarrierName},
		{"ErrNameTaken", "ups", "https://t.example/{tracking}", "carrier-name-error", fmt.Sprintf(shop.MsgCarrierExists, "UPS")},
		{"ErrTemplateRequired", "Night Post", "", "carrier-template-error", shop.MsgCarrierTemplate},
		{"ErrHTTP", "Night Post", "http://t.example/{tracking}", "carrier-template-error", shop.MsgCarrierTemplate},
		{"ErrNoPlaceholder", "Night Post", "https://t.example/track", "carrier-template-error", shop.MsgCarrierTemplate},
		{"ErrScript", "Night Post", "javascript:alert(1)//{tracking}", "carrier-template-error", shop.MsgCarrierTemplate},
		{"ErrNoHost", "Night Post", "https:///{tracking}", "carrier-template-error", shop.MsgCarrierTemplate},
		{"ErrRelative", "Night Post", "/track/{tracking}", "carrier-template-error", shop.MsgCarrierTemplate},
		{"ErrSpace", "Night Post", "https://t.example/{tracking} x", "carrier-template-error", shop.MsgCarrierTemplate},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, doc := b.admin.post("/admin/carriers", url.Values{"name": {tt.carrier}, "url_template": {tt.template}})
			if res.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("got status %d, want 422", res.StatusCode)
			}
			if got := text(doc, `[data-testid="`+tt.field+`"]`); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if got := doc.Find(`#carrier-template`).AttrOr("value", ""); got != strings.TrimSpace(tt.template) {
				t.Errorf("typed template kept as %q", got)
			}
		})
	}

	const tpl = "https://nightpost.example/track?n={tracking}"
	if res, _ := b.admin.post("/admin/carriers", url.Values{"name": {" Night Post "}, "url_template": {tpl}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("add carrier: %d", res.StatusCode)
	}
	_, doc = b.admin.get("/admin/orders/" + b.orderID)
	if doc.Find(`select[name="carrier"] option[value="Night Post"]`).Length() != 1 {
		t.Error("the ship form does not offer the new carrier")
	}
	if n := countAudit(t, b, "carrier.add", "Night Post"); n != 1 {
		t.Errorf("got %d carrier.add entries, want 1", n)
	}

	// Editing: a bad template is refused next to its own field.
	res, doc := b.admin.post("/admin/carriers/dhl", url.Values{"url_template": {"https://dhl.example/"}})
	if res.StatusCode != http.StatusUnprocessableEntity || text(doc, `[data-testid="tpl-dhl-error"]`) != shop.MsgCarrierTemplate {
		t.Errorf("bad edit: got %d %q", res.StatusCode, text(doc, `[data-testid="tpl-dhl-error"]`))
	}
	if got := doc.Find(`#tpl-dhl`).AttrOr("value", ""); got != "https://dhl.example/" {
		t.Errorf("typed template kept as %q", got)
	}
	if res, _ := b.admin.post("/admin/carriers/nope", url.Values{"url_template": {tpl}}); res.StatusCode != http.StatusNotFound {
		t.Errorf("unknown carrier: got %d, want 404", res.StatusCode)
	}
	if res, _ := b.admin.post("/admin/carriers/dhl", url.Values{"url_template": {"https://www.dhl.com/track/{tracking}"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("edit: %d", res.StatusCode)
	}
	entries, _, _ := b.app.db.AuditLog(context.Background(), 1)
	if e := entries[0]; e.Action != "carrier.update" || e.Subject != "DHL" || !strings.Contains(e.Before, "tracking-express") ||
		!strings.Contains(e.After, "https://www.dhl.com/track/{tracking}") {
		t.Errorf("got newest audit entry %+v", e)
	}

	// Shipped with the new carrier: its page is the link.
	if res, _ := b.fulfi.post("/admin/orders/"+b.orderID+"/ship", url.Values{"carrier": {"Night Post"}, "tracking": {"NP-1234"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("ship: %d", res.StatusCode)
	}
	_, doc = b.shopper.get("/orders/" + b.orderID)
	if got := doc.Find(`[data-testid="tracking-link"]`).AttrOr("href", ""); got != "https://nightpost.example/track?n=NP-1234" {
		t.Errorf("got link %q", got)
	}
}
