package admin

import (
	"fmt"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// What cannot be undone (cancelling an order with its refund, removing a
// member of staff, deleting a product) takes two posts, as a refund does:
// the first checks the form and shows a page that says what will happen,
// changing nothing; its form posts the second, which acts. The second
// carries what the page showed and is refused when that is no longer so,
// and the store's conditional change refuses a second confirmation, so a
// double submit acts once. See decision 0016.

// adminCancel checks the cancel form and shows what confirming will do.
func (a *orderPages) adminCancel(c *fiber.Ctx) error {
	o, err := a.loadAdminOrder(c)
	if err != nil {
		return err
	}
	here := "/admin/orders/" + o.ID
	if o.Status != shop.StatusProcessing {
		return a.RedirectWithError(c, here, fmt.Sprintf(backoffice.MsgNotCancellable, o.Status))
	}
	if !a.mayCancel(c, o) {
		return a.RedirectWithError(c, here, MsgAdminCancels)
	}
	reason, errs := backoffice.CancelReason(web.FormValue(c, "reason"))
	if errs != nil {
		return a.renderAdminOrder(c, fiber.StatusUnprocessableEntity, pages.AdminOrderPage{Order: o, Errors: errs,
			Error: "Please correct the fields marked below.", Reason: web.FormValue(c, "reason")})
	}
	paid := "No payment was taken, so nothing is refunded."
	if o.Paid() {
		paid = fmt.Sprintf("Paid %s with %s; %s refunded so far.", o.Total, o.PaymentMethod, o.Refunded)
	}
	return web.Render(c, fiber.StatusOK, pages.AdminConfirm(a.Frame(c, "Cancel "+o.ID+" · Back office"), pages.AdminConfirmPage{
		Nav: adminNav(c, backoffice.AreaOrders), Back: here, BackLabel: "Keep order " + o.ID,
		Text:    a.service.CancelText(o),
		Details: []string{paid, "Its items go back into stock, and the shopper is e-mailed with the reason: " + reason},
		Action:  here + "/cancel/confirm",
		Fields: []pages.HiddenField{{Name: "reason", Value: reason}, {Name: "status", Value: string(o.Status)},
			{Name: "refunded", Value: strconv.FormatInt(int64(o.Refunded), 10)}},
	}))
}

// adminCancelConfirm cancels the order the confirmation page showed, as it
// was then: still processing, with as much refunded.
func (a *orderPages) adminCancelConfirm(c *fiber.Ctx) error {
	o, err := a.loadAdminOrder(c)
	if err != nil {
		return err
	}
	here := "/admin/orders/" + o.ID
	status, refunded := web.FormValue(c, "status"), web.FormValue(c, "refunded")
	switch {
	case !a.mayCancel(c, o):
		return a.RedirectWithError(c, here, MsgAdminCancels)
	case status == "" || refunded == "":
		return a.RedirectWithError(c, here, backoffice.MsgConfirmIncomplete)
	case shop.OrderStatus(status) == shop.StatusProcessing && o.Status == shop.StatusCancelled:
		return a.RedirectWithError(c, here, fmt.Sprintf(backoffice.MsgCancelledAlready, o.ID))
	case shop.OrderStatus(status) != o.Status || refunded != strconv.FormatInt(int64(o.Refunded), 10):
		return a.RedirectWithError(c, here, fmt.Sprintf(backoffice.MsgChangedSinceShown, "Order "+o.ID))
	}
	reason := web.FormValue(c, "reason")
	// Two confirmations racing both get here: the store moves the order
	// from processing once, and the other is refused.
	errs, err := a.service.Cancel(c.UserContext(), staffEmail(c), o.ID, reason)
	done := "Order " + o.ID + " cancelled and refunded; the stock is back and the shopper was e-mailed."
	if !o.Paid() {
		done = "Order " + o.ID + " cancelled; the stock is back and the shopper was e-mailed."
	}
	return a.orderActionDone(c, o, pages.AdminOrderPage{Reason: reason}, errs, err, done)
}

// findStaff is the member of staff with email, nil for none.
func (a *peoplePages) findStaff(c *fiber.Ctx, email string) (*shop.Staff, error) {
	staff, err := a.staff.ListStaff(c.UserContext())
	if err != nil {
		return nil, err
	}
	for _, s := range staff {
		if s.Email == email {
			return &s, nil
		}
	}
	return nil, nil
}

// adminRemoveStaff shows what removing a member of staff does.
func (a *peoplePages) adminRemoveStaff(c *fiber.Ctx) error {
	const here = "/admin/staff"
	email := shop.NormalizeEmail(web.FormValue(c, "email"))
	if email == "" {
		return a.RedirectWithError(c, here, backoffice.MsgConfirmIncomplete)
	}
	if email == staffEmail(c) {
		return a.RedirectWithError(c, here, backoffice.MsgRemoveSelf)
	}
	st, err := a.findStaff(c, email)
	if err != nil {
		return err
	} else if st == nil {
		return a.RedirectWithError(c, here, fmt.Sprintf(backoffice.MsgNotStaff, email))
	}
	return web.Render(c, fiber.StatusOK, pages.AdminConfirm(a.Frame(c, "Remove "+email+" · Back office"), pages.AdminConfirmPage{
		Nav: adminNav(c, backoffice.AreaStaff), Back: here, BackLabel: "Keep " + email,
		Text: "Remove " + email + " from staff",
		Details: []string{
			"They lose the back office (their role is " + st.Role + ") at once, on every instance. Their shopper account and its orders stay.",
			"A role is given back on the server: storefront staff add " + email + " --role " + st.Role + ".",
		},
		Action: "/admin/staff/remove/confirm",
		Fields: []pages.HiddenField{{Name: "email", Value: email}, {Name: "role", Value: st.Role}},
	}))
}

// adminRemoveStaffConfirm takes the role the confirmation page showed.
func (a *peoplePages) adminRemoveStaffConfirm(c *fiber.Ctx) error {
	const here = "/admin/staff"
	email, role := shop.NormalizeEmail(web.FormValue(c, "email")), web.FormValue(c, "role")
	switch {
	case email == "" || role == "":
		return a.RedirectWithError(c, here, backoffice.MsgConfirmIncomplete)
	case email == staffEmail(c):
		return a.RedirectWithError(c, here, backoffice.MsgRemoveSelf)
	}
	st, err := a.findStaff(c, email)
	switch {
	case err != nil:
		return err
	case st == nil:
		return a.RedirectWithError(c, here, fmt.Sprintf(backoffice.MsgNotStaff, email))
	case st.Role != role:
		return a.RedirectWithError(c, here, fmt.Sprintf(backoffice.MsgChangedSinceShown, email+"'s role"))
	}
	// The delete matches nothing the second time: a confirmation posted
	// twice removes once.
	removed, err := a.staff.RevokeStaff(c.UserContext(), email)
	if err != nil {
		return err
	} else if !removed {
		return a.RedirectWithError(c, here, fmt.Sprintf(backoffice.MsgNotStaff, email))
	}
	a.record.Record(c.UserContext(), staffEmail(c), "staff.remove", email, role, "")
	return a.RedirectWithFlash(c, here, "Removed "+email+" from staff.")
}

// adminDeleteProduct shows what deleting a product does.
func (a *productPages) adminDeleteProduct(c *fiber.Ctx) error {
	p, err := a.products.AdminProduct(c.UserContext(), c.Params("id"))
	if shop.ErrorCode(err) == shop.ENOTFOUND {
		return fiber.ErrNotFound
	} else if err != nil {
		return err
	}
	here := "/admin/products/" + p.ID
	return web.Render(c, fiber.StatusOK, pages.AdminConfirm(a.Frame(c, "Delete "+p.Title+" · Back office"), pages.AdminConfirmPage{
		Nav: adminNav(c, backoffice.AreaProducts), Back: here, BackLabel: "Keep the product",
		Text: "Delete product " + p.Title + " (" + p.ID + ")",
		Details: []string{
			"It leaves the shop at once with its options, variants and photos, and is taken out of every cart and wishlist. Orders that sold it keep their lines.",
			"To stop selling it but keep it, untick \"Visible in the shop\" in the editor instead. A catalogue import that lists it adds it again.",
		},
		Action: here + "/delete/confirm",
		Fields: []pages.HiddenField{{Name: "title", Value: p.Title}},
	}))
}

// adminDeleteProductConfirm deletes the product the confirmation page
// showed, under the title it showed.
func (a *productPages) adminDeleteProductConfirm(c *fiber.Ctx) error {
	id := c.Params("id")
	here := "/admin/products/" + id
	title := web.FormValue(c, "title")
	if title == "" {
		return a.RedirectWithError(c, here, backoffice.MsgConfirmIncomplete)
	}
	ctx := c.UserContext()
	p, err := a.products.AdminProduct(ctx, id)
	switch {
	case shop.ErrorCode(err) == shop.ENOTFOUND:
		return a.RedirectWithError(c, "/admin/products", fmt.Sprintf(backoffice.MsgProductGone, id))
	case err != nil:
		return err
	case p.Title != title:
		return a.RedirectWithError(c, here, fmt.Sprintf(backoffice.MsgChangedSinceShown, "Product "+id))
	}
	// Gone since it was read (a second confirmation racing this one): the
	// store deletes it once.
	switch err := a.products.DeleteProduct(ctx, id); {
	case shop.ErrorCode(err) == shop.ENOTFOUND:
		return a.RedirectWithError(c, "/admin/products", fmt.Sprintf(backoffice.MsgProductGone, id))
	case err != nil:
		return err
	}
	a.audit.Record(ctx, staffEmail(c), "product.delete", id, backoffice.ProductRecord(p), nil)
	if err := a.catalog.Reload(ctx); err != nil {
		a.Log.Error("catalogue reload after delete", "err", err)
	}
	return a.RedirectWithFlash(c, "/admin/products", "Product "+p.Title+" ("+id+") deleted.")
}

// MsgAdminCancels refuses fulfilment staff a cancel that would refund.
const MsgAdminCancels = "An admin cancels a paid order: its money goes back."

// mayCancel reports whether the viewer may cancel o: cancelling a paid
// order refunds it, and money moves are an admin's.
func (a *orderPages) mayCancel(c *fiber.Ctx, o *shop.Order) bool {
	return !o.Paid() || backoffice.Allowed(staffRole(c), backoffice.AreaMoney)
}
