package shop_test

import (
	"testing"

	"github.com/nocturne/storefront/internal/shop"
)

// A guest is counted by the e-mail trimmed and case-folded; a +tag or a
// dot makes another customer (decision 0022); an account is counted by
// itself whatever the e-mail.
func TestPromoCustomer(t *testing.T) {
	tests := []struct {
		name         string
		user, email  string
		same         bool
		other, oMail string
	}{
		{"case and spaces", "guest_1", " Ada@Example.COM ", true, "guest_2", "ada@example.com"},
		{"a +tag", "guest_1", "ada+1@example.com", false, "guest_2", "ada@example.com"},
		{"a dot", "guest_1", "a.da@example.com", false, "guest_2", "ada@example.com"},
		{"an account, another e-mail", "usr_1", "ada@example.com", true, "usr_1", "lovelace@example.com"},
		{"two accounts, one e-mail", "usr_1", "ada@example.com", false, "usr_2", "ada@example.com"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := shop.PromoCustomer(tt.user, tt.email), shop.PromoCustomer(tt.other, tt.oMail)
			if (a == b) != tt.same {
				t.Errorf("%q and %q: same customer %v, want %v", a, b, a == b, tt.same)
			}
		})
	}
}
