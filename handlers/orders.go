package handlers

import (
	"context"
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/session"
	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/returns"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// Texts of the orders pages (the spec's error catalogue).
const (
	MsgOrdersFailed = "Failed to load your orders. Please try again later."
	MsgLookupFailed = "We could not find an order with that number and e-mail address."
	sessionLookup   = "order_lookup"
)

// orderHandlers serve a shopper's orders: the list, one order (and its
// cancelling), and the guest lookup.
type orderHandlers struct {
	*web.Pages
	orders   shop.OrderStore
	sessions Sessions
	// events and cancels are the back office's order history and the
	// shopper's own cancel; nil: neither is shown.
	events  OrderEvents
	cancels ShopperCancels
	// tracking links a shipped order to its carrier's page; nil: no link.
	tracking TrackingLinks
	payments Payments
	// lastPayment tells what became of a released order's demo payment,
	// when it was this shopper's (the checkout's session knows).
	lastPayment func(c *fiber.Ctx, orderID string) (string, error)
	// returns are the shopper's returns (package returns); nil: none.
	returns ShopperReturns
}

// OrderEvents is the order history an order page shows.
type OrderEvents interface {
	OrderEvents(ctx context.Context, orderID string) ([]shop.OrderEvent, error)
}

// TrackingLinks finds the carrier's page that tracks an order's parcel.
type TrackingLinks interface {
	TrackingURL(ctx context.Context, o *shop.Order) string
}

// ShopperCancels cancels an order for the shopper who placed it.
type ShopperCancels interface {
	ShopperCancel(ctx context.Context, o *shop.Order) error
}

// routes registers the orders' routes; perIP limits the guest lookup.
func (a *orderHandlers) routes(app *fiber.App, perIP func(name string, max int) fiber.Handler) {
	app.Get("/orders", session.RequireUser, a.ordersPage)
	app.Get("/orders/lookup", a.lookupPage)
	app.Post("/orders/lookup", perIP("lookup", 10), a.lookupSubmit)
	app.Get("/orders/:id", a.orderPage)
	app.Post("/orders/:id/cancel", a.cancelOrder) // within the hour
	app.Get("/orders/:id/status", a.orderStatus)
	app.Get("/checkout/cancelled", a.paymentCancelled)
	app.Post("/orders/:id/abandon", a.abandon)
	app.Post("/orders/:id/returns", a.requestReturn)
}

// visibleOrder is the route's order if this shopper may see it (see
// shop.Order.VisibleTo), else fiber.ErrNotFound.
func (a *orderHandlers) visibleOrder(c *fiber.Ctx) (*shop.Order, error) {
	return a.visibleOrderID(c, c.Params("id"))
}

func (a *orderHandlers) visibleOrderID(c *fiber.Ctx, id string) (*shop.Order, error) {
	if id == "" {
		return nil, fiber.ErrNotFound
	}
	o, err := a.orders.Order(c.UserContext(), id)
	if shop.ErrorCode(err) == shop.ENOTFOUND {
		return nil, fiber.ErrNotFound
	} else if err != nil {
		return nil, err
	}
	var userID string
	if u := session.User(c); u != nil {
		userID = u.ID
	}
	v, _ := a.sessions.Get(c, sessionLookup)
	if lookedUp, _ := v.(string); !o.VisibleTo(userID, lookedUp) {
		return nil, fiber.ErrNotFound
	}
	return o, nil
}

var orderSorts = []string{"date", "total", "status"}

// ordersQuery reads the list's filter and sort: unknown values fall back to
// the default, date newest first.
func ordersQuery(c *fiber.Ctx, userID string) shop.OrderQuery {
	q := shop.OrderQuery{UserID: userID, Sort: "date", Desc: true, Page: 1}
	for _, s := range shop.OrderStatuses {
		if c.Query("status") == string(s) {
			q.Status = s
		}
	}
	for _, s := range orderSorts {
		if c.Query("sort") == s {
			q.Sort = s
			q.Desc = c.Query("dir") == "desc"
		}
	}
	if p, err := strconv.Atoi(c.Query("page")); err == nil && p > 1 {
		q.Page = p
	}
	return q
}

func ordersURL(q shop.OrderQuery, page int) string {
	v := url.Values{}
	if q.Status != "" {
		v.Set("status", string(q.Status))
	}
	if q.Sort != "date" || !q.Desc {
		v.Set("sort", q.Sort)
		v.Set("dir", map[bool]string{true: "desc", false: "asc"}[q.Desc])
	}
	if page > 1 {
		v.Set("page", strconv.Itoa(page))
	}
	return web.WithQuery("/orders", v.Encode())
}

func (a *orderHandlers) ordersPage(c *fiber.Ctx) error {
	u := session.User(c)
	q := ordersQuery(c, u.ID)
	f := a.ScriptFrame(c, "My Orders") // the status filter applies on change
	orders, total, err := a.orders.Orders(c.UserContext(), q)
	if err != nil {
		a.Log.Error("list orders", "err", err, "request_id", web.RequestID(c))
		c.Set(fiber.HeaderRetryAfter, retryAfterUnavailable)
		return web.Render(c, fiber.StatusServiceUnavailable, pages.Orders(f, pages.OrdersPage{Error: MsgOrdersFailed}))
	}
	last := max(1, int(math.Ceil(float64(total)/float64(shop.OrdersPageSize))))
	if q.Page > last {
		return c.Redirect(ordersURL(q, last), fiber.StatusFound)
	}
	p := pages.OrdersPage{Orders: orders, Total: total, Status: q.Status, Statuses: shop.OrderStatuses, SortHidden: map[string]string{}}
	if q.Sort != "date" || !q.Desc {
		p.SortHidden["sort"] = q.Sort
		p.SortHidden["dir"] = map[bool]string{true: "desc", false: "asc"}[q.Desc]
	}
	for _, s := range orderSorts {
		// The active column flips; a new column starts ascending; either way
		// the list goes back to page 1.
		next := shop.OrderQuery{Status: q.Status, Sort: s, Desc: false}
		if s == q.Sort {
			next.Desc = !q.Desc
		}
		p.Sorts = append(p.Sorts, pages.SortLink{Label: strings.ToUpper(s[:1]) + s[1:], URL: ordersURL(next, 1), Active: s == q.Sort, Desc: q.Desc})
	}
	p.Pagination = web.Paginate(q.Page, last, func(n int) string { return ordersURL(q, n) })
	if here := ordersURL(q, q.Page); here != "/orders" {
		p.From = here
	}
	return web.Render(c, fiber.StatusOK, pages.Orders(f, p))
}

// orderPage shows an order to its owner, or to a visitor who looked it up
// with its number and e-mail in this session; anyone else gets a 404, as if
// the order did not exist.
func (a *orderHandlers) orderPage(c *fiber.Ctx) error {
	o, err := a.orders.Order(c.UserContext(), c.Params("id"))
	if err != nil {
		if shop.ErrorCode(err) == shop.ENOTFOUND {
			return fiber.ErrNotFound
		}
		return err
	}
	var userID string
	if u := session.User(c); u != nil {
		userID = u.ID
	}
	if !o.OwnedBy(userID) {
		v, _ := a.sessions.Get(c, sessionLookup)
		if lookedUp, _ := v.(string); !o.VisibleTo(userID, lookedUp) {
			return fiber.ErrNotFound
		}
	}
	back, backLabel := orderBack(o.OwnedBy(userID), c.Query("from"))
	p := pages.OrderPage{Order: o, Back: back, BackLabel: backLabel, PayInstructions: a.instructions(o)}
	return a.renderOrder(c, fiber.StatusOK, p, returns.Form{}, nil)
}

// orderBack is where an order page's back link goes: for its owner, the
// orders list as they left it (filter, sort, page: the list's links carry
// it in from); for a visitor who looked the order up, who has no order
// list (/orders would send them to sign in), the lookup.
func orderBack(owned bool, from string) (string, string) {
	if owned {
		return ordersListPath(from), "Back to Orders"
	}
	return "/orders/lookup", "Back to order lookup"
}

// renderOrder renders an order's page with its timeline, its returns
// (and a refused return form's typed values and errors) and its photos.
func (a *orderHandlers) renderOrder(c *fiber.Ctx, status int, p pages.OrderPage, typed returns.Form, errs shop.FieldErrors) error {
	if err := a.orderTimeline(c, &p); err != nil {
		return err
	}
	if err := a.orderReturns(c, &p, typed, errs); err != nil {
		return err
	}
	if a.tracking != nil {
		p.TrackingURL = a.tracking.TrackingURL(c.UserContext(), p.Order)
	}
	set, _ := a.Assets.Current()
	for _, l := range p.Order.Lines {
		p.Images = append(p.Images, orderLineImage(set, l))
	}
	return web.Render(c, status, pages.OrderDetail(a.Frame(c, "Order "+p.Order.ID), p))
}

// ordersListPath returns from when it is an address of the orders list
// ("/orders" with any query), else "/orders".
func ordersListPath(from string) string {
	if from = web.LocalPath(from); from == "/orders" || strings.HasPrefix(from, "/orders?") {
		return from
	}
	return "/orders"
}

func (a *orderHandlers) lookupPage(c *fiber.Ctx) error {
	return web.Render(c, fiber.StatusOK, pages.OrderLookup(a.Frame(c, "Find your order"), pages.LookupForm{}))
}

func (a *orderHandlers) lookupSubmit(c *fiber.Ctx) error {
	p := pages.LookupForm{OrderID: strings.ToUpper(strings.TrimSpace(web.FormValue(c, "order"))), Email: strings.TrimSpace(web.FormValue(c, "email"))}
	o, err := a.orders.Order(c.UserContext(), p.OrderID)
	if err != nil && shop.ErrorCode(err) != shop.ENOTFOUND {
		return err
	}
	if o == nil || !o.MatchesLookup(p.Email) {
		p.Error = MsgLookupFailed
		return web.Render(c, fiber.StatusUnprocessableEntity, pages.OrderLookup(a.Frame(c, "Find your order"), p))
	}
	if err := a.sessions.Set(c, sessionLookup, o.ID); err != nil {
		return err
	}
	return c.Redirect("/orders/"+o.ID, fiber.StatusSeeOther)
}

// instructions say where to send the money for o, while its method waits
// for it ("" when nothing is to be sent).
func (a *orderHandlers) instructions(o *shop.Order) string {
	if a.payments == nil || o.PaymentStatus != shop.PaymentAwaiting {
		return ""
	}
	return a.payments.Explain(o).Instructions
}
