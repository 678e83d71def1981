package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/nocturne/storefront/internal/shop"
)

// The mail page lists undelivered mail with its error, never shows a body
// that holds a sign-in, reset or confirmation link, and Retry makes a
// failed mail due again; fulfilment staff get the 404.
func TestAdmin_MailListHidesSecretsAndRetries(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	ctx := context.Background()
	db := b.app.db
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(db.AddToOutbox(ctx, shop.Email{To: "ada@example.com", Subject: "Your order N-1", Body: "Thanks for your order"}))
	must(db.AddToOutbox(ctx, shop.Email{To: "ada@example.com", Subject: "Reset your password", Body: "https://shop.example/reset?token=s3cret", Secret: true}))
	// Every mail so far is claimed and refused until it is given up on.
	for {
		m, err := db.ClaimMail(ctx, b.app.clock.Now(), b.app.clock.Now().Add(time.Minute))
		must(err)
		if m == nil {
			break
		}
		must(db.RescheduleMail(ctx, m.ID, shop.MailFailed, b.app.clock.Now(), "421 down for maintenance"))
	}

	res, doc := b.admin.get("/admin/mail")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /admin/mail: %d", res.StatusCode)
	}
	page := doc.Find("main").Text()
	if strings.Contains(page, "s3cret") || strings.Contains(page, "token=") {
		t.Errorf("the mail page shows a secret link: %s", page)
	}
	if !strings.Contains(page, "Thanks for your order") || !strings.Contains(page, "421 down for maintenance") {
		t.Errorf("the mail page lacks the order mail's body or its error: %s", page)
	}
	var retryID string
	doc.Find(`[data-testid="mail"]`).Each(func(_ int, s *goquery.Selection) {
		if strings.Contains(s.Find("h3").Text(), "Reset your password") {
			retryID = s.AttrOr("data-id", "")
			if s.Find(`[data-testid="mail-hidden"]`).Length() != 1 || s.Find(`[data-testid="mail-body"]`).Length() != 0 {
				t.Errorf("the reset mail's body is not hidden")
			}
		}
	})
	if retryID == "" {
		t.Fatal("the reset mail is not listed")
	}

	if res, _ := b.fulfi.get("/admin/mail"); res.StatusCode != http.StatusNotFound {
		t.Errorf("fulfilment GET /admin/mail: %d, want 404", res.StatusCode)
	}
	if res, _ := b.fulfi.post("/admin/mail/"+retryID+"/retry", url.Values{}); res.StatusCode != http.StatusNotFound {
		t.Errorf("fulfilment retry: %d, want 404", res.StatusCode)
	}

	if res, _ := b.admin.post("/admin/mail/"+retryID+"/retry", url.Values{}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("retry: %d, want 303", res.StatusCode)
	}
	m, err := db.ClaimMail(ctx, b.app.clock.Now(), b.app.clock.Now().Add(time.Minute))
	must(err)
	if m == nil || m.Subject != "Reset your password" || m.Attempts != 2 {
		t.Errorf("after retry: claimed %+v, want the reset mail's second attempt", m)
	}
}
