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

// Explain is what the mails and the back office say of o's payment, in
// its method's words.
func (s *Service) Explain(o *shop.Order) Explanation {
	return s.Methods.For(o.PaymentProvider).Explain(o)
}

// MethodWords are the words of the method named name.
func (s *Service) MethodWords(name string) Words { return s.Methods.For(name).Words() }
