package admin

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// peoplePages serve the staff list and the audit log.
type peoplePages struct {
	*web.Pages
	staff shop.StaffStore
	audit shop.AuditStore
	// record writes what staff do here to the audit log.
	record Recorder
}

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
