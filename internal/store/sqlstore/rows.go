package sqlstore

import (
	"database/sql"
	"errors"
	"fmt"

	"github.com/nocturne/storefront/internal/shop"
)

// Collect reads every row of a query with scan and closes the rows; rows
// and err are what the query returned. A failure of the query, of a scan
// or of reading is mapped by the store's FormatError with what as context,
// so a database that cannot serve is shop.ErrUnavailable (a 503) whichever
// list was being read. No rows is a nil slice.
func Collect[T any](s *Store, rows *sql.Rows, err error, what string, scan func(*sql.Rows) (T, error)) ([]T, error) {
	if err != nil {
		return nil, s.FormatError(err, what, nil)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, s.FormatError(err, what, nil)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, s.FormatError(err, what, nil)
	}
	return out, nil
}

// rowError maps the error of a single-row read: no row is an ENOTFOUND
// with the message msg (formatted with args); anything else is wrapped
// with what as context.
func rowError(err error, what, msg string, args ...any) error {
	if errors.Is(err, sql.ErrNoRows) {
		return shop.Errorf(shop.ENOTFOUND, msg, args...)
	}
	return fmt.Errorf("%s: %w", what, err)
}
