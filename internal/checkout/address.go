package checkout

import (
	"regexp"
	"strings"

	"github.com/nocturne/storefront/internal/shop"
)

// postcodeRule is what a country's postal code looks like, with the message
// that shows an example when it does not.
type postcodeRule struct {
	re          *regexp.Regexp
	callingCode string // the phone prefix in international form, without "+"
	msg         string
	phoneMsg    string
}

// addressRules are the checkout countries' postal code and phone rules
// (ShippingCountries). A shopper typing "zzzzzzzzzz" or a phone "abc" learns
// it at the field instead of at the door.
var addressRules = map[string]postcodeRule{
	"United States": {
		re:          regexp.MustCompile(`^\d{5}(-\d{4})?$`),
		callingCode: "1",
		msg:         "Please enter a valid ZIP code, e.g. 62701 or 62701-1234.",
		phoneMsg:    "Please enter a valid phone number, e.g. (217) 555-0100 or +1 217 555 0100.",
	},
	"Canada": {
		re:          regexp.MustCompile(`^[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d$`),
		callingCode: "1",
		msg:         "Please enter a valid postal code, e.g. M5V 2T6.",
		phoneMsg:    "Please enter a valid phone number, e.g. (416) 555-0100 or +1 416 555 0100.",
	},
	"United Kingdom": {
		re:          regexp.MustCompile(`^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$`),
		callingCode: "44",
		msg:         "Please enter a valid postcode, e.g. SW1A 1AA.",
		phoneMsg:    "Please enter a valid phone number, e.g. 020 7946 0958 or +44 20 7946 0958.",
	},
}

// ValidPostcode reports whether zip is a postal code of country (letters in
// any case, one space or none in the middle).
func ValidPostcode(country, zip string) bool {
	r, ok := addressRules[country]
	if !ok {
		return zip != ""
	}
	return r.re.MatchString(strings.ToUpper(strings.Join(strings.Fields(zip), " ")))
}

// ValidPhone reports whether phone is a phone number for country: only
// digits, spaces and ( ) - . with an optional leading +; 7 to 15 digits (the
// E.164 maximum); and, written internationally (+…), the country's calling
// code. Shorter local forms stay allowed: the courier only needs to reach
// the shopper.
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

// validateContact checks the phone and postal code of a filled-in form.
func (s Shipping) validateContact() (string, shop.FieldErrors) {
	errs := shop.FieldErrors{}
	r := addressRules[s.Country]
	if !ValidPhone(s.Country, s.Phone) {
		errs["phone"] = r.phoneMsg
	}
	if !ValidPostcode(s.Country, s.ZipCode) {
		errs["zipCode"] = r.msg
	}
	switch len(errs) {
	case 0:
		return "", nil
	case 1:
		for _, msg := range errs {
			return msg, errs
		}
	}
	return "Please correct the fields marked below.", errs
}
