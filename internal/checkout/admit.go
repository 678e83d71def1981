package checkout

import (
	"context"

	"github.com/nocturne/storefront/internal/shop"
)

// AdmitMethod is a method that may refuse a shopper before an order is
// claimed, from what the shop already holds of them: a bank transfer
// refuses one whose earlier transfers still await payment. Claim can't
// ask: it has no context and runs inside the claim's transaction.
type AdmitMethod interface {
	Method
	// Admit refuses in with an EINVALID whose message says why, or
	// answers nil. in.UserID, in.Shipping.Email and in.Method are set.
	Admit(ctx context.Context, in PlaceInput) error
}

// Admit asks in.Method whether it takes an order from this shopper. The
// Payment step asks when the method is chosen, and Place asks again (a
// second tab may have placed one meanwhile). An order already placed
// from this very review (in.Key) is not refused: a second press of Place
// Order gets the truth about it.
func (s *Service) Admit(ctx context.Context, in PlaceInput) error {
	am, ok := s.Methods.For(in.Method).(AdmitMethod)
	if !ok {
		return nil
	}
	if in.Key != "" {
		if _, err := s.Orders.OrderByKey(ctx, in.Key); err == nil {
			return nil
		} else if shop.ErrorCode(err) != shop.ENOTFOUND {
			return err
		}
	}
	return am.Admit(ctx, in)
}
