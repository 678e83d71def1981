package shop

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// MsgUnknownState refuses a state or province that is not one of the
// country's (Regions), shown next to the field with what was typed kept.
const MsgUnknownState = "Please enter a state or province of %s, e.g. %s."

// RegionKey is how spellings of a place are compared: lower case, letters
// and digits only, so "CA", "ca", " Ca ", "Calif." and "C.A." agree. Letters
// of other scripts stay what they are: a Cyrillic "СА" is not the Latin
// "CA" it looks like.
func RegionKey(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// regionIndex finds a region's code by country and RegionKey of any of its
// spellings.
var regionIndex = indexRegions(Regions)

func indexRegions(regions map[string][]Region) map[string]map[string]string {
	idx := make(map[string]map[string]string, len(regions))
	for country, rs := range regions {
		m := map[string]string{}
		for _, r := range rs {
			for _, s := range append([]string{r.Code, r.Name}, r.Aliases...) {
				m[RegionKey(s)] = r.Code
			}
		}
		idx[country] = m
	}
	return idx
}

// StateCode reads a state typed for an address in country. For a country
// with Regions it returns the region's code and true when typed names one
// by code, name or a listed abbreviation (case and punctuation aside), and
// typed unchanged and false otherwise. Elsewhere states are not checked:
// typed comes back trimmed, and true.
func StateCode(country, typed string) (string, bool) {
	typed = strings.TrimSpace(typed)
	idx, ok := regionIndex[country]
	if !ok {
		return typed, true
	}
	code, ok := idx[RegionKey(typed)]
	if !ok {
		return typed, false
	}
	return code, true
}

// SameState reports whether two spellings name the same state of country,
// so a tax rate kept as "California" still matches an address's "CA".
func SameState(country, a, b string) bool {
	ca, _ := StateCode(country, a)
	cb, _ := StateCode(country, b)
	return strings.EqualFold(ca, cb)
}

// StateProblem is the message next to a state field for an address in
// country, or "" when the state is one of the country's, the country's
// states are not checked, or it is empty (which the caller requires or not).
func StateProblem(country, state string) string {
	if _, ok := StateCode(country, state); ok || strings.TrimSpace(state) == "" {
		return ""
	}
	return fmt.Sprintf(MsgUnknownState, country, stateExamples[country])
}

// stateExamples are the examples MsgUnknownState gives, per country with
// Regions.
var stateExamples = map[string]string{"United States": "CA or California", "Canada": "ON or Ontario"}

// countryRules are what a country's postal codes and phone numbers look
// like, with the messages that show an example when they do not.
type countryRules struct {
	postcode    *regexp.Regexp
	callingCode string // the phone prefix in international form, without "+"
	postcodeMsg string
	phoneMsg    string
}

var addressRules = map[string]countryRules{
	"United States": {
		postcode:    regexp.MustCompile(`^\d{5}(-\d{4})?$`),
		callingCode: "1",
		postcodeMsg: "Please enter a valid ZIP code, e.g. 62701 or 62701-1234.",
		phoneMsg:    "Please enter a valid phone number, e.g. (217) 555-0100 or +1 217 555 0100.",
	},
	"Canada": {
		postcode:    regexp.MustCompile(`^[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d$`),
		callingCode: "1",
		postcodeMsg: "Please enter a valid postal code, e.g. M5V 2T6.",
		phoneMsg:    "Please enter a valid phone number, e.g. (416) 555-0100 or +1 416 555 0100.",
	},
	// The pattern the UK government publishes for postcodes (its bulk data
	// transfer standard), with its alternatives grouped so both anchors
	// hold for every one, and GIR 0AA, the one postcode outside it.
	"United Kingdom": {
		postcode:    regexp.MustCompile(`^(GIR ?0AA|([A-Z]\d{1,2}|[A-Z][A-HJ-Y]\d{1,2}|[A-Z]\d[A-Z]|[A-Z][A-HJ-Y]\d[A-Z]?) ?\d[A-Z]{2})$`),
		callingCode: "44",
		postcodeMsg: "Please enter a valid postcode, e.g. SW1A 1AA.",
		phoneMsg:    "Please enter a valid phone number, e.g. 020 7946 0958 or +44 20 7946 0958.",
	},
}

// otherPostcode is a postal code where we know no country's own pattern:
// 2 to 10 letters, digits, spaces or hyphens, with a letter or digit.
var otherPostcode = regexp.MustCompile(`^[A-Z0-9 -]{2,10}$`)

// MsgBadPostcode is the message for a postal code of a country without a
// pattern of its own.
const MsgBadPostcode = "Please enter a valid postal code (2 to 10 letters, digits, spaces or hyphens)."

// ValidPostcode reports whether zip is a postal code of country: letters in
// any case, runs of spaces counting as one. The checkout and the profile
// both ask it.
func ValidPostcode(country, zip string) bool {
	zip = strings.ToUpper(strings.Join(strings.Fields(zip), " "))
	if r, ok := addressRules[country]; ok {
		return r.postcode.MatchString(zip)
	}
	return otherPostcode.MatchString(zip) && strings.Trim(zip, " -") != ""
}

// PostcodeMessage is what the postal code field says when ValidPostcode
// refuses one of country.
func PostcodeMessage(country string) string {
	if r, ok := addressRules[country]; ok {
		return r.postcodeMsg
	}
	return MsgBadPostcode
}

// ValidPhone reports whether phone is a phone number for country: only
// digits, spaces and ( ) - . with an optional leading +; 7 to 15 digits (the
// E.164 maximum); and, written internationally (+…), the country's calling
// code when we know it. Shorter local forms stay allowed: the courier only
// needs to reach the shopper.
func ValidPhone(country, phone string) bool {
	body, intl := strings.CutPrefix(phone, "+")
	if strings.Trim(body, "0123456789 ()-.") != "" {
		return false
	}
	digits := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, body)
	if len(digits) < 7 || len(digits) > 15 {
		return false
	}
	if r, ok := addressRules[country]; ok && intl && !strings.HasPrefix(digits, r.callingCode) {
		return false
	}
	return true
}

// PhoneMessage is what the phone field says when ValidPhone refuses a
// number for country.
func PhoneMessage(country string) string {
	if r, ok := addressRules[country]; ok {
		return r.phoneMsg
	}
	return "Please enter a valid phone number."
}
