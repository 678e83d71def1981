package admin

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// customerPages serve the customer list, a customer's page and the staff
// note on it (admin only: see internal/backoffice/customers.go).
type customerPages struct {
	*web.Pages
	store shop.CustomerStore
	audit Recorder
	// returns lists the returns of the customer's orders; nil: none shown.
	returns shop.ReturnStore
	// data makes the customer's data file; nil: no download.
	data shop.PersonalDataStore
}

func (a *customerPages) adminCustomers(c *fiber.Ctx) error {
	if a.store == nil {
		return fiber.ErrNotFound
	}
	q := strings.TrimSpace(c.Query("q"))
	page := pageParam(c)
	list, total, err := a.store.Customers(c.UserContext(), shop.CustomerQuery{Search: q, Page: page})
	if err != nil {
		return err
	}
	p := pages.AdminCustomersPage{Nav: adminNav(c, backoffice.AreaCustomers), Customers: list, Total: total, Search: q}
	p.Pagination = web.Paginate(page, lastPage(total, shop.CustomersPageSize), func(n int) string {
		v := url.Values{}
		if q != "" {
			v.Set("q", q)
		}
		if n > 1 {
			v.Set("page", strconv.Itoa(n))
		}
		return web.WithQuery("/admin/customers", v.Encode())
	})
	return web.Render(c, fiber.StatusOK, pages.AdminCustomers(a.Frame(c, "Customers · Back office"), p))
}

// loadCustomer returns the customer of the route's key (escaped in the
// path, as pages.CustomerURL writes it), or a 404.
func (a *customerPages) loadCustomer(c *fiber.Ctx) (*shop.Customer, string, error) {
	if a.store == nil {
		return nil, "", fiber.ErrNotFound
	}
	key, err := url.PathUnescape(c.Params("key"))
	if err != nil {
		return nil, "", fiber.ErrNotFound
	}
	cu, err := a.store.Customer(c.UserContext(), key)
	if shop.ErrorCode(err) == shop.ENOTFOUND {
		return nil, "", fiber.ErrNotFound
	}
	return cu, key, err
}

func (a *customerPages) renderCustomer(c *fiber.Ctx, status int, cu *shop.Customer, p pages.AdminCustomerPage) error {
	ctx := c.UserContext()
	var err error
	if p.Orders, err = a.store.CustomerOrders(ctx, cu.Key); err != nil {
		return err
	}
	if a.returns != nil {
		for _, o := range p.Orders {
			if o.Status != shop.StatusDelivered {
				continue // only a delivered order can have returns
			}
			rs, err := a.returns.OrderReturns(ctx, o.ID)
			if err != nil {
				return err
			}
			p.Returns = append(p.Returns, rs...)
		}
	}
	if p.Messages, err = a.store.CustomerMessages(ctx, cu.Email); err != nil {
		return err
	}
	if p.Note, err = a.store.CustomerNote(ctx, cu.Key, cu.Email); err != nil {
		return err
	}
	if p.Errors == nil {
		p.NoteText = p.Note.Text
	}
	p.Nav, p.Customer = adminNav(c, backoffice.AreaCustomers), *cu
	return web.Render(c, status, pages.AdminCustomer(a.Frame(c, pages.CustomerName(*cu)+" · Back office"), p))
}

// adminCustomer shows a customer. A guest's e-mail that is an account's
// address leads to the account's page, where its orders are.
func (a *customerPages) adminCustomer(c *fiber.Ctx) error {
	cu, key, err := a.loadCustomer(c)
	if err != nil {
		return err
	}
	if cu.Key != key {
		return c.Redirect(pages.CustomerURL(cu.Key))
	}
	return a.renderCustomer(c, fiber.StatusOK, cu, pages.AdminCustomerPage{})
}

// adminSaveNote replaces the staff note. Two staff saving at once: the
// last save stands, and the audit log keeps both.
func (a *customerPages) adminSaveNote(c *fiber.Ctx) error {
	cu, _, err := a.loadCustomer(c)
	if err != nil {
		return err
	}
	text, errs := backoffice.ParseCustomerNote(web.FormValue(c, "note"))
	if errs != nil {
		return a.renderCustomer(c, fiber.StatusUnprocessableEntity, cu, pages.AdminCustomerPage{NoteText: text, Errors: errs})
	}
	ctx := c.UserContext()
	before, err := a.store.CustomerNote(ctx, cu.Key, cu.Email)
	if err != nil {
		return err
	}
	here := pages.CustomerURL(cu.Key)
	if before.Text == text {
		return a.RedirectWithFlash(c, here, "The note is unchanged.")
	}
	n := shop.CustomerNote{Key: cu.Key, Text: text, By: staffEmail(c), At: a.Now().UTC()}
	if !cu.Guest {
		n.Email = cu.Email // an account's note replaces its address's
	}
	if err := a.store.SaveCustomerNote(ctx, n); err != nil {
		return err
	}
	a.audit.Record(ctx, staffEmail(c), "customer.note", cu.Key, before.Text, text)
	if text == "" {
		return a.RedirectWithFlash(c, here, "Note deleted.")
	}
	return a.RedirectWithFlash(c, here, "Note saved.")
}

// adminCustomerData gives staff the customer's data file, the same one a
// shopper downloads from Account Settings, for a customer who asks by
// other means (a guest has no settings page). A POST: handing a person's
// data out is a staff action, audited before the file is sent.
func (a *customerPages) adminCustomerData(c *fiber.Ctx) error {
	cu, _, err := a.loadCustomer(c)
	if err != nil {
		return err
	}
	if a.data == nil {
		return fiber.ErrNotFound
	}
	d, err := a.data.PersonalData(c.UserContext(), cu.Key)
	if err != nil {
		return err
	}
	a.audit.Record(c.UserContext(), staffEmail(c), "customer.data.export", cu.Key, "", "")
	return a.SendPersonalData(c, d)
}
