package backoffice

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// RefundOrphan refunds a payment without an order in full, through the
// method that took it. The refund is claimed first (open → refunding), so
// two members of staff, or staff and the sweep, send it once; a provider
// that fails leaves it refunding, and the sweep sends it again (the
// provider's key makes that one refund).
func (s *Service) RefundOrphan(ctx context.Context, actor, id string) error {
	if err := s.Orphans.MoveOrphan(ctx, id, shop.OrphanRefunding, "", actor, s.Now().UTC()); err != nil {
		return err
	}
	p, err := s.Orphans.Orphan(ctx, id)
	if err != nil {
		return err
	}
	return s.finishOrphanRefund(ctx, actor, p)
}

// finishOrphanRefund sends a claimed refund and marks it refunded, with an
// audit entry and a mail to whoever paid.
func (s *Service) finishOrphanRefund(ctx context.Context, actor string, p *shop.OrphanPayment) error {
	bg := context.WithoutCancel(ctx)
	if s.Refunder == nil {
		return shop.Errorf(shop.EINVALID, MsgRefundFailed)
	}
	if err := s.Refunder.RefundOrphan(bg, *p); err != nil {
		s.Log.Error("refund payment without an order", "err", err, "payment", p.ID)
		return shop.Errorf(shop.EINVALID, MsgRefundFailed)
	}
	if err := s.Orphans.MoveOrphan(bg, p.ID, shop.OrphanRefunded, "", actor, s.Now().UTC()); err != nil {
		return err
	}
	s.Record(bg, actor, "payment.refund", p.ID, map[string]string{"state": string(p.State)},
		map[string]string{"state": string(shop.OrphanRefunded), "refunded": p.Amount.String(), "order": p.OrderID})
	if p.Email != "" {
		body := fmt.Sprintf("We could not complete order %s, so we refunded your payment of %s. Refunds take 3-5 business days, plus 5-10 days for your bank.\n\nWe are sorry for the trouble. Your cart is as you left it at %s/cart.\n",
			p.OrderID, p.Amount, s.BaseURL)
		if err := s.Mailer.Send(bg, shop.Email{To: p.Email, Subject: "Your payment for order " + p.OrderID + " was refunded", Body: body}); err != nil {
			s.Log.Error("refund e-mail", "err", err, "payment", p.ID)
		}
	}
	return nil
}

// SettleOrphan records that staff dealt with a payment without an order by
// hand (paid back outside the shop, or matched to an order), with why.
func (s *Service) SettleOrphan(ctx context.Context, actor, id, note string) (shop.FieldErrors, error) {
	note = strings.TrimSpace(note)
	switch {
	case note == "":
		return shop.FieldErrors{"note": shop.MsgOrphanNote}, nil
	case len(note) > 200:
		return shop.FieldErrors{"note": MsgTooLong}, nil
	}
	if err := s.Orphans.MoveOrphan(ctx, id, shop.OrphanSettled, note, actor, s.Now().UTC()); err != nil {
		return nil, err
	}
	s.Record(ctx, actor, "payment.settle", id, map[string]string{"state": string(shop.OrphanOpen)},
		map[string]string{"state": string(shop.OrphanSettled), "note": note})
	return nil, nil
}

// SweepOrphans refunds the payments without an order that staff left
// alone for after, and sends again the refunds a crash or a provider's
// failure left unfinished. It reports how many were refunded.
func (s *Service) SweepOrphans(ctx context.Context, after time.Duration) (int, error) {
	if s.Orphans == nil {
		return 0, nil
	}
	due, err := s.Orphans.Orphans(ctx, shop.OrphanOpen, shop.OrphanRefunding)
	if err != nil {
		return 0, err
	}
	n, cutoff := 0, s.Now().Add(-after)
	for _, p := range due {
		var err error
		switch {
		case p.State == shop.OrphanRefunding:
			err = s.finishOrphanRefund(ctx, "", &p)
		case !p.CreatedAt.After(cutoff):
			err = s.RefundOrphan(ctx, "", p.ID)
		default:
			continue
		}
		switch {
		case shop.ErrorCode(err) == shop.ECONFLICT:
			continue // another instance or a member of staff acted first
		case err != nil:
			s.Log.Error("payment sweep: refund payment without an order", "err", err, "payment", p.ID)
			continue
		}
		n++
	}
	return n, nil
}
