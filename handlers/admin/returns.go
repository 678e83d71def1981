package admin

import (
	"context"
	"net/url"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/money"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// StaffReturns are the staff's steps on return requests (returns.Service).
type StaffReturns interface {
	Approve(ctx context.Context, actor, orderID, returnID string) error
	Reject(ctx context.Context, actor, orderID, returnID, message string) (shop.FieldErrors, error)
	Receive(ctx context.Context, actor, orderID, returnID string, restock []int) error
	Refundable(ctx context.Context, orderID, returnID string) (*shop.ReturnRequest, error)
	Refund(ctx context.Context, actor, orderID, returnID string, was, amount shop.Cents, reason string) error
}

// returnPages serve the list of every order's return requests.
type returnPages struct {
	*web.Pages
	store shop.ReturnStore
}

// adminReturns lists return requests, newest first, by state.
func (a *returnPages) adminReturns(c *fiber.Ctx) error {
	if a.store == nil {
		return fiber.ErrNotFound
	}
	q := shop.ReturnQuery{Page: pageParam(c)}
	for _, s := range shop.ReturnStates {
		if c.Query("state") == string(s) {
			q.State = s
		}
	}
	rs, total, err := a.store.ReturnRequests(c.UserContext(), q)
	if err != nil {
		return err
	}
	nav := adminNav(c, backoffice.AreaOrders)
	nav.CurrentURL = "/admin/returns"
	p := pages.AdminReturnsPage{Nav: nav, Requests: rs, Reasons: web.ReturnReasons(), Total: total, State: q.State}
	p.Pagination = web.Paginate(q.Page, lastPage(total, shop.ReturnsPageSize), func(n int) string {
		v := url.Values{}
		if q.State != "" {
			v.Set("state", string(q.State))
		}
		if n > 1 {
			v.Set("page", strconv.Itoa(n))
		}
		return web.WithQuery("/admin/returns", v.Encode())
	})
	return web.Render(c, fiber.StatusOK, pages.AdminReturns(a.Frame(c, "Returns · Back office"), p))
}

// orderReturns adds the order's return requests to its page.
func (a *orderPages) orderReturns(c *fiber.Ctx, p *pages.AdminOrderPage) error {
	if a.returnStore == nil {
		return nil
	}
	rs, err := a.returnStore.OrderReturns(c.UserContext(), p.Order.ID)
	if err != nil || len(rs) == 0 {
		return err
	}
	if p.Returns == nil {
		p.Returns = &pages.AdminOrderReturns{}
	}
	p.Returns.Requests, p.Returns.Reasons = rs, web.ReturnReasons()
	p.Returns.Refundable = backoffice.Refundable(p.Order) > 0
	p.Returns.AdminOnly = !p.Money
	return nil
}

// returnStep loads the route's order for a step on one of its returns
// (the form's "return"); nil when the back office has no returns.
func (a *orderPages) returnStep(c *fiber.Ctx) (*shop.Order, string, error) {
	if a.returns == nil {
		return nil, "", fiber.ErrNotFound
	}
	o, err := a.loadAdminOrder(c)
	return o, web.FormValue(c, "return"), err
}

// returnDone redirects back to the order after a step on a return, or
// back with the step's refusal. A return that is not the order's (or not
// there) is said so on the order's page: its id came from a form.
func (a *orderPages) returnDone(c *fiber.Ctx, o *shop.Order, err error, done string) error {
	here := "/admin/orders/" + o.ID
	switch code := shop.ErrorCode(err); {
	case err == nil:
		return a.RedirectWithFlash(c, here, done)
	case code == shop.ECONFLICT || code == shop.EINVALID || code == shop.ENOTFOUND:
		return a.RedirectWithError(c, here, shop.ErrorMessage(err))
	}
	return err
}

func (a *orderPages) adminApproveReturn(c *fiber.Ctx) error {
	o, id, err := a.returnStep(c)
	if err != nil {
		return err
	}
	err = a.returns.Approve(c.UserContext(), staffEmail(c), o.ID, id)
	return a.returnDone(c, o, err, "Return "+id+" approved; the shopper was e-mailed to send the items.")
}

// adminRejectReturn refuses a return with a message; without one the
// order's page shows again with the message asked for next to its box.
func (a *orderPages) adminRejectReturn(c *fiber.Ctx) error {
	o, id, err := a.returnStep(c)
	if err != nil {
		return err
	}
	message := web.FormValue(c, "message")
	errs, err := a.returns.Reject(c.UserContext(), staffEmail(c), o.ID, id, message)
	if err == nil && errs != nil {
		return a.renderAdminOrder(c, fiber.StatusUnprocessableEntity, pages.AdminOrderPage{Order: o, Error: "Please correct the fields marked below.",
			Returns: &pages.AdminOrderReturns{RejectFor: id, RejectMessage: message, Errors: errs}, RefundAmount: money.Text(backoffice.Refundable(o))})
	}
	return a.returnDone(c, o, err, "Return "+id+" rejected; the shopper was e-mailed why.")
}

// adminReceiveReturn records a return's items as arrived; the lines ticked
// go back into stock.
func (a *orderPages) adminReceiveReturn(c *fiber.Ctx) error {
	o, id, err := a.returnStep(c)
	if err != nil {
		return err
	}
	var restock []int
	for _, v := range web.FormValues(c, "restock") {
		if n, err := strconv.Atoi(v); err == nil {
			restock = append(restock, n)
		}
	}
	err = a.returns.Receive(c.UserContext(), staffEmail(c), o.ID, id, restock)
	done := "Return " + id + " received; the shopper was e-mailed."
	if len(restock) > 0 {
		done = "Return " + id + " received and back in stock; the shopper was e-mailed."
	}
	return a.returnDone(c, o, err, done)
}

// refundReturn is the return a refund form is for (its "return" field,
// "" for none), checked to be refundable now. ok is false when it is not:
// the answer (back to the order, saying why) was sent.
func (a *orderPages) refundReturn(c *fiber.Ctx, o *shop.Order) (r *shop.ReturnRequest, ok bool, err error) {
	id := web.FormValue(c, "return")
	if id == "" || a.returns == nil {
		return nil, true, nil
	}
	r, err = a.returns.Refundable(c.UserContext(), o.ID, id)
	if err != nil {
		return nil, false, a.returnDone(c, o, err, "")
	}
	return r, true, nil
}

// returnID is r's id, "" for none.
func returnID(r *shop.ReturnRequest) string {
	if r == nil {
		return ""
	}
	return r.ID
}
