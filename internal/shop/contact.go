package shop

import (
	"context"
	"fmt"
	"net/mail"
	"regexp"
	"strings"
	"time"
)

// ContactMessage is what a shopper sends through the contact form.
type ContactMessage struct {
	ID        int64
	Name      string
	Email     string
	Subject   string
	Message   string
	CreatedAt time.Time
	// HandledAt is when staff marked it handled (zero: not yet), by whom.
	HandledAt time.Time
	HandledBy string
}

// Limits keep a single message from filling the database; they are generous
// enough that no real shopper meets them.
const (
	maxContactShort   = 200
	maxContactMessage = 5000
)

// emailPattern is deliberately simple (something@something.tld): the spec asks
// for a "simple pattern", and stricter checks reject real addresses.
var emailPattern = regexp.MustCompile(`^[^\s@]+@[^\s@]+\.[^\s@]+$`)

// ValidEmail reports whether s is an e-mail address the shop can write to:
// the spec's simple pattern, and a bare address that net/mail parses as
// itself. The mailer parses recipients with net/mail too, so an address
// accepted here is never one a reply later fails on.
func ValidEmail(s string) bool {
	if !emailPattern.MatchString(s) {
		return false
	}
	a, err := mail.ParseAddress(s)
	return err == nil && a.Name == "" && a.Address == s
}

// Normalize trims the surrounding white space that browsers and pasted text
// leave behind, so validation and storage see what the shopper meant.
func (m *ContactMessage) Normalize() {
	m.Name = strings.TrimSpace(m.Name)
	m.Email = strings.TrimSpace(m.Email)
	m.Subject = strings.TrimSpace(m.Subject)
	// Browsers send textarea line breaks as CRLF; store plain newlines.
	m.Message = strings.TrimSpace(strings.ReplaceAll(m.Message, "\r\n", "\n"))
}

// Validate returns one message per field that is missing or malformed, or nil.
func (m *ContactMessage) Validate() FieldErrors {
	errs := FieldErrors{}
	required := []struct{ field, label, value string }{
		{"name", "Name", m.Name},
		{"email", "Email", m.Email},
		{"subject", "Subject", m.Subject},
		{"message", "Message", m.Message},
	}
	for _, r := range required {
		if r.value == "" {
			errs[r.field] = r.label + " is required."
		}
	}
	if _, ok := errs["email"]; !ok && !ValidEmail(m.Email) {
		errs["email"] = "Please enter a valid email address"
	}
	for _, r := range required[:3] {
		if len(r.value) > maxContactShort {
			errs[r.field] = r.label + " is too long (at most 200 characters)."
		}
	}
	if len(m.Message) > maxContactMessage {
		errs["message"] = "Message is too long (at most 5000 characters)."
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// ContactStore keeps contact messages for the support team.
type ContactStore interface {
	CreateContactMessage(ctx context.Context, m *ContactMessage) error
}

// MsgContactThrottled refuses a message over LimitContactAddress; %s is
// when to try again ("5 minutes").
const MsgContactThrottled = "Too many messages. Please try again in %s. Your message has not been sent; it is kept below."

// MailSender sends one e-mail (package mail's Mailer).
type MailSender interface {
	Send(ctx context.Context, m Email) error
}

// ContactDesk takes contact messages: valid ones are stored, at most
// LimitContactAddress.Max per client address per window, and staff are
// told of each at StaffEmail.
type ContactDesk struct {
	Store    ContactStore
	Throttle *Throttle // nil: no limit
	// Mailer and StaffEmail mail staff each message; either unset: none.
	Mailer     MailSender
	StaffEmail string
}

// Send normalises and validates m and stores it. Field errors come back
// as FieldErrors; a message over the limit as a *ThrottledError.
func (d *ContactDesk) Send(ctx context.Context, m *ContactMessage, addr string) (FieldErrors, error) {
	m.Normalize()
	if errs := m.Validate(); errs != nil {
		return errs, nil
	}
	if d.Throttle != nil {
		if err := d.Throttle.Allow(ctx, LimitContactAddress, addr); err != nil {
			return nil, err
		}
	}
	if err := d.Store.CreateContactMessage(ctx, m); err != nil {
		return nil, fmt.Errorf("contact message: %w", err)
	}
	if d.Mailer != nil && d.StaffEmail != "" {
		// The message is stored and shown in the back office: a staff
		// mail that cannot be kept is not the visitor's failure.
		_ = d.Mailer.Send(context.WithoutCancel(ctx), Email{To: d.StaffEmail, Subject: "Contact message: " + m.Subject,
			Body: fmt.Sprintf("%s <%s> wrote:\n\n%s\n", m.Name, m.Email, m.Message)})
	}
	return nil, nil
}
