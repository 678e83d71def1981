package backoffice

import (
	"context"
	"fmt"
	"time"

	"github.com/nocturne/storefront/internal/mail"
	"github.com/nocturne/storefront/internal/shop"
)

// Money that leaves the shop is an intent first (decision 0020): the refund
// is counted and its intent recorded in one transaction, then the method
// is asked with the intent's key as its idempotency key, then the intent
// is marked sent in a transaction that also writes the audit entry and the
// shopper's mail. A process that stops in between leaves an open intent,
// which SweepRefunds sends again (the provider pays a key once) or takes
// back. A method paid back by hand stays open until staff confirm.

// MsgRefundConfirmed: the refund paid back by hand was confirmed already.
const MsgRefundConfirmed = "This refund was already confirmed."

// defaultRefundLease is RefundLease's default: far longer than a refund
// call, short enough that a crash's refund is finished the same hour.
const defaultRefundLease = 5 * time.Minute

func (s *Service) refundLease() time.Duration {
	if s.RefundLease > 0 {
		return s.RefundLease
	}
	return defaultRefundLease
}

// byHand reports whether staff send o's money back themselves.
func (s *Service) byHand(o *shop.Order) bool {
	return s.Refunder != nil && s.Refunder.MethodWords(o.PaymentProvider).ByHand
}

// RefundWaits reports whether a refund of o waits for staff to pay it back
// by hand and confirm it, instead of going through a provider.
func (s *Service) RefundWaits(o *shop.Order) bool { return s.byHand(o) }

// newIntent is a refund intent of o by actor for reason, leased to the
// request making it; the store fills in its order and amounts.
func (s *Service) newIntent(o *shop.Order, actor, reason string) shop.RefundIntent {
	return shop.RefundIntent{Key: shop.NewRefundKey(o.ID), Method: o.PaymentProvider, ByHand: s.byHand(o),
		Actor: actor, Reason: reason, LeaseUntil: s.Now().UTC().Add(s.refundLease())}
}

// Refund gives amount of a paid order back for reason. It is counted in
// the store first, with its intent, only while the refunded amount still
// is was (what the confirmation showed), so a confirmation posted twice
// refunds once; then the provider is asked with the intent's key, and a
// refusal takes the count back. A bank transfer is sent back by hand: the
// refund waits for staff to confirm it.
func (s *Service) Refund(ctx context.Context, actor, orderID string, was, amount shop.Cents, reason string) error {
	return s.RefundReturn(ctx, actor, orderID, "", was, amount, reason)
}

// RefundReturn is Refund for the received return returnID ("" for none):
// the return is marked refunded in the same unit of work as the refund is
// counted, and unmarked with it when the provider refuses.
func (s *Service) RefundReturn(ctx context.Context, actor, orderID, returnID string, was, amount shop.Cents, reason string) error {
	o, err := s.Orders.Order(ctx, orderID)
	if err != nil {
		return err
	}
	if o.Status == shop.StatusPending {
		return shop.Errorf(shop.ENOTFOUND, shop.MsgOrderNotFound)
	}
	in := s.newIntent(o, actor, reason)
	claim := shop.RefundClaim{OrderID: o.ID, ReturnID: returnID, Was: was, Amount: amount,
		Note: fmt.Sprintf("Refunded %s: %s", amount, reason), Actor: actor, At: s.Now().UTC(), Intent: in}
	if err := s.Orders.ClaimRefund(ctx, claim); err != nil {
		return err
	}
	in.OrderID, in.ReturnID, in.Was, in.Amount = o.ID, returnID, was, amount
	return s.sendRefund(context.WithoutCancel(ctx), o, in)
}

// sendRefund asks o's method for the open intent in and completes it, or
// takes it back when the method refuses. A refund paid back by hand waits
// for staff.
func (s *Service) sendRefund(ctx context.Context, o *shop.Order, in shop.RefundIntent) error {
	if in.ByHand {
		return nil
	}
	if s.Refunder != nil {
		sent := *o
		sent.Refunded = in.Was
		if err := s.Refunder.Refund(ctx, &sent, in.Amount, in.Key); err != nil {
			undo := shop.RefundClaim{OrderID: in.OrderID, ReturnID: in.ReturnID, Was: in.Was, Amount: in.Amount, At: s.Now().UTC(), Intent: in}
			if uerr := s.Orders.UndoRefund(ctx, undo); uerr != nil {
				s.Log.Error("undo refund", "err", uerr, "order", o.ID, "refund", in.Key)
			}
			s.Log.Error("refund", "err", err, "order", o.ID, "refund", in.Key)
			return shop.Errorf(shop.EINVALID, MsgRefundFailed)
		}
	}
	if _, err := s.finishRefund(ctx, o, in); err != nil {
		s.Log.Error("finish refund", "err", err, "order", o.ID, "refund", in.Key)
	}
	return nil
}

// finishRefund marks in sent, with its audit entry and the shopper's mail
// in the same transaction when the mailer keeps mail in the database; an
// SMTP mail is sent once that transaction committed. It reports false when
// the intent was no longer open. A provider's refund went back whatever
// this returns: the sweep, which finds the intent still open after a
// failure, completes it (resending the same key pays once).
func (s *Service) finishRefund(ctx context.Context, o *shop.Order, in shop.RefundIntent) (bool, error) {
	now := s.Now().UTC()
	m := s.refundMail(o, in)
	d := shop.RefundDone{Key: in.Key, At: now, Audit: shop.AuditEntry{Actor: in.Actor, Action: "order.refund", Subject: o.ID,
		Before: auditText(map[string]string{"refunded": in.Was.String()}),
		After:  auditText(map[string]string{"refunded": (in.Was + in.Amount).String(), "reason": in.Reason}), CreatedAt: now}}
	kept := mail.Kept(s.Mailer)
	if kept {
		d.Mail = &m
	}
	done, err := s.Orders.FinishRefund(ctx, d)
	if err != nil {
		return false, fmt.Errorf("finish refund %s: %w", in.Key, err)
	}
	if done && !kept && s.Mailer != nil {
		if err := s.Mailer.Send(ctx, m); err != nil {
			s.Log.Error("refund e-mail", "err", err, "order", o.ID)
		}
	}
	return done, nil
}

// refundMail tells the shopper in's money went back, and how.
func (s *Service) refundMail(o *shop.Order, in shop.RefundIntent) shop.Email {
	how := "to your " + o.PaymentMethod
	if s.Refunder != nil {
		how = s.Refunder.Explain(o).RefundTo
	}
	body := fmt.Sprintf("We refunded %s of your order %s %s.\nReason: %s\n\nRefunds take 3-5 business days, plus 5-10 days for your bank.\n\nSee your order at %s/orders/%s.\n",
		in.Amount, o.ID, how, in.Reason, s.BaseURL, o.ID)
	return shop.Email{To: o.Email, Subject: "Refund for order " + o.ID, Body: body}
}

// sendCancelRefund sends the refund a cancel recorded as the intent key,
// and returns the order as it stands after: a refusal takes the refund
// back, so staff can refund the cancelled order again later.
func (s *Service) sendCancelRefund(ctx context.Context, o *shop.Order, key string) *shop.Order {
	in, err := s.Orders.RefundIntent(ctx, key)
	if shop.ErrorCode(err) == shop.ENOTFOUND {
		return o // the cancel refunded nothing
	} else if err != nil {
		s.Log.Error("cancel's refund", "err", err, "order", o.ID)
		return o
	}
	if err := s.sendRefund(ctx, o, *in); err == nil {
		return o
	}
	if now, err := s.Orders.Order(ctx, o.ID); err == nil {
		return now
	}
	return o
}

// SweepRefunds finishes or takes back the refunds a process left open
// past their lease: each is taken by one sweeper (a conditional lease),
// sent again with its key, so a refund the provider made before the crash
// is not made twice, then completed (audit entry and mail) or, refused,
// taken back. It reports how many were sent and taken back.
func (s *Service) SweepRefunds(ctx context.Context) (sent, undone int, err error) {
	now := s.Now().UTC()
	stale, err := s.Orders.StaleRefunds(ctx, now)
	if err != nil {
		return 0, 0, fmt.Errorf("refund sweep: %w", err)
	}
	for _, in := range stale {
		took, err := s.Orders.TakeRefund(ctx, in.Key, now, now.Add(s.refundLease()))
		if err != nil {
			return sent, undone, fmt.Errorf("refund sweep: take %s: %w", in.Key, err)
		}
		if !took {
			continue // another instance has it
		}
		o, err := s.Orders.Order(ctx, in.OrderID)
		if err != nil {
			return sent, undone, fmt.Errorf("refund sweep: order %s: %w", in.OrderID, err)
		}
		if err := s.sendRefund(ctx, o, in); err != nil {
			undone++
			continue
		}
		sent++
	}
	return sent, undone, nil
}

// RefundsByHand are the refunds staff still have to pay back themselves.
func (s *Service) RefundsByHand(ctx context.Context) ([]shop.RefundIntent, error) {
	return s.Orders.RefundsByHand(ctx)
}

// ConfirmRefundSent completes the refund key of order orderID that staff
// paid back by hand: it is audited under actor and the shopper mailed.
// Nothing is sent to a provider.
func (s *Service) ConfirmRefundSent(ctx context.Context, actor, orderID, key string) error {
	// The key came from a form: one that is not this order's refund paid
	// by hand is said so on the order's page.
	in, err := s.Orders.RefundIntent(ctx, key)
	if shop.ErrorCode(err) == shop.ENOTFOUND || (err == nil && (in.OrderID != orderID || !in.ByHand)) {
		return shop.Errorf(shop.EINVALID, MsgRefundNotFound)
	} else if err != nil {
		return err
	}
	if in.State != shop.RefundOpen {
		return shop.Errorf(shop.ECONFLICT, MsgRefundConfirmed)
	}
	o, err := s.Orders.Order(ctx, orderID)
	if err != nil {
		return err
	}
	in.Actor = actor
	done, err := s.finishRefund(context.WithoutCancel(ctx), o, *in)
	if err != nil {
		return err
	}
	if !done {
		return shop.Errorf(shop.ECONFLICT, MsgRefundConfirmed)
	}
	return nil
}

// MsgRefundNotFound: no refund paid back by hand has the key on the order.
const MsgRefundNotFound = "This refund was not found."
