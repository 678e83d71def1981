package checkout_test

import (
	"math/big"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/checkout"
	"github.com/nocturne/storefront/internal/shop"
)

// The spec's formula, computed exactly with rationals: tax = 10% of the
// subtotal rounded half up to the cent; total = subtotal + shipping + tax.
func TestCheckoutTotals_MatchFormula(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for i := 0; i < 5000; i++ {
		var cart shop.Cart
		for j := r.IntN(6); j >= 0; j-- {
			cart.Lines = append(cart.Lines, shop.CartLine{
				Product:  shop.Product{Price: shop.Cents(1 + r.IntN(200_000))},
				Quantity: 1 + r.IntN(10),
			})
		}
		got := shop.CheckoutTotals(cart)
		sub := int64(0)
		for _, l := range cart.Lines {
			sub += int64(l.Product.Price) * int64(l.Quantity)
		}
		tax := new(big.Rat).SetFrac64(sub*10, 100)
		tax.Add(tax, big.NewRat(1, 2))
		wantTax := new(big.Int).Quo(tax.Num(), tax.Denom()).Int64() // floor(x + 1/2)
		want := shop.Totals{Subtotal: shop.Cents(sub), Shipping: 1000, Tax: shop.Cents(wantTax), Total: shop.Cents(sub + 1000 + wantTax)}
		if got != want {
			t.Fatalf("cart %+v: got %+v, want %+v", cart.Lines, got, want)
		}
	}
}

func TestShipping_Validate(t *testing.T) {
	full := checkout.Shipping{FirstName: "Ada", LastName: "L", Email: "ada@example.com", Phone: "555", Address: "1 St",
		City: "Town", State: "CA", ZipCode: "90000", Country: "Canada"}
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
		{"DefaultCountry", func(s *checkout.Shipping) { s.Country = "" }, ""},
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
