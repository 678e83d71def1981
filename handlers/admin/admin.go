// Package admin is the back office's HTTP side: staff pages for orders,
// contact messages, products, shipping, tax, promo codes, staff and the
// audit log, customers and the accountant's exports. Each area is a
// struct holding the few interfaces it uses; one route table registers
// every page and tells the role each needs.
package admin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"mime/multipart"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/mail"
	"github.com/nocturne/storefront/internal/money"
	"github.com/nocturne/storefront/internal/returns"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// Deps is what the back office uses. With Staff nil there is no back
// office: every /admin address is a 404.
type Deps struct {
	Staff      shop.StaffStore
	Audit      shop.AuditStore
	Fulfilment shop.FulfilmentStore
	Products   shop.ProductAdminStore
	Variants   shop.VariantAdminStore
	// Gallery is the products' photos (the gallery editor); nil: none.
	Gallery   shop.GalleryStore
	Inbox     shop.InboxStore
	Dashboard shop.DashboardStore
	Orders    Orders
	Service   *backoffice.Service
	Mailer    mail.Mailer
	Catalog   Catalog
	// Pricing and Promos are the shipping, tax and promo code settings;
	// nil: those pages are 404s.
	Pricing shop.PricingStore
	Promos  shop.PromoStore
	// Location is the shop's time zone: promo code times are typed and
	// shown in it, and cut-off hours named with it. Nil: UTC (the
	// handlers package passes the shop's, America/New_York unless set).
	Location *time.Location
	// Carriers are the ship form's carriers and their tracking pages.
	Carriers shop.CarrierStore
	// Customers are the customer pages, Exports the accountant's
	// downloads (their days are the shop's, in Location); nil: 404s.
	Customers shop.CustomerStore
	Exports   shop.ExportStore
	// Returns are the return requests, and ReturnService the returns'
	// rules and steps (the shopper's form too); nil: no returns.
	Returns       shop.ReturnStore
	ReturnService *returns.Service
}

// Catalog is what the product editor needs of the catalogue service:
// the categories to offer, showing an edit at once, and the image pipeline
// for uploaded photos.
type Catalog interface {
	Categories(ctx context.Context) ([]string, error)
	Reload(ctx context.Context) error
	UploadPhoto(ctx context.Context, body []byte) (string, error)
	CatalogFiles // the catalogue file's import and export (catalogfile.go)
}

// Orders reads one order, for the order page and its actions.
type Orders interface {
	Order(ctx context.Context, id string) (*shop.Order, error)
}

// Recorder writes a staff action to the audit log (backoffice.Service).
type Recorder interface {
	Record(ctx context.Context, actor, action, subject string, before, after any)
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
}

// BackOffice is the back office: the role check in front of every page,
// and one struct per area.
type BackOffice struct {
	staff     shop.StaffStore
	dashboard *dashboardPages
	orders    *orderPages
	messages  *messagePages
	products  *productPages
	variants  *variantPages
	photos    *photoPages
	people    *peoplePages
	files     *catalogFilePages
	shipping  *shippingPages
	tax       *taxPages
	codes     *codePages
	carriers  *carrierPages
	customers *customerPages
	exports   *exportPages
	returns   *returnPages
	bulk      *bulkPages
}

// dashboardPages serve the dashboard.
type dashboardPages struct {
	*web.Pages
	store shop.DashboardStore
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

// messagePages serve the contact messages and the replies to them.
type messagePages struct {
	*web.Pages
	inbox  shop.InboxStore
	mailer mail.Mailer
	audit  Recorder
}

// productPages serve the product list and editor.
type productPages struct {
	*web.Pages
	products shop.ProductAdminStore
	catalog  Catalog
	audit    Recorder
}

// peoplePages serve the staff list and the audit log.
type peoplePages struct {
	*web.Pages
	staff shop.StaffStore
	audit shop.AuditStore
	// record writes what staff do here to the audit log.
	record Recorder
}

// New builds the back office on the shared page helpers.
func New(p *web.Pages, d Deps) *BackOffice {
	loc := d.Location
	if loc == nil {
		loc = time.UTC
	}
	pricing := d.Pricing
	if pricing != nil {
		pricing = reloadingPricing{PricingStore: d.Pricing, catalog: d.Catalog}
	}
	b := &BackOffice{
		staff:     d.Staff,
		dashboard: &dashboardPages{Pages: p, store: d.Dashboard},
		orders:    &orderPages{Pages: p, orders: d.Orders, fulfilment: d.Fulfilment, service: d.Service, carriers: d.Carriers},
		messages:  &messagePages{Pages: p, inbox: d.Inbox, mailer: d.Mailer, audit: d.Service},
		products:  &productPages{Pages: p, products: d.Products, catalog: d.Catalog, audit: d.Service},
		variants:  newVariantPages(p, d),
		photos:    &photoPages{Pages: p, products: d.Products, gallery: d.Gallery, catalog: d.Catalog, service: d.Service},
		people:    &peoplePages{Pages: p, staff: d.Staff, audit: d.Audit, record: d.Service},
		files:     &catalogFilePages{Pages: p, files: d.Catalog, audit: d.Service},
		shipping:  &shippingPages{Pages: p, store: pricing, audit: d.Service, loc: loc},
		tax:       &taxPages{Pages: p, store: pricing, audit: d.Service},
		codes:     &codePages{Pages: p, promos: d.Promos, audit: d.Service, loc: loc},
		carriers:  &carrierPages{Pages: p, store: d.Carriers, audit: d.Service},
		customers: &customerPages{Pages: p, store: d.Customers, audit: d.Service, returns: d.Returns},
		exports:   &exportPages{Pages: p, store: d.Exports, loc: loc},
		returns:   &returnPages{Pages: p, store: d.Returns},
		bulk:      newBulkPages(p, d),
	}
	if d.ReturnService != nil && d.Returns != nil {
		b.orders.returns, b.orders.returnStore = d.ReturnService, d.Returns
	}
	return b
}

const localsStaffRole = "nocturne.staff_role"

// Register registers the back office. Every route checks the role
// first: anyone who may not use an area, signed out included, gets the
// shop's ordinary 404, exactly as for an address that does not exist, so
// nothing hints that the area is there. (Fulfilment staff asking for an
// admin-only area get the same 404.)
func (a *BackOffice) Register(app *fiber.App) {
	for _, r := range table {
		app.Add(r.Method, r.Path, a.staffOnly(r.Area), r.handler(a))
	}
	// Any other /admin address: the same 404 for everyone.
	app.All("/admin/*", func(c *fiber.Ctx) error { return fiber.ErrNotFound })
}

// Route is one back-office route: its method, path pattern and the area
// whose role it needs.
type Route struct{ Method, Path, Area string }

type route struct {
	Route
	// handler picks the route's handler from its area's struct.
	handler func(*BackOffice) fiber.Handler
}

// table is every back-office route. It both registers them and, as
// Routes, drives the role tests, so no route can be added without
// its area being tested.
var table = []route{
	{Route{"GET", "/admin", backoffice.AreaDashboard}, func(b *BackOffice) fiber.Handler { return b.dashboard.adminDashboard }},
	{Route{"GET", "/admin/orders", backoffice.AreaOrders}, func(b *BackOffice) fiber.Handler { return b.orders.adminOrders }},
	{Route{"GET", "/admin/orders/:id", backoffice.AreaOrders}, func(b *BackOffice) fiber.Handler { return b.orders.adminOrder }},
	{Route{"POST", "/admin/orders/:id/ship", backoffice.AreaOrders}, func(b *BackOffice) fiber.Handler { return b.orders.adminShip }},
	{Route{"POST", "/admin/orders/:id/deliver", backoffice.AreaOrders}, func(b *BackOffice) fiber.Handler { return b.orders.adminDeliver }},
	{Route{"POST", "/admin/orders/:id/cancel", backoffice.AreaOrders}, func(b *BackOffice) fiber.Handler { return b.orders.adminCancel }},
	{Route{"POST", "/admin/orders/:id/paid", backoffice.AreaOrders}, func(b *BackOffice) fiber.Handler { return b.orders.adminMarkPaid }},
	{Route{"POST", "/admin/orders/:id/refund", backoffice.AreaOrders}, func(b *BackOffice) fiber.Handler { return b.orders.adminRefund }},
	{Route{"POST", "/admin/orders/:id/refund/confirm", backoffice.AreaOrders}, func(b *BackOffice) fiber.Handler { return b.orders.adminRefundConfirm }},
	{Route{"POST", "/admin/orders/:id/refund/items", backoffice.AreaOrders}, func(b *BackOffice) fiber.Handler { return b.orders.adminRefundItems }},
	{Route{"GET", "/admin/messages", backoffice.AreaMessages}, func(b *BackOffice) fiber.Handler { return b.messages.adminMessages }},
	{Route{"GET", "/admin/messages/:id", backoffice.AreaMessages}, func(b *BackOffice) fiber.Handler { return b.messages.adminMessage }},
	{Route{"POST", "/admin/messages/:id/handled", backoffice.AreaMessages}, func(b *BackOffice) fiber.Handler { return b.messages.adminMarkHandled }},
	{Route{"POST", "/admin/messages/:id/reply", backoffice.AreaMessages}, func(b *BackOffice) fiber.Handler { return b.messages.adminReply }},
	{Route{"GET", "/admin/products", backoffice.AreaProducts}, func(b *BackOffice) fiber.Handler { return b.products.adminProducts }},
	{Route{"GET", "/admin/products/new", backoffice.AreaProducts}, func(b *BackOffice) fiber.Handler { return b.products.adminNewProduct }},
	{Route{"POST", "/admin/products/new", backoffice.AreaProducts}, func(b *BackOffice) fiber.Handler { return b.products.adminCreateProduct }},
	{Route{"GET", "/admin/products/:id", backoffice.AreaProducts}, func(b *BackOffice) fiber.Handler { return b.products.adminEditProduct }},
	{Route{"POST", "/admin/products/:id", backoffice.AreaProducts}, func(b *BackOffice) fiber.Handler { return b.products.adminSaveProduct }},
	{Route{"GET", "/admin/products/:id/variants", backoffice.AreaProducts}, func(b *BackOffice) fiber.Handler { return b.variants.adminVariants }},
	{Route{"GET", "/admin/products/:id/photos", backoffice.AreaProducts}, func(b *BackOffice) fiber.Handler { return b.photos.adminPhotos }},
	{Route{"POST", "/admin/products/:id/photos", backoffice.AreaProducts}, func(b *BackOffice) fiber.Handler { return b.photos.adminSavePhotos }},
	{Route{"POST", "/admin/products/:id/variants", backoffice.AreaProducts}, func(b *BackOffice) fiber.Handler { return b.variants.adminSaveVariants }},
	{Route{"POST", "/admin/products/:id/variants/bulk", backoffice.AreaProducts}, func(b *BackOffice) fiber.Handler { return b.variants.adminBulkVariants }},
	{Route{"POST", "/admin/products/:id/variants/generate", backoffice.AreaProducts}, func(b *BackOffice) fiber.Handler { return b.variants.adminGenerate }},
	{Route{"POST", "/admin/products/:id/variants/options", backoffice.AreaProducts}, func(b *BackOffice) fiber.Handler { return b.variants.adminAddOption }},
	{Route{"POST", "/admin/products/:id/variants/options/rename", backoffice.AreaProducts}, func(b *BackOffice) fiber.Handler { return b.variants.adminRenameOption }},
	{Route{"POST", "/admin/products/:id/variants/options/remove", backoffice.AreaProducts}, func(b *BackOffice) fiber.Handler { return b.variants.adminRemoveOption }},
	{Route{"POST", "/admin/products/:id/variants/values", backoffice.AreaProducts}, func(b *BackOffice) fiber.Handler { return b.variants.adminAddValue }},
	{Route{"POST", "/admin/products/:id/variants/values/remove", backoffice.AreaProducts}, func(b *BackOffice) fiber.Handler { return b.variants.adminRemoveValue }},
	{Route{"POST", "/admin/products/:id/variants/values/move", backoffice.AreaProducts}, func(b *BackOffice) fiber.Handler { return b.variants.adminMoveValue }},
	{Route{"GET", "/admin/staff", backoffice.AreaStaff}, func(b *BackOffice) fiber.Handler { return b.people.adminStaff }},
	{Route{"GET", "/admin/audit", backoffice.AreaAudit}, func(b *BackOffice) fiber.Handler { return b.people.adminAudit }},
	{Route{"GET", "/admin/catalog", backoffice.AreaCatalog}, func(b *BackOffice) fiber.Handler { return b.files.adminCatalog }},
	{Route{"POST", "/admin/catalog", backoffice.AreaCatalog}, func(b *BackOffice) fiber.Handler { return b.files.adminImport }},
	{Route{"GET", "/admin/catalog/export.csv", backoffice.AreaCatalog}, func(b *BackOffice) fiber.Handler { return b.files.adminExport }},
	{Route{"GET", "/admin/shipping", backoffice.AreaShipping}, func(b *BackOffice) fiber.Handler { return b.shipping.adminShipping }},
	{Route{"GET", "/admin/shipping/zones/new", backoffice.AreaShipping}, func(b *BackOffice) fiber.Handler { return b.shipping.adminNewZone }},
	{Route{"POST", "/admin/shipping/zones/new", backoffice.AreaShipping}, func(b *BackOffice) fiber.Handler { return b.shipping.adminCreateZone }},
	{Route{"GET", "/admin/shipping/zones/:id", backoffice.AreaShipping}, func(b *BackOffice) fiber.Handler { return b.shipping.adminEditZone }},
	{Route{"POST", "/admin/shipping/zones/:id", backoffice.AreaShipping}, func(b *BackOffice) fiber.Handler { return b.shipping.adminSaveZone }},
	{Route{"POST", "/admin/shipping/zones/:id/delete", backoffice.AreaShipping}, func(b *BackOffice) fiber.Handler { return b.shipping.adminDeleteZone }},
	{Route{"GET", "/admin/shipping/methods/new", backoffice.AreaShipping}, func(b *BackOffice) fiber.Handler { return b.shipping.adminNewMethod }},
	{Route{"POST", "/admin/shipping/methods/new", backoffice.AreaShipping}, func(b *BackOffice) fiber.Handler { return b.shipping.adminCreateMethod }},
	{Route{"GET", "/admin/shipping/methods/:id", backoffice.AreaShipping}, func(b *BackOffice) fiber.Handler { return b.shipping.adminEditMethod }},
	{Route{"POST", "/admin/shipping/methods/:id", backoffice.AreaShipping}, func(b *BackOffice) fiber.Handler { return b.shipping.adminSaveMethod }},
	{Route{"POST", "/admin/shipping/methods/:id/delete", backoffice.AreaShipping}, func(b *BackOffice) fiber.Handler { return b.shipping.adminDeleteMethod }},
	{Route{"GET", "/admin/tax", backoffice.AreaTax}, func(b *BackOffice) fiber.Handler { return b.tax.adminTax }},
	{Route{"POST", "/admin/tax/settings", backoffice.AreaTax}, func(b *BackOffice) fiber.Handler { return b.tax.adminSaveTaxSettings }},
	{Route{"GET", "/admin/tax/rates/new", backoffice.AreaTax}, func(b *BackOffice) fiber.Handler { return b.tax.adminNewRate }},
	{Route{"POST", "/admin/tax/rates/new", backoffice.AreaTax}, func(b *BackOffice) fiber.Handler { return b.tax.adminCreateRate }},
	{Route{"GET", "/admin/tax/rates/:id", backoffice.AreaTax}, func(b *BackOffice) fiber.Handler { return b.tax.adminEditRate }},
	{Route{"POST", "/admin/tax/rates/:id", backoffice.AreaTax}, func(b *BackOffice) fiber.Handler { return b.tax.adminSaveRate }},
	{Route{"POST", "/admin/tax/rates/:id/delete", backoffice.AreaTax}, func(b *BackOffice) fiber.Handler { return b.tax.adminDeleteRate }},
	{Route{"GET", "/admin/codes", backoffice.AreaCodes}, func(b *BackOffice) fiber.Handler { return b.codes.adminCodes }},
	{Route{"POST", "/admin/codes", backoffice.AreaCodes}, func(b *BackOffice) fiber.Handler { return b.codes.adminCreateCode }},
	{Route{"POST", "/admin/codes/pause", backoffice.AreaCodes}, func(b *BackOffice) fiber.Handler { return b.codes.adminPauseCode }},
	{Route{"POST", "/admin/codes/resume", backoffice.AreaCodes}, func(b *BackOffice) fiber.Handler { return b.codes.adminResumeCode }},
	{Route{"POST", "/admin/orders/:id/notes", backoffice.AreaOrders}, func(b *BackOffice) fiber.Handler { return b.orders.adminAddNote }},
	{Route{"POST", "/admin/orders/:id/cancel/confirm", backoffice.AreaOrders}, func(b *BackOffice) fiber.Handler { return b.orders.adminCancelConfirm }},
	{Route{"POST", "/admin/staff/remove", backoffice.AreaStaff}, func(b *BackOffice) fiber.Handler { return b.people.adminRemoveStaff }},
	{Route{"POST", "/admin/staff/remove/confirm", backoffice.AreaStaff}, func(b *BackOffice) fiber.Handler { return b.people.adminRemoveStaffConfirm }},
	{Route{"POST", "/admin/products/:id/delete", backoffice.AreaProducts}, func(b *BackOffice) fiber.Handler { return b.products.adminDeleteProduct }},
	{Route{"POST", "/admin/products/:id/delete/confirm", backoffice.AreaProducts}, func(b *BackOffice) fiber.Handler { return b.products.adminDeleteProductConfirm }},
	{Route{"GET", "/admin/carriers", backoffice.AreaCarriers}, func(b *BackOffice) fiber.Handler { return b.carriers.adminCarriers }},
	{Route{"POST", "/admin/carriers", backoffice.AreaCarriers}, func(b *BackOffice) fiber.Handler { return b.carriers.adminAddCarrier }},
	{Route{"POST", "/admin/carriers/:id", backoffice.AreaCarriers}, func(b *BackOffice) fiber.Handler { return b.carriers.adminSaveCarrier }},
	{Route{"GET", "/admin/customers", backoffice.AreaCustomers}, func(b *BackOffice) fiber.Handler { return b.customers.adminCustomers }},
	{Route{"GET", "/admin/customers/:key", backoffice.AreaCustomers}, func(b *BackOffice) fiber.Handler { return b.customers.adminCustomer }},
	{Route{"POST", "/admin/customers/:key/note", backoffice.AreaCustomers}, func(b *BackOffice) fiber.Handler { return b.customers.adminSaveNote }},
	{Route{"GET", "/admin/exports", backoffice.AreaExports}, func(b *BackOffice) fiber.Handler { return b.exports.adminExports }},
	{Route{"GET", "/admin/exports/orders.csv", backoffice.AreaExports}, func(b *BackOffice) fiber.Handler { return b.exports.adminExportOrders }},
	{Route{"GET", "/admin/exports/order-lines.csv", backoffice.AreaExports}, func(b *BackOffice) fiber.Handler { return b.exports.adminExportLines }},
	{Route{"GET", "/admin/exports/customers.csv", backoffice.AreaExports}, func(b *BackOffice) fiber.Handler { return b.exports.adminExportCustomers }},
	{Route{"GET", "/admin/returns", backoffice.AreaOrders}, func(b *BackOffice) fiber.Handler { return b.returns.adminReturns }},
	{Route{"POST", "/admin/orders/:id/returns/approve", backoffice.AreaOrders}, func(b *BackOffice) fiber.Handler { return b.orders.adminApproveReturn }},
	{Route{"POST", "/admin/orders/:id/returns/reject", backoffice.AreaOrders}, func(b *BackOffice) fiber.Handler { return b.orders.adminRejectReturn }},
	{Route{"POST", "/admin/orders/:id/returns/receive", backoffice.AreaOrders}, func(b *BackOffice) fiber.Handler { return b.orders.adminReceiveReturn }},
	// Bulk actions on the orders ticked in the list. Their paths have two
	// segments after /admin/orders/ and none is an order action's, so
	// neither /admin/orders/:id nor /admin/orders/:id/ship takes them.
	{Route{"POST", "/admin/orders/bulk/ship-form", backoffice.AreaOrders}, func(b *BackOffice) fiber.Handler { return b.bulk.adminBulkShipForm }},
	{Route{"POST", "/admin/orders/bulk/mark-shipped", backoffice.AreaOrders}, func(b *BackOffice) fiber.Handler { return b.bulk.adminBulkMarkShipped }},
	{Route{"GET", "/admin/orders/bulk/packing-slips", backoffice.AreaOrders}, func(b *BackOffice) fiber.Handler { return b.bulk.adminPackingSlips }},
	{Route{"GET", "/admin/orders/bulk/export.csv", backoffice.AreaOrders}, func(b *BackOffice) fiber.Handler { return b.bulk.adminSelectionCSV }},
}

// Routes lists every back-office route, for the role tests.
func Routes() []Route {
	out := make([]Route, len(table))
	for i, r := range table {
		out[i] = r.Route
	}
	return out
}

// staffOnly lets through staff whose role allows area, and marks their
// pages private, no-store; everyone else gets the 404.
func (a *BackOffice) staffOnly(area string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		u := shop.UserFromContext(c.UserContext())
		if a.staff == nil || u == nil || u.IsGuest {
			return fiber.ErrNotFound
		}
		role, err := a.staff.StaffRole(c.UserContext(), u.ID)
		if err != nil {
			return err
		}
		if !backoffice.Allowed(role, area) {
			return fiber.ErrNotFound
		}
		c.Locals(localsStaffRole, role)
		err = c.Next()
		c.Set(fiber.HeaderCacheControl, "private, no-store")
		return err
	}
}

func staffRole(c *fiber.Ctx) string { r, _ := c.Locals(localsStaffRole).(string); return r }

func staffEmail(c *fiber.Ctx) string { return shop.UserFromContext(c.UserContext()).Email }

func adminNav(c *fiber.Ctx, current string) pages.AdminNav {
	role := staffRole(c)
	nav := pages.AdminNav{Role: role, Current: current}
	for _, l := range []pages.AdminLink{
		{Area: backoffice.AreaDashboard, Label: "Dashboard", URL: "/admin"},
		{Area: backoffice.AreaOrders, Label: "Orders", URL: "/admin/orders"},
		{Area: backoffice.AreaMessages, Label: "Messages", URL: "/admin/messages"},
		{Area: backoffice.AreaProducts, Label: "Products", URL: "/admin/products"},
		{Area: backoffice.AreaCatalog, Label: "Catalogue file", URL: "/admin/catalog"},
		{Area: backoffice.AreaShipping, Label: "Shipping", URL: "/admin/shipping"},
		{Area: backoffice.AreaTax, Label: "Tax", URL: "/admin/tax"},
		{Area: backoffice.AreaCodes, Label: "Promo codes", URL: "/admin/codes"},
		{Area: backoffice.AreaStaff, Label: "Staff", URL: "/admin/staff"},
		{Area: backoffice.AreaAudit, Label: "Audit log", URL: "/admin/audit"},
		{Area: backoffice.AreaCarriers, Label: "Carriers", URL: "/admin/carriers"},
		{Area: backoffice.AreaCustomers, Label: "Customers", URL: "/admin/customers"},
		{Area: backoffice.AreaExports, Label: "Exports", URL: "/admin/exports"},
		{Area: backoffice.AreaOrders, Label: "Returns", URL: "/admin/returns"},
	} {
		if backoffice.Allowed(role, l.Area) {
			nav.Links = append(nav.Links, l)
		}
	}
	return nav
}

func pageParam(c *fiber.Ctx) int {
	if p, err := strconv.Atoi(c.Query("page")); err == nil && p > 1 {
		return p
	}
	return 1
}

func lastPage(total, size int) int { return max(1, int(math.Ceil(float64(total)/float64(size)))) }

// --- Dashboard

const chartDays = 14

func (a *dashboardPages) adminDashboard(c *fiber.Ctx) error {
	now := a.Now().UTC()
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	d, err := a.store.Dashboard(c.UserContext(), day, chartDays)
	if err != nil {
		return err
	}
	p := pages.AdminDashboardPage{Nav: adminNav(c, backoffice.AreaDashboard), D: d, Chart: revenueChart(d.Days)}
	return web.Render(c, fiber.StatusOK, pages.AdminDashboard(a.Frame(c, "Dashboard · Back office"), p))
}

// revenueChart lays out one bar per day, scaled to the best day.
func revenueChart(days []shop.DayTotal) pages.ChartModel {
	const w, h, top, bottom = 560, 180, 10, 20
	m := pages.ChartModel{Width: w, Height: h, Title: fmt.Sprintf("Revenue, last %d days (UTC)", len(days))}
	var best shop.Cents
	for _, d := range days {
		best = max(best, d.Revenue)
	}
	if len(days) == 0 {
		return m
	}
	slot := w / len(days)
	for i, d := range days {
		bh := 0
		if best > 0 {
			bh = int(int64(h-top-bottom) * int64(d.Revenue) / int64(best))
		}
		bh = max(bh, 1)
		m.Bars = append(m.Bars, pages.ChartBar{
			X: i*slot + 4, W: slot - 8, Y: h - bottom - bh, H: bh, LabelX: i*slot + slot/2,
			Label: d.Day.Format("Jan 2"), Value: fmt.Sprintf("%s from %d orders", d.Revenue, d.Orders),
		})
	}
	return m
}

// --- Orders

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
	if ret == nil {
		err = a.service.Refund(c.UserContext(), staffEmail(c), o.ID, was, amount, reason)
		return a.orderActionDone(c, o, pages.AdminOrderPage{}, nil, err, done)
	}
	// The return's refund marks it refunded in the same call.
	switch err = a.returns.Refund(c.UserContext(), staffEmail(c), o.ID, ret.ID, was, amount, reason); {
	case errors.Is(err, returns.ErrNotMarked):
		why := strings.TrimPrefix(err.Error(), returns.ErrNotMarked.Error()+": ")
		err, done = nil, done+" Return "+ret.ID+" could not be marked refunded: "+why
	case err == nil:
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

// --- Messages

func (a *messagePages) adminMessages(c *fiber.Ctx) error {
	only := c.Query("show") == "unhandled"
	page := pageParam(c)
	msgs, total, err := a.inbox.Inbox(c.UserContext(), only, page)
	if err != nil {
		return err
	}
	p := pages.AdminMessagesPage{Nav: adminNav(c, backoffice.AreaMessages), Messages: msgs, Total: total, UnhandledOnly: only}
	p.Pagination = web.Paginate(page, lastPage(total, shop.InboxPageSize), func(n int) string {
		v := url.Values{}
		if only {
			v.Set("show", "unhandled")
		}
		if n > 1 {
			v.Set("page", strconv.Itoa(n))
		}
		return web.WithQuery("/admin/messages", v.Encode())
	})
	return web.Render(c, fiber.StatusOK, pages.AdminMessages(a.Frame(c, "Messages · Back office"), p))
}

func (a *messagePages) loadMessage(c *fiber.Ctx) (*shop.ContactMessage, error) {
	id, err := strconv.ParseInt(c.Params("id"), 10, 64)
	if err != nil {
		return nil, fiber.ErrNotFound
	}
	m, err := a.inbox.ContactMessage(c.UserContext(), id)
	if shop.ErrorCode(err) == shop.ENOTFOUND {
		return nil, fiber.ErrNotFound
	}
	return m, err
}

func (a *messagePages) adminMessage(c *fiber.Ctx) error {
	m, err := a.loadMessage(c)
	if err != nil {
		return err
	}
	p := pages.AdminMessagePage{Nav: adminNav(c, backoffice.AreaMessages), Message: m}
	return web.Render(c, fiber.StatusOK, pages.AdminMessage(a.Frame(c, "Message · Back office"), p))
}

func (a *messagePages) adminMarkHandled(c *fiber.Ctx) error {
	m, err := a.loadMessage(c)
	if err != nil {
		return err
	}
	changed, err := a.inbox.MarkHandled(c.UserContext(), m.ID, staffEmail(c), a.Now().UTC())
	if err != nil {
		return err
	}
	if !changed {
		return a.RedirectWithFlash(c, fmt.Sprintf("/admin/messages/%d", m.ID), "This message was handled already.")
	}
	a.audit.Record(c.UserContext(), staffEmail(c), "message.handled", fmt.Sprintf("message %d", m.ID), "unhandled", "handled")
	return a.RedirectWithFlash(c, fmt.Sprintf("/admin/messages/%d", m.ID), "Marked as handled.")
}

func (a *messagePages) adminReply(c *fiber.Ctx) error {
	m, err := a.loadMessage(c)
	if err != nil {
		return err
	}
	reply := strings.TrimSpace(strings.ReplaceAll(web.FormValue(c, "reply"), "\r\n", "\n"))
	errs := shop.FieldErrors{}
	switch {
	case reply == "":
		errs["reply"] = "Write a reply."
	case len(reply) > 5000:
		errs["reply"] = "Reply is too long (at most 5000 characters)."
	case !shop.ValidEmail(m.Email):
		// Kept before the form checked addresses as the mailer does.
		errs["reply"] = "This message's address (" + m.Email + ") can't receive mail, so no reply can be sent."
	}
	if len(errs) > 0 {
		p := pages.AdminMessagePage{Nav: adminNav(c, backoffice.AreaMessages), Message: m, Reply: reply, Errors: errs}
		return web.Render(c, fiber.StatusUnprocessableEntity, pages.AdminMessage(a.Frame(c, "Message · Back office"), p))
	}
	body := reply + "\n\n-- \n" + a.Config.ShopName + " customer care\n\n> " + strings.ReplaceAll(m.Message, "\n", "\n> ") + "\n"
	if err := a.mailer.Send(c.UserContext(), shop.Email{To: m.Email, Subject: "Re: " + m.Subject, Body: body}); err != nil {
		return fmt.Errorf("reply to message %d: %w", m.ID, err)
	}
	ctx := c.UserContext()
	a.audit.Record(ctx, staffEmail(c), "message.reply", fmt.Sprintf("message %d", m.ID), "", reply)
	if ok, err := a.inbox.MarkHandled(ctx, m.ID, staffEmail(c), a.Now().UTC()); err != nil {
		return err
	} else if ok {
		a.audit.Record(ctx, staffEmail(c), "message.handled", fmt.Sprintf("message %d", m.ID), "unhandled", "handled")
	}
	return a.RedirectWithFlash(c, fmt.Sprintf("/admin/messages/%d", m.ID), "Reply sent to "+m.Email+".")
}

// --- Products

func (a *productPages) adminProducts(c *fiber.Ctx) error {
	q := strings.TrimSpace(c.Query("q"))
	page := pageParam(c)
	ps, total, err := a.products.AdminProducts(c.UserContext(), q, page)
	if err != nil {
		return err
	}
	p := pages.AdminProductsPage{Nav: adminNav(c, backoffice.AreaProducts), Products: ps, Total: total, Query: q}
	p.Pagination = web.Paginate(page, lastPage(total, shop.AdminProductsPageSize), func(n int) string {
		v := url.Values{}
		if q != "" {
			v.Set("q", q)
		}
		if n > 1 {
			v.Set("page", strconv.Itoa(n))
		}
		return web.WithQuery("/admin/products", v.Encode())
	})
	return web.Render(c, fiber.StatusOK, pages.AdminProducts(a.Frame(c, "Products · Back office"), p))
}

func formOf(p *shop.Product) pages.ProductForm {
	f := pages.ProductForm{ID: p.ID, Title: p.Title, Description: p.Description, Category: p.Category,
		Price: money.Text(p.Price), Stock: strconv.Itoa(p.Stock), StockWas: strconv.Itoa(p.Stock), Featured: p.Featured, Visible: !p.Hidden, Image: p.Image,
		Variants: p.HasOptions(), FinalSale: p.FinalSale}
	if p.Original > 0 {
		f.Original = money.Text(p.Original)
	}
	return f
}

func (a *productPages) renderProductEditor(c *fiber.Ctx, status int, p pages.AdminProductPage, prod *shop.Product) error {
	p.Nav = adminNav(c, backoffice.AreaProducts)
	cats, err := a.catalog.Categories(c.UserContext())
	if err != nil {
		return err
	}
	p.Categories = cats
	if prod != nil && prod.Photo.Ready() {
		p.ImageURL = web.ThumbnailURL(nil, *prod)
	}
	title := "New product · Back office"
	if !p.New {
		title = "Edit " + p.Form.Title + " · Back office"
	}
	return web.Render(c, status, pages.AdminProduct(a.Frame(c, title), p))
}

func (a *productPages) adminNewProduct(c *fiber.Ctx) error {
	return a.renderProductEditor(c, fiber.StatusOK, pages.AdminProductPage{New: true, Form: pages.ProductForm{Visible: true, Stock: "0"}}, nil)
}

func (a *productPages) adminEditProduct(c *fiber.Ctx) error {
	p, err := a.products.AdminProduct(c.UserContext(), c.Params("id"))
	if shop.ErrorCode(err) == shop.ENOTFOUND {
		return fiber.ErrNotFound
	} else if err != nil {
		return err
	}
	return a.renderProductEditor(c, fiber.StatusOK, pages.AdminProductPage{Form: formOf(p)}, p)
}

func (a *productPages) adminCreateProduct(c *fiber.Ctx) error { return a.saveProduct(c, nil) }

func (a *productPages) adminSaveProduct(c *fiber.Ctx) error {
	p, err := a.products.AdminProduct(c.UserContext(), c.Params("id"))
	if shop.ErrorCode(err) == shop.ENOTFOUND {
		return fiber.ErrNotFound
	} else if err != nil {
		return err
	}
	return a.saveProduct(c, p)
}

// saveProduct validates the editor's form and saves it; before is nil for
// a new product.
func (a *productPages) saveProduct(c *fiber.Ctx, before *shop.Product) error {
	form := pages.ProductForm{
		ID: strings.TrimSpace(web.FormValue(c, "id")), Title: web.FormValue(c, "title"), Description: web.FormValue(c, "description"),
		Category: web.FormValue(c, "category"), Price: web.FormValue(c, "price"), Original: web.FormValue(c, "original"), Stock: web.FormValue(c, "stock"),
		StockWas: web.FormValue(c, "stock_was"), Featured: web.FormValue(c, "featured") != "", Visible: web.FormValue(c, "visible") != "",
		FinalSale: web.FormValue(c, "final_sale") != "",
	}
	if before != nil {
		form.ID, form.Image = before.ID, before.Image
		// A product with options has no stock of its own to edit here:
		// what is posted equals what was loaded, so none is written.
		form.Variants = before.HasOptions()
	}
	edit, errs := backoffice.ParseProduct(backoffice.ProductInput{ID: form.ID, Title: form.Title, Description: form.Description,
		Category: form.Category, Price: form.Price, Original: form.Original, Stock: form.Stock, StockWas: form.StockWas,
		Featured: form.Featured, Visible: form.Visible, FinalSale: form.FinalSale}, before == nil)
	edit.Image = form.Image
	if errs == nil {
		if fh, err := c.FormFile("image"); err == nil && fh.Size > 0 {
			name, ierr := a.uploadPhoto(c, fh)
			if ierr != nil {
				errs = shop.FieldErrors{"image": ierr.Error()}
				if shop.ErrorCode(ierr) == shop.EINVALID {
					errs["image"] = shop.ErrorMessage(ierr)
				} else {
					return ierr
				}
			}
			edit.Image = name
		}
	}
	if errs == nil {
		err := a.products.SaveProduct(c.UserContext(), edit)
		switch shop.ErrorCode(err) {
		case "":
		case shop.ECONFLICT:
			field := shop.ErrorField(err)
			if field == "" {
				field = "id"
			}
			errs = shop.FieldErrors{field: shop.ErrorMessage(err)}
			if field == "stock" {
				// The next save is checked against the stock found now;
				// what staff typed stays in the field.
				if now, err := a.products.AdminProduct(c.UserContext(), edit.ID); err == nil {
					form.StockWas = strconv.Itoa(now.Stock)
				}
			}
		default:
			return err
		}
	}
	if errs != nil {
		return a.renderProductEditor(c, fiber.StatusUnprocessableEntity, pages.AdminProductPage{New: before == nil, Form: form, Errors: errs}, before)
	}
	action := "product.update"
	if before == nil {
		action = "product.create"
	}
	var was any
	after := edit.Product
	if before != nil {
		was = backoffice.ProductRecord(before)
		if edit.Stock == edit.StockWas {
			after.Stock = before.Stock // stock was left alone
		}
	}
	a.audit.Record(c.UserContext(), staffEmail(c), action, edit.ID, was, backoffice.ProductRecord(&after))
	// This instance shows the change at once; the others within a second
	// (they watch the catalogue version).
	if err := a.catalog.Reload(c.UserContext()); err != nil {
		a.Log.Error("catalogue reload after edit", "err", err)
	}
	return a.RedirectWithFlash(c, "/admin/products/"+edit.ID, "Product saved.")
}

// uploadPhoto sends an uploaded photo through the image pipeline.
func (a *productPages) uploadPhoto(c *fiber.Ctx, fh *multipart.FileHeader) (string, error) {
	f, err := fh.Open()
	if err != nil {
		return "", fmt.Errorf("open upload: %w", err)
	}
	defer f.Close()
	body, err := io.ReadAll(io.LimitReader(f, MaxUpload+1))
	if err != nil {
		return "", fmt.Errorf("read upload: %w", err)
	}
	if len(body) > MaxUpload {
		return "", shop.Errorf(shop.EINVALID, "The photo is too large.")
	}
	return a.catalog.UploadPhoto(c.UserContext(), body)
}

// MaxUpload bounds an uploaded photo.
const MaxUpload = 8 << 20

// TakesPhoto reports whether a request may carry an upload larger than a
// form: a product editor's save (a photo), or a catalogue file.
func TakesPhoto(c *fiber.Ctx) bool {
	return takesCatalogFile(c) ||
		c.Method() == fiber.MethodPost && strings.HasPrefix(c.Path(), "/admin/products/") && strings.Count(c.Path(), "/") == 3
}

// --- Staff and audit

func (a *peoplePages) adminStaff(c *fiber.Ctx) error {
	staff, err := a.staff.ListStaff(c.UserContext())
	if err != nil {
		return err
	}
	return web.Render(c, fiber.StatusOK, pages.AdminStaff(a.Frame(c, "Staff · Back office"), pages.AdminStaffPage{Nav: adminNav(c, backoffice.AreaStaff), Staff: staff,
		Me: staffEmail(c)}))
}

func (a *peoplePages) adminAudit(c *fiber.Ctx) error {
	page := pageParam(c)
	entries, total, err := a.audit.AuditLog(c.UserContext(), page)
	if err != nil {
		return err
	}
	p := pages.AdminAuditPage{Nav: adminNav(c, backoffice.AreaAudit), Entries: entries}
	p.Pagination = web.Paginate(page, lastPage(total, shop.AuditPageSize), func(n int) string {
		if n > 1 {
			return "/admin/audit?page=" + strconv.Itoa(n)
		}
		return "/admin/audit"
	})
	return web.Render(c, fiber.StatusOK, pages.AdminAudit(a.Frame(c, "Audit log · Back office"), p))
}
