package shop

import (
	"context"
	"time"
)

// MailState is where a kept e-mail is on its way to the mail server.
type MailState string

// The states of a kept e-mail: waiting for (another) attempt, accepted by
// the mail server, or given up on after a day of refusals.
const (
	MailWaiting MailState = "waiting"
	MailSent    MailState = "sent"
	MailFailed  MailState = "failed"
)

// QueuedMail is one row of the outbox with its delivery record.
type QueuedMail struct {
	ID int64
	Email
	State         MailState
	Attempts      int
	NextAttemptAt time.Time
	LastError     string
	CreatedAt     time.Time
	SentAt        time.Time // zero until sent
}

// MailQueueStore is the outbox as a queue that a sender drains over SMTP.
type MailQueueStore interface {
	// ClaimMail takes the oldest waiting mail due at now, moving its next
	// attempt to leaseUntil and counting the attempt in one conditional
	// update, so two senders never hold the same mail; nil when none is due.
	ClaimMail(ctx context.Context, now, leaseUntil time.Time) (*QueuedMail, error)
	// MailSent records that the mail server accepted the mail.
	MailSent(ctx context.Context, id int64, at time.Time) error
	// RescheduleMail records a failed attempt: the mail waits until next,
	// or, with state MailFailed, is given up on.
	RescheduleMail(ctx context.Context, id int64, state MailState, next time.Time, lastErr string) error
	// UndeliveredMail lists the waiting and failed mails, oldest first.
	UndeliveredMail(ctx context.Context) ([]QueuedMail, error)
	// RetryMail makes a waiting or failed mail due now (the store's
	// clock); false when no such mail is undelivered.
	RetryMail(ctx context.Context, id int64) (bool, error)
}
