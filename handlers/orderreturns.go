package handlers

import (
	"context"
	"fmt"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/session"
	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/returns"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// MsgReturnRequested confirms a return request; %s is its number.
const MsgReturnRequested = "Your return request %s is sent. We'll e-mail you once we've looked at it."

// ShopperReturns is the shopper's side of returns (returns.Service).
type ShopperReturns interface {
	Offer(ctx context.Context, o *shop.Order) (returns.Offer, error)
	Request(ctx context.Context, o *shop.Order, by string, f returns.Form) (*shop.ReturnRequest, shop.FieldErrors, error)
}

// orderReturns adds the order's returns to its page: the requests so far
// and, once it is delivered, the return form with what was typed (errs
// are a refused form's).
func (a *orderHandlers) orderReturns(c *fiber.Ctx, p *pages.OrderPage, typed returns.Form, errs shop.FieldErrors) error {
	if a.returns == nil || p.Order.Status == shop.StatusPending {
		return nil
	}
	of, err := a.returns.Offer(c.UserContext(), p.Order)
	if err != nil {
		return err
	}
	delivered := p.Order.Status == shop.StatusDelivered
	if !delivered && len(of.Returns) == 0 && errs == nil {
		return nil
	}
	r := &pages.OrderReturns{Requests: of.Returns, Reasons: web.ReturnReasons()}
	switch {
	case errs == nil:
	case !delivered:
		r.Error = errs["items"]
	case of.Closed != "":
		// The note in the form's place says the window closed.
	default:
		r.Error = "Please correct the fields marked below."
	}
	if delivered {
		f := &pages.ReturnForm{Action: "/orders/" + p.Order.ID + "/returns", Until: of.Until.UTC().Format("January 2, 2006"),
			Closed: of.Closed, Reason: typed.Reason, Comment: typed.Comment, Errors: errs}
		for _, l := range of.Lines {
			qty := ""
			if l.Line < len(typed.Qty) {
				qty = typed.Qty[l.Line]
			}
			f.Lines = append(f.Lines, pages.ReturnFormLine{Field: returns.QtyField(l.Line), Label: l.Label, Bought: l.Bought, Left: l.Left,
				FinalSale: l.FinalSale, Qty: qty})
		}
		r.Form = f
	}
	p.Returns = r
	return nil
}

// requestReturn is the shopper's return form: the order's owner, or a
// visitor who looked it up in this session, may send it (who may see an
// order may act on it, as with the shopper's cancel). A refused form
// shows the order again with each message next to its field.
func (a *orderHandlers) requestReturn(c *fiber.Ctx) error {
	if a.returns == nil {
		return fiber.ErrNotFound
	}
	o, err := a.visibleOrder(c)
	if err != nil {
		return err
	}
	if o.Status == shop.StatusPending {
		return fiber.ErrNotFound
	}
	var userID string
	if u := session.User(c); u != nil {
		userID = u.ID
	}
	f := returns.Form{Reason: web.FormValue(c, "reason"), Comment: web.FormValue(c, "comment")}
	for i := range o.Lines {
		f.Qty = append(f.Qty, web.FormValue(c, returns.QtyField(i)))
	}
	by := ""
	if o.OwnedBy(userID) {
		by = userID
	}
	r, errs, err := a.returns.Request(c.UserContext(), o, by, f)
	if err != nil {
		return err
	}
	if errs != nil {
		back, label := orderBack(o.OwnedBy(userID), "")
		p := pages.OrderPage{Order: o, Back: back, BackLabel: label, PayInstructions: a.instructions(o)}
		return a.renderOrder(c, fiber.StatusUnprocessableEntity, p, f, errs)
	}
	return a.RedirectWithFlash(c, "/orders/"+o.ID, fmt.Sprintf(MsgReturnRequested, r.ID))
}
