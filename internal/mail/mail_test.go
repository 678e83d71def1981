package mail_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	gomail "github.com/wneessen/go-mail"

	"github.com/nocturne/storefront/internal/mail"
	"github.com/nocturne/storefront/internal/shop"
)

type outboxStore struct{ kept []shop.Email }

func (s *outboxStore) AddToOutbox(_ context.Context, m shop.Email) error {
	s.kept = append(s.kept, m)
	return nil
}

func (s *outboxStore) Outbox(context.Context) ([]shop.Email, error) { return s.kept, nil }

// With no SMTP server the message is kept whole in the outbox, and the log
// says so without the link, which would let anyone who reads the logs
// reset the password.
func TestOutbox_KeepsTheMessageAndLogsNoSecret(t *testing.T) {
	var logs bytes.Buffer
	store := &outboxStore{}
	o := &mail.Outbox{Store: store, Log: slog.New(slog.NewTextHandler(&logs, nil))}
	const link = "https://shop.example/reset?token=s3cret-t0ken"
	m := shop.Email{To: "owl@example.com", Subject: "Reset your password", Body: "Follow " + link}
	if err := o.Send(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	if len(store.kept) != 1 || store.kept[0] != m {
		t.Errorf("outbox: got %+v, want [%+v]", store.kept, m)
	}
	for _, secret := range []string{"s3cret-t0ken", "owl@example.com"} {
		if strings.Contains(logs.String(), secret) {
			t.Errorf("the log holds %q: %s", secret, logs.String())
		}
	}
	if !strings.Contains(logs.String(), "outbox") {
		t.Errorf("the log does not say where the message went: %s", logs.String())
	}
}

// The contact form's check and the mailer agree: an address the form
// accepts is one a reply can be sent to, and one the mailer refuses never
// gets past the form.
func TestValidEmail_AgreesWithTheMailer(t *testing.T) {
	for _, addr := range []string{"ada@example.com", "ada+shop@mail.example.co.uk", "ü@example.com",
		"<svg/onload=alert(1)>@x.co", "Ada <ada@example.com>", "a b@example.com", "\"a b\"@example.com", "ada@[127.0.0.1]"} {
		mailerTakes := gomail.NewMsg().To(addr) == nil
		if shop.ValidEmail(addr) && !mailerTakes {
			t.Errorf("the form accepts %q but the mailer refuses it", addr)
		}
	}
}
