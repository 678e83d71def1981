// Package demo fills a shop with a demo account and its order history, so a
// new developer or reviewer sees full order pages at once.
package demo

import (
	"context"
	"fmt"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/nocturne/storefront/internal/pricing"
	"github.com/nocturne/storefront/internal/shop"
)

// Email is the demo account's address.
const Email = "demo@nocturne.example"

// OrderCount is how many sample orders the demo account gets.
const OrderCount = 25

// Store is what the demo data needs.
type Store interface {
	shop.UserStore
	shop.OrderStore
	shop.CatalogStore
	shop.PricingStore
}

// Account is the created demo account's sign-in.
type Account struct {
	Email, Password string
	Orders          int
	Existed         bool
}

// Seed creates the demo account with OrderCount orders in every status, or,
// when it exists, gives it a new password and leaves its orders alone.
func Seed(ctx context.Context, s Store, now time.Time) (Account, error) {
	password := "demo-" + shop.RandomHex(6)
	hash, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.DefaultCost)
	if err != nil {
		return Account{}, fmt.Errorf("demo: %w", err)
	}
	if u, _, err := s.UserByEmail(ctx, Email); err == nil {
		if _, err := s.SetPassword(ctx, u.ID, hash); err != nil {
			return Account{}, fmt.Errorf("demo: %w", err)
		}
		n, _ := s.CountOrders(ctx, u.ID)
		return Account{Email: Email, Password: password, Orders: n, Existed: true}, nil
	}
	u := &shop.User{ID: "usr_demo_" + shop.RandomHex(6), Email: Email, DisplayName: "Demo Shopper", PhoneNumber: "+1 555 0100",
		Address: "1 Moonlight Avenue", City: "Portland", State: "OR", ZipCode: "97201", Country: shop.DefaultCountry}
	if err := s.CreateUser(ctx, u, hash); err != nil {
		return Account{}, fmt.Errorf("demo: %w", err)
	}
	page, err := s.Search(ctx, shop.ProductFilter{Page: 1, PageSize: 60, Sort: shop.SortPriceAsc})
	products := page.Products
	if err != nil || len(products) == 0 {
		return Account{}, fmt.Errorf("demo: the catalogue is empty (%v)", err)
	}
	rules, err := pricing.LoadRules(ctx, s)
	if err != nil {
		return Account{}, fmt.Errorf("demo: %w", err)
	}
	statuses := []shop.OrderStatus{shop.StatusDelivered, shop.StatusShipped, shop.StatusProcessing, shop.StatusCancelled}
	for i := 0; i < OrderCount; i++ {
		var cart shop.Cart
		for j := 0; j <= i%3; j++ {
			p := products[(i*7+j*13)%len(products)]
			cart.Lines = append(cart.Lines, shop.CartLine{Product: p, Quantity: 1 + (i+j)%3})
		}
		var lines []pricing.Line
		for _, l := range cart.Lines {
			lines = append(lines, pricing.Line{Key: l.Product.ID, Price: l.Product.Price, Quantity: l.Quantity})
		}
		t := pricing.Price(rules.Input(lines, u.Country, u.State, "", nil))
		status := statuses[i%len(statuses)]
		o := &shop.Order{
			ID: fmt.Sprintf("NOC-DEMO-%03d", i+1), UserID: u.ID, Email: Email, Status: status,
			Subtotal: t.Subtotal, Shipping: t.Shipping, Tax: t.Tax, Total: t.Total, ShippingMethod: t.Method.Name,
			TaxIncluded: t.TaxIncluded, TaxLines: t.TaxLines,
			ShipTo:        shop.Address{Name: u.DisplayName, Street: u.Address, City: u.City, State: u.State, ZipCode: u.ZipCode, Country: u.Country, Phone: u.PhoneNumber},
			PaymentMethod: "Visa ending 4242", IdempotencyKey: "demo-" + shop.RandomHex(8), Currency: shop.OrderCurrency(),
			CreatedAt: now.Add(-time.Duration(i*3+1) * 24 * time.Hour).UTC().Truncate(time.Second),
		}
		if status == shop.StatusShipped || status == shop.StatusDelivered {
			o.TrackingNumber = fmt.Sprintf("1Z%09d", 100000000+i*7919)
		}
		for _, l := range cart.Lines {
			o.Lines = append(o.Lines, shop.OrderLine{ProductID: l.Product.ID, Name: l.Product.Title, Price: l.Product.Price, Quantity: l.Quantity, Image: l.Product.Image})
		}
		if err := s.InsertOrder(ctx, o); err != nil {
			return Account{}, fmt.Errorf("demo: %w", err)
		}
	}
	return Account{Email: Email, Password: password, Orders: OrderCount}, nil
}
