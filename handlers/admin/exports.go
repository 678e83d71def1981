package admin

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/csvexport"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// exportPages serve the accountant's downloads (admin only): orders,
// order lines and customers of a range of days, as CSV files streamed
// from the database row by row.
type exportPages struct {
	*web.Pages
	store shop.ExportStore
	loc   *time.Location
}

// exportFile is one download: its export and how it writes its rows.
type exportFile struct {
	csvexport.Export
	About string
	write func(ctx context.Context, s shop.ExportStore, r shop.ExportRange, loc *time.Location, w io.Writer) error
}

var exportFiles = []exportFile{
	{csvexport.Orders, "One row per order: its status, payment, amounts, refunds, e-mail and country.",
		func(ctx context.Context, s shop.ExportStore, r shop.ExportRange, loc *time.Location, w io.Writer) error {
			return csvexport.WriteOrders(w, loc, func(each func(*shop.Order) error) error { return s.ExportOrders(ctx, r, each) })
		}},
	{csvexport.OrderLines, "One row per item line of those orders: product, variant, quantity and prices.",
		func(ctx context.Context, s shop.ExportStore, r shop.ExportRange, loc *time.Location, w io.Writer) error {
			return csvexport.WriteOrderLines(w, loc, func(each func(shop.ExportLine) error) error { return s.ExportOrderLines(ctx, r, each) })
		}},
	{csvexport.Customers, "One row per customer who ordered in those days, with their orders and spending in them.",
		func(ctx context.Context, s shop.ExportStore, r shop.ExportRange, loc *time.Location, w io.Writer) error {
			return csvexport.WriteCustomers(w, loc, func(each func(shop.Customer) error) error { return s.ExportCustomers(ctx, r, each) })
		}},
}

func exportAction(e csvexport.Export) string { return "/admin/exports/" + e.Name + ".csv" }

// render shows the page; failed is the form whose days were refused.
func (a *exportPages) render(c *fiber.Ctx, status int, failed pages.ExportForm) error {
	if a.store == nil {
		return fiber.ErrNotFound
	}
	// Until typed otherwise, the last whole month: what an accountant
	// asks for.
	now := a.Now().In(a.loc)
	first := time.Date(now.Year(), now.Month()-1, 1, 0, 0, 0, 0, a.loc)
	last := time.Date(now.Year(), now.Month(), 0, 0, 0, 0, 0, a.loc)
	p := pages.AdminExportsPage{Nav: adminNav(c, backoffice.AreaExports), Zone: a.loc.String()}
	for _, x := range exportFiles {
		f := pages.ExportForm{Name: x.Name, Title: x.Title, Action: exportAction(x.Export), About: x.About,
			From: first.Format(backoffice.DateLayout), To: last.Format(backoffice.DateLayout)}
		if failed.Name == x.Name {
			f.From, f.To, f.Errors = failed.From, failed.To, failed.Errors
		}
		p.Forms = append(p.Forms, f)
	}
	return web.Render(c, status, pages.AdminExports(a.Frame(c, "Exports · Back office"), p))
}

func (a *exportPages) adminExports(c *fiber.Ctx) error {
	return a.render(c, fiber.StatusOK, pages.ExportForm{})
}

func (a *exportPages) adminExportOrders(c *fiber.Ctx) error    { return a.download(c, exportFiles[0]) }
func (a *exportPages) adminExportLines(c *fiber.Ctx) error     { return a.download(c, exportFiles[1]) }
func (a *exportPages) adminExportCustomers(c *fiber.Ctx) error { return a.download(c, exportFiles[2]) }

// download streams one export of the days asked for; days that do not
// read are refused on the page, next to their fields. Each download is
// logged (who took which file of which days): a download of the shop's
// sales and customers is worth knowing about, and a GET, which saves a
// file in a browser without a form post in the way, writes no row.
func (a *exportPages) download(c *fiber.Ctx, x exportFile) error {
	if a.store == nil {
		return fiber.ErrNotFound
	}
	from, to := c.Query("from"), c.Query("to")
	if from == "" && to == "" {
		// The file's bare address: its form.
		return c.Redirect("/admin/exports")
	}
	r, errs := backoffice.ParseExportRange(from, to, a.loc)
	if errs != nil {
		return a.render(c, fiber.StatusUnprocessableEntity, pages.ExportForm{Name: x.Name, From: from, To: to, Errors: errs})
	}
	first, last := r.From.Format(backoffice.DateLayout), r.To.AddDate(0, 0, -1).Format(backoffice.DateLayout)
	ctx := c.UserContext()
	a.Log.Info("export downloaded", "staff", staffEmail(c), "file", x.Name, "from", first, "to", last, "zone", a.loc.String(),
		"request_id", web.RequestID(c))
	c.Set(fiber.HeaderContentType, "text/csv; charset=utf-8")
	c.Set(fiber.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="%s-%s-to-%s.csv"`, x.Name, first, last))
	stream(c, a.Log, "export "+x.Name, func(w io.Writer) error { return x.write(ctx, a.store, r, a.loc, w) })
	return nil
}
