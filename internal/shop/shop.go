// Package shop holds Nocturne's domain: the types every other package talks
// about, their validation rules, the store interfaces the backends implement
// and the one error type handlers map to HTTP statuses. It imports only the
// standard library and the ISO 4217 and CLDR currency data it formats money
// with (github.com/bojanz/currency, which does no I/O), so that stores,
// services and views can all depend on it.
package shop

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Error codes name the kind of failure so the HTTP layer can choose a status
// without knowing which package failed.
const (
	ECONFLICT = "conflict"
	EINTERNAL = "internal"
	EINVALID  = "invalid"
	ENOTFOUND = "not_found"
	// EUNAVAILABLE: the database cannot be reached or refuses writes (down,
	// full, read-only); the shopper is asked to try again shortly.
	EUNAVAILABLE = "unavailable"
)

// ErrUnavailable is in the chain of an error that says the database cannot
// be reached or cannot write now. The stores wrap such driver errors with it
// (their FormatError), keeping the cause for the log.
var ErrUnavailable = errors.New("database unavailable")

// MsgUnavailable is what a shopper is told while the database is
// unavailable.
const MsgUnavailable = "The shop cannot reach its database just now. Nothing was changed; please try again in a minute."

// Error is a failure the shopper may be told about: Message is safe to show.
type Error struct {
	Code    string
	Message string
	// Field, when set, names the form field the message belongs next to.
	Field string
}

// WithField returns e with its message placed next to the form field name.
func (e *Error) WithField(name string) *Error {
	e.Field = name
	return e
}

// Error implements the error interface.
func (e *Error) Error() string {
	return fmt.Sprintf("shop error: code=%s message=%s", e.Code, e.Message)
}

// Errorf returns an *Error with a formatted, user-facing message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of an *Error in err's chain, or EINTERNAL for
// anything else, so unknown failures are never shown to shoppers.
func ErrorCode(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Code
	} else if errors.Is(err, ErrUnavailable) {
		return EUNAVAILABLE
	}
	return EINTERNAL
}

// ErrorMessage returns the user-facing message of an *Error in err's chain, or
// a generic text for internal failures.
func ErrorMessage(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Message
	} else if errors.Is(err, ErrUnavailable) {
		return MsgUnavailable
	}
	return "Something went wrong on our side. Please try again."
}

// ErrorField returns the form field an *Error in err's chain belongs to, or
// "" when it belongs to the whole form.
func ErrorField(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Field
	}
	return ""
}

// FieldErrors maps a form field name to the message shown next to it.
type FieldErrors map[string]string

// Pinger reports whether a backend can serve requests; /healthz uses it
// through package health.
type Pinger interface {
	// Ping checks that the backend answers a read.
	Ping(ctx context.Context) error
	// Heartbeat commits a write of at to the backend's one-row heartbeat
	// table, so a full disk or a read-only database fails it as it would
	// fail a shopper's write. Only the health monitor calls it, never a
	// request.
	Heartbeat(ctx context.Context, at time.Time) error
}
