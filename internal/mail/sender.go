package mail

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// The retry schedule of a mail the server refused or could not be reached
// for: the first retry after FirstRetry, each wait twice the one before up
// to MaxRetryWait, and no more attempts once the mail is GiveUpAfter old.
// A day covers a mail server's maintenance or a provider's outage; after
// that staff see the mail as failed and may retry it by hand.
const (
	FirstRetry   = 30 * time.Second
	MaxRetryWait = time.Hour
	GiveUpAfter  = 24 * time.Hour
	// Lease is how long a claimed mail is left to its sender: longer than
	// one SMTP conversation with its timeouts, so a live sender is never
	// raced, and short enough that a crashed sender's mail goes out soon.
	Lease = 5 * time.Minute
)

// RetryWait is the wait after the attempts-th failed attempt (1 for the
// first).
func RetryWait(attempts int) time.Duration {
	wait := FirstRetry
	for i := 1; i < attempts && wait < MaxRetryWait; i++ {
		wait *= 2
	}
	return min(wait, MaxRetryWait)
}

// Queue is what the sender needs of the outbox.
type Queue interface {
	ClaimMail(ctx context.Context, now, leaseUntil time.Time) (*shop.QueuedMail, error)
	MailSent(ctx context.Context, id int64, at time.Time) error
	RescheduleMail(ctx context.Context, id int64, state shop.MailState, next time.Time, lastErr string) error
}

// Sender delivers the outbox through Via (the SMTP server). Delivery is at
// least once: a mail stays claimed, not sent, until Via accepted it and the
// store recorded that; a sender stopped in between leaves it to be claimed
// again when its lease ends, and it may then arrive twice.
type Sender struct {
	Queue Queue
	Via   Mailer
	Now   func() time.Time
	Log   *slog.Logger
}

// Drain sends every mail due now, one claim at a time, and reports how
// many the server accepted. A mail the server refuses waits for its next
// attempt; only a failing store stops the drain.
func (s *Sender) Drain(ctx context.Context) (int, error) {
	sent := 0
	for ctx.Err() == nil {
		now := s.Now()
		m, err := s.Queue.ClaimMail(ctx, now, now.Add(Lease))
		if err != nil {
			return sent, fmt.Errorf("claim mail: %w", err)
		}
		if m == nil {
			return sent, nil
		}
		ok, err := s.deliver(ctx, m)
		if err != nil {
			return sent, err
		}
		if ok {
			sent++
		}
	}
	return sent, nil
}

// deliver makes one attempt at m and records its outcome.
func (s *Sender) deliver(ctx context.Context, m *shop.QueuedMail) (bool, error) {
	sendErr := s.Via.Send(ctx, m.Email)
	now := s.Now()
	if sendErr == nil {
		// The server has it: record that even if the shop is stopping.
		if err := s.Queue.MailSent(context.WithoutCancel(ctx), m.ID, now); err != nil {
			return false, fmt.Errorf("mark mail %d sent: %w", m.ID, err)
		}
		return true, nil
	}
	if errors.Is(sendErr, context.Canceled) {
		return false, sendErr // stopping: the lease hands the mail on
	}
	state, next := shop.MailWaiting, now.Add(RetryWait(m.Attempts))
	if now.Sub(m.CreatedAt) >= GiveUpAfter {
		state = shop.MailFailed
	}
	// The body never goes to the log (it may hold a sign-in link); the
	// back office shows the mail to admins.
	s.Log.Warn("mail not delivered", "mail", m.ID, "attempt", m.Attempts, "state", state, "err", sendErr)
	if err := s.Queue.RescheduleMail(ctx, m.ID, state, next, sendErr.Error()); err != nil {
		return false, fmt.Errorf("reschedule mail %d: %w", m.ID, err)
	}
	return false, nil
}
