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

// Amounts are written the way the locale writes the currency, with as many
// minor digits as the currency has. CLDR puts a no-break space (U+00A0)
// between an amount and a symbol that follows it or a code.
func TestCurrency_Format(t *testing.T) {
	tests := []struct {
		name, code, locale string
		in                 shop.Cents
		want, whole        string
	}{
		{"USD", "USD", "en-US", 123456, "$1,234.56", "$1,234.56"},
		{"USDWhole", "usd", "en-US", 5000, "$50.00", "$50"},
		{"USDNegative", "USD", "en-US", -1999, "-$19.99", "-$19.99"},
		{"USDNegativeWhole", "USD", "en-US", -5000, "-$50.00", "-$50"},
		{"EURGerman", "EUR", "de-DE", 123456, "1.234,56\u00a0€", "1.234,56\u00a0€"},
		{"EURGermanWhole", "EUR", "de-DE", 5000, "50,00\u00a0€", "50\u00a0€"},
		{"EURGermanNegative", "EUR", "de-DE", -123456, "-1.234,56\u00a0€", "-1.234,56\u00a0€"},
		{"JPY", "JPY", "en-US", 1235, "¥1,235", "¥1,235"},
		{"JPYNegative", "JPY", "en-US", -50, "-¥50", "-¥50"},
		{"JPYJapanese", "JPY", "ja-JP", 1235, "￥1,235", "￥1,235"},
		{"KWD", "KWD", "en-US", 1234567, "KWD\u00a01,234.567", "KWD\u00a01,234.567"},
		{"KWDWhole", "KWD", "en-US", 5000, "KWD\u00a05.000", "KWD\u00a05"},
		{"KWDNegative", "KWD", "en-US", -5, "-KWD\u00a00.005", "-KWD\u00a00.005"},
		{"Zero", "EUR", "de-DE", 0, "0,00\u00a0€", "0\u00a0€"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := shop.NewCurrency(tt.code, tt.locale)
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Format(tt.in); got != tt.want {
				t.Errorf("Format(%d): got %q, want %q", tt.in, got, tt.want)
			}
			if got := c.FormatWhole(tt.in); got != tt.whole {
				t.Errorf("FormatWhole(%d): got %q, want %q", tt.in, got, tt.whole)
			}
		})
	}
}

func TestNewCurrency(t *testing.T) {
	tests := []struct {
		code, locale         string
		wantCode             string
		digits               int
		symbol, decimal, err string
		step                 string
	}{
		{code: "USD", locale: "en-US", wantCode: "USD", digits: 2, symbol: "$", decimal: ".", step: "0.01"},
		{code: " eur ", locale: "de-DE", wantCode: "EUR", digits: 2, symbol: "€", decimal: ",", step: "0.01"},
		{code: "JPY", locale: "en-US", wantCode: "JPY", digits: 0, symbol: "¥", decimal: ".", step: "1"},
		{code: "KWD", locale: "en-US", wantCode: "KWD", digits: 3, symbol: "KWD", decimal: ".", step: "0.001"},
		{code: "EGP", locale: "ar-EG", wantCode: "EGP", digits: 2, symbol: "ج.م.\u200f", decimal: "٫", step: "0.01"},
		{code: "XYZ", locale: "en-US", err: `"XYZ" is not an ISO 4217 currency code`},
		{code: "", locale: "en-US", err: `"" is not an ISO 4217 currency code`},
		{code: "USD", locale: " ", err: "the locale is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.code+"/"+tt.locale, func(t *testing.T) {
			c, err := shop.NewCurrency(tt.code, tt.locale)
			if tt.err != "" {
				if shop.ErrorCode(err) != shop.EINVALID || shop.ErrorMessage(err) != tt.err {
					t.Fatalf("got %v, want the error %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Code() != tt.wantCode || c.Digits() != tt.digits || c.Symbol() != tt.symbol || c.DecimalSeparator() != tt.decimal || c.Step() != tt.step {
				t.Errorf("got %s, %d digits, symbol %q, decimal %q, step %s; want %s, %d, %q, %q, %s",
					c.Code(), c.Digits(), c.Symbol(), c.DecimalSeparator(), c.Step(), tt.wantCode, tt.digits, tt.symbol, tt.decimal, tt.step)
			}
		})
	}
}

// SetCurrency changes how every amount is written and what new orders are
// placed in, and its restore function puts the previous currency back.
func TestSetCurrency(t *testing.T) {
	jpy, err := shop.NewCurrency("JPY", "en-US")
	if err != nil {
		t.Fatal(err)
	}
	restore := shop.SetCurrency(jpy)
	t.Cleanup(restore)
	if got := shop.Cents(1235).String(); got != "¥1,235" {
		t.Errorf("in yen: got %q, want ¥1,235", got)
	}
	if got := shop.OrderCurrency(); got != "jpy" {
		t.Errorf("order currency: got %q, want jpy", got)
	}
	restore()
	if got, want := shop.Cents(1235).String(), "$12.35"; got != want {
		t.Errorf("restored: got %q, want %q", got, want)
	}
	if got := shop.OrderCurrency(); got != "usd" {
		t.Errorf("restored order currency: got %q, want usd", got)
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
		email  string
		status shop.OrderStatus
		typed  string
		want   bool
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
