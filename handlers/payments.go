package handlers

import (
	"context"
	"errors"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/checkout"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// Payments are the payment pages' part of the checkout service: closing a
// hosted payment page the shopper left, acting on a payment method's
// webhooks, and the methods' words.
type Payments interface {
	Abandon(ctx context.Context, o *shop.Order) (paid bool, err error)
	Webhook(ctx context.Context, method string, payload []byte, signature string) error
	MethodWords(name string) checkout.Words
	Explain(o *shop.Order) checkout.Explanation
}

// MsgPaymentAbandoned is the cart's flash after "Return to cart" on an
// unfinished payment.
const MsgPaymentAbandoned = "Your payment was cancelled and nothing was charged. Your cart is as you left it."

// orderStatus is the page a shopper returns to from a payment: what is
// known now, refreshing itself (no JavaScript) while the payment is being
// confirmed. It only reads.
func (a *orderHandlers) orderStatus(c *fiber.Ctx) error {
	o, err := a.visibleOrder(c)
	if errors.Is(err, fiber.ErrNotFound) {
		// A released order is gone: its payment did not complete, and a
		// card this shopper just gave may have been declined.
		p := pages.OrderStatusPage{OrderID: c.Params("id"), State: "gone"}
		if a.lastPayment != nil {
			last, err := a.lastPayment(c, p.OrderID)
			if err != nil {
				return err
			}
			p.Retry = last != ""
			if last == "declined" {
				p.State, p.Message, p.Reason = "declined", checkout.MsgOrderFailed, checkout.MsgCardDeclined
			}
		}
		return a.renderStatus(c, p)
	} else if err != nil {
		return err
	}
	p := pages.OrderStatusPage{OrderID: o.ID, Total: o.Total.String(), State: "processing", Refresh: pages.RefreshEvery}
	switch {
	case o.Status == shop.StatusPending:
		if a.payments.MethodWords(o.PaymentProvider).Card {
			// A card's charge takes seconds (the spec's two): look again
			// soon, as a spinner would.
			p.Refresh = pages.RefreshDemo
		}
	case o.PaymentStatus == shop.PaymentAwaiting:
		p.State = "awaiting"
	default:
		p.State = "paid"
	}
	return a.renderStatus(c, p)
}

func (a *orderHandlers) renderStatus(c *fiber.Ctx, p pages.OrderStatusPage) error {
	f := a.Frame(c, "Order "+p.OrderID)
	if p.State == "processing" {
		f.Head = pages.Refresh(p.Refresh)
	}
	return web.Render(c, fiber.StatusOK, pages.OrderStatus(f, p))
}

// paymentCancelled is where Stripe's page sends a shopper who cancels. It
// only reads: the order waits until they press "Return to cart" (a POST)
// or its page expires.
func (a *orderHandlers) paymentCancelled(c *fiber.Ctx) error {
	o, err := a.visibleOrderID(c, c.Query("order"))
	if errors.Is(err, fiber.ErrNotFound) {
		return c.Redirect("/cart", fiber.StatusSeeOther)
	} else if err != nil {
		return err
	}
	if o.Status != shop.StatusPending {
		return c.Redirect(checkout.StatusURL(o.ID), fiber.StatusSeeOther)
	}
	return web.Render(c, fiber.StatusOK, pages.PaymentCancelled(a.Frame(c, "Payment not finished"), pages.PaymentCancelledPage{Order: o}))
}

// abandon closes an unfinished payment and gives the cart back.
func (a *orderHandlers) abandon(c *fiber.Ctx) error {
	o, err := a.visibleOrder(c)
	if errors.Is(err, fiber.ErrNotFound) {
		return c.Redirect("/cart", fiber.StatusSeeOther)
	} else if err != nil {
		return err
	}
	paid, err := a.payments.Abandon(c.UserContext(), o)
	if err != nil {
		return err
	}
	if paid {
		return c.Redirect(checkout.StatusURL(o.ID), fiber.StatusSeeOther)
	}
	return a.RedirectWithFlash(c, "/cart", MsgPaymentAbandoned)
}

// webhookHandlers take the payment methods' webhooks. They run before
// sessions and the cross-origin guard: the caller is the provider's
// server, and the signature is the check.
type webhookHandlers struct {
	*web.Pages
	payments Payments
}

// webhook verifies and acts on one event for the method named in the
// address: 400 for a bad signature, a stale one or an amount that is not
// the order's (the provider's dashboard shows the failure), 404 for a
// method that takes no webhooks, 500 for a failure worth the provider's
// retry, 200 otherwise.
func (a *webhookHandlers) webhook(c *fiber.Ctx) error {
	method := c.Params("method")
	err := a.payments.Webhook(c.UserContext(), method, c.Body(), c.Get("Stripe-Signature"))
	switch {
	case errors.Is(err, checkout.ErrBadWebhook):
		a.Log.Warn("webhook refused", "method", method, "err", err, "request_id", web.RequestID(c))
		return c.Status(fiber.StatusBadRequest).SendString("bad signature")
	case errors.Is(err, checkout.ErrAmountMismatch):
		a.Log.Error("webhook: refused", "method", method, "err", err)
		return c.Status(fiber.StatusBadRequest).SendString("amount or currency differs from the order's")
	case shop.ErrorCode(err) == shop.ENOTFOUND:
		return fiber.ErrNotFound
	case err != nil:
		return err
	}
	return c.SendString("ok")
}
