package backoffice

import "github.com/nocturne/storefront/internal/shop"

// fieldCheck reads one field of a form In into the edit E and says what is
// wrong with it, or "". It sees the problems found so far, so a check can
// stay quiet about a field whose input already failed (a compare-at price
// is not held against a price that did not parse).
type fieldCheck[E, In any] struct {
	field string
	check func(e *E, in In, errs shop.FieldErrors) string
}

// checkFields runs checks in order. A field keeps its first problem, so a
// field with two checks shows the more basic one.
func checkFields[E, In any](e *E, in In, checks []fieldCheck[E, In]) shop.FieldErrors {
	errs := shop.FieldErrors{}
	for _, c := range checks {
		if msg := c.check(e, in, errs); msg != "" && errs[c.field] == "" {
			errs[c.field] = msg
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}
