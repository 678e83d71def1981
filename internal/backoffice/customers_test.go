package backoffice_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/shop"
)

// Customers and exports are for admins only.
func TestAllowed_CustomersAndExports(t *testing.T) {
	for _, area := range []string{backoffice.AreaCustomers, backoffice.AreaExports} {
		if !backoffice.Allowed(shop.RoleAdmin, area) || backoffice.Allowed(shop.RoleFulfilment, area) || backoffice.Allowed("", area) {
			t.Errorf("%s: admin %v, fulfilment %v, nobody %v", area, backoffice.Allowed(shop.RoleAdmin, area),
				backoffice.Allowed(shop.RoleFulfilment, area), backoffice.Allowed("", area))
		}
	}
}

func TestParseCustomerNote(t *testing.T) {
	tests := []struct {
		name, in, want string
		errs           shop.FieldErrors
	}{
		{"OK", "  Prefers a call.\r\nAfter 5 pm.  ", "Prefers a call.\nAfter 5 pm.", nil},
		{"OKEmptyDeletes", " \r\n ", "", nil},
		{"OKLongest", strings.Repeat("é", shop.MaxCustomerNote), strings.Repeat("é", shop.MaxCustomerNote), nil},
		{"ErrTooLong", strings.Repeat("a", shop.MaxCustomerNote+1), strings.Repeat("a", shop.MaxCustomerNote+1), shop.FieldErrors{"note": backoffice.MsgCustomerNoteTooLong}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, errs := backoffice.ParseCustomerNote(tc.in)
			if got != tc.want || !reflect.DeepEqual(errs, tc.errs) {
				t.Errorf("got %q %v, want %q %v", got, errs, tc.want, tc.errs)
			}
		})
	}
}

func TestParseExportRange(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, from, to string
		want           shop.ExportRange
		errs           shop.FieldErrors
	}{
		{"OKMonth", "2026-11-01", "2026-11-30",
			shop.ExportRange{From: time.Date(2026, 11, 1, 0, 0, 0, 0, ny), To: time.Date(2026, 12, 1, 0, 0, 0, 0, ny)}, nil},
		{"OKOneDay", " 2026-11-21 ", "2026-11-21",
			shop.ExportRange{From: time.Date(2026, 11, 21, 0, 0, 0, 0, ny), To: time.Date(2026, 11, 22, 0, 0, 0, 0, ny)}, nil},
		// The clocks go back on November 1st: that day is 25 hours long.
		{"OKClocksChange", "2026-11-01", "2026-11-01",
			shop.ExportRange{From: time.Date(2026, 11, 1, 4, 0, 0, 0, time.UTC), To: time.Date(2026, 11, 2, 5, 0, 0, 0, time.UTC)}, nil},
		{"ErrRequired", "", " ", shop.ExportRange{}, shop.FieldErrors{"from": backoffice.MsgFromRequired, "to": backoffice.MsgToRequired}},
		{"ErrDate", "2026-13-01", "30/11/2026", shop.ExportRange{}, shop.FieldErrors{"from": backoffice.MsgDateInvalid, "to": backoffice.MsgDateInvalid}},
		{"ErrBackwards", "2026-11-30", "2026-11-01", shop.ExportRange{}, shop.FieldErrors{"to": backoffice.MsgRangeBackwards}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, errs := backoffice.ParseExportRange(tc.from, tc.to, ny)
			if !got.From.Equal(tc.want.From) || !got.To.Equal(tc.want.To) || !reflect.DeepEqual(errs, tc.errs) {
				t.Errorf("got %v–%v %v, want %v–%v %v", got.From, got.To, errs, tc.want.From, tc.want.To, tc.errs)
			}
		})
	}
}
