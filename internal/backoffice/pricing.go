package backoffice

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/nocturne/storefront/internal/money"
	"github.com/nocturne/storefront/internal/pricing"
	"github.com/nocturne/storefront/internal/shop"
)

// Bounds of the pricing forms.
const (
	MaxDays     = 60 // business days a method may take
	MaxPosition = 9999
	MaxUsageCap = 1_000_000
	maxName     = 60
	maxStates   = 100
	maxState    = 40
)

// Messages of the pricing forms, each shown next to its field.
const (
	MsgNameRequired     = "Enter a name."
	MsgNameTooLong      = "Keep the name to 60 characters or fewer."
	MsgCountriesChoose  = "Choose at least one country."
	MsgCountryUnknown   = "Choose a country from the list."
	MsgStatesInvalid    = "List states separated by commas, each once and at most 40 characters, such as CA, NY."
	MsgPosition         = "Enter a whole number from 0 to 9999."
	MsgDays             = "Enter a whole number of business days from 0 to 60."
	MsgDaysOrder        = "The most days can't be fewer than the fewest."
	MsgCutoff           = "Choose an hour, or none."
	MsgZonesChoose      = "Choose at least one zone."
	MsgZoneGone         = "One of the zones chosen no longer exists: choose again."
	MsgFreeFromEmpty    = " Or leave it empty for never free."
	MsgStateInvalid     = "Enter one state of at most 40 characters, such as CA, or leave it empty."
	MsgStateNeedsPlace  = "A state needs its country: choose the country too."
	MsgPromoCode        = "Use 3 to 32 letters, digits, dashes (-) and underscores (_)."
	MsgPromoKind        = "Choose what the code gives."
	MsgPromoPercentZero = "Enter a percentage above 0, such as 10."
	MsgPromoWhen        = "Enter a date and time, such as 2026-11-27 09:00."
	MsgPromoEndsFirst   = "The end must be after the start."
	MsgUsageCap         = "Enter a whole number of uses from 1 to 1000000, or leave it empty for no limit."
	MsgOptionalAmount   = " Or leave it empty."
)

// NoCutoff is how the cut-off select names a method without a cut-off.
const NoCutoff = "none"

// DateTimeLocal is the layout of an <input type="datetime-local"> value.
const DateTimeLocal = "2006-01-02T15:04"

// ZoneInput is the shipping zone form as typed.
type ZoneInput struct {
	Name      string
	Countries []string // the boxes ticked
	States    string   // comma-separated
	Position  string
}

// ParseZone checks the zone form against the countries the checkout
// offers. Countries keep the list's order and states the order typed.
func ParseZone(in ZoneInput, countries []string) (shop.ShippingZone, shop.FieldErrors) {
	errs := shop.FieldErrors{}
	z := shop.ShippingZone{Name: parseName(in.Name, errs)}
	for _, c := range countries {
		if slices.Contains(in.Countries, c) {
			z.Countries = append(z.Countries, c)
		}
	}
	switch {
	case len(in.Countries) == 0:
		errs["countries"] = MsgCountriesChoose
	case len(z.Countries) != len(in.Countries):
		errs["countries"] = MsgCountryUnknown
	}
	var ok bool
	if z.States, ok = SplitStates(in.States); !ok {
		errs["states"] = MsgStatesInvalid
	}
	z.Position = parseNumber(in.Position, 0, MaxPosition, "position", MsgPosition, errs)
	return z, orNil(errs)
}

// SplitStates reads a comma-separated list of states, trimmed, empty
// items dropped; ok is false for a state named twice (in any case) or too
// long, or too many of them.
func SplitStates(s string) (states []string, ok bool) {
	for _, st := range strings.Split(s, ",") {
		st = strings.TrimSpace(st)
		if st == "" {
			continue
		}
		if utf8.RuneCountInString(st) > maxState || slices.ContainsFunc(states, func(x string) bool { return strings.EqualFold(x, st) }) {
			return states, false
		}
		states = append(states, st)
	}
	return states, len(states) <= maxStates
}

// MethodInput is the shipping method form as typed.
type MethodInput struct {
	Name, Price, FreeFrom, MinDays, MaxDays string
	Cutoff                                  string // NoCutoff or an hour, "0" to "23"
	Position                                string
	Zones                                   []string // the zone ids ticked
	Enabled                                 bool
}

// ParseMethod checks the method form; zoneIDs are the zones that exist.
func ParseMethod(in MethodInput, zoneIDs []string) (shop.ShippingMethod, shop.FieldErrors) {
	errs := shop.FieldErrors{}
	m := shop.ShippingMethod{Name: parseName(in.Name, errs), Enabled: in.Enabled}
	var err error
	if m.Price, err = money.Parse(in.Price); err != nil {
		errs["price"] = shop.ErrorMessage(err)
	}
	if strings.TrimSpace(in.FreeFrom) != "" {
		if m.FreeFrom, err = money.Parse(in.FreeFrom); err != nil {
			errs["free_from"] = shop.ErrorMessage(err) + MsgFreeFromEmpty
		}
	}
	m.MinDays = parseNumber(in.MinDays, 0, MaxDays, "min_days", MsgDays, errs)
	m.MaxDays = parseNumber(in.MaxDays, 0, MaxDays, "max_days", MsgDays, errs)
	if errs["min_days"] == "" && errs["max_days"] == "" && m.MaxDays < m.MinDays {
		errs["max_days"] = MsgDaysOrder
	}
	m.CutoffHour = -1
	if in.Cutoff != NoCutoff {
		m.CutoffHour = parseNumber(in.Cutoff, 0, 23, "cutoff", MsgCutoff, errs)
	}
	for _, id := range zoneIDs {
		if slices.Contains(in.Zones, id) {
			m.ZoneIDs = append(m.ZoneIDs, id)
		}
	}
	switch {
	case len(in.Zones) == 0:
		errs["zones"] = MsgZonesChoose
	case len(m.ZoneIDs) != len(in.Zones):
		errs["zones"] = MsgZoneGone
	}
	m.Position = parseNumber(in.Position, 0, MaxPosition, "position", MsgPosition, errs)
	return m, orNil(errs)
}

// CutoffText is a cut-off hour as staff read it: "14:00", or "none".
func CutoffText(hour int) string {
	if hour < 0 {
		return NoCutoff
	}
	return fmt.Sprintf("%02d:00", hour)
}

// TaxRateInput is the tax rate form as typed.
type TaxRateInput struct {
	Name, Country, State, Rate string
}

// ParseTaxRate checks the tax rate form; Country "" is everywhere no other
// rate applies.
func ParseTaxRate(in TaxRateInput, countries []string) (shop.TaxRate, shop.FieldErrors) {
	errs := shop.FieldErrors{}
	r := shop.TaxRate{Name: parseName(in.Name, errs), Country: in.Country, State: strings.TrimSpace(in.State)}
	if r.Country != "" && !slices.Contains(countries, r.Country) {
		errs["country"] = MsgCountryUnknown
	}
	switch {
	case utf8.RuneCountInString(r.State) > maxState || strings.Contains(r.State, ","):
		errs["state"] = MsgStateInvalid
	case r.State != "" && r.Country == "":
		errs["state"] = MsgStateNeedsPlace
	case shop.StateProblem(r.Country, r.State) != "":
		errs["state"] = shop.StateProblem(r.Country, r.State)
	default:
		// Kept as its code, as addresses are, so "California" is CA here too.
		r.State, _ = shop.StateCode(r.Country, r.State)
	}
	var err error
	if r.PPM, err = pricing.ParseTaxRate(in.Rate); err != nil {
		errs["rate"] = shop.ErrorMessage(err)
	}
	r.Rate = shop.BasisPoints(r.PPM)
	return r, orNil(errs)
}

// PromoInput is the new promo code form as typed.
type PromoInput struct {
	Code, Kind, Value, MinSubtotal string
	// StartsAt and EndsAt are datetime-local values, in the shop's time
	// zone; empty: from now, and never ending.
	StartsAt, EndsAt string
	UsageCap         string // empty: no limit
	OncePerCustomer  bool
	// FreeMethods are the shipping method ids ticked for a free-shipping
	// code, of MethodIDs, the methods that exist.
	FreeMethods, MethodIDs []string
}

var promoCode = regexp.MustCompile(`^[A-Za-z0-9_-]{3,32}$`)

// ParsePromo checks the new code form, reading its times in loc, the
// shop's time zone (what staff mean by "midnight").
func ParsePromo(in PromoInput, loc *time.Location) (shop.PromoCode, shop.FieldErrors) {
	errs := shop.FieldErrors{}
	c := shop.PromoCode{Code: strings.TrimSpace(in.Code), Kind: in.Kind, OncePerCustomer: in.OncePerCustomer}
	if !promoCode.MatchString(c.Code) {
		errs["code"] = MsgPromoCode
	}
	switch c.Kind {
	case shop.PromoPercent:
		bp, err := pricing.ParseRate(in.Value)
		switch {
		case err != nil:
			errs["value"] = shop.ErrorMessage(err)
		case bp == 0:
			errs["value"] = MsgPromoPercentZero
		}
		c.Value = int64(bp)
	case shop.PromoFixed:
		cents, err := money.Parse(in.Value)
		if err != nil {
			errs["value"] = shop.ErrorMessage(err)
		}
		c.Value = int64(cents)
	case shop.PromoFreeShipping:
		// Nothing to take off but the shipping.
	default:
		errs["kind"] = MsgPromoKind
	}
	if strings.TrimSpace(in.MinSubtotal) != "" {
		var err error
		if c.MinSubtotal, err = money.Parse(in.MinSubtotal); err != nil {
			errs["min_subtotal"] = shop.ErrorMessage(err) + MsgOptionalAmount
		}
	}
	c.StartsAt = parseWhen(in.StartsAt, loc, "starts_at", errs)
	c.EndsAt = parseWhen(in.EndsAt, loc, "ends_at", errs)
	if !c.StartsAt.IsZero() && !c.EndsAt.IsZero() && !c.EndsAt.After(c.StartsAt) && errs["ends_at"] == "" {
		errs["ends_at"] = MsgPromoEndsFirst
	}
	if strings.TrimSpace(in.UsageCap) != "" {
		c.UsageCap = parseNumber(in.UsageCap, 1, MaxUsageCap, "usage_cap", MsgUsageCap, errs)
	}
	c.FreeMethods = parseFreeMethods(c.Kind, in.FreeMethods, in.MethodIDs, errs)
	return c, orNil(errs)
}

// WhenInput is t as a datetime-local field shows it in loc; "" for none.
func WhenInput(t time.Time, loc *time.Location) string {
	if t.IsZero() {
		return ""
	}
	return t.In(loc).Format(DateTimeLocal)
}

// parseWhen reads a datetime-local value in loc, with or without seconds
// (browsers add them when the field's step asks); "" is the zero time.
func parseWhen(s string, loc *time.Location, field string, errs shop.FieldErrors) time.Time {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}
	}
	for _, layout := range []string{DateTimeLocal, DateTimeLocal + ":05", "2006-01-02 15:04"} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t.UTC()
		}
	}
	errs[field] = MsgPromoWhen
	return time.Time{}
}

// PromoValueText states what a code gives: "10% off", "$5.00 off", "Free
// shipping".
func PromoValueText(c shop.PromoCode) string {
	switch c.Kind {
	case shop.PromoPercent:
		return pricing.RateText(int(c.Value)) + " off"
	case shop.PromoFixed:
		return shop.Cents(c.Value).String() + " off"
	case shop.PromoFreeShipping:
		return "Free shipping"
	}
	return c.Kind
}

func parseName(s string, errs shop.FieldErrors) string {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		errs["name"] = MsgNameRequired
	case utf8.RuneCountInString(s) > maxName:
		errs["name"] = MsgNameTooLong
	}
	return s
}

// parseNumber reads a whole number from lo to hi, or puts msg next to
// field.
func parseNumber(s string, lo, hi int, field, msg string, errs shop.FieldErrors) int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < lo || n > hi {
		errs[field] = msg
		return 0
	}
	return n
}

func orNil(errs shop.FieldErrors) shop.FieldErrors {
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// zoneRecord is what the audit log keeps of a shipping zone.
type zoneRecord struct {
	Name      string   `json:"name"`
	Countries []string `json:"countries"`
	States    []string `json:"states,omitempty"`
	Position  int      `json:"position"`
}

// ZoneRecord is z as the audit log shows it.
func ZoneRecord(z shop.ShippingZone) any {
	return zoneRecord{Name: z.Name, Countries: z.Countries, States: z.States, Position: z.Position}
}

// methodRecord is what the audit log keeps of a shipping method.
type methodRecord struct {
	Name     string   `json:"name"`
	Price    string   `json:"price"`
	FreeFrom string   `json:"free_from,omitempty"`
	Days     string   `json:"days"`
	Cutoff   string   `json:"cutoff"`
	Zones    []string `json:"zones"`
	Enabled  bool     `json:"enabled"`
	Position int      `json:"position"`
}

// MethodRecord is m as the audit log shows it.
func MethodRecord(m shop.ShippingMethod) any {
	r := methodRecord{Name: m.Name, Price: m.Price.String(), Days: pricing.Estimate(m), Cutoff: CutoffText(m.CutoffHour),
		Zones: m.ZoneIDs, Enabled: m.Enabled, Position: m.Position}
	if m.FreeFrom > 0 {
		r.FreeFrom = m.FreeFrom.String()
	}
	return r
}

// taxRateRecord is what the audit log keeps of a tax rate.
type taxRateRecord struct {
	Name    string `json:"name"`
	Country string `json:"country"`
	State   string `json:"state,omitempty"`
	Rate    string `json:"rate"`
}

// TaxRateRecord is r as the audit log shows it; the country "" reads as
// "everywhere else".
func TaxRateRecord(r shop.TaxRate) any {
	country := r.Country
	if country == "" {
		country = "everywhere else"
	}
	return taxRateRecord{Name: r.Name, Country: country, State: r.State, Rate: pricing.TaxRateText(r.Exact())}
}

// promoRecord is what the audit log keeps of a promo code.
type promoRecord struct {
	Kind            string `json:"kind"`
	Value           string `json:"value"`
	MinSubtotal     string `json:"min_subtotal,omitempty"`
	StartsAt        string `json:"starts_at,omitempty"`
	EndsAt          string `json:"ends_at,omitempty"`
	UsageCap        int    `json:"usage_cap,omitempty"`
	OncePerCustomer bool   `json:"once_per_customer,omitempty"`
	Paused          bool   `json:"paused"`
	// FreeMethods are the shipping methods a free-shipping code frees.
	FreeMethods []string `json:"free_methods,omitempty"`
}

// PromoRecord is c as the audit log shows it, its times in UTC.
func PromoRecord(c shop.PromoCode) any {
	r := promoRecord{Kind: c.Kind, Value: PromoValueText(c), UsageCap: c.UsageCap, OncePerCustomer: c.OncePerCustomer, Paused: c.Paused,
		FreeMethods: c.FreeMethods}
	if c.MinSubtotal > 0 {
		r.MinSubtotal = c.MinSubtotal.String()
	}
	if !c.StartsAt.IsZero() {
		r.StartsAt = c.StartsAt.UTC().Format(time.RFC3339)
	}
	if !c.EndsAt.IsZero() {
		r.EndsAt = c.EndsAt.UTC().Format(time.RFC3339)
	}
	return r
}

// States of a promo code, as the back office lists them.
const (
	PromoActive    = "Active"
	PromoPaused    = "Paused"
	PromoScheduled = "Scheduled"
	PromoEnded     = "Ended"
	PromoUsedUp    = "Used up"
	PromoUnusable  = "Not usable" // a kind Price does not know
)

// PromoState says whether c can be used at now, and if not why, by the
// rules a shopper's code is checked with (pricing.CheckCode); its
// minimum subtotal is taken as met.
func PromoState(c shop.PromoCode, now time.Time) string {
	if c.Paused {
		return PromoPaused
	}
	switch shop.ErrorMessage(pricing.CheckCode(c, c.MinSubtotal, now)) {
	case "":
		return PromoActive
	case shop.MsgPromoNotYet:
		return PromoScheduled
	case shop.MsgPromoExpired:
		return PromoEnded
	case shop.MsgPromoUsedUp:
		return PromoUsedUp
	}
	return PromoUnusable
}
