package backoffice

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/nocturne/storefront/internal/shop"
)

// Customers and the accountant's exports are admin-only areas (Allowed
// lets fulfilment staff into neither): a customer's page gathers
// everything the shop knows of a person, every order, what they spent,
// their messages and the staff's note, and an export is the whole shop's
// sales. Fulfilment staff work one order or message at a time, and see
// its e-mail and address there.

// Messages of the customer note and the export forms.
const (
	MsgCustomerNoteTooLong = "The note is too long (at most 5000 characters)."
	MsgFromRequired        = "Enter the first day."
	MsgToRequired          = "Enter the last day."
	MsgDateInvalid         = "Enter a date as YYYY-MM-DD."
	MsgRangeBackwards      = "The last day cannot be before the first."
)

// ParseCustomerNote reads a staff note as typed: line breaks as "\n",
// trimmed; empty deletes the note.
func ParseCustomerNote(text string) (string, shop.FieldErrors) {
	text = strings.TrimSpace(strings.ReplaceAll(text, "\r\n", "\n"))
	if utf8.RuneCountInString(text) > shop.MaxCustomerNote {
		return text, shop.FieldErrors{"note": MsgCustomerNoteTooLong}
	}
	return text, nil
}

// DateLayout is how an export's days are typed (and what a date field
// sends).
const DateLayout = "2006-01-02"

// ParseExportRange reads an export's first and last day, both included,
// as days of the shop's time zone loc: the range runs from the first
// day's midnight there to the midnight after the last day (a day of 23 or
// 25 hours when the clocks change is still one day).
func ParseExportRange(from, to string, loc *time.Location) (shop.ExportRange, shop.FieldErrors) {
	errs := shop.FieldErrors{}
	day := func(field, s, required string) time.Time {
		s = strings.TrimSpace(s)
		if s == "" {
			errs[field] = required
			return time.Time{}
		}
		t, err := time.ParseInLocation(DateLayout, s, loc)
		if err != nil {
			errs[field] = MsgDateInvalid
		}
		return t
	}
	first, last := day("from", from, MsgFromRequired), day("to", to, MsgToRequired)
	if len(errs) == 0 && last.Before(first) {
		errs["to"] = MsgRangeBackwards
	}
	if len(errs) > 0 {
		return shop.ExportRange{}, errs
	}
	return shop.ExportRange{From: first, To: time.Date(last.Year(), last.Month(), last.Day()+1, 0, 0, 0, 0, loc)}, nil
}
