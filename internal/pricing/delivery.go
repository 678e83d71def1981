package pricing

import (
	"fmt"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// Delivery is the first and last day (midnight in loc, the shop's time
// zone) an order placed at now by method m arrives. The order leaves the
// same day when now is a business day before m's cut-off hour, otherwise the
// next business day; it arrives m.MinDays to m.MaxDays business days after
// it leaves. Business days are Monday to Friday; holidays are not known.
// A nil loc is UTC.
func Delivery(m shop.ShippingMethod, now time.Time, loc *time.Location) (from, to time.Time) {
	if loc == nil {
		loc = time.UTC
	}
	t := now.In(loc)
	leaves := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, loc)
	if !businessDay(leaves) || m.CutoffHour < 0 || t.Hour() >= m.CutoffHour {
		leaves = addBusinessDays(leaves, 1)
	}
	return addBusinessDays(leaves, max(m.MinDays, 0)), addBusinessDays(leaves, max(m.MaxDays, m.MinDays, 0))
}

// Estimate is how long m takes as the checkout and help pages state it:
// "3–5 business days", "1 business day".
func Estimate(m shop.ShippingMethod) string {
	lo, hi := max(m.MinDays, 0), max(m.MaxDays, m.MinDays, 0)
	switch {
	case lo == hi && hi == 1:
		return "1 business day"
	case lo == hi:
		return fmt.Sprintf("%d business days", hi)
	}
	return fmt.Sprintf("%d–%d business days", lo, hi)
}

func businessDay(d time.Time) bool {
	return d.Weekday() != time.Saturday && d.Weekday() != time.Sunday
}

// addBusinessDays moves a day (midnight) n business days on. Days are added
// by the calendar, not by 24 hours, so a change of daylight saving time
// keeps the result at midnight.
func addBusinessDays(d time.Time, n int) time.Time {
	for n > 0 {
		d = time.Date(d.Year(), d.Month(), d.Day()+1, 0, 0, 0, 0, d.Location())
		if businessDay(d) {
			n--
		}
	}
	return d
}
