package admin

import (
	"context"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// PaymentActions are the staff's actions on payments without an order
// (backoffice.Service).
type PaymentActions interface {
	RefundOrphan(ctx context.Context, actor, id string) error
	SettleOrphan(ctx context.Context, actor, id, note string) (shop.FieldErrors, error)
}

// paymentPages serve the payments without an order; admins only, as they
// move money.
type paymentPages struct {
	*web.Pages
	store   shop.OrphanStore
	service PaymentActions
	// refundAfter is how long an open one waits before it is refunded by
	// itself.
	refundAfter time.Duration
}

const paymentsPath = "/admin/payments"

func (a *paymentPages) adminPayments(c *fiber.Ctx) error {
	return a.render(c, fiber.StatusOK, pages.AdminPaymentsPage{})
}

func (a *paymentPages) render(c *fiber.Ctx, status int, p pages.AdminPaymentsPage) error {
	if a.store == nil {
		return fiber.ErrNotFound
	}
	var err error
	if p.Open, err = a.store.Orphans(c.UserContext(), shop.OrphanOpen, shop.OrphanRefunding); err != nil {
		return err
	}
	if p.Done, err = a.store.Orphans(c.UserContext(), shop.OrphanRefunded, shop.OrphanSettled); err != nil {
		return err
	}
	p.Nav, p.RefundAll = adminNav(c, backoffice.AreaMoney), a.refundAfter.String()
	return web.Render(c, status, pages.AdminPayments(a.Frame(c, "Payments without an order · Back office"), p))
}

// adminRefundPayment asks for a confirmation of what the refund does; it
// changes nothing.
func (a *paymentPages) adminRefundPayment(c *fiber.Ctx) error {
	if a.store == nil {
		return fiber.ErrNotFound
	}
	p, err := a.store.Orphan(c.UserContext(), c.Params("id"))
	if shop.ErrorCode(err) == shop.ENOTFOUND {
		return a.RedirectWithError(c, paymentsPath, shop.ErrorMessage(err))
	} else if err != nil {
		return err
	}
	return web.Render(c, fiber.StatusOK, pages.AdminConfirm(a.Frame(c, "Refund "+p.ID+" · Back office"), pages.AdminConfirmPage{
		Nav: adminNav(c, backoffice.AreaMoney), Back: paymentsPath, BackLabel: "Keep the payment for now",
		Text:    "Refund " + p.Amount.String() + " to " + orWho(p.Email) + " (" + p.Method + ")",
		Details: []string{"It was paid for order " + p.OrderID + ", which no longer exists. The payer is e-mailed."},
		Action:  paymentsPath + "/" + p.ID + "/refund/confirm",
	}))
}

func orWho(email string) string {
	if email == "" {
		return "whoever paid"
	}
	return email
}

// adminRefundPaymentConfirm refunds it; a second post refunds nothing more.
func (a *paymentPages) adminRefundPaymentConfirm(c *fiber.Ctx) error {
	if a.store == nil {
		return fiber.ErrNotFound
	}
	if err := a.service.RefundOrphan(c.UserContext(), staffEmail(c), c.Params("id")); err != nil {
		if code := shop.ErrorCode(err); code != shop.EINVALID && code != shop.ECONFLICT && code != shop.ENOTFOUND {
			return err
		}
		return a.RedirectWithError(c, paymentsPath, shop.ErrorMessage(err))
	}
	return a.RedirectWithFlash(c, paymentsPath, "Refunded; the payer was e-mailed.")
}

// adminSettlePayment records that staff dealt with it by hand; the note is
// required, and a refused one comes back next to its field.
func (a *paymentPages) adminSettlePayment(c *fiber.Ctx) error {
	if a.store == nil {
		return fiber.ErrNotFound
	}
	id, note := c.Params("id"), web.FormValue(c, "note")
	errs, err := a.service.SettleOrphan(c.UserContext(), staffEmail(c), id, note)
	switch code := shop.ErrorCode(err); {
	case errs != nil:
		return a.render(c, fiber.StatusUnprocessableEntity, pages.AdminPaymentsPage{NoteFor: id, Note: note, Errors: errs})
	case err != nil && code != shop.ECONFLICT && code != shop.ENOTFOUND:
		return err
	case err != nil:
		return a.RedirectWithError(c, paymentsPath, shop.ErrorMessage(err))
	}
	return a.RedirectWithFlash(c, paymentsPath, "Marked settled.")
}
