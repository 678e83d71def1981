package shop_test

import (
	"testing"

	"github.com/nocturne/storefront/internal/shop"
)

func TestStateCode(t *testing.T) {
	tests := []struct {
		name, country, typed string
		want                 string
		ok                   bool
	}{
		{"Code", "United States", "CA", "CA", true},
		{"CodeLower", "United States", "ca", "CA", true},
		{"CodeSpaced", "United States", " Ca ", "CA", true},
		{"Name", "United States", "California", "CA", true},
		{"NameShouting", "United States", "CALIFORNIA", "CA", true},
		{"Abbreviation", "United States", "Calif.", "CA", true},
		{"Dotted", "United States", "N.Y.", "NY", true},
		{"TwoWords", "United States", "new  york", "NY", true},
		{"Hyphenated", "United States", "West-Virginia", "WV", true},
		{"DistrictOfColumbia", "United States", "Washington, D.C.", "DC", true},
		{"Washington", "United States", "Wash.", "WA", true},
		{"Province", "Canada", "ontario", "ON", true},
		{"ProvinceFrench", "Canada", "Québec", "QC", true},
		{"ProvinceFrenchNoAccent", "Canada", "quebec", "QC", true},
		{"ProvinceInitials", "Canada", "P.E.I.", "PE", true},
		{"ErrCyrillicLookAlike", "United States", "СА", "СА", false},
		{"ErrMixedScripts", "United States", "Сalifornia", "Сalifornia", false},
		{"ErrUnknown", "United States", "Atlantis", "Atlantis", false},
		{"ErrProvinceInUS", "United States", "Ontario", "Ontario", false},
		{"ErrStateInCanada", "Canada", "CA", "CA", false},
		{"ErrPunctuationOnly", "United States", "..", "..", false},
		{"UncheckedElsewhere", "United Kingdom", " Greater London ", "Greater London", true},
		{"EmptyElsewhere", "Germany", "", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := shop.StateCode(tt.country, tt.typed)
			if got != tt.want || ok != tt.ok {
				t.Errorf("got %q, %v, want %q, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

// Every spelling names one place: two regions of a country sharing a key
// would make one of them unreachable.
func TestRegions_SpellingsAreUnambiguous(t *testing.T) {
	for country, rs := range shop.Regions {
		seen := map[string]string{}
		for _, r := range rs {
			for _, s := range append([]string{r.Code, r.Name}, r.Aliases...) {
				k := shop.RegionKey(s)
				if other, ok := seen[k]; ok && other != r.Code {
					t.Errorf("%s: %q names both %s and %s", country, s, other, r.Code)
				}
				seen[k] = r.Code
				if got, ok := shop.StateCode(country, s); !ok || got != r.Code {
					t.Errorf("%s: %q reads as %q, %v, want %s", country, s, got, ok, r.Code)
				}
			}
		}
	}
}

func TestSameState(t *testing.T) {
	tests := []struct {
		country, a, b string
		want          bool
	}{
		{"United States", "California", "CA", true},
		{"United States", "calif", "ca", true},
		{"United States", "CA", "NY", false},
		{"United Kingdom", "Kent", "KENT", true},
		{"United Kingdom", "Kent", "Essex", false},
	}
	for _, tt := range tests {
		if got := shop.SameState(tt.country, tt.a, tt.b); got != tt.want {
			t.Errorf("SameState(%q, %q, %q) = %v, want %v", tt.country, tt.a, tt.b, got, tt.want)
		}
	}
}

func TestValidPostcode(t *testing.T) {
	tests := []struct {
		name, country, zip string
		want               bool
	}{
		{"USFive", "United States", "12345", true},
		{"USNine", "United States", "12345-6789", true},
		{"ErrUSFour", "United States", "1234", false},
		{"ErrUSNineNoHyphen", "United States", "123456789", false},
		{"ErrUSLetters", "United States", "1234A", false},
		{"ErrUSPlusThree", "United States", "12345-678", false},
		{"Canada", "Canada", "K1A 0B1", true},
		{"CanadaLowerNoSpace", "Canada", "k1a0b1", true},
		{"ErrCanadaLetterD", "Canada", "D1A 0B1", false},
		{"ErrCanadaShape", "Canada", "K1A 0B", false},
		{"UKLong", "United Kingdom", "SW1A 1AA", true},
		{"UKShort", "United Kingdom", "M1 1AE", true},
		{"UKTwoLettersTwoDigits", "United Kingdom", "CR2 6XH", true},
		{"UKLetterDigitLetter", "United Kingdom", "W1A 0AX", true},
		{"UKNoSpaceLower", "United Kingdom", "dn551pt", true},
		{"UKGirobank", "United Kingdom", "GIR 0AA", true},
		{"ErrUKUSZip", "United Kingdom", "62701", false},
		{"ErrUKBadSecondLetter", "United Kingdom", "AI1 1AA", false},
		{"ErrUKTrailing", "United Kingdom", "SW1A 1AAX", false},
		{"Elsewhere", "Germany", "10115", true},
		{"ElsewhereLettersHyphen", "Brazil", "01310-100", true},
		{"ElsewhereTwo", "France", "75", true},
		{"ErrElsewhereOne", "France", "7", false},
		{"ErrElsewhereEleven", "Japan", "12345678901", false},
		{"ErrElsewherePunctuation", "Japan", "100#0001", false},
		{"ErrElsewhereOnlyHyphens", "Japan", "---", false},
		{"ErrElsewhereEmpty", "India", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := shop.ValidPostcode(tt.country, tt.zip); got != tt.want {
				t.Errorf("ValidPostcode(%q, %q) = %v, want %v", tt.country, tt.zip, got, tt.want)
			}
		})
	}
}

func TestProfile_ValidateAddress(t *testing.T) {
	tests := []struct {
		name       string
		edit       func(p *shop.Profile)
		field, msg string
		state      string // after Normalize
	}{
		{"OK", func(*shop.Profile) {}, "", "", "CA"},
		{"OKEmpty", func(p *shop.Profile) { p.State, p.ZipCode = "", "" }, "", "", ""},
		{"ErrState", func(p *shop.Profile) { p.State = "СА" }, "state",
			"Please enter a state or province of United States, e.g. CA or California.", "СА"},
		{"ErrZip", func(p *shop.Profile) { p.ZipCode = "9021" }, "zipCode", "Please enter a valid ZIP code, e.g. 62701 or 62701-1234.", "CA"},
		{"ProvinceAndPostcode", func(p *shop.Profile) { p.Country, p.State, p.ZipCode = "Canada", "Ont.", "M5V 2T6" }, "", "", "ON"},
		{"ErrPostcodeElsewhere", func(p *shop.Profile) { p.Country, p.State, p.ZipCode = "Germany", "Berlin", "1" }, "zipCode", shop.MsgBadPostcode, "Berlin"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := shop.Profile{DisplayName: "Ada", Country: "United States", State: " calif. ", ZipCode: "90210"}
			tt.edit(&p)
			p.Normalize()
			errs := p.Validate(true)
			if p.State != tt.state {
				t.Errorf("state %q, want %q", p.State, tt.state)
			}
			if tt.field == "" && errs != nil {
				t.Errorf("got %v, want none", errs)
			} else if tt.field != "" && errs[tt.field] != tt.msg {
				t.Errorf("got %q next to %s, want %q", errs[tt.field], tt.field, tt.msg)
			}
		})
	}
}
