package sqlite

import (
	"errors"
	"fmt"

	"github.com/nocturne/storefront/internal/shop"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Messages maps shop error codes to what the shopper is told when a
// statement breaks a constraint of that code; FormatError reads it.
type Messages map[string]string

// FormatError is the one place that turns the driver's errors into shop
// errors, by SQLite's extended result code, never by message text: a
// UNIQUE or PRIMARY KEY violation is an ECONFLICT, a FOREIGN KEY violation
// an ENOTFOUND (the row referred to is gone), a CHECK or NOT NULL violation
// an EINVALID. msgs gives the shopper-facing message of each code the
// caller expects; a violation it does not expect, or any other failure, is
// wrapped with what as an internal error. A nil err stays nil.
func FormatError(err error, what string, msgs Messages) error {
	if err == nil {
		return nil
	}
	if msg, ok := msgs[errorCode(err)]; ok {
		return shop.Errorf(errorCode(err), "%s", msg)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// errorCode is the shop error code of a driver error ("" for none).
func errorCode(err error) string {
	var e *sqlite.Error
	if !errors.As(err, &e) {
		return ""
	}
	switch e.Code() {
	case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
		return shop.ECONFLICT
	case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
		return shop.ENOTFOUND
	case sqlite3.SQLITE_CONSTRAINT_CHECK, sqlite3.SQLITE_CONSTRAINT_NOTNULL:
		return shop.EINVALID
	}
	return ""
}
