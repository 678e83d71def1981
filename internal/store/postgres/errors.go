package postgres

import (
	"context"
	"errors"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/puddle/v2"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/store/sqlstore"
)

// PostgreSQL error codes (Appendix A of its manual).
const (
	codeUniqueViolation      = "23505"
	codeForeignKeyViolation  = "23503"
	codeCheckViolation       = "23514"
	codeNotNullViolation     = "23502"
	codeSerializationFailure = "40001"
	codeDeadlock             = "40P01"
	codeReadOnlyTransaction  = "25006"
	codeDiskFull             = "53100"
	codeOutOfMemory          = "53200"
	codeTooManyConnections   = "53300"
	codeAdminShutdown        = "57P01"
	codeCrashShutdown        = "57P02"
	codeCannotConnectNow     = "57P03"
	// Class 08 is every connection exception.
	classConnection = "08"
)

// Unavailable reports whether err says the database cannot serve now
// rather than that the request was wrong: it cannot be reached (refused,
// dropped, shutting down, out of connections), it refuses writes (a
// read-only transaction: a replica, default_transaction_read_only), its
// disk is full, the pool is closed, or the request's deadline passed while
// waiting for it. The error handler answers such a failure with 503 and
// Retry-After.
func Unavailable(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, shop.ErrUnavailable) || errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, puddle.ErrClosedPool) || sqlstore.Closed(err) || pgconn.Timeout(err) {
		return true
	}
	var ce *pgconn.ConnectError
	var ne *net.OpError
	if errors.As(err, &ce) || errors.As(err, &ne) {
		return true
	}
	switch code := sqlState(err); code {
	case codeReadOnlyTransaction, codeDiskFull, codeOutOfMemory, codeTooManyConnections,
		codeAdminShutdown, codeCrashShutdown, codeCannotConnectNow:
		return true
	default:
		return strings.HasPrefix(code, classConnection)
	}
}

// errorCode is the shop error code of a driver error ("" for none).
func errorCode(err error) string {
	switch sqlState(err) {
	case codeUniqueViolation:
		return shop.ECONFLICT
	case codeForeignKeyViolation:
		return shop.ENOTFOUND
	case codeCheckViolation, codeNotNullViolation:
		return shop.EINVALID
	}
	return ""
}

func sqlState(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// retryable reports a serialization failure or deadlock, which PostgreSQL
// advises to retry.
func retryable(err error) bool {
	code := sqlState(err)
	return code == codeSerializationFailure || code == codeDeadlock
}
