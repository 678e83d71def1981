package admin

import (
	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/views/pages"
)

// adminAddNote adds staff's internal note to the order's timeline.
func (a *orderPages) adminAddNote(c *fiber.Ctx) error {
	o, err := a.loadAdminOrder(c)
	if err != nil {
		return err
	}
	note := web.FormValue(c, "note")
	errs, err := a.service.AddNote(c.UserContext(), staffEmail(c), o.ID, note)
	return a.orderActionDone(c, o, pages.AdminOrderPage{Note: note}, errs, err, "Note added to order "+o.ID+".")
}
