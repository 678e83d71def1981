package checkout_test

import (
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/checkout"
)

func TestShipping_Validate(t *testing.T) {
	full := checkout.Shipping{FirstName: "Ada", LastName: "L", Email: "ada@example.com", Phone: "+1 416 555 0100", Address: "1 St",
		City: "Town", State: "ON", ZipCode: "M5V 2T6", Country: "Canada"}
	tests := []struct {
		name string
		edit func(*checkout.Shipping)
		want string
	}{
		{"OK", func(*checkout.Shipping) {}, ""},
		{"ErrMissing", func(s *checkout.Shipping) { s.FirstName, s.Phone, s.ZipCode = "", " ", "" },
			"Please fill in all required fields: First Name, Phone, ZIP Code"},
		{"ErrEmail", func(s *checkout.Shipping) { s.Email = "ada.example.com" }, "Please enter a valid email address"},
		{"ErrCountry", func(s *checkout.Shipping) { s.Country = "Germany" }, checkout.MsgBadCountry},
		{"DefaultCountry", func(s *checkout.Shipping) { s.Country, s.State, s.ZipCode = "", "IL", "62701" }, ""},
		{"ErrPhoneLetters", func(s *checkout.Shipping) { s.Phone = "abc" }, "Please enter a valid phone number, e.g. (416) 555-0100 or +1 416 555 0100."},
		{"ErrPhoneShort", func(s *checkout.Shipping) { s.Phone = "555 01" }, "Please enter a valid phone number, e.g. (416) 555-0100 or +1 416 555 0100."},
		{"ErrPhoneOtherCountryCode", func(s *checkout.Shipping) { s.Phone = "+44 20 7946 0958" }, "Please enter a valid phone number, e.g. (416) 555-0100 or +1 416 555 0100."},
		{"LocalPhone", func(s *checkout.Shipping) { s.Phone = "(416) 555-0100" }, ""},
		{"ErrZipGarbage", func(s *checkout.Shipping) { s.ZipCode = "zzzzzzzzzz" }, "Please enter a valid postal code, e.g. M5V 2T6."},
		{"PostalCodeLowerNoSpace", func(s *checkout.Shipping) { s.ZipCode = "m5v2t6" }, ""},
		{"ErrUSZip", func(s *checkout.Shipping) {
			s.Country, s.State, s.Phone, s.ZipCode = "United States", "IL", "217 555 0100", "6270"
		}, "Please enter a valid ZIP code, e.g. 62701 or 62701-1234."},
		{"USZipPlus4", func(s *checkout.Shipping) {
			s.Country, s.State, s.Phone, s.ZipCode = "United States", "IL", "217 555 0100", "62701-1234"
		}, ""},
		{"UKPostcode", func(s *checkout.Shipping) {
			s.Country, s.Phone, s.ZipCode = "United Kingdom", "020 7946 0958", "SW1A 1AA"
		}, ""},
		{"ErrUKPostcode", func(s *checkout.Shipping) { s.Country, s.Phone, s.ZipCode = "United Kingdom", "020 7946 0958", "62701" }, "Please enter a valid postcode, e.g. SW1A 1AA."},
		{"ErrPhoneAndZip", func(s *checkout.Shipping) { s.Phone, s.ZipCode = "abc", "zzzzzzzzzz" }, "Please correct the fields marked below."},
		{"ProvinceByName", func(s *checkout.Shipping) { s.State = "ontario" }, ""},
		{"ErrProvinceUnknown", func(s *checkout.Shipping) { s.State = "Atlantis" }, "Please enter a state or province of Canada, e.g. ON or Ontario."},
		{"ErrStateCyrillic", func(s *checkout.Shipping) {
			s.Country, s.Phone, s.ZipCode, s.State = "United States", "217 555 0100", "62701", "СА"
		}, "Please enter a state or province of United States, e.g. CA or California."},
		{"CountyInUK", func(s *checkout.Shipping) {
			s.Country, s.Phone, s.ZipCode, s.State = "United Kingdom", "020 7946 0958", "SW1A 1AA", "Greater London"
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := full
			tt.edit(&s)
			s.Normalize()
			if got, _ := s.Validate(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// What is stored and priced is the state's code, however it was typed; a
// state the country does not have is kept as typed for the form.
func TestShipping_NormalizeState(t *testing.T) {
	tests := []struct{ country, typed, want string }{
		{"United States", "California", "CA"},
		{"United States", " calif. ", "CA"},
		{"", "new york", "NY"},
		{"Canada", "Québec", "QC"},
		{"United States", "Atlantis", "Atlantis"},
		{"United Kingdom", " Kent ", "Kent"},
	}
	for _, tt := range tests {
		s := checkout.Shipping{Country: tt.country, State: tt.typed}
		s.Normalize()
		if s.State != tt.want {
			t.Errorf("%s %q: got %q, want %q", tt.country, tt.typed, s.State, tt.want)
		}
	}
}

func TestValidatePayment(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	ok := checkout.Payment{CardNumber: "4242 4242 4242 4242", CardName: "Ada L", Expiry: "12/28", CVV: "123"}
	tests := []struct {
		name string
		edit func(*checkout.Payment)
		want string
	}{
		{"OK", func(*checkout.Payment) {}, ""},
		{"ErrMissing", func(p *checkout.Payment) { p.CardNumber, p.CVV = "", "" }, "Please fill in all required fields: Card Number, CVV"},
		{"ErrShortNumber", func(p *checkout.Payment) { p.CardNumber = "4242 4242 4242" }, checkout.MsgBadCard},
		{"ErrLetters", func(p *checkout.Payment) { p.CardNumber = "4242 4242 4242 424x" }, checkout.MsgBadCard},
		{"ErrMonth13", func(p *checkout.Payment) { p.Expiry = "13/28" }, checkout.MsgBadExpiry},
		{"ErrMonth00", func(p *checkout.Payment) { p.Expiry = "00/28" }, checkout.MsgBadExpiry},
		{"ErrFormat", func(p *checkout.Payment) { p.Expiry = "1228" }, checkout.MsgBadExpiry},
		{"ErrPast", func(p *checkout.Payment) { p.Expiry = "10/26" }, checkout.MsgExpired},
		{"ThisMonthIsValid", func(p *checkout.Payment) { p.Expiry = "11/26" }, ""},
		{"ErrCVV2", func(p *checkout.Payment) { p.CVV = "12" }, checkout.MsgBadCVV},
		{"CVV4", func(p *checkout.Payment) { p.CVV = "1234" }, ""},
		{"ErrCVVLetters", func(p *checkout.Payment) { p.CVV = "12a" }, checkout.MsgBadCVV},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := ok
			tt.edit(&p)
			card, msg, _ := checkout.ValidatePayment(p, now)
			if msg != tt.want {
				t.Fatalf("got %q, want %q", msg, tt.want)
			}
			if msg == "" && (card.Label() != "Visa ending 4242" || card.Brand != "Visa") {
				t.Errorf("card %+v", card)
			}
		})
	}
}
