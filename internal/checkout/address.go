package checkout

import (
	"github.com/nocturne/storefront/internal/shop"
)

// validateContact checks the phone, state and postal code of a filled-in
// form by the shop's address rules (the profile asks the same ones), so a
// shopper typing "zzzzzzzzzz", a phone "abc" or a state the country does
// not have learns it at the field instead of at the door, and tax follows
// the state itself rather than how it was spelt.
func (s Shipping) validateContact() (string, shop.FieldErrors) {
	errs := shop.FieldErrors{}
	if !shop.ValidPhone(s.Country, s.Phone) {
		errs["phone"] = shop.PhoneMessage(s.Country)
	}
	if msg := shop.StateProblem(s.Country, s.State); msg != "" {
		errs["state"] = msg
	}
	if !shop.ValidPostcode(s.Country, s.ZipCode) {
		errs["zipCode"] = shop.PostcodeMessage(s.Country)
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
