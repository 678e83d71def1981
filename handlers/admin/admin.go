// Package admin is the back office's HTTP side: staff pages for orders,
// contact messages, products, shipping, tax, promo codes, staff and the
// audit log, customers and the accountant's exports. Each area is a
// struct holding the few interfaces it uses; one route table registers
// every page and tells the role each needs.
package admin

import (
	"context"
	"math"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/mail"
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
	// PersonalData makes a customer's data file; nil: no download.
	PersonalData shop.PersonalDataStore
	// Returns are the return requests, and ReturnService the returns'
	// rules and steps (the shopper's form too); nil: no returns.
	Returns       shop.ReturnStore
	ReturnService *returns.Service
	// Orphans are the payments without an order, refunded by themselves
	// after OrphanRefundAfter; nil: 404s.
	Orphans           shop.OrphanStore
	OrphanRefundAfter time.Duration
	// Mail is the outbox's undelivered mail; nil: 404s.
	Mail MailQueue
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

// Recorder writes a staff action to the audit log (backoffice.Service).
type Recorder interface {
	Record(ctx context.Context, actor, action, subject string, before, after any)
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
	payments  *paymentPages
	mail      *mailPages
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
		dashboard: &dashboardPages{Pages: p, store: d.Dashboard, orphans: d.Orphans, refunds: d.Service},
		orders:    &orderPages{Pages: p, orders: d.Orders, fulfilment: d.Fulfilment, service: d.Service, carriers: d.Carriers},
		messages:  &messagePages{Pages: p, inbox: d.Inbox, mailer: d.Mailer, audit: d.Service},
		products:  &productPages{Pages: p, products: d.Products, catalog: d.Catalog, audit: d.Service},
		variants:  newVariantPages(p, d),
		photos:    &photoPages{Pages: p, products: d.Products, gallery: d.Gallery, catalog: d.Catalog, service: d.Service},
		people:    &peoplePages{Pages: p, staff: d.Staff, audit: d.Audit, record: d.Service},
		files:     &catalogFilePages{Pages: p, files: d.Catalog, audit: d.Service},
		shipping:  &shippingPages{Pages: p, store: pricing, audit: d.Service, loc: loc},
		tax:       &taxPages{Pages: p, store: pricing, audit: d.Service},
		codes:     &codePages{Pages: p, promos: d.Promos, methods: pricing, audit: d.Service, loc: loc},
		carriers:  &carrierPages{Pages: p, store: d.Carriers, audit: d.Service},
		customers: &customerPages{Pages: p, store: d.Customers, audit: d.Service, returns: d.Returns, data: d.PersonalData},
		exports:   &exportPages{Pages: p, store: d.Exports, loc: loc},
		returns:   &returnPages{Pages: p, store: d.Returns},
		payments:  &paymentPages{Pages: p, store: d.Orphans, service: d.Service, refundAfter: d.OrphanRefundAfter},
		bulk:      newBulkPages(p, d),
		mail:      &mailPages{Pages: p, store: d.Mail, audit: d.Service},
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
	{Route{"POST", "/admin/orders/:id/paid", backoffice.AreaMoney}, func(b *BackOffice) fiber.Handler { return b.orders.adminMarkPaid }},
	{Route{"POST", "/admin/orders/:id/refund", backoffice.AreaMoney}, func(b *BackOffice) fiber.Handler { return b.orders.adminRefund }},
	{Route{"POST", "/admin/orders/:id/refund/confirm", backoffice.AreaMoney}, func(b *BackOffice) fiber.Handler { return b.orders.adminRefundConfirm }},
	{Route{"POST", "/admin/orders/:id/refund/items", backoffice.AreaMoney}, func(b *BackOffice) fiber.Handler { return b.orders.adminRefundItems }},
	{Route{"POST", "/admin/orders/:id/refund/sent", backoffice.AreaMoney}, func(b *BackOffice) fiber.Handler { return b.orders.adminRefundSent }},
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
	{Route{"POST", "/admin/customers/:key/data", backoffice.AreaCustomers}, func(b *BackOffice) fiber.Handler { return b.customers.adminCustomerData }},
	{Route{"GET", "/admin/exports", backoffice.AreaExports}, func(b *BackOffice) fiber.Handler { return b.exports.adminExports }},
	{Route{"GET", "/admin/exports/orders.csv", backoffice.AreaExports}, func(b *BackOffice) fiber.Handler { return b.exports.adminExportOrders }},
	{Route{"GET", "/admin/exports/order-lines.csv", backoffice.AreaExports}, func(b *BackOffice) fiber.Handler { return b.exports.adminExportLines }},
	{Route{"GET", "/admin/exports/customers.csv", backoffice.AreaExports}, func(b *BackOffice) fiber.Handler { return b.exports.adminExportCustomers }},
	{Route{"GET", "/admin/returns", backoffice.AreaOrders}, func(b *BackOffice) fiber.Handler { return b.returns.adminReturns }},
	{Route{"GET", "/admin/payments", backoffice.AreaMoney}, func(b *BackOffice) fiber.Handler { return b.payments.adminPayments }},
	{Route{"POST", "/admin/payments/:id/refund", backoffice.AreaMoney}, func(b *BackOffice) fiber.Handler { return b.payments.adminRefundPayment }},
	{Route{"POST", "/admin/payments/:id/refund/confirm", backoffice.AreaMoney}, func(b *BackOffice) fiber.Handler { return b.payments.adminRefundPaymentConfirm }},
	{Route{"POST", "/admin/payments/:id/settle", backoffice.AreaMoney}, func(b *BackOffice) fiber.Handler { return b.payments.adminSettlePayment }},
	{Route{"GET", "/admin/mail", backoffice.AreaMail}, func(b *BackOffice) fiber.Handler { return b.mail.adminMail }},
	{Route{"POST", "/admin/mail/:id/retry", backoffice.AreaMail}, func(b *BackOffice) fiber.Handler { return b.mail.adminRetryMail }},
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
		{Area: backoffice.AreaMoney, Label: "Payments without an order", URL: "/admin/payments"},
		{Area: backoffice.AreaMail, Label: "Mail", URL: mailPath},
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
