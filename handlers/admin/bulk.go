package admin

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/csvexport"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// BulkShipper ships several orders at once (backoffice.Service).
type BulkShipper interface {
	ShipAll(ctx context.Context, actor string, list []backoffice.Shipment) (backoffice.BulkShip, error)
}

// bulkPages serve the orders list's actions on the ticked orders: ship
// them, print their packing slips, export them as CSV.
type bulkPages struct {
	*web.Pages
	orders   Orders
	shipper  BulkShipper
	carriers shop.CarrierStore
}

func newBulkPages(p *web.Pages, d Deps) *bulkPages {
	return &bulkPages{Pages: p, orders: d.Orders, shipper: d.Service, carriers: d.Carriers}
}

// backToList is where a bulk action returns: the list with the filters
// it was sent from, or the plain list for anything else.
func backToList(s string) string {
	if s = web.LocalPath(s); s == "/admin/orders" || strings.HasPrefix(s, "/admin/orders?") {
		return s
	}
	return "/admin/orders"
}

// selected loads the placed orders of ids, in their order, and lists the
// ids that have none.
func (a *bulkPages) selected(ctx context.Context, ids []string) ([]shop.Order, []string, error) {
	var found []shop.Order
	var missing []string
	for _, id := range ids {
		o, err := a.orders.Order(ctx, id)
		switch {
		case shop.ErrorCode(err) == shop.ENOTFOUND || err == nil && o.Status == shop.StatusPending:
			missing = append(missing, id)
		case err != nil:
			return nil, nil, fmt.Errorf("selected order %s: %w", id, err)
		default:
			found = append(found, *o)
		}
	}
	return found, missing, nil
}

// shipPage lays out the bulk ship form for ids: a row for each order
// that can ship, the others left out with why.
func (a *bulkPages) shipPage(c *fiber.Ctx, ids []string, back string) (pages.AdminBulkShipPage, error) {
	p := pages.AdminBulkShipPage{Nav: adminNav(c, backoffice.AreaOrders), Back: back}
	if a.carriers != nil {
		carriers, err := a.carriers.Carriers(c.UserContext())
		if err != nil {
			return p, err
		}
		for _, cr := range carriers {
			p.Carriers = append(p.Carriers, cr.Name)
		}
	}
	orders, missing, err := a.selected(c.UserContext(), ids)
	if err != nil {
		return p, err
	}
	for i := range orders {
		o := &orders[i]
		if why := backoffice.WhyNotShippable(o); why != "" {
			p.Skipped = append(p.Skipped, pages.BulkSkip{OrderID: o.ID, Reason: why})
		} else {
			p.Rows = append(p.Rows, pages.BulkShipRow{Order: o})
		}
	}
	for _, id := range missing {
		p.Skipped = append(p.Skipped, pages.BulkSkip{OrderID: id, Reason: shop.MsgOrderNotFound})
	}
	return p, nil
}

func (a *bulkPages) renderShip(c *fiber.Ctx, status int, p pages.AdminBulkShipPage) error {
	return web.Render(c, status, pages.AdminBulkShip(a.Frame(c, "Mark as shipped · Back office"), p))
}

// adminBulkShipForm shows the form for shipping the ticked orders. It
// answers the list's post but changes nothing: the form's own post ships.
func (a *bulkPages) adminBulkShipForm(c *fiber.Ctx) error {
	back := backToList(web.FormValue(c, "back"))
	ids := backoffice.Selection(web.FormValues(c, "id"))
	if len(ids) == 0 {
		return a.RedirectWithError(c, back, backoffice.MsgSelectOrders)
	}
	p, err := a.shipPage(c, ids, back)
	if err != nil {
		return err
	}
	return a.renderShip(c, fiber.StatusOK, p)
}

// adminBulkMarkShipped ships the orders of the bulk form, each with its
// own carrier and tracking number, then goes back to the list. A row with
// a mistake refuses them all: the form comes back with the error next to
// that row's field and every row as it was typed.
func (a *bulkPages) adminBulkMarkShipped(c *fiber.Ctx) error {
	back := backToList(web.FormValue(c, "back"))
	ids := backoffice.Selection(web.FormValues(c, "order"))
	if len(ids) == 0 {
		return a.RedirectWithError(c, back, backoffice.MsgSelectOrders)
	}
	list := make([]backoffice.Shipment, len(ids))
	typed := map[string]backoffice.ShipInput{}
	for i, id := range ids {
		in := backoffice.ShipInput{Carrier: web.FormValue(c, "carrier-"+id), Tracking: web.FormValue(c, "tracking-"+id)}
		list[i], typed[id] = backoffice.Shipment{OrderID: id, In: in}, in
	}
	r, err := a.shipper.ShipAll(c.UserContext(), staffEmail(c), list)
	if err != nil {
		return err
	}
	if len(r.Errors) == 0 {
		if len(r.Shipped) == 0 {
			return a.RedirectWithError(c, back, r.Text())
		}
		return a.RedirectWithFlash(c, back, r.Text())
	}
	p, err := a.shipPage(c, ids, back)
	if err != nil {
		return err
	}
	for i := range p.Rows {
		row := &p.Rows[i]
		in := typed[row.Order.ID]
		row.Carrier, row.Tracking, row.Errors = in.Carrier, in.Tracking, r.Errors[row.Order.ID]
	}
	p.Error = "Nothing was shipped yet: please correct the fields marked below."
	return a.renderShip(c, fiber.StatusUnprocessableEntity, p)
}

// slipsBack is where the slips page and the CSV link back to: the list
// the selection was sent from (its query carries it).
func slipsBack(c *fiber.Ctx) string { return backToList(c.Query("back")) }

// queryIDs is the selection a read carries in its query (?id=…&id=…).
func queryIDs(c *fiber.Ctx) []string {
	var ids []string
	for _, v := range c.Context().QueryArgs().PeekMulti("id") {
		ids = append(ids, strings.ToValidUTF8(string(v), "\uFFFD"))
	}
	return backoffice.Selection(ids)
}

// adminPackingSlips shows the selected orders' packing slips, one a
// printed sheet. It only reads.
func (a *bulkPages) adminPackingSlips(c *fiber.Ctx) error {
	orders, missing, err := a.selected(c.UserContext(), queryIDs(c))
	if err != nil {
		return err
	}
	p := pages.PackingSlipsPage{ShopName: a.Config.ShopName, Orders: orders, Missing: missing, Back: slipsBack(c)}
	// The bare frame: a page to print takes no flash message meant for
	// the list.
	return web.Render(c, fiber.StatusOK, pages.PackingSlips(a.BareFrame(c, "Packing slips · Back office"), p))
}

// adminSelectionCSV downloads the selected orders as CSV, one row an
// order. It only reads.
func (a *bulkPages) adminSelectionCSV(c *fiber.Ctx) error {
	orders, _, err := a.selected(c.UserContext(), queryIDs(c))
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := csvexport.WriteShipments(&b, orders); err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "text/csv; charset=utf-8")
	c.Set(fiber.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="orders-%s.csv"`, a.Now().UTC().Format("2006-01-02")))
	return c.Send(b.Bytes())
}
