package mail_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/auth"
	"github.com/nocturne/storefront/internal/mail"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/store/sqlite"
)

// The retry schedule, as operations.md states it: 30 s, doubling, at most
// an hour between attempts.
func TestRetryWait(t *testing.T) {
	for _, tc := range []struct {
		attempts int
		want     time.Duration
	}{
		{1, 30 * time.Second}, {2, time.Minute}, {3, 2 * time.Minute}, {4, 4 * time.Minute},
		{7, 32 * time.Minute}, {8, time.Hour}, {9, time.Hour}, {100, time.Hour},
	} {
		if got := mail.RetryWait(tc.attempts); got != tc.want {
			t.Errorf("after attempt %d: got %v, want %v", tc.attempts, got, tc.want)
		}
	}
}

type clock struct{ t time.Time }

func (c *clock) Now() time.Time      { return c.t }
func (c *clock) Add(d time.Duration) { c.t = c.t.Add(d) }
func quiet() *slog.Logger            { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// openQueue opens an in-memory store on c and a sender that delivers its
// outbox to srv.
func openQueue(t *testing.T, c *clock, srv *smtpServer) (*sqlite.DB, *mail.Sender) {
	t.Helper()
	db, err := sqlite.Open(context.Background(), ":memory:")
	must(t, err)
	t.Cleanup(func() { _ = db.Close() })
	db.SetClock(c.Now)
	smtp, err := mail.NewSMTP(srv.URL())
	must(t, err)
	return db, &mail.Sender{Queue: db, Via: smtp, Now: c.Now, Log: quiet()}
}

func drain(t *testing.T, s *mail.Sender) int {
	t.Helper()
	n, err := s.Drain(context.Background())
	must(t, err)
	return n
}

// A shopper signs up while the mail server is down: the confirmation waits
// in the outbox, is retried on schedule once the server is back, and
// arrives exactly once.
func TestSender_ServerDownAtSignUpThenUp(t *testing.T) {
	ctx := context.Background()
	c := &clock{t: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	srv := startSMTP(t)
	db, sender := openQueue(t, c, srv)
	accounts := &auth.Service{Users: db, Resets: db, Links: db, Confirmations: db,
		Mailer: &mail.Outbox{Store: db, Log: quiet(), Delivered: true}, BaseURL: "https://shop.example", HashCost: 4, Now: c.Now, Log: quiet()}

	srv.setDown(true)
	_, errs, err := accounts.Register(ctx, auth.RegisterInput{DisplayName: "Ada", Email: "ada@example.com",
		Password: "correct horse battery staple", ConfirmPassword: "correct horse battery staple"})
	if err != nil || errs != nil {
		t.Fatalf("register: %v %v", errs, err)
	}
	if n := drain(t, sender); n != 0 {
		t.Fatalf("sent %d while the server is down", n)
	}
	waiting, err := db.UndeliveredMail(ctx)
	must(t, err)
	if len(waiting) != 1 || waiting[0].State != shop.MailWaiting || !waiting[0].Secret ||
		!waiting[0].NextAttemptAt.Equal(c.Now().Add(30*time.Second)) || !strings.Contains(waiting[0].LastError, "421") {
		t.Fatalf("after a refused attempt: got %+v, want the secret confirmation waiting 30 s with the server's answer", waiting)
	}

	srv.setDown(false)
	c.Add(29 * time.Second)
	if n := drain(t, sender); n != 0 {
		t.Errorf("sent %d before the retry was due", n)
	}
	c.Add(time.Second)
	if n := drain(t, sender); n != 1 {
		t.Errorf("sent %d when the retry was due, want 1", n)
	}
	c.Add(2 * time.Hour)
	drain(t, sender)
	got := srv.messages()
	if len(got) != 1 || !strings.Contains(got[0], "ada@example.com") {
		t.Fatalf("the server received %d messages, want the confirmation once", len(got))
	}
	if left, _ := db.UndeliveredMail(ctx); len(left) != 0 {
		t.Errorf("undelivered after sending: %+v", left)
	}
}

// A mail the server keeps refusing is retried with growing waits and given
// up on (failed) once it is a day old.
func TestSender_GivesUpAfterADay(t *testing.T) {
	ctx := context.Background()
	c := &clock{t: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	srv := startSMTP(t)
	srv.setDown(true)
	db, sender := openQueue(t, c, srv)
	must(t, db.AddToOutbox(ctx, shop.Email{To: "ada@example.com", Subject: "Your order", Body: "Thanks"}))
	start := c.Now()
	var waits []time.Duration
	for range 40 {
		drain(t, sender)
		list, err := db.UndeliveredMail(ctx)
		must(t, err)
		if list[0].State == shop.MailFailed {
			break
		}
		waits = append(waits, list[0].NextAttemptAt.Sub(c.Now()))
		c.t = list[0].NextAttemptAt
	}
	want := []time.Duration{30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute,
		16 * time.Minute, 32 * time.Minute, time.Hour}
	for i, w := range want {
		if i >= len(waits) || waits[i] != w {
			t.Fatalf("waits: got %v, want it to start %v", waits, want)
		}
	}
	list, _ := db.UndeliveredMail(ctx)
	if len(list) != 1 || list[0].State != shop.MailFailed || c.Now().Sub(start) < mail.GiveUpAfter || c.Now().Sub(start) > mail.GiveUpAfter+time.Hour {
		t.Fatalf("got %+v at %v, want failed within an hour after a day", list, c.Now().Sub(start))
	}
	if n := drain(t, sender); n != 0 || len(srv.messages()) != 0 {
		t.Errorf("a failed mail was tried again")
	}
}

// A sender stopped between claiming a mail and sending it (or between
// sending and recording it) leaves it claimed; once the lease ends, another
// sender sends it: at least once.
func TestSender_CrashMidSendIsSentAfterTheLease(t *testing.T) {
	ctx := context.Background()
	c := &clock{t: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	srv := startSMTP(t)
	db, sender := openQueue(t, c, srv)
	must(t, db.AddToOutbox(ctx, shop.Email{To: "ada@example.com", Subject: "Your order", Body: "Thanks"}))
	// The first sender claims it and stops there.
	m, err := db.ClaimMail(ctx, c.Now(), c.Now().Add(mail.Lease))
	if err != nil || m == nil {
		t.Fatalf("claim: %v %v", m, err)
	}
	if n := drain(t, sender); n != 0 {
		t.Fatalf("a second sender sent a claimed mail during its lease")
	}
	c.Add(mail.Lease)
	if n := drain(t, sender); n != 1 || len(srv.messages()) != 1 {
		t.Fatalf("after the lease: sent %d, server got %d, want 1", n, len(srv.messages()))
	}
}
