package handlers

import (
	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// MsgOrderCancelled confirms a shopper's own cancel.
const MsgOrderCancelled = "Your order is cancelled. The payment is refunded in full: allow 3-5 business days, plus 5-10 for your bank."

// orderTimeline adds the order's timeline and the shopper's cancel (within
// shop.CancelWindow of placing it) to the order page.
func (a *orderHandlers) orderTimeline(c *fiber.Ctx, p *pages.OrderPage) error {
	if a.events == nil {
		return nil
	}
	events, err := a.events.OrderEvents(c.UserContext(), p.Order.ID)
	if err != nil {
		return err
	}
	// Staff notes stay in the back office.
	p.Events = shop.ShopperTimeline(events)
	if a.cancels != nil && backoffice.CanShopperCancel(p.Order, a.Now()) {
		p.CanCancel = true
		p.CancelUntil = p.Order.CreatedAt.Add(shop.CancelWindow).Format("15:04 MST")
	}
	return nil
}

// cancelOrder is the shopper's own cancel: only the order's owner (or a
// visitor who looked it up in this session) may, within the window; the
// stock goes back and the payment is refunded.
func (a *orderHandlers) cancelOrder(c *fiber.Ctx) error {
	if a.cancels == nil {
		return fiber.ErrNotFound
	}
	o, err := a.orders.Order(c.UserContext(), c.Params("id"))
	if shop.ErrorCode(err) == shop.ENOTFOUND || (err == nil && o.Status == shop.StatusPending) {
		return fiber.ErrNotFound
	} else if err != nil {
		return err
	}
	if u := shop.UserFromContext(c.UserContext()); u == nil || u.ID != o.UserID {
		v, _ := a.sessions.Get(c, sessionLookup)
		if id, _ := v.(string); id != o.ID {
			return fiber.ErrNotFound
		}
	}
	here := "/orders/" + o.ID
	if err := a.cancels.ShopperCancel(c.UserContext(), o); err != nil {
		if code := shop.ErrorCode(err); code == shop.ECONFLICT || code == shop.EINVALID {
			return a.RedirectWithError(c, here, shop.ErrorMessage(err))
		}
		return err
	}
	return a.RedirectWithFlash(c, here, MsgOrderCancelled)
}
