package checkout

import (
	"context"

	"github.com/nocturne/storefront/internal/shop"
)

// Refund gives amount of order o's payment back through the method that
// took it; each method makes a retried refund once (the intent's key sent
// as the provider's idempotency key, or a record per charge).
func (s *Service) Refund(ctx context.Context, o *shop.Order, amount shop.Cents, key string) error {
	if amount <= 0 {
		return nil
	}
	return s.Methods.For(o.PaymentProvider).Refund(ctx, o, amount, key)
}

// RefundOrphan gives a payment without an order back in full through the
// method that took it. Its key is the payment's own, never an order's, so
// a resend after a crash refunds it once.
func (s *Service) RefundOrphan(ctx context.Context, p shop.OrphanPayment) error {
	o := &shop.Order{ID: p.OrderID, PaymentProvider: p.Method, PaymentIntent: p.PaymentIntent, Currency: p.Currency, Total: p.Amount}
	return s.Methods.For(p.Method).Refund(ctx, o, p.Amount, "nocturne-orphan-refund-"+p.ID)
}

// Explain is what the mails and the back office say of o's payment, in
// its method's words.
func (s *Service) Explain(o *shop.Order) Explanation {
	return s.Methods.For(o.PaymentProvider).Explain(o)
}

// MethodWords are the words of the method named name.
func (s *Service) MethodWords(name string) Words { return s.Methods.For(name).Words() }
