// Package csvexport owns the CSV files the back office hands to
// spreadsheets and to the shop's accountant: how a file is written (UTF-8
// with a byte order mark, a header row, RFC 4180 quoting by
// encoding/csv, one row at a time), the rule that keeps a spreadsheet from
// taking a text cell for a formula, and the columns of the orders, order
// lines and customers exports.
package csvexport

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/nocturne/storefront/internal/money"
	"github.com/nocturne/storefront/internal/shop"
)

// BOM is the byte order mark a file starts with: without it Excel reads
// a CSV file in the computer's legacy code page, and "Zoë" arrives as
// "ZoÃ«".
const BOM = "\uFEFF"

// TimeLayout is how a time is written: a spreadsheet reads it as a date
// and time without being told the format.
const TimeLayout = "2006-01-02 15:04:05"

// Cell is one value of a row. Only this package makes cells, so every
// text that reaches a file has been through Text.
type Cell struct{ v string }

// Text is a cell of text that may come from anyone (a name, an e-mail
// address, a product's title). A spreadsheet takes a cell that starts
// with =, +, - or @ for a formula, and one that starts with a tab or a
// carriage return may be trimmed into one, so such a text gets a leading
// apostrophe, which spreadsheets read as "this is text" and hide; a
// formula such as =HYPERLINK(…) in a customer's name never runs on the
// accountant's computer. Everything else is written as it is.
func Text(s string) Cell {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return Cell{"'" + s}
	}
	return Cell{s}
}

// Money is an amount in the major units of the currency with ISO 4217
// code (the shop's when empty), as a plain number ("12.50", "-3.00"): a
// number the shop wrote, never text, so it is never prefixed and sums as
// a number.
func Money(c shop.Cents, code string) Cell { return Cell{money.Decimal(c, code)} }

// Int is a whole number.
func Int(n int) Cell { return Cell{strconv.Itoa(n)} }

// Time is a time in loc, as TimeLayout writes it; the zero time is an
// empty cell.
func Time(t time.Time, loc *time.Location) Cell {
	if t.IsZero() {
		return Cell{}
	}
	return Cell{t.In(loc).Format(TimeLayout)}
}

// Bool is "yes" or "no".
func Bool(b bool) Cell {
	if b {
		return Cell{"yes"}
	}
	return Cell{"no"}
}

// Writer writes a CSV file row by row; nothing is kept once written
// but encoding/csv's small buffer.
type Writer struct {
	csv *csv.Writer
	row []string
}

// NewWriter starts a file on w: the byte order mark, then header.
func NewWriter(w io.Writer, header ...string) (*Writer, error) {
	if _, err := io.WriteString(w, BOM); err != nil {
		return nil, fmt.Errorf("csv: %w", err)
	}
	cw := csv.NewWriter(w)
	// RFC 4180's line end, which every spreadsheet reads.
	cw.UseCRLF = true
	out := &Writer{csv: cw, row: make([]string, 0, len(header))}
	if err := cw.Write(header); err != nil {
		return nil, fmt.Errorf("csv header: %w", err)
	}
	return out, nil
}

// Write writes one row.
func (w *Writer) Write(cells ...Cell) error {
	w.row = w.row[:0]
	for _, c := range cells {
		w.row = append(w.row, c.v)
	}
	if err := w.csv.Write(w.row); err != nil {
		return fmt.Errorf("csv row: %w", err)
	}
	return nil
}

// Flush writes out what is buffered and reports any error of the file.
func (w *Writer) Flush() error {
	w.csv.Flush()
	if err := w.csv.Error(); err != nil {
		return fmt.Errorf("csv: %w", err)
	}
	return nil
}
