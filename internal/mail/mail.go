// Package mail sends the shop's e-mails. Every e-mail is first kept in the
// outbox table (in the transaction of what caused it where the caller can);
// when SMTP_URL is set a Sender delivers the table over SMTP, retrying
// until the server accepts each mail, so a mail server that is down loses
// nothing. Without SMTP_URL the table is where a fresh clone (and the
// tests) read every link the shop sends. The log never holds a body:
// bodies carry reset and sign-in links, which are secrets.
package mail

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"

	gomail "github.com/wneessen/go-mail"

	"github.com/nocturne/storefront/internal/shop"
)

// Mailer sends one e-mail.
type Mailer interface {
	Send(ctx context.Context, m shop.Email) error
}

// Outbox keeps messages in the database and, when no sender delivers
// them, logs that it did.
type Outbox struct {
	Store shop.OutboxStore
	Log   *slog.Logger
	// Delivered says a Sender sends the table over SMTP.
	Delivered bool
}

// Send stores m in the outbox.
func (o *Outbox) Send(ctx context.Context, m shop.Email) error {
	if err := o.Store.AddToOutbox(ctx, m); err != nil {
		return fmt.Errorf("outbox: %w", err)
	}
	if o.Delivered {
		return nil
	}
	// Neither the body (its links sign in or reset a password) nor the
	// address goes to the log; a developer reads the message in the table.
	o.Log.Info("e-mail kept in the outbox table (no SMTP_URL): SELECT body FROM outbox ORDER BY id DESC LIMIT 1",
		"subject", m.Subject)
	return nil
}

// SMTP sends through an SMTP server described by a URL such as
// smtp://user:pass@host:587?from=shop@example.com (smtps:// for implicit TLS).
type SMTP struct {
	client *gomail.Client
	from   string
}

// NewSMTP parses rawURL and prepares a client; it does not connect yet.
func NewSMTP(rawURL string) (*SMTP, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Hostname() == "" {
		return nil, fmt.Errorf("SMTP_URL must look like smtp://user:pass@host:587?from=shop@example.com")
	}
	from := u.Query().Get("from")
	if from == "" {
		return nil, fmt.Errorf("SMTP_URL needs a from= address")
	}
	opts := []gomail.Option{}
	if p := u.Port(); p != "" {
		port, err := strconv.Atoi(p)
		if err != nil {
			return nil, fmt.Errorf("SMTP_URL port %q is not a number", p)
		}
		opts = append(opts, gomail.WithPort(port))
	}
	if u.Scheme == "smtps" {
		opts = append(opts, gomail.WithSSL())
	} else {
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	}
	if u.User != nil {
		pass, _ := u.User.Password()
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(u.User.Username()), gomail.WithPassword(pass))
	}
	c, err := gomail.NewClient(u.Hostname(), opts...)
	if err != nil {
		return nil, fmt.Errorf("smtp client: %w", err)
	}
	return &SMTP{client: c, from: from}, nil
}

// Send delivers m now; a Sender calls it for each mail of the outbox.
func (s *SMTP) Send(ctx context.Context, m shop.Email) error {
	msg := gomail.NewMsg()
	if err := msg.From(s.from); err != nil {
		return fmt.Errorf("smtp from: %w", err)
	}
	if err := msg.To(m.To); err != nil {
		return fmt.Errorf("smtp to: %w", err)
	}
	msg.Subject(m.Subject)
	msg.SetBodyString(gomail.TypeTextPlain, m.Body)
	if err := s.client.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("smtp send: %w", err)
	}
	return nil
}
