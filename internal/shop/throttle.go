package shop

import (
	"context"
	"fmt"
	"time"
)

// Limit is one throttle: at most Max hits per Window for each subject (an
// address, an account, an account at an address).
type Limit struct {
	Name   string
	Max    int
	Window time.Duration
}

// The shop's throttles. Sign-in failures are counted per address and per
// account at one address, so nobody can lock an owner out by guessing from
// elsewhere; an account guessed at from many addresses is throttled as a
// whole, and its owner gets in with a one-time link by e-mail.
var (
	LimitSignInAddress        = Limit{Name: "signin-ip", Max: 30, Window: 15 * time.Minute}
	LimitSignInAccountAddress = Limit{Name: "signin-acct-ip", Max: 5, Window: 15 * time.Minute}
	LimitSignInAccount        = Limit{Name: "signin-acct", Max: 50, Window: time.Hour}
	LimitSignInLinkAddress    = Limit{Name: "link-ip", Max: 5, Window: 15 * time.Minute}
	LimitSignInLinkAccount    = Limit{Name: "link-acct", Max: 3, Window: time.Hour}
	LimitResetAddress         = Limit{Name: "reset-ip", Max: 5, Window: 15 * time.Minute}
	LimitResetAccount         = Limit{Name: "reset-acct", Max: 3, Window: time.Hour}
	LimitConfirmAddress       = Limit{Name: "confirm-ip", Max: 5, Window: 15 * time.Minute}
	LimitConfirmAccount       = Limit{Name: "confirm-acct", Max: 3, Window: time.Hour}
	LimitContactAddress       = Limit{Name: "contact-ip", Max: 5, Window: 10 * time.Minute}
)

// ThrottleStore keeps the throttles' counters where every instance sees
// them.
type ThrottleStore interface {
	// Hit counts one hit on key in a window of the given length starting at
	// the first hit, and returns the count and when the window ends.
	Hit(ctx context.Context, key string, window time.Duration) (hits int, resets time.Time, err error)
	// Hits returns key's count in its current window (0 when it ended).
	Hits(ctx context.Context, key string) (hits int, resets time.Time, err error)
	// ClearHits forgets key's count.
	ClearHits(ctx context.Context, key string) error
}

// Throttle applies Limits through a ThrottleStore.
type Throttle struct {
	Store ThrottleStore
	Now   func() time.Time
}

// ThrottledError says a limit was reached and when to try again.
type ThrottledError struct {
	Limit      Limit
	RetryAfter time.Duration
}

func (e *ThrottledError) Error() string {
	return fmt.Sprintf("throttled by %s; retry in %s", e.Limit.Name, e.RetryAfter)
}

func key(l Limit, subject string) string { return l.Name + ":" + subject }

func (t *Throttle) refused(l Limit, resets time.Time) *ThrottledError {
	return &ThrottledError{Limit: l, RetryAfter: max(resets.Sub(t.Now()), time.Second)}
}

// Allow counts an attempt against l and refuses it once the limit is
// passed (used where every attempt counts: contact messages, e-mails).
func (t *Throttle) Allow(ctx context.Context, l Limit, subject string) error {
	n, resets, err := t.Store.Hit(ctx, key(l, subject), l.Window)
	if err != nil {
		return fmt.Errorf("throttle %s: %w", l.Name, err)
	}
	if n > l.Max {
		return t.refused(l, resets)
	}
	return nil
}

// Check refuses when l's limit for subject is reached, without counting
// (used before checking a password: only failures count).
func (t *Throttle) Check(ctx context.Context, l Limit, subject string) error {
	n, resets, err := t.Store.Hits(ctx, key(l, subject))
	if err != nil {
		return fmt.Errorf("throttle %s: %w", l.Name, err)
	}
	if n >= l.Max {
		return t.refused(l, resets)
	}
	return nil
}

// Fail counts a failure against l.
func (t *Throttle) Fail(ctx context.Context, l Limit, subject string) error {
	if _, _, err := t.Store.Hit(ctx, key(l, subject), l.Window); err != nil {
		return fmt.Errorf("throttle %s: %w", l.Name, err)
	}
	return nil
}

// Clear forgets l's count for subject (after a successful sign-in).
func (t *Throttle) Clear(ctx context.Context, l Limit, subject string) error {
	return t.Store.ClearHits(ctx, key(l, subject))
}

// RetryIn says how long to wait in words: "1 minute", "12 minutes", "2 hours".
func RetryIn(d time.Duration) string {
	m := int((d + time.Minute - 1) / time.Minute)
	switch {
	case m <= 1:
		return "1 minute"
	case m < 120:
		return fmt.Sprintf("%d minutes", m)
	}
	return fmt.Sprintf("%d hours", (m+59)/60)
}
