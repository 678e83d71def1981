package admin

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/money"
	"github.com/nocturne/storefront/internal/returns"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// Orders reads one order, for the order page and its actions.
type Orders interface {
	Order(ctx context.Context, id string) (*shop.Order, error)
}

// OrderActions are the staff's actions on an order (backoffice.Service).
type OrderActions interface {
	Ship(ctx context.Context, actor, orderID string, in backoffice.ShipInput) (shop.FieldErrors, error)
	Deliver(ctx context.Context, actor, orderID string) error
	Cancel(ctx context.Context, actor, orderID, reason string) (shop.FieldErrors, error)
	MarkPaid(ctx context.Context, actor, orderID string) error
	Refund(ctx context.Context, actor, orderID string, was, amount shop.Cents, reason string) error
	AddNote(ctx context.Context, actor, orderID, note string) (shop.FieldErrors, error)
	// What confirming a refund or a cancel does, and whether staff mark
	// the order paid by hand, in its payment method's words.
	RefundText(o *shop.Order, amount shop.Cents) string
	CancelText(o *shop.Order) string
	PaidByHand(o *shop.Order) bool
	// RefundWaits says o's refunds wait for staff to pay them back.
	RefundWaits(o *shop.Order) bool
	RefundsDue
	// ConfirmRefundSent completes a refund staff paid back by hand.
	ConfirmRefundSent(ctx context.Context, actor, orderID, key string) error
}

// RefundsDue lists the refunds staff still have to pay back by hand
// (backoffice.Service).
type RefundsDue interface {
	RefundsByHand(ctx context.Context) ([]shop.RefundIntent, error)
}

// refundsByHand are the open refunds of orderID staff pay back by hand.
func (a *orderPages) refundsByHand(c *fiber.Ctx, orderID string) ([]shop.RefundIntent, error) {
	all, err := a.service.RefundsByHand(c.UserContext())
	if err != nil {
		return nil, err
	}
	var mine []shop.RefundIntent
	for _, in := range all {
		if in.OrderID == orderID {
			mine = append(mine, in)
		}
	}
	return mine, nil
}

// adminRefundSent records that staff paid a refund back by hand: the
// refund is completed, audited and the shopper mailed.
func (a *orderPages) adminRefundSent(c *fiber.Ctx) error {
	o, err := a.loadAdminOrder(c)
	if err != nil {
		return err
	}
	err = a.service.ConfirmRefundSent(c.UserContext(), staffEmail(c), o.ID, web.FormValue(c, "refund"))
	return a.orderActionDone(c, o, pages.AdminOrderPage{}, nil, err, "Refund of order "+o.ID+" confirmed as sent; the shopper was e-mailed.")
}

// orderPages serve the order list, an order and the staff's actions on it.
type orderPages struct {
	*web.Pages
	orders     Orders
	fulfilment shop.FulfilmentStore
	service    OrderActions
	carriers   shop.CarrierStore
	// returns are the order's return requests and the staff's steps on
	// them; nil: none.
	returns     StaffReturns
	returnStore shop.ReturnStore
}

// adminOrdersQuery reads the list's filters; a date that does not parse is
// a field error (the list then shows without that filter).
func adminOrdersQuery(c *fiber.Ctx) (shop.AdminOrderQuery, shop.FieldErrors) {
	q := shop.AdminOrderQuery{Search: strings.TrimSpace(c.Query("q")), Page: pageParam(c)}
	for _, s := range shop.OrderStatuses {
		if c.Query("status") == string(s) {
			q.Status = s
		}
	}
	for _, s := range shop.PaymentStates {
		if c.Query("payment") == string(s) {
			q.Payment = s
		}
	}
	errs := shop.FieldErrors{}
	if v := c.Query("from"); v != "" {
		if t, err := time.Parse("2006-01-02", v); err == nil {
			q.From = t
		} else {
			errs["from"] = "Enter a date as YYYY-MM-DD."
		}
	}
	if v := c.Query("to"); v != "" {
		if t, err := time.Parse("2006-01-02", v); err == nil {
			q.To = t.AddDate(0, 0, 1) // the whole "to" day
		} else {
			errs["to"] = "Enter a date as YYYY-MM-DD."
		}
	}
	if len(errs) == 0 {
		errs = nil
	}
	return q, errs
}

func (a *orderPages) adminOrders(c *fiber.Ctx) error {
	q, errs := adminOrdersQuery(c)
	orders, total, err := a.fulfilment.AdminOrders(c.UserContext(), q)
	if err != nil {
		return err
	}
	p := pages.AdminOrdersPage{Nav: adminNav(c, backoffice.AreaOrders), Orders: orders, Total: total, Status: q.Status, Payment: q.Payment,
		From: c.Query("from"), To: c.Query("to"), Search: q.Search, Statuses: shop.OrderStatuses, Errors: errs}
	p.ListURL = backToList(string(c.Request().URI().RequestURI()))
	p.Pagination = web.Paginate(q.Page, lastPage(total, shop.AdminOrdersPageSize), func(n int) string {
		v := url.Values{}
		for _, k := range []string{"status", "payment", "from", "to", "q"} {
			if s := c.Query(k); s != "" {
				v.Set(k, s)
			}
		}
		if n > 1 {
			v.Set("page", strconv.Itoa(n))
		}
		return web.WithQuery("/admin/orders", v.Encode())
	})
	status := fiber.StatusOK
	if errs != nil {
		status = fiber.StatusUnprocessableEntity
	}
	return web.Render(c, status, pages.AdminOrders(a.Frame(c, "Orders · Back office"), p))
}

// loadAdminOrder returns the placed order of the route, or a 404.
func (a *orderPages) loadAdminOrder(c *fiber.Ctx) (*shop.Order, error) {
	o, err := a.orders.Order(c.UserContext(), c.Params("id"))
	if shop.ErrorCode(err) == shop.ENOTFOUND || (err == nil && o.Status == shop.StatusPending) {
		return nil, fiber.ErrNotFound
	}
	return o, err
}

func (a *orderPages) renderAdminOrder(c *fiber.Ctx, status int, p pages.AdminOrderPage) error {
	events, err := a.fulfilment.OrderEvents(c.UserContext(), p.Order.ID)
	if err != nil {
		return err
	}
	carriers, err := a.carriers.Carriers(c.UserContext())
	if err != nil {
		return err
	}
	p.Nav, p.Events, p.MarkPaid = adminNav(c, backoffice.AreaOrders), events, a.service.PaidByHand(p.Order)
	p.Money = backoffice.Allowed(staffRole(c), backoffice.AreaMoney)
	if p.RefundsByHand, err = a.refundsByHand(c, p.Order.ID); err != nil {
		return err
	}
	for _, cr := range carriers {
		p.Carriers = append(p.Carriers, cr.Name)
	}
	if err := a.orderReturns(c, &p); err != nil {
		return err
	}
	return web.Render(c, status, pages.AdminOrder(a.Frame(c, "Order "+p.Order.ID+" · Back office"), p))
}

func (a *orderPages) adminOrder(c *fiber.Ctx) error {
	o, err := a.loadAdminOrder(c)
	if err != nil {
		return err
	}
	return a.renderAdminOrder(c, fiber.StatusOK, pages.AdminOrderPage{Order: o, RefundAmount: money.Text(backoffice.Refundable(o))})
}

// adminRefund checks the refund form and shows what confirming will do;
// it changes nothing (the confirmation is a second POST).
func (a *orderPages) adminRefund(c *fiber.Ctx) error {
	o, err := a.loadAdminOrder(c)
	if err != nil {
		return err
	}
	ret, ok, err := a.refundReturn(c, o)
	if !ok {
		return err
	}
	amount, reason, errs := backoffice.ParseRefund(o, web.FormValue(c, "amount"), web.FormValue(c, "reason"))
	if errs != nil {
		return a.renderAdminOrder(c, fiber.StatusUnprocessableEntity, pages.AdminOrderPage{Order: o, Errors: errs,
			Error: "Please correct the fields marked below.", RefundAmount: web.FormValue(c, "amount"), RefundReason: web.FormValue(c, "reason"),
			RefundReturn: returnID(ret)})
	}
	return web.Render(c, fiber.StatusOK, pages.AdminRefundConfirm(a.Frame(c, "Refund "+o.ID+" · Back office"), pages.AdminRefundPage{
		Nav: adminNav(c, backoffice.AreaOrders), Order: o, Amount: money.Text(amount), Was: strconv.FormatInt(int64(o.Refunded), 10), Reason: reason,
		Text: a.service.RefundText(o, amount), Return: returnID(ret)}))
}

// adminRefundItems works out the refund of items sent back and puts it in
// the refund form, with what it is made of; it changes nothing.
func (a *orderPages) adminRefundItems(c *fiber.Ctx) error {
	o, err := a.loadAdminOrder(c)
	if err != nil {
		return err
	}
	qty := make([]string, len(o.Lines))
	for i := range qty {
		qty[i] = web.FormValue(c, "qty-"+strconv.Itoa(i))
	}
	p := pages.AdminOrderPage{Order: o, RefundQty: qty, RefundShipping: web.FormValue(c, "shipping") != ""}
	ret, ok, err := a.refundReturn(c, o)
	if !ok {
		return err
	}
	if ret != nil {
		// A return's items: the refund form says so and carries it, so
		// the refund, once made, marks the return refunded.
		p.RefundReturn, p.RefundReason = ret.ID, returns.RefundReason(ret)
	}
	r, errs := backoffice.RefundItems(o, qty, p.RefundShipping)
	if errs != nil {
		p.Errors, p.Error, p.RefundAmount = errs, "Please correct the fields marked below.", money.Text(backoffice.Refundable(o))
		return a.renderAdminOrder(c, fiber.StatusUnprocessableEntity, p)
	}
	p.RefundAmount, p.RefundBreakdown = money.Text(r.Amount), r.Breakdown()
	return a.renderAdminOrder(c, fiber.StatusOK, p)
}

// adminRefundConfirm makes the refund the confirmation page described; a
// second post of the same confirmation refunds nothing more.
func (a *orderPages) adminRefundConfirm(c *fiber.Ctx) error {
	o, err := a.loadAdminOrder(c)
	if err != nil {
		return err
	}
	// The refunded amount the confirmation showed, in cents (a hidden
	// field, never typed).
	w, werr := strconv.ParseInt(web.FormValue(c, "was"), 10, 64)
	was := shop.Cents(w)
	amount, reason, errs := backoffice.ParseRefund(&shop.Order{Total: o.Total, Refunded: was, PaymentStatus: shop.PaymentPaid},
		web.FormValue(c, "amount"), web.FormValue(c, "reason"))
	if werr != nil || errs != nil {
		return a.RedirectWithError(c, "/admin/orders/"+o.ID, "The refund form was incomplete; nothing was refunded. Please start again.")
	}
	ret, ok, err := a.refundReturn(c, o)
	if !ok {
		return err
	}
	done := a.service.RefundText(o, amount) + ": done; the shopper was e-mailed."
	if a.service.RefundWaits(o) {
		done = a.service.RefundText(o, amount) + ": recorded. Send the money back, then confirm it under \"Refunds to send\"; the shopper is e-mailed then."
	}
	if ret == nil {
		err = a.service.Refund(c.UserContext(), staffEmail(c), o.ID, was, amount, reason)
		return a.orderActionDone(c, o, pages.AdminOrderPage{}, nil, err, done)
	}
	// The return's refund marks it refunded in the same unit of work.
	if err = a.returns.Refund(c.UserContext(), staffEmail(c), o.ID, ret.ID, was, amount, reason); err == nil {
		done += " Return " + ret.ID + " is refunded."
	}
	return a.orderActionDone(c, o, pages.AdminOrderPage{}, nil, err, done)
}

// orderActionDone redirects back to the order after an action, or shows
// the order again with the action's error.
func (a *orderPages) orderActionDone(c *fiber.Ctx, o *shop.Order, p pages.AdminOrderPage, errs shop.FieldErrors, err error, done string) error {
	here := "/admin/orders/" + o.ID
	switch code := shop.ErrorCode(err); {
	case err == nil && errs == nil:
		return a.RedirectWithFlash(c, here, done)
	case err == nil:
		p.Order, p.Errors = o, errs
		p.Error = "Please correct the fields marked below."
		return a.renderAdminOrder(c, fiber.StatusUnprocessableEntity, p)
	case code == shop.ECONFLICT || code == shop.EINVALID:
		return a.RedirectWithError(c, here, shop.ErrorMessage(err))
	case code == shop.ENOTFOUND:
		return fiber.ErrNotFound
	}
	return err
}

func (a *orderPages) adminShip(c *fiber.Ctx) error {
	o, err := a.loadAdminOrder(c)
	if err != nil {
		return err
	}
	in := backoffice.ShipInput{Carrier: web.FormValue(c, "carrier"), Tracking: web.FormValue(c, "tracking")}
	errs, err := a.service.Ship(c.UserContext(), staffEmail(c), o.ID, in)
	return a.orderActionDone(c, o, pages.AdminOrderPage{Carrier: in.Carrier, Tracking: in.Tracking}, errs, err,
		"Order "+o.ID+" marked as shipped; the shopper was e-mailed.")
}

func (a *orderPages) adminDeliver(c *fiber.Ctx) error {
	o, err := a.loadAdminOrder(c)
	if err != nil {
		return err
	}
	err = a.service.Deliver(c.UserContext(), staffEmail(c), o.ID)
	return a.orderActionDone(c, o, pages.AdminOrderPage{}, nil, err, "Order "+o.ID+" marked as delivered; the shopper was e-mailed.")
}

// adminMarkPaid records a bank transfer's arrival.
func (a *orderPages) adminMarkPaid(c *fiber.Ctx) error {
	o, err := a.loadAdminOrder(c)
	if err != nil {
		return err
	}
	err = a.service.MarkPaid(c.UserContext(), staffEmail(c), o.ID)
	return a.orderActionDone(c, o, pages.AdminOrderPage{}, nil, err, "Order "+o.ID+" marked paid; the shopper was e-mailed, and it can ship.")
}
