package sqlite

import (
	"context"
	"errors"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/store/sqlstore"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

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

// Unavailable reports whether err says the database cannot serve now
// rather than that the request was wrong: the disk is full, the file is
// read-only, unreadable or locked past the busy timeout, the database is
// closed, its file was deleted or replaced under the shop, or the
// request's deadline passed while waiting for it. The error handler
// answers such a failure with 503 and Retry-After.
func Unavailable(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, shop.ErrUnavailable) || errors.Is(err, context.DeadlineExceeded) ||
		sqlstore.Closed(err) {
		return true
	}
	var e *sqlite.Error
	if !errors.As(err, &e) {
		return false
	}
	if e.Code() == sqlite3.SQLITE_CONSTRAINT_COMMITHOOK {
		return true // the file guard's refusal: the file is gone (guard.go)
	}
	switch e.Code() & 0xff { // the primary result code
	case sqlite3.SQLITE_FULL, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN,
		sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return true
	}
	return false
}
