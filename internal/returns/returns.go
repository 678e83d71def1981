// Package returns owns the shop's returns: when the items of an order may
// be sent back (within the return window after delivery, not final sale,
// never more than was bought), the reasons a shopper chooses from, the
// steps staff take on a request (approve or reject, receive with or
// without restocking, refund), and what the shopper is told at each step.
// The refund itself is the order's one refund path (package backoffice);
// this package only checks a return may be refunded and records that it
// was. See docs/decisions/0015-returns.md.
package returns

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/nocturne/storefront/internal/mail"
	"github.com/nocturne/storefront/internal/shop"
)

// Reason is one of the reasons a shopper gives for a return: the code
// stored, the label shown.
type Reason struct{ Code, Label string }

// Reasons are the reasons offered, in their order.
var Reasons = []Reason{
	{"doesnt_fit", "Doesn't fit"},
	{"not_as_described", "Not as described"},
	{"damaged", "Arrived damaged"},
	{"changed_mind", "Changed my mind"},
	{"other", "Other"},
}

// known reports whether code is one of the Reasons.
func known(code string) bool {
	for _, r := range Reasons {
		if r.Code == code {
			return true
		}
	}
	return false
}

// ReasonLabel is how a reason's code reads.
func ReasonLabel(code string) string {
	for _, r := range Reasons {
		if r.Code == code {
			return r.Label
		}
	}
	return code
}

// Messages of the return form and the staff's steps.
const (
	// MsgWindowClosed: %d is the window in days, %s the day it closed.
	MsgWindowClosed = "The %d-day return window for this order closed on %s."
	MsgFinalSale    = "This item can't be returned: it was sold as final sale."
	// MsgQuantity: %d is how many the line has.
	MsgQuantity       = "Enter a number from 0 to %d."
	MsgNothingChosen  = "Choose how many of each item you are sending back."
	MsgReasonRequired = "Choose why the items are going back."
	MsgCommentTooLong = "Too long (at most 500 characters)."
	MsgRejectWhy      = "Tell the shopper why (they read it)."
	MsgMessageTooLong = "Too long (at most 500 characters)."
	// MsgRefundNotReceived: %s is the return's state.
	MsgRefundNotReceived = "A return is refunded once its items are received; this one is %s."
)

// MaxText bounds the shopper's comment and the staff's message.
const MaxText = 500

// Orders is what the rules read of an order: the order, and its timeline
// (when it was delivered).
type Orders interface {
	Order(ctx context.Context, id string) (*shop.Order, error)
	OrderEvents(ctx context.Context, orderID string) ([]shop.OrderEvent, error)
}

// Products tells whether an order line's product is final sale.
type Products interface {
	AdminProduct(ctx context.Context, id string) (*shop.Product, error)
}

// Recorder writes to the audit log (backoffice.Service).
type Recorder interface {
	Record(ctx context.Context, actor, action, subject string, before, after any)
}

// Service applies the return rules and carries out each step.
type Service struct {
	Orders   Orders
	Products Products
	Returns  shop.ReturnStore
	Audit    Recorder
	// Refunds give money back through the order's payment method
	// (backoffice.Service); nil: a return's refund is refused.
	Refunds Refunder
	Mailer  mail.Mailer
	// WindowDays is how many days after delivery items may be returned
	// (RETURN_WINDOW_DAYS).
	WindowDays int
	BaseURL    string
	Now        func() time.Time
	Log        *slog.Logger
	// StaffEmail is mailed each return request; empty: none.
	StaffEmail string
}

// Line is an order line as the return form offers it.
type Line struct {
	// Line is its position in the order's lines.
	Line   int
	Label  string
	Bought int
	// Left is how many may still be returned: bought, less those in
	// requests not rejected.
	Left      int
	FinalSale bool
}

// Offer is what a shopper may return of an order now.
type Offer struct {
	// Open: the return form is offered, until Until.
	Open  bool
	Until time.Time
	// Closed says why a delivered order takes no more requests ("" when
	// it was not delivered, or when it is open).
	Closed  string
	Lines   []Line
	Returns []shop.ReturnRequest
}

// deliveredAt is when o was marked delivered: its timeline's last
// delivered step. An order delivered before the timeline was kept (the
// demo's) counts from when it was placed, which can only shorten its
// window.
func deliveredAt(o *shop.Order, events []shop.OrderEvent) time.Time {
	at := o.CreatedAt
	for _, e := range events {
		if shop.OrderStatus(e.Status) == shop.StatusDelivered {
			at = e.At
		}
	}
	return at
}

// Offer works out what of o may be returned now, with its requests so far.
func (s *Service) Offer(ctx context.Context, o *shop.Order) (Offer, error) {
	rs, err := s.Returns.OrderReturns(ctx, o.ID)
	if err != nil {
		return Offer{}, err
	}
	of := Offer{Returns: rs}
	if o.Status != shop.StatusDelivered {
		return of, nil
	}
	events, err := s.Orders.OrderEvents(ctx, o.ID)
	if err != nil {
		return Offer{}, err
	}
	of.Until = deliveredAt(o, events).Add(time.Duration(s.WindowDays) * 24 * time.Hour)
	of.Open = s.Now().Before(of.Until)
	if !of.Open {
		of.Closed = fmt.Sprintf(MsgWindowClosed, s.WindowDays, of.Until.UTC().Format("January 2, 2006"))
	}
	taken := map[int]int{}
	for _, r := range rs {
		if r.State == shop.ReturnRejected {
			continue
		}
		for _, l := range r.Lines {
			taken[l.Line] += l.Quantity
		}
	}
	for i, l := range o.Lines {
		final, err := s.finalSale(ctx, l.ProductID)
		if err != nil {
			return Offer{}, err
		}
		of.Lines = append(of.Lines, Line{Line: i, Label: l.Label(), Bought: l.Quantity, Left: max(l.Quantity-taken[i], 0), FinalSale: final})
	}
	return of, nil
}

// finalSale reports whether the product is final sale; a product removed
// since the order was placed is not.
func (s *Service) finalSale(ctx context.Context, productID string) (bool, error) {
	p, err := s.Products.AdminProduct(ctx, productID)
	switch {
	case shop.ErrorCode(err) == shop.ENOTFOUND:
		return false, nil
	case err != nil:
		return false, err
	}
	return p.FinalSale, nil
}

// Form is the shopper's return form as typed: a number per order line
// (by its position), the reason's code and a comment.
type Form struct {
	Qty     []string
	Reason  string
	Comment string
}

// QtyField is the form field of the order line at position line.
func QtyField(line int) string { return "qty-" + strconv.Itoa(line) }

// Request checks the shopper's form against the rules and stores the
// request. Whose order it is was checked by the caller; by is the
// shopper's account or guest id ("" for a visitor who looked it up).
// Every refusal comes back next to its field: "items" for the order as a
// whole (not delivered, window closed, nothing chosen).
func (s *Service) Request(ctx context.Context, o *shop.Order, by string, f Form) (*shop.ReturnRequest, shop.FieldErrors, error) {
	of, err := s.Offer(ctx, o)
	if err != nil {
		return nil, nil, err
	}
	errs := shop.FieldErrors{}
	switch {
	case o.Status != shop.StatusDelivered:
		errs["items"] = shop.MsgReturnNotDelivered
		return nil, errs, nil
	case !of.Open:
		errs["items"] = of.Closed
		return nil, errs, nil
	}
	r := &shop.ReturnRequest{OrderID: o.ID, Reason: strings.TrimSpace(f.Reason), RequestedBy: by,
		Comment: strings.TrimSpace(strings.ReplaceAll(f.Comment, "\r\n", "\n"))}
	r.Lines = chooseLines(of.Lines, f.Qty, errs)
	if len(r.Lines) == 0 && len(errs) == 0 {
		errs["items"] = MsgNothingChosen
	}
	if !known(r.Reason) {
		errs["reason"] = MsgReasonRequired
	}
	if len(r.Comment) > MaxText {
		errs["comment"] = MsgCommentTooLong
	}
	if len(errs) > 0 {
		return nil, errs, nil
	}
	if errs, err := createErrors(s.Returns.CreateReturn(ctx, r)); errs != nil || err != nil {
		return nil, errs, err
	}
	// The shopper's step is logged with the staff's, so the audit log tells
	// each request's whole story.
	s.Audit.Record(ctx, shop.ActorShopper, "return.requested", r.ID, nil,
		map[string]any{"order": o.ID, "state": r.State, "reason": r.Reason, "items": r.ItemCount()})
	if stored, err := s.Returns.ReturnRequest(ctx, r.ID); err == nil {
		r = stored
	}
	s.notify(context.WithoutCancel(ctx), r)
	s.notifyStaff(context.WithoutCancel(ctx), r)
	return r, nil, nil
}

// chooseLines reads the quantity typed for each line on offer (qty, by
// line position; empty or 0 is none). A quantity the line cannot give
// back gets its problem in errs, next to its field.
func chooseLines(lines []Line, qty []string, errs shop.FieldErrors) []shop.ReturnLine {
	var chosen []shop.ReturnLine
	for _, l := range lines {
		v := ""
		if l.Line < len(qty) {
			v = strings.TrimSpace(qty[l.Line])
		}
		if v == "" || v == "0" {
			continue
		}
		n, err := strconv.Atoi(v)
		field := QtyField(l.Line)
		switch {
		case err != nil || n < 0 || n > l.Bought:
			errs[field] = fmt.Sprintf(MsgQuantity, l.Bought)
		case n == 0:
		case l.FinalSale:
			errs[field] = MsgFinalSale
		case l.Left == 0:
			errs[field] = shop.MsgReturnNoneLeft
		case n > l.Left:
			errs[field] = fmt.Sprintf(shop.MsgReturnTooMany, l.Left)
		default:
			chosen = append(chosen, shop.ReturnLine{Line: l.Line, Quantity: n})
		}
	}
	return chosen
}

// createErrors sorts what storing a request answered: a refusal the
// shopper can act on comes back next to its field, anything else is an
// error.
func createErrors(err error) (shop.FieldErrors, error) {
	var se *shop.Error
	switch {
	case errors.As(err, &se) && se.Code == shop.EINVALID && se.Field != "":
		// Another request took the items meanwhile.
		return shop.FieldErrors{se.Field: se.Message}, nil
	case shop.ErrorCode(err) == shop.ECONFLICT:
		return shop.FieldErrors{"items": shop.ErrorMessage(err)}, nil
	}
	return nil, err
}

// load reads a request of orderID; one of another order is not found.
func (s *Service) load(ctx context.Context, orderID, returnID string) (*shop.ReturnRequest, error) {
	r, err := s.Returns.ReturnRequest(ctx, returnID)
	if err != nil {
		return nil, err
	}
	if r.OrderID != orderID {
		return nil, shop.Errorf(shop.ENOTFOUND, shop.MsgReturnNotFound)
	}
	return r, nil
}

// move takes a step on a request of orderID, then records it and tells
// the shopper.
func (s *Service) move(ctx context.Context, orderID string, m shop.ReturnMove) (*shop.ReturnRequest, error) {
	before, err := s.load(ctx, orderID, m.ID)
	if err != nil {
		return nil, err
	}
	// The states the step may start from are the table's, so the store's
	// conditional update and this service agree on every step.
	m.From, m.At = shop.ReturnMoves.From(m.To), s.Now().UTC()
	after, err := s.Returns.MoveReturn(ctx, m)
	if err != nil {
		return nil, err
	}
	record := map[string]any{"state": after.State}
	switch m.To {
	case shop.ReturnRejected:
		record["message"] = m.Message
	case shop.ReturnReceived:
		record["restocked"] = restocked(after)
	case shop.ReturnRefunded:
		record["refunded"] = m.Refunded.String()
	}
	s.Audit.Record(ctx, m.Actor, "return."+string(m.To), after.ID, map[string]string{"state": string(before.State)}, record)
	s.notify(context.WithoutCancel(ctx), after)
	return after, nil
}

// restocked names the items of r that went back into stock.
func restocked(r *shop.ReturnRequest) []string {
	out := []string{}
	for _, l := range r.Lines {
		if l.Restock {
			out = append(out, fmt.Sprintf("%d × %s", l.Quantity, l.Label))
		}
	}
	return out
}

// Approve accepts a request: the shopper is told to send the items.
func (s *Service) Approve(ctx context.Context, actor, orderID, returnID string) error {
	_, err := s.move(ctx, orderID, shop.ReturnMove{ID: returnID, To: shop.ReturnApproved, Actor: actor})
	return err
}

// Reject refuses a request (or an approved one whose items never came)
// with a message the shopper reads; its items may be asked for again.
func (s *Service) Reject(ctx context.Context, actor, orderID, returnID, message string) (shop.FieldErrors, error) {
	message = strings.TrimSpace(strings.ReplaceAll(message, "\r\n", "\n"))
	switch {
	case message == "":
		return shop.FieldErrors{"message": MsgRejectWhy}, nil
	case len(message) > MaxText:
		return shop.FieldErrors{"message": MsgMessageTooLong}, nil
	}
	_, err := s.move(ctx, orderID, shop.ReturnMove{ID: returnID, To: shop.ReturnRejected, Message: message, Actor: actor})
	return nil, err
}

// Receive records that an approved return's items arrived; the lines of
// restock (positions in the order) go back into stock.
func (s *Service) Receive(ctx context.Context, actor, orderID, returnID string, restock []int) error {
	_, err := s.move(ctx, orderID, shop.ReturnMove{ID: returnID, To: shop.ReturnReceived, Restock: restock, Actor: actor})
	return err
}

// Refundable reads a request of orderID that may be refunded now: its
// items were received. Anything else is an EINVALID saying where it is.
func (s *Service) Refundable(ctx context.Context, orderID, returnID string) (*shop.ReturnRequest, error) {
	r, err := s.load(ctx, orderID, returnID)
	if err != nil {
		return nil, err
	}
	if !shop.ReturnMoves.CanMove(r.State, shop.ReturnRefunded) {
		return nil, shop.Errorf(shop.EINVALID, MsgRefundNotReceived, strings.ToLower(shop.ReturnStateLabel(r.State)))
	}
	return r, nil
}

// Refunder makes a staff refund of an order for one of its returns
// (backoffice.Service.RefundReturn): the refund is counted and the return
// marked refunded in one unit of work.
type Refunder interface {
	RefundReturn(ctx context.Context, actor, orderID, returnID string, was, amount shop.Cents, reason string) error
}

// Refund refunds amount of a received return's order (the refund's own
// checks: what the confirmation showed, at most what is left) and marks
// the return refunded, in one unit of work: a return is never refunded
// without being marked, nor marked without the money going back. Then the
// step is audited and the shopper told, as every step of a return is.
func (s *Service) Refund(ctx context.Context, actor, orderID, returnID string, was, amount shop.Cents, reason string) error {
	if s.Refunds == nil {
		return errors.New("returns: no refunds")
	}
	before, err := s.Refundable(ctx, orderID, returnID)
	if err != nil {
		return err
	}
	if err := s.Refunds.RefundReturn(ctx, actor, orderID, before.ID, was, amount, reason); err != nil {
		return err
	}
	after, err := s.load(context.WithoutCancel(ctx), orderID, before.ID)
	if err != nil {
		return err
	}
	s.Audit.Record(ctx, actor, "return."+string(shop.ReturnRefunded), after.ID, map[string]string{"state": string(before.State)},
		map[string]any{"state": after.State, "refunded": amount.String()})
	s.notify(context.WithoutCancel(ctx), after)
	return nil
}

// RefundQty is what the refund's "items sent back" form takes for r: the
// number returned of each of the order's lines of lines.
func RefundQty(r *shop.ReturnRequest, lines int) []string {
	qty := make([]string, lines)
	for _, l := range r.Lines {
		if l.Line >= 0 && l.Line < lines {
			qty[l.Line] = strconv.Itoa(l.Quantity)
		}
	}
	return qty
}

// RefundReason is the refund's reason for r, as the shopper reads it.
func RefundReason(r *shop.ReturnRequest) string {
	return "Return " + r.ID + ": items sent back"
}

// notify e-mails the shopper about the request's new state.
func (s *Service) notify(ctx context.Context, r *shop.ReturnRequest) {
	var b strings.Builder
	var subject string
	items := func() {
		for _, l := range r.Lines {
			fmt.Fprintf(&b, "  %d × %s\n", l.Quantity, l.Label)
		}
	}
	switch r.State {
	case shop.ReturnRequested:
		subject = "Return request " + r.ID + " for order " + r.OrderID
		fmt.Fprintf(&b, "We received your request to return these items of order %s:\n\n", r.OrderID)
		items()
		fmt.Fprintf(&b, "\nReason: %s\n", ReasonLabel(r.Reason))
		if r.Comment != "" {
			fmt.Fprintf(&b, "Your note: %s\n", r.Comment)
		}
		fmt.Fprintf(&b, "\nWe'll look at it and e-mail you within one business day.\n")
	case shop.ReturnApproved:
		subject = "Your return " + r.ID + " is approved"
		fmt.Fprintf(&b, "Your return %s for order %s is approved. Please send these items back, unused and in their original packaging, with the return number %s on the parcel:\n\n", r.ID, r.OrderID, r.ID)
		items()
		fmt.Fprintf(&b, "\nWe'll refund them once they arrive.\n")
	case shop.ReturnRejected:
		subject = "Your return " + r.ID + " was not approved"
		fmt.Fprintf(&b, "We can't accept your return %s for order %s.\n\n%s\n\nIf you have a question, reply through our contact form.\n", r.ID, r.OrderID, r.StaffMessage)
	case shop.ReturnReceived:
		subject = "We received your return " + r.ID
		fmt.Fprintf(&b, "The items of your return %s for order %s arrived:\n\n", r.ID, r.OrderID)
		items()
		fmt.Fprintf(&b, "\nWe refund within 3-5 business days; your bank may take another 5-10 days to show it.\n")
	case shop.ReturnRefunded:
		subject = "Your return " + r.ID + " is refunded"
		fmt.Fprintf(&b, "We refunded %s for the items of your return %s (order %s). Refunds take 3-5 business days, plus 5-10 days for your bank.\n", r.Refunded, r.ID, r.OrderID)
	default:
		return
	}
	fmt.Fprintf(&b, "\nSee your order at %s/orders/%s (or look it up at %s/orders/lookup with your order number and this e-mail address).\n",
		s.BaseURL, r.OrderID, s.BaseURL)
	if r.Email == "" {
		return // an account deleted since: nowhere to write
	}
	if err := s.Mailer.Send(ctx, shop.Email{To: r.Email, Subject: subject, Body: b.String()}); err != nil {
		s.Log.Error("return e-mail", "err", err, "return", r.ID, "order", r.OrderID)
	}
}
