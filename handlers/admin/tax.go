package admin

import (
	"errors"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/checkout"
	"github.com/nocturne/storefront/internal/pricing"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/components"
	"github.com/nocturne/storefront/views/pages"
)

// taxPages serve the tax rates and the shop-wide tax switches (admin
// only).
type taxPages struct {
	*web.Pages
	store shop.PricingStore
	audit Recorder
}

// Flash messages of the tax pages.
const (
	MsgRateSaved        = "Tax rate saved."
	MsgRateDeleted      = "Tax rate deleted."
	MsgTaxSettingsSaved = "Tax settings saved."
)

// everywhereElse names the rate of the country "".
const everywhereElse = "Everywhere else"

const taxPath = "/admin/tax"

// placeOf names where a rate applies: "United States, NY", "Everywhere
// else".
func placeOf(r shop.TaxRate) string {
	switch {
	case r.Country == "":
		return everywhereElse
	case r.State != "":
		return r.Country + ", " + r.State
	}
	return r.Country
}

func (a *taxPages) adminTax(c *fiber.Ctx) error {
	if a.store == nil {
		return fiber.ErrNotFound
	}
	ctx := c.UserContext()
	rates, err := a.store.TaxRates(ctx)
	if err != nil {
		return err
	}
	settings, err := a.store.PricingSettings(ctx)
	if err != nil {
		return err
	}
	p := pages.AdminTaxPage{Nav: adminNav(c, backoffice.AreaTax), Settings: settings}
	for _, r := range rates {
		p.Rates = append(p.Rates, pages.TaxRateView{ID: r.ID, Name: r.Name, Place: placeOf(r), Rate: pricing.TaxRateText(r.Exact())})
	}
	return web.Render(c, fiber.StatusOK, pages.AdminTax(a.Frame(c, "Tax · Back office"), p))
}

// adminSaveTaxSettings saves the two switches as the boxes are ticked.
func (a *taxPages) adminSaveTaxSettings(c *fiber.Ctx) error {
	if a.store == nil {
		return fiber.ErrNotFound
	}
	ctx := c.UserContext()
	before, err := a.store.PricingSettings(ctx)
	if err != nil {
		return err
	}
	after := shop.PricingSettings{PricesIncludeTax: web.FormValue(c, "prices_include_tax") != "", TaxShipping: web.FormValue(c, "tax_shipping") != ""}
	if err := a.store.SavePricingSettings(ctx, after); err != nil {
		return err
	}
	a.audit.Record(ctx, staffEmail(c), "tax.settings", "pricing settings", settingsRecord(before), settingsRecord(after))
	return a.RedirectWithFlash(c, taxPath, MsgTaxSettingsSaved)
}

func settingsRecord(s shop.PricingSettings) map[string]bool {
	return map[string]bool{"prices_include_tax": s.PricesIncludeTax, "tax_shipping": s.TaxShipping}
}

// rate is the route's rate, or the 404 page for one that does not exist.
func (a *taxPages) rate(c *fiber.Ctx) (shop.TaxRate, error) {
	if a.store == nil {
		return shop.TaxRate{}, fiber.ErrNotFound
	}
	rates, err := a.store.TaxRates(c.UserContext())
	if err != nil {
		return shop.TaxRate{}, err
	}
	for _, r := range rates {
		if r.ID == c.Params("id") {
			return r, nil
		}
	}
	return shop.TaxRate{}, fiber.ErrNotFound
}

func (a *taxPages) renderRate(c *fiber.Ctx, status int, p pages.AdminTaxRatePage) error {
	p.Nav = adminNav(c, backoffice.AreaTax)
	p.Countries = []components.Choice{{Value: "", Label: everywhereElse}}
	for _, country := range checkout.ShippingCountries {
		p.Countries = append(p.Countries, components.Choice{Value: country, Label: country})
	}
	title := "New tax rate · Back office"
	if !p.New {
		title = "Tax rate for " + p.Place + " · Back office"
	}
	return web.Render(c, status, pages.AdminTaxRate(a.Frame(c, title), p))
}

func (a *taxPages) adminNewRate(c *fiber.Ctx) error {
	if a.store == nil {
		return fiber.ErrNotFound
	}
	return a.renderRate(c, fiber.StatusOK, pages.AdminTaxRatePage{New: true, Form: pages.TaxRateForm{Name: "Tax"}})
}

func (a *taxPages) adminEditRate(c *fiber.Ctx) error {
	r, err := a.rate(c)
	if err != nil {
		return err
	}
	f := pages.TaxRateForm{Name: r.Name, Country: r.Country, State: r.State, Rate: pricing.TaxRateInput(r.Exact())}
	return a.renderRate(c, fiber.StatusOK, pages.AdminTaxRatePage{ID: r.ID, Place: placeOf(r), Form: f})
}

func (a *taxPages) adminCreateRate(c *fiber.Ctx) error {
	if a.store == nil {
		return fiber.ErrNotFound
	}
	return a.saveRate(c, nil)
}

func (a *taxPages) adminSaveRate(c *fiber.Ctx) error {
	r, err := a.rate(c)
	if err != nil {
		return err
	}
	return a.saveRate(c, &r)
}

// saveRate checks the rate form and saves it; before is nil for a new
// rate.
func (a *taxPages) saveRate(c *fiber.Ctx, before *shop.TaxRate) error {
	form := pages.TaxRateForm{Name: web.FormValue(c, "name"), Country: web.FormValue(c, "country"), State: web.FormValue(c, "state"),
		Rate: web.FormValue(c, "rate")}
	page := pages.AdminTaxRatePage{New: before == nil, Form: form}
	r, errs := backoffice.ParseTaxRate(backoffice.TaxRateInput{Name: form.Name, Country: form.Country, State: form.State, Rate: form.Rate},
		checkout.ShippingCountries)
	if before != nil {
		page.ID, page.Place, r.ID = before.ID, placeOf(*before), before.ID
	}
	if errs == nil {
		saved, err := a.store.SaveTaxRate(c.UserContext(), r)
		if shop.ErrorCode(err) == shop.EINVALID {
			// The form checks the rest: what the store refuses is a
			// second rate for the same place.
			errs = shop.FieldErrors{"country": shop.ErrorMessage(err)}
		} else if err != nil {
			return err
		}
		r = saved
	}
	if errs != nil {
		page.Errors = errs
		return a.renderRate(c, fiber.StatusUnprocessableEntity, page)
	}
	action, was := "tax.rate.create", any(nil)
	if before != nil {
		action, was = "tax.rate.update", backoffice.TaxRateRecord(*before)
	}
	a.audit.Record(c.UserContext(), staffEmail(c), action, r.ID, was, backoffice.TaxRateRecord(r))
	return a.RedirectWithFlash(c, taxPath, MsgRateSaved)
}

func (a *taxPages) adminDeleteRate(c *fiber.Ctx) error {
	ctx := c.UserContext()
	r, err := a.rate(c)
	if errors.Is(err, fiber.ErrNotFound) && a.store != nil {
		// Deleted meanwhile, or this post sent twice: the list says so.
		return a.RedirectWithError(c, taxPath, "That tax rate no longer exists.")
	} else if err != nil {
		return err
	}
	if err := a.store.DeleteTaxRate(ctx, r.ID); shop.ErrorCode(err) == shop.ENOTFOUND {
		return a.RedirectWithError(c, taxPath, shop.ErrorMessage(err))
	} else if err != nil {
		return err
	}
	a.audit.Record(ctx, staffEmail(c), "tax.rate.delete", r.ID, backoffice.TaxRateRecord(r), nil)
	return a.RedirectWithFlash(c, taxPath, MsgRateDeleted)
}
