package shop_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nocturne/storefront/internal/shop"
)

func TestCents_String(t *testing.T) {
	tests := []struct {
		in   shop.Cents
		want string
	}{
		{0, "$0.00"}, {5, "$0.05"}, {999, "$9.99"}, {5000, "$50.00"},
		{123456, "$1,234.56"}, {100000000, "$1,000,000.00"}, {-1999, "-$19.99"},
	}
	for _, tt := range tests {
		if got := tt.in.String(); got != tt.want {
			t.Errorf("Cents(%d): got %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestContactMessage_Validate(t *testing.T) {
	ok := shop.ContactMessage{Name: "Ada", Email: "ada@example.com", Subject: "Hi", Message: "Hello"}
	tests := []struct {
		name  string
		edit  func(m *shop.ContactMessage)
		field string
		want  string
	}{
		{"OK", func(m *shop.ContactMessage) {}, "", ""},
		{"ErrNameRequired", func(m *shop.ContactMessage) { m.Name = "  " }, "name", "Name is required."},
		{"ErrEmailRequired", func(m *shop.ContactMessage) { m.Email = "" }, "email", "Email is required."},
		{"ErrEmailInvalid", func(m *shop.ContactMessage) { m.Email = "ada@example" }, "email", "Please enter a valid email address"},
		{"ErrEmailUnmailable", func(m *shop.ContactMessage) { m.Email = "<svg/onload=alert(1)>@x.co" }, "email", "Please enter a valid email address"},
		{"ErrSubjectRequired", func(m *shop.ContactMessage) { m.Subject = "" }, "subject", "Subject is required."},
		{"ErrMessageRequired", func(m *shop.ContactMessage) { m.Message = "\n" }, "message", "Message is required."},
		{"ErrSubjectTooLong", func(m *shop.ContactMessage) { m.Subject = strings.Repeat("x", 201) }, "subject", "Subject is too long (at most 200 characters)."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := ok
			tt.edit(&m)
			m.Normalize()
			errs := m.Validate()
			if tt.field == "" {
				if errs != nil {
					t.Fatalf("got %v, want no errors", errs)
				}
				return
			}
			if got := errs[tt.field]; got != tt.want {
				t.Errorf("%s: got %q, want %q", tt.field, got, tt.want)
			}
			if len(errs) != 1 {
				t.Errorf("got %d errors, want 1: %v", len(errs), errs)
			}
		})
	}
}

func TestValidEmail(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"ada@example.com", true},
		{"ada.lovelace+shop@mail.example.co.uk", true},
		{"ü@example.com", true},
		{"ada@example", false},
		{"<svg/onload=alert(1)>@x.co", false},
		{"Ada <ada@example.com>", false},
		{"ada@example.com>", false},
		{"a b@example.com", false},
		{"ada@@example.com", false},
		{"(comment)ada@example.com", false},
	}
	for _, tt := range tests {
		if got := shop.ValidEmail(tt.in); got != tt.want {
			t.Errorf("ValidEmail(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestStandardShipping(t *testing.T) {
	tests := []struct {
		name     string
		subtotal shop.Cents
		want     shop.Cents
	}{
		{"EmptyCart", 0, 0},
		{"OneCent", 1, 1000},
		{"JustBelow", 4999, 1000},
		{"AtThreshold", 5000, 0},
		{"Above", 45800, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := shop.StandardShipping(tt.subtotal); got != tt.want {
				t.Errorf("StandardShipping(%d): got %d, want %d", tt.subtotal, got, tt.want)
			}
			cart := shop.Cart{}
			if tt.subtotal > 0 {
				cart.Lines = []shop.CartLine{{Product: shop.Product{Price: tt.subtotal}, Quantity: 1}}
			}
			if got := cart.Shipping(); got != tt.want {
				t.Errorf("Cart.Shipping at %d: got %d, want %d", tt.subtotal, got, tt.want)
			}
			if got := shop.CheckoutTotals(cart); got.Shipping != tt.want || got.Total != tt.subtotal+tt.want+got.Tax {
				t.Errorf("CheckoutTotals at %d: got %+v", tt.subtotal, got)
			}
		})
	}
}

func TestShippingTexts(t *testing.T) {
	if got, want := (shop.Product{}).Shipping(), "Free shipping over $50"; got != want {
		t.Errorf("card text: got %q, want %q", got, want)
	}
	if got, want := shop.StandardShippingTerms(), "$10.00 on orders under $50; free on orders of $50 or more"; got != want {
		t.Errorf("terms: got %q, want %q", got, want)
	}
	if got := shop.FreeShippingUntil(4200); got != 800 {
		t.Errorf("FreeShippingUntil(4200): got %d, want 800", got)
	}
}

// The cap's message states the cap the stores enforce.
func TestMsgQuantityCap(t *testing.T) {
	if want := fmt.Sprintf("at most %d of an item", shop.MaxCartQuantity); !strings.Contains(shop.MsgQuantityCap, want) {
		t.Errorf("got %q, want it to say %q", shop.MsgQuantityCap, want)
	}
}

func TestOrder_Visibility(t *testing.T) {
	o := &shop.Order{ID: "NOC-1", UserID: "usr_1", Email: "owl@example.com", Status: shop.StatusShipped}
	for _, tt := range []struct {
		name             string
		userID, lookedUp string
		want             bool
	}{
		{"Owner", "usr_1", "", true},
		{"OtherAccount", "usr_2", "", false},
		{"Visitor", "", "", false},
		{"VisitorWhoLookedItUp", "", "NOC-1", true},
		{"VisitorWhoLookedUpAnother", "", "NOC-2", false},
		{"OtherAccountWhoLookedItUp", "usr_2", "NOC-1", true},
	} {
		if got := o.VisibleTo(tt.userID, tt.lookedUp); got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
	for _, tt := range []struct {
		email, status, typed string
		want                 bool
	}{
		{"owl@example.com", shop.StatusShipped, " OWL@example.com ", true},
		{"owl@example.com", shop.StatusShipped, "lark@example.com", false},
		{"owl@example.com", shop.StatusPending, "owl@example.com", false},
		{"", shop.StatusShipped, "", false}, // a deleted account's order
	} {
		o := &shop.Order{Email: tt.email, Status: tt.status}
		if got := o.MatchesLookup(tt.typed); got != tt.want {
			t.Errorf("lookup of %q (%s) with %q: got %v, want %v", tt.email, tt.status, tt.typed, got, tt.want)
		}
	}
}
