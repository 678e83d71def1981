package shop

import (
	"context"
	"net/url"
	"strings"
	"unicode/utf8"
)

// Carrier is a company a parcel ships with and the address of its
// tracking page. An order keeps the carrier's name, so a name never
// changes; its template may, and every order's link follows it.
type Carrier struct {
	ID   string
	Name string
	// URLTemplate is the tracking page's address with TrackingPlaceholder
	// where the tracking number goes.
	URLTemplate string
	Position    int
}

// TrackingPlaceholder marks where a carrier's template takes the number.
const TrackingPlaceholder = "{tracking}"

// Messages of the carrier form.
const (
	MsgCarrierName     = "Enter the carrier's name (at most 40 characters)."
	MsgCarrierTemplate = "Enter the tracking page's address: an https:// address with {tracking} where the number goes."
	// MsgCarrierExists: %s is the name.
	MsgCarrierExists   = "A carrier named %s exists already."
	MsgCarrierNotFound = "Carrier not found."
)

// Validate trims the name and template and checks them: a name, and an
// https address with a host that holds the placeholder and still is one
// once a number is put in. Shoppers follow the link, so nothing else
// (http, javascript:, a relative path) is let through.
func (c *Carrier) Validate() FieldErrors {
	c.Name, c.URLTemplate = strings.TrimSpace(c.Name), strings.TrimSpace(c.URLTemplate)
	errs := FieldErrors{}
	if c.Name == "" || utf8.RuneCountInString(c.Name) > 40 {
		errs["name"] = MsgCarrierName
	}
	if !validTemplate(c.URLTemplate) {
		errs["url_template"] = MsgCarrierTemplate
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

func validTemplate(t string) bool {
	if len(t) > 500 || !strings.HasPrefix(t, "https://") || !strings.Contains(t, TrackingPlaceholder) || strings.ContainsAny(t, " \t\r\n\"<>\\") {
		return false
	}
	u, err := url.Parse(strings.ReplaceAll(t, TrackingPlaceholder, "1Z999"))
	return err == nil && u.Scheme == "https" && u.Host != "" && u.User == nil
}

// TrackingURL is the carrier's page for tracking, "" without a template.
// The number is percent-encoded whole (a space as %20, never +), so it
// stays one value whether the template puts it in the path, the query or
// the fragment.
func (c Carrier) TrackingURL(tracking string) string {
	if c.URLTemplate == "" || tracking == "" {
		return ""
	}
	return strings.ReplaceAll(c.URLTemplate, TrackingPlaceholder, strings.ReplaceAll(url.QueryEscape(tracking), "+", "%20"))
}

// CarrierNamed finds the carrier an order names among carriers.
func CarrierNamed(carriers []Carrier, name string) (Carrier, bool) {
	for _, c := range carriers {
		if c.Name == name {
			return c, true
		}
	}
	return Carrier{}, false
}

// CarrierStore keeps the carriers the ship form offers.
type CarrierStore interface {
	// Carriers lists every carrier, in the ship form's order.
	Carriers(ctx context.Context) ([]Carrier, error)
	// AddCarrier adds a carrier after the others and returns it with its
	// id; a name taken already is an ECONFLICT with MsgCarrierExists.
	AddCarrier(ctx context.Context, c Carrier) (Carrier, error)
	// SetCarrierTemplate changes a carrier's tracking page; an unknown id
	// is an ENOTFOUND.
	SetCarrierTemplate(ctx context.Context, id, template string) error
}
