// Package backoffice owns the shop staff's rules: who may do
// what, the staff's steps on an order (which moves it may take are
// shop.OrderMoves), what the shopper is told at each step, and the audit
// log that records every staff action.
package backoffice

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/nocturne/storefront/internal/checkout"
	"github.com/nocturne/storefront/internal/mail"
	"github.com/nocturne/storefront/internal/money"
	"github.com/nocturne/storefront/internal/pricing"
	"github.com/nocturne/storefront/internal/shop"
)

// Areas of the back office, each allowed to some roles.
const (
	AreaDashboard = "dashboard"
	AreaOrders    = "orders"
	AreaMessages  = "messages"
	AreaProducts  = "products"
	AreaStaff     = "staff"
	AreaAudit     = "audit"
	// AreaCatalog is the catalogue file's import and export.
	AreaCatalog = "catalog"
	// AreaShipping, AreaTax and AreaCodes are the pricing settings:
	// shipping zones and methods, tax rates, and promo codes.
	AreaShipping = "shipping"
	AreaTax      = "tax"
	AreaCodes    = "codes"
	// AreaCarriers is the carriers and their tracking pages.
	AreaCarriers = "carriers"
	// AreaCustomers is the customer list and pages, AreaExports the
	// accountant's downloads: admins only (see customers.go).
	AreaCustomers = "customers"
	AreaExports   = "exports"
	// AreaMoney is money moving: refunds (a return's too), marking a bank
	// transfer received, confirming a refund paid back by hand. Admins
	// only: fulfilment staff ship and handle returns, and see that an
	// admin refunds.
	AreaMoney = "money"
	// AreaMail is the mail that has not reached the mail server yet, with
	// its errors and a retry. Admins only: the list names customers and
	// what the shop wrote to them.
	AreaMail = "mail"
)

// Allowed reports whether role may use area: admin everything; fulfilment
// the dashboard, orders and messages.
func Allowed(role, area string) bool {
	switch role {
	case shop.RoleAdmin:
		return true
	case shop.RoleFulfilment:
		return area == AreaDashboard || area == AreaOrders || area == AreaMessages
	}
	return false
}

// Messages of the order actions.
const (
	MsgCarrierRequired  = "Choose the carrier."
	MsgTrackingRequired = "Enter the tracking number."
	MsgTrackingInvalid  = "A tracking number is 4 to 40 letters, digits or dashes."
	MsgReasonRequired   = "Say why the order is cancelled."
	MsgTooLong          = "Too long (at most 200 characters)."
	MsgCancelWindow     = "This order can no longer be cancelled online: orders can be cancelled within 1 hour. Please contact us."
	MsgNotCancellable   = "This order can no longer be cancelled: it has been %s."
	// MsgShipFirst: delivering an order that has not shipped is not a race
	// with another member of staff but a step skipped.
	MsgShipFirst = "This order must be shipped before it can be marked delivered."
)

// Refunder gives (part of) an order's payment back through the method that
// took it, sending key as the provider's idempotency key, and says how in
// its words (checkout.Service).
type Refunder interface {
	Refund(ctx context.Context, o *shop.Order, amount shop.Cents, key string) error
	Explain(o *shop.Order) checkout.Explanation
	MethodWords(name string) checkout.Words
	RefundOrphan(ctx context.Context, p shop.OrphanPayment) error
}

// PaidByHand reports whether staff mark o paid when its money arrives
// (its method's words), while it awaits it.
func (s *Service) PaidByHand(o *shop.Order) bool {
	return s.Refunder != nil && s.Refunder.MethodWords(o.PaymentProvider).ByHand &&
		o.PaymentStatus == shop.PaymentAwaiting && o.Status == shop.StatusProcessing
}

// OrderStore is what the service needs of orders.
type OrderStore interface {
	Order(ctx context.Context, id string) (*shop.Order, error)
	shop.FulfilmentStore
	shop.PaymentStore
	shop.RefundIntentStore
	shop.OrderNoteStore
}

// CarrierList is the carriers a parcel can ship with (shop.CarrierStore).
type CarrierList interface {
	Carriers(ctx context.Context) ([]shop.Carrier, error)
}

// Service carries out staff (and shopper) actions on orders.
type Service struct {
	Orders   OrderStore
	Audit    shop.AuditStore
	Mailer   mail.Mailer
	Refunder Refunder // nil: no refunds (orders without a charge)
	// Carriers are the ship form's choices and their tracking pages; nil:
	// none, so nothing ships.
	Carriers CarrierList
	// Orphans are the payments without an order (nil: none kept).
	Orphans shop.OrphanStore
	BaseURL string
	// RefundLease is how long a refund under way is left to the request
	// that made it before the refund sweep may send it again (0: five
	// minutes); longer than a provider's call takes.
	RefundLease time.Duration
	Now         func() time.Time
	Log         *slog.Logger
}

// Record writes a staff action to the audit log; before and after are
// marshalled to JSON unless they are strings already. A failure is logged:
// the action itself stands.
func (s *Service) Record(ctx context.Context, actor, action, subject string, before, after any) {
	e := shop.AuditEntry{Actor: actor, Action: action, Subject: subject, Before: auditText(before), After: auditText(after), CreatedAt: s.Now().UTC()}
	if err := s.Audit.RecordAudit(context.WithoutCancel(ctx), e); err != nil {
		s.Log.Error("audit log", "err", err, "action", action, "subject", subject)
	}
}

func auditText(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(b)
}

// ShipInput is the ship form.
type ShipInput struct{ Carrier, Tracking string }

// Validate checks the tracking number and that the carrier is one of
// carriers.
func (in *ShipInput) Validate(carriers []shop.Carrier) shop.FieldErrors {
	in.Carrier, in.Tracking = strings.TrimSpace(in.Carrier), strings.ToUpper(strings.TrimSpace(in.Tracking))
	errs := shop.FieldErrors{}
	if _, known := shop.CarrierNamed(carriers, in.Carrier); !known || in.Carrier == "" {
		errs["carrier"] = MsgCarrierRequired
	}
	switch {
	case in.Tracking == "":
		errs["tracking"] = MsgTrackingRequired
	case len(in.Tracking) < 4 || len(in.Tracking) > 40 || strings.Trim(in.Tracking, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-") != "":
		errs["tracking"] = MsgTrackingInvalid
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// statusSnapshot is what the audit log keeps of an order before and after.
type statusSnapshot struct {
	Status   string `json:"status"`
	Carrier  string `json:"carrier,omitempty"`
	Tracking string `json:"tracking,omitempty"`
	Reason   string `json:"reason,omitempty"`
}

func snapshotOf(o *shop.Order) statusSnapshot {
	return statusSnapshot{Status: string(o.Status), Carrier: o.Carrier, Tracking: o.TrackingNumber, Reason: o.CancelReason}
}

// Ship marks a processing order shipped.
func (s *Service) Ship(ctx context.Context, actor, orderID string, in ShipInput) (shop.FieldErrors, error) {
	var carriers []shop.Carrier
	if s.Carriers != nil {
		var err error
		if carriers, err = s.Carriers.Carriers(ctx); err != nil {
			return nil, err
		}
	}
	if errs := in.Validate(carriers); errs != nil {
		return errs, nil
	}
	_, err := s.move(ctx, shop.Transition{OrderID: orderID, From: shop.StatusProcessing, To: shop.StatusShipped,
		Carrier: in.Carrier, Tracking: in.Tracking, Actor: actor})
	return nil, err
}

// Deliver marks a shipped order delivered.
func (s *Service) Deliver(ctx context.Context, actor, orderID string) error {
	_, err := s.move(ctx, shop.Transition{OrderID: orderID, From: shop.StatusShipped, To: shop.StatusDelivered, Actor: actor})
	return err
}

// Cancel cancels a processing order for a reason: the stock goes back and
// the payment is refunded.
func (s *Service) Cancel(ctx context.Context, actor, orderID, reason string) (shop.FieldErrors, error) {
	reason, errs := CancelReason(reason)
	if errs != nil {
		return errs, nil
	}
	_, err := s.move(ctx, shop.Transition{OrderID: orderID, From: shop.StatusProcessing, To: shop.StatusCancelled, Reason: reason, Actor: actor})
	return nil, err
}

// CancelReason checks the reason staff give for cancelling (the shopper
// reads it) and returns it trimmed.
func CancelReason(reason string) (string, shop.FieldErrors) {
	reason = strings.TrimSpace(strings.ReplaceAll(reason, "\r\n", "\n"))
	switch {
	case reason == "":
		return reason, shop.FieldErrors{"reason": MsgReasonRequired}
	case len(reason) > 200:
		return reason, shop.FieldErrors{"reason": MsgTooLong}
	}
	return reason, nil
}

// CanShopperCancel reports whether the shopper may still cancel o at now.
func CanShopperCancel(o *shop.Order, now time.Time) bool {
	return shop.OrderMoves.CanMove(o.Status, shop.StatusCancelled) && now.Before(o.CreatedAt.Add(shop.CancelWindow))
}

// ShopperCancel cancels the shopper's own order within the cancel window.
// Whose order it is was checked by the caller.
func (s *Service) ShopperCancel(ctx context.Context, o *shop.Order) error {
	if !shop.OrderMoves.CanMove(o.Status, shop.StatusCancelled) {
		return shop.Errorf(shop.ECONFLICT, MsgNotCancellable, o.Status)
	}
	if !CanShopperCancel(o, s.Now()) {
		return shop.Errorf(shop.ECONFLICT, MsgCancelWindow)
	}
	_, err := s.move(ctx, shop.Transition{OrderID: o.ID, From: shop.StatusProcessing, To: shop.StatusCancelled,
		Reason: "Cancelled by the shopper", Actor: shop.ActorShopper})
	return err
}

// move applies t, then refunds, records and tells the shopper.
func (s *Service) move(ctx context.Context, t shop.Transition) (*shop.Order, error) {
	if !shop.OrderMoves.CanMove(t.From, t.To) {
		return nil, fmt.Errorf("move order %s from %s to %s: not a move of shop.OrderMoves", t.OrderID, t.From, t.To)
	}
	before, err := s.Orders.Order(ctx, t.OrderID)
	if err != nil {
		return nil, err
	}
	switch {
	case before.Status == shop.StatusPending:
		return nil, shop.Errorf(shop.ENOTFOUND, shop.MsgOrderNotFound)
	case before.Status != t.From && shop.OrderMoves.CanMove(before.Status, t.From):
		// The order has not reached the move's start yet: a step skipped
		// (delivering an order not shipped), not a race with someone.
		return nil, shop.Errorf(shop.ECONFLICT, MsgShipFirst)
	}
	t.At = s.Now().UTC()
	if t.To == shop.StatusCancelled && before.Paid() {
		t.Refund = s.newIntent(before, t.Actor, t.Reason)
	}
	after, err := s.Orders.TransitionOrder(ctx, t)
	if err != nil {
		return nil, err
	}
	bg := context.WithoutCancel(ctx)
	if t.Refund.Key != "" {
		after = s.sendCancelRefund(bg, after, t.Refund.Key)
	}
	if t.Actor != shop.ActorShopper {
		s.Record(ctx, t.Actor, "order."+string(t.To), after.ID, snapshotOf(before), snapshotOf(after))
	}
	s.notify(bg, after)
	return after, nil
}

// notify e-mails the shopper about the order's new status.
func (s *Service) notify(ctx context.Context, o *shop.Order) {
	var b strings.Builder
	var subject string
	switch o.Status {
	case shop.StatusShipped:
		subject = "Your order " + o.ID + " has shipped"
		fmt.Fprintf(&b, "Good news: your order %s is on its way.\n\nCarrier: %s\nTracking number: %s\n", o.ID, o.Carrier, o.TrackingNumber)
		if link := s.TrackingURL(ctx, o); link != "" {
			fmt.Fprintf(&b, "Track it: %s\n", link)
		}
	case shop.StatusDelivered:
		subject = "Your order " + o.ID + " was delivered"
		fmt.Fprintf(&b, "Your order %s was delivered. We hope you enjoy it.\n", o.ID)
	case shop.StatusCancelled:
		subject = "Your order " + o.ID + " was cancelled"
		fmt.Fprintf(&b, "Your order %s was cancelled.\nReason: %s\n\n", o.ID, o.CancelReason)
		if o.PaymentStatus == shop.PaymentRefunded {
			fmt.Fprintf(&b, "%s is refunded to your %s; refunds take 3-5 business days, plus 5-10 days for your bank.\n", o.Refunded, o.PaymentMethod)
		} else {
			fmt.Fprintf(&b, "No payment was taken, so there is nothing to refund.\n")
		}
	default:
		return
	}
	fmt.Fprintf(&b, "\nSee your order at %s/orders/%s (or look it up at %s/orders/lookup with your order number and this e-mail address).\n",
		s.BaseURL, o.ID, s.BaseURL)
	if err := s.Mailer.Send(ctx, shop.Email{To: o.Email, Subject: subject, Body: b.String()}); err != nil {
		s.Log.Error("order status e-mail", "err", err, "order", o.ID)
	}
}

// MarkPaid records that an order awaiting a bank transfer was paid: staff
// saw the money arrive. The shopper is told, and the order can ship.
func (s *Service) MarkPaid(ctx context.Context, actor, orderID string) error {
	before, err := s.Orders.Order(ctx, orderID)
	if err != nil {
		return err
	}
	if before.Status == shop.StatusPending {
		return shop.Errorf(shop.ENOTFOUND, shop.MsgOrderNotFound)
	}
	after, err := s.Orders.MarkPaid(ctx, orderID, actor, s.Now().UTC())
	if err != nil {
		return err
	}
	s.Record(ctx, actor, "order.paid", after.ID, map[string]string{"payment": string(before.PaymentStatus)}, map[string]string{"payment": string(after.PaymentStatus)})
	body := fmt.Sprintf("We received your payment of %s for order %s. We'll let you know when it ships.\n\nSee your order at %s/orders/%s.\n",
		after.Total, after.ID, s.BaseURL, after.ID)
	if err := s.Mailer.Send(context.WithoutCancel(ctx), shop.Email{To: after.Email, Subject: "Payment received for order " + after.ID, Body: body}); err != nil {
		s.Log.Error("payment e-mail", "err", err, "order", after.ID)
	}
	return nil
}

// ExpireUnpaid cancels every order of a method paid by hand (w.ByHand)
// still unpaid w.Hold after it was placed, with w.Lapsed as the reason:
// its stock goes back on sale and the shopper is told. Each cancel is a
// conditional update, so instances sweeping at once cancel (and mail) an
// order once.
func (s *Service) ExpireUnpaid(ctx context.Context, method string, w checkout.Words) (int, error) {
	if !w.ByHand {
		return 0, nil
	}
	stale, err := s.Orders.UnpaidSince(ctx, method, s.Now().Add(-w.Hold))
	if err != nil {
		return 0, err
	}
	n := 0
	for _, o := range stale {
		_, err := s.move(ctx, shop.Transition{OrderID: o.ID, From: shop.StatusProcessing, To: shop.StatusCancelled, Reason: w.Lapsed, Unpaid: true})
		switch {
		case shop.ErrorCode(err) == shop.ECONFLICT || shop.ErrorCode(err) == shop.ENOTFOUND:
			continue // paid or cancelled meanwhile, or by another instance
		case err != nil:
			return n, fmt.Errorf("expire unpaid order %s: %w", o.ID, err)
		}
		n++
	}
	return n, nil
}

// Messages of the refund form. MsgRefundAmount takes an example amount in
// the shop's currency ("12.50").
const (
	MsgRefundAmount = "Enter the amount to refund, such as %s."
	MsgRefundReason = "Say why the money goes back (the shopper reads it)."
)

// Refundable is what is left to refund of o: nothing unless it was paid.
func Refundable(o *shop.Order) shop.Cents {
	if !o.Paid() {
		return 0
	}
	return o.Total - o.Refunded
}

// ParseRefund checks the refund form against o: an amount above zero and
// no more than is left, and a reason.
func ParseRefund(o *shop.Order, amount, reason string) (shop.Cents, string, shop.FieldErrors) {
	errs := shop.FieldErrors{}
	reason = strings.TrimSpace(strings.ReplaceAll(reason, "\r\n", "\n"))
	switch {
	case reason == "":
		errs["reason"] = MsgRefundReason
	case len(reason) > 200:
		errs["reason"] = MsgTooLong
	}
	c, err := money.Parse(amount)
	switch {
	case err != nil:
		errs["amount"] = fmt.Sprintf(MsgRefundAmount, money.Example(1250))
	case c > Refundable(o):
		errs["amount"] = fmt.Sprintf(shop.MsgRefundTooMuch, Refundable(o))
	}
	if len(errs) > 0 {
		return 0, reason, errs
	}
	return c, reason, nil
}

// RefundText says what confirming a refund of amount of o does, in the
// words of its payment method.
func (s *Service) RefundText(o *shop.Order, amount shop.Cents) string {
	if s.Refunder == nil {
		return fmt.Sprintf("Record a refund of %s", amount)
	}
	return fmt.Sprintf(s.Refunder.Explain(o).Refund, amount)
}

// MsgRefundFailed: the provider refused; nothing was refunded.
const MsgRefundFailed = "The payment provider did not make the refund, so nothing was refunded. Please try again later."

// MsgRefundQuantity refuses a number of items sent back that the line
// does not have.
const MsgRefundQuantity = "Enter a number from 0 to %d."

// MsgRefundNothing asks for at least one item (or the shipping).
const MsgRefundNothing = "Choose the items sent back, or the shipping."

// ItemsRefund is what giving back some of an order's items comes to: the
// amount, and the tax and discount share it holds (pricing.Quote.Refund).
type ItemsRefund struct {
	Amount, Tax, DiscountKept shop.Cents
}

// Breakdown says what the amount is made of, for staff to check before they
// refund it.
func (r ItemsRefund) Breakdown() string {
	s := fmt.Sprintf("The items come to %s, with %s of tax", r.Amount, r.Tax)
	if r.DiscountKept > 0 {
		s += fmt.Sprintf("; %s of the order's discount stays with them", r.DiscountKept)
	}
	return s + "."
}

// RefundItems works out what giving back the items of o counted in qty (a
// line's position to how many of it; typed, so checked here) and, when
// shipping, its shipping comes to: each line's share of the discount and
// the tax, by the rule that priced the order, and never more than is left
// to refund.
func RefundItems(o *shop.Order, qty []string, shipping bool) (ItemsRefund, shop.FieldErrors) {
	errs := shop.FieldErrors{}
	back := map[string]int{}
	chosen := shipping
	for i, l := range o.Lines {
		s := ""
		if i < len(qty) {
			s = strings.TrimSpace(qty[i])
		}
		if s == "" {
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n > l.Quantity {
			errs[fmt.Sprintf("qty-%d", i)] = fmt.Sprintf(MsgRefundQuantity, l.Quantity)
			continue
		}
		back[strconv.Itoa(i)] = n
		chosen = chosen || n > 0
	}
	if len(errs) == 0 && !chosen {
		errs["items"] = MsgRefundNothing
	}
	if len(errs) > 0 {
		return ItemsRefund{}, errs
	}
	r := pricing.PlacedQuote(*o).Refund(back, shipping)
	return ItemsRefund{Amount: min(r.Amount, Refundable(o)), Tax: r.Tax, DiscountKept: r.Discount}, nil
}
