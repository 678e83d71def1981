package admin

import (
	"fmt"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// carrierPages serve the carriers and their tracking pages (admin only).
type carrierPages struct {
	*web.Pages
	store shop.CarrierStore
	audit Recorder
}

const carriersPath = "/admin/carriers"

// sampleTracking is the number each carrier's "try it" link tracks.
const sampleTracking = "1Z999AA10123456784"

// carrierEdit is a refused change to one carrier, shown as typed.
type carrierEdit struct{ id, template, err string }

func (a *carrierPages) render(c *fiber.Ctx, status int, p pages.AdminCarriersPage, edit carrierEdit) error {
	if a.store == nil {
		return fiber.ErrNotFound
	}
	carriers, err := a.store.Carriers(c.UserContext())
	if err != nil {
		return err
	}
	for _, cr := range carriers {
		row := pages.CarrierRow{ID: cr.ID, Name: cr.Name, Template: cr.URLTemplate, Sample: cr.TrackingURL(sampleTracking)}
		if cr.ID == edit.id {
			row.Template, row.Error = edit.template, edit.err
		}
		p.Carriers = append(p.Carriers, row)
	}
	p.Nav = adminNav(c, backoffice.AreaCarriers)
	return web.Render(c, status, pages.AdminCarriers(a.Frame(c, "Carriers · Back office"), p))
}

func (a *carrierPages) adminCarriers(c *fiber.Ctx) error {
	return a.render(c, fiber.StatusOK, pages.AdminCarriersPage{}, carrierEdit{})
}

func (a *carrierPages) adminAddCarrier(c *fiber.Ctx) error {
	if a.store == nil {
		return fiber.ErrNotFound
	}
	ctx := c.UserContext()
	cr := shop.Carrier{Name: web.FormValue(c, "name"), URLTemplate: web.FormValue(c, "url_template")}
	errs := cr.Validate()
	if errs == nil {
		// Names differing only in case would be two entries of one
		// carrier in the ship form.
		carriers, err := a.store.Carriers(ctx)
		if err != nil {
			return err
		}
		for _, other := range carriers {
			if strings.EqualFold(other.Name, cr.Name) {
				errs = shop.FieldErrors{"name": fmt.Sprintf(shop.MsgCarrierExists, other.Name)}
			}
		}
	}
	if errs == nil {
		added, err := a.store.AddCarrier(ctx, cr)
		switch {
		case shop.ErrorCode(err) == shop.ECONFLICT:
			errs = shop.FieldErrors{"name": shop.ErrorMessage(err)}
		case err != nil:
			return err
		}
		cr = added
	}
	if errs != nil {
		return a.render(c, fiber.StatusUnprocessableEntity, pages.AdminCarriersPage{NewName: cr.Name, NewTemplate: cr.URLTemplate,
			NewErrors: errs, Error: "Please correct the fields marked below."}, carrierEdit{})
	}
	a.audit.Record(ctx, staffEmail(c), "carrier.add", cr.Name, nil, map[string]string{"url_template": cr.URLTemplate})
	return a.RedirectWithFlash(c, carriersPath, "Carrier "+cr.Name+" added.")
}

func (a *carrierPages) adminSaveCarrier(c *fiber.Ctx) error {
	if a.store == nil {
		return fiber.ErrNotFound
	}
	ctx := c.UserContext()
	carriers, err := a.store.Carriers(ctx)
	if err != nil {
		return err
	}
	var before *shop.Carrier
	for i := range carriers {
		if carriers[i].ID == c.Params("id") {
			before = &carriers[i]
		}
	}
	if before == nil {
		return fiber.ErrNotFound
	}
	cr := *before
	cr.URLTemplate = web.FormValue(c, "url_template")
	if errs := cr.Validate(); errs != nil {
		return a.render(c, fiber.StatusUnprocessableEntity, pages.AdminCarriersPage{Error: "Please correct the fields marked below."},
			carrierEdit{id: cr.ID, template: cr.URLTemplate, err: errs["url_template"]})
	}
	if cr.URLTemplate == before.URLTemplate {
		return a.RedirectWithFlash(c, carriersPath, "Nothing changed: "+cr.Name+"'s page is as it was.")
	}
	if err := a.store.SetCarrierTemplate(ctx, cr.ID, cr.URLTemplate); shop.ErrorCode(err) == shop.ENOTFOUND {
		return fiber.ErrNotFound
	} else if err != nil {
		return err
	}
	a.audit.Record(ctx, staffEmail(c), "carrier.update", cr.Name,
		map[string]string{"url_template": before.URLTemplate}, map[string]string{"url_template": cr.URLTemplate})
	return a.RedirectWithFlash(c, carriersPath, cr.Name+"'s tracking page saved.")
}
