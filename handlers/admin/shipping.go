package admin

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/checkout"
	"github.com/nocturne/storefront/internal/money"
	"github.com/nocturne/storefront/internal/pricing"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/components"
	"github.com/nocturne/storefront/views/pages"
)

// shippingPages serve the shipping zones and methods (admin only). A
// change bumps the catalogue version, so every instance's checkout reads
// the settings again (reloadingPricing).
type shippingPages struct {
	*web.Pages
	store shop.PricingStore
	audit Recorder
	loc   *time.Location
}

// Flash messages of the shipping pages.
const (
	MsgZoneSaved     = "Shipping zone saved."
	MsgZoneDeleted   = "Shipping zone deleted."
	MsgMethodSaved   = "Shipping method saved."
	MsgMethodDeleted = "Shipping method deleted."
)

const shippingPath = "/admin/shipping"

func (a *shippingPages) adminShipping(c *fiber.Ctx) error {
	if a.store == nil {
		return fiber.ErrNotFound
	}
	ctx := c.UserContext()
	zones, err := a.store.ShippingZones(ctx)
	if err != nil {
		return err
	}
	methods, err := a.store.ShippingMethods(ctx)
	if err != nil {
		return err
	}
	names := zoneNames(zones)
	p := pages.AdminShippingPage{Nav: adminNav(c, backoffice.AreaShipping)}
	for _, z := range zones {
		p.Zones = append(p.Zones, pages.ZoneView{ID: z.ID, Name: z.Name, Countries: strings.Join(z.Countries, ", "),
			States: strings.Join(z.States, ", "), Position: z.Position})
	}
	tz := a.Now().In(a.loc).Format("MST")
	for _, m := range methods {
		v := pages.MethodView{ID: m.ID, Name: m.Name, Price: m.Price.String(), Days: pricing.Estimate(m), Enabled: m.Enabled, Position: m.Position}
		if m.FreeFrom > 0 {
			v.FreeFrom = m.FreeFrom.String()
		}
		if m.CutoffHour >= 0 {
			v.Cutoff = backoffice.CutoffText(m.CutoffHour) + " (" + tz + ")"
		}
		var zs []string
		for _, id := range m.ZoneIDs {
			zs = append(zs, names[id])
		}
		v.Zones = strings.Join(zs, ", ")
		p.Methods = append(p.Methods, v)
	}
	return web.Render(c, fiber.StatusOK, pages.AdminShipping(a.Frame(c, "Shipping · Back office"), p))
}

func zoneNames(zones []shop.ShippingZone) map[string]string {
	names := make(map[string]string, len(zones))
	for _, z := range zones {
		names[z.ID] = z.Name
	}
	return names
}

// --- Zones

// zone is the route's zone, or the 404 page for one that does not exist.
func (a *shippingPages) zone(c *fiber.Ctx) (shop.ShippingZone, error) {
	if a.store == nil {
		return shop.ShippingZone{}, fiber.ErrNotFound
	}
	zones, err := a.store.ShippingZones(c.UserContext())
	if err != nil {
		return shop.ShippingZone{}, err
	}
	for _, z := range zones {
		if z.ID == c.Params("id") {
			return z, nil
		}
	}
	return shop.ShippingZone{}, fiber.ErrNotFound
}

func (a *shippingPages) renderZone(c *fiber.Ctx, status int, p pages.AdminZonePage) error {
	p.Nav = adminNav(c, backoffice.AreaShipping)
	for _, country := range checkout.ShippingCountries {
		p.Countries = append(p.Countries, components.Choice{Value: country, Label: country})
	}
	if !p.New {
		methods, err := a.store.ShippingMethods(c.UserContext())
		if err != nil {
			return err
		}
		var names []string
		for _, m := range methods {
			for _, id := range m.ZoneIDs {
				if id == p.ID {
					names = append(names, m.Name)
				}
			}
		}
		p.Methods = strings.Join(names, ", ")
	}
	title := "New shipping zone · Back office"
	if !p.New {
		title = "Edit " + p.Form.Name + " · Back office"
	}
	return web.Render(c, status, pages.AdminZone(a.Frame(c, title), p))
}

func (a *shippingPages) adminNewZone(c *fiber.Ctx) error {
	if a.store == nil {
		return fiber.ErrNotFound
	}
	zones, err := a.store.ShippingZones(c.UserContext())
	if err != nil {
		return err
	}
	return a.renderZone(c, fiber.StatusOK, pages.AdminZonePage{New: true, Form: pages.ZoneForm{Position: strconv.Itoa(nextPosition(zonePositions(zones)))}})
}

func (a *shippingPages) adminEditZone(c *fiber.Ctx) error {
	z, err := a.zone(c)
	if err != nil {
		return err
	}
	f := pages.ZoneForm{Name: z.Name, Countries: z.Countries, States: strings.Join(z.States, ", "), Position: strconv.Itoa(z.Position)}
	return a.renderZone(c, fiber.StatusOK, pages.AdminZonePage{ID: z.ID, Form: f})
}

func (a *shippingPages) adminCreateZone(c *fiber.Ctx) error {
	if a.store == nil {
		return fiber.ErrNotFound
	}
	return a.saveZone(c, nil)
}

func (a *shippingPages) adminSaveZone(c *fiber.Ctx) error {
	z, err := a.zone(c)
	if err != nil {
		return err
	}
	return a.saveZone(c, &z)
}

// saveZone checks the zone form and saves it; before is nil for a new
// zone.
func (a *shippingPages) saveZone(c *fiber.Ctx, before *shop.ShippingZone) error {
	form := pages.ZoneForm{Name: web.FormValue(c, "name"), Countries: web.FormValues(c, "countries"), States: web.FormValue(c, "states"),
		Position: web.FormValue(c, "position")}
	page := pages.AdminZonePage{New: before == nil, Form: form}
	z, errs := backoffice.ParseZone(backoffice.ZoneInput{Name: form.Name, Countries: form.Countries, States: form.States, Position: form.Position},
		checkout.ShippingCountries)
	if before != nil {
		page.ID, z.ID = before.ID, before.ID
	}
	if errs == nil {
		saved, err := a.store.SaveShippingZone(c.UserContext(), z)
		if code := shop.ErrorCode(err); code == shop.EINVALID {
			// What the form checks, the store checks again; its refusal
			// of anything else belongs with the whole zone.
			errs = shop.FieldErrors{"name": shop.ErrorMessage(err)}
		} else if err != nil {
			return err
		}
		z = saved
	}
	if errs != nil {
		page.Errors = errs
		return a.renderZone(c, fiber.StatusUnprocessableEntity, page)
	}
	action, was := "shipping.zone.create", any(nil)
	if before != nil {
		action, was = "shipping.zone.update", backoffice.ZoneRecord(*before)
	}
	a.audit.Record(c.UserContext(), staffEmail(c), action, z.ID, was, backoffice.ZoneRecord(z))
	return a.RedirectWithFlash(c, shippingPath, MsgZoneSaved)
}

func (a *shippingPages) adminDeleteZone(c *fiber.Ctx) error {
	ctx := c.UserContext()
	z, err := a.zone(c)
	if errors.Is(err, fiber.ErrNotFound) && a.store != nil {
		// Deleted meanwhile, or this post sent twice: the list says so.
		return a.RedirectWithError(c, shippingPath, "That shipping zone no longer exists.")
	} else if err != nil {
		return err
	}
	if err := a.store.DeleteShippingZone(ctx, z.ID); shop.ErrorCode(err) == shop.ENOTFOUND {
		return a.RedirectWithError(c, shippingPath, shop.ErrorMessage(err))
	} else if err != nil {
		return err
	}
	a.audit.Record(ctx, staffEmail(c), "shipping.zone.delete", z.ID, backoffice.ZoneRecord(z), nil)
	return a.RedirectWithFlash(c, shippingPath, MsgZoneDeleted)
}

// --- Methods

// method is the route's method, or the 404 page for one that does not
// exist.
func (a *shippingPages) method(c *fiber.Ctx) (shop.ShippingMethod, error) {
	if a.store == nil {
		return shop.ShippingMethod{}, fiber.ErrNotFound
	}
	methods, err := a.store.ShippingMethods(c.UserContext())
	if err != nil {
		return shop.ShippingMethod{}, err
	}
	for _, m := range methods {
		if m.ID == c.Params("id") {
			return m, nil
		}
	}
	return shop.ShippingMethod{}, fiber.ErrNotFound
}

// zoneChoices are the zones a method can ship to, by position.
func (a *shippingPages) zoneChoices(c *fiber.Ctx) ([]components.Choice, []string, error) {
	zones, err := a.store.ShippingZones(c.UserContext())
	if err != nil {
		return nil, nil, err
	}
	choices := make([]components.Choice, len(zones))
	ids := make([]string, len(zones))
	for i, z := range zones {
		label := z.Name
		if where := strings.Join(z.Countries, ", "); where != z.Name {
			label += " (" + where + ")"
		}
		choices[i] = components.Choice{Value: z.ID, Label: label}
		ids[i] = z.ID
	}
	return choices, ids, nil
}

func (a *shippingPages) renderMethod(c *fiber.Ctx, status int, p pages.AdminMethodPage) error {
	p.Nav = adminNav(c, backoffice.AreaShipping)
	var err error
	if p.Zones, _, err = a.zoneChoices(c); err != nil {
		return err
	}
	p.Hours = cutoffChoices(a.Now().In(a.loc).Format("MST"))
	title := "New shipping method · Back office"
	if !p.New {
		title = "Edit " + p.Form.Name + " · Back office"
	}
	return web.Render(c, status, pages.AdminMethod(a.Frame(c, title), p))
}

// cutoffChoices are the cut-off select's: none, then every hour of the
// day in the shop's time zone, tz.
func cutoffChoices(tz string) []components.Choice {
	out := []components.Choice{{Value: backoffice.NoCutoff, Label: "None"}}
	for h := range 24 {
		out = append(out, components.Choice{Value: strconv.Itoa(h), Label: backoffice.CutoffText(h) + " " + tz})
	}
	return out
}

func methodForm(m shop.ShippingMethod) pages.MethodForm {
	f := pages.MethodForm{Name: m.Name, Price: money.Text(m.Price), MinDays: strconv.Itoa(m.MinDays), MaxDays: strconv.Itoa(m.MaxDays),
		Cutoff: backoffice.NoCutoff, Position: strconv.Itoa(m.Position), Zones: m.ZoneIDs, Enabled: m.Enabled}
	if m.FreeFrom > 0 {
		f.FreeFrom = money.Text(m.FreeFrom)
	}
	if m.CutoffHour >= 0 {
		f.Cutoff = strconv.Itoa(m.CutoffHour)
	}
	return f
}

func (a *shippingPages) adminNewMethod(c *fiber.Ctx) error {
	if a.store == nil {
		return fiber.ErrNotFound
	}
	methods, err := a.store.ShippingMethods(c.UserContext())
	if err != nil {
		return err
	}
	positions := make([]int, len(methods))
	for i, m := range methods {
		positions[i] = m.Position
	}
	f := pages.MethodForm{Cutoff: backoffice.NoCutoff, Position: strconv.Itoa(nextPosition(positions)), Enabled: true}
	return a.renderMethod(c, fiber.StatusOK, pages.AdminMethodPage{New: true, Form: f})
}

func (a *shippingPages) adminEditMethod(c *fiber.Ctx) error {
	m, err := a.method(c)
	if err != nil {
		return err
	}
	return a.renderMethod(c, fiber.StatusOK, pages.AdminMethodPage{ID: m.ID, Form: methodForm(m)})
}

func (a *shippingPages) adminCreateMethod(c *fiber.Ctx) error {
	if a.store == nil {
		return fiber.ErrNotFound
	}
	return a.saveMethod(c, nil)
}

func (a *shippingPages) adminSaveMethod(c *fiber.Ctx) error {
	m, err := a.method(c)
	if err != nil {
		return err
	}
	return a.saveMethod(c, &m)
}

// saveMethod checks the method form and saves it; before is nil for a
// new method.
func (a *shippingPages) saveMethod(c *fiber.Ctx, before *shop.ShippingMethod) error {
	form := pages.MethodForm{Name: web.FormValue(c, "name"), Price: web.FormValue(c, "price"), FreeFrom: web.FormValue(c, "free_from"),
		MinDays: web.FormValue(c, "min_days"), MaxDays: web.FormValue(c, "max_days"), Cutoff: web.FormValue(c, "cutoff"),
		Position: web.FormValue(c, "position"), Zones: web.FormValues(c, "zones"), Enabled: web.FormValue(c, "enabled") != ""}
	page := pages.AdminMethodPage{New: before == nil, Form: form}
	_, zoneIDs, err := a.zoneChoices(c)
	if err != nil {
		return err
	}
	m, errs := backoffice.ParseMethod(backoffice.MethodInput{Name: form.Name, Price: form.Price, FreeFrom: form.FreeFrom, MinDays: form.MinDays,
		MaxDays: form.MaxDays, Cutoff: form.Cutoff, Position: form.Position, Zones: form.Zones, Enabled: form.Enabled}, zoneIDs)
	if before != nil {
		page.ID, m.ID = before.ID, before.ID
	}
	if errs == nil {
		saved, err := a.store.SaveShippingMethod(c.UserContext(), m)
		switch shop.ErrorCode(err) {
		case "":
			m = saved
		case shop.ENOTFOUND: // a zone deleted since the form was read
			errs = shop.FieldErrors{"zones": backoffice.MsgZoneGone}
		case shop.EINVALID:
			errs = shop.FieldErrors{"name": shop.ErrorMessage(err)}
		default:
			return err
		}
	}
	if errs != nil {
		page.Errors = errs
		return a.renderMethod(c, fiber.StatusUnprocessableEntity, page)
	}
	action, was := "shipping.method.create", any(nil)
	if before != nil {
		action, was = "shipping.method.update", backoffice.MethodRecord(*before)
	}
	a.audit.Record(c.UserContext(), staffEmail(c), action, m.ID, was, backoffice.MethodRecord(m))
	return a.RedirectWithFlash(c, shippingPath, MsgMethodSaved)
}

func (a *shippingPages) adminDeleteMethod(c *fiber.Ctx) error {
	ctx := c.UserContext()
	m, err := a.method(c)
	if errors.Is(err, fiber.ErrNotFound) && a.store != nil {
		return a.RedirectWithError(c, shippingPath, "That shipping method no longer exists.")
	} else if err != nil {
		return err
	}
	if err := a.store.DeleteShippingMethod(ctx, m.ID); shop.ErrorCode(err) == shop.ENOTFOUND {
		return a.RedirectWithError(c, shippingPath, shop.ErrorMessage(err))
	} else if err != nil {
		return err
	}
	a.audit.Record(ctx, staffEmail(c), "shipping.method.delete", m.ID, backoffice.MethodRecord(m), nil)
	return a.RedirectWithFlash(c, shippingPath, MsgMethodDeleted)
}

// --- Shared

func zonePositions(zones []shop.ShippingZone) []int {
	out := make([]int, len(zones))
	for i, z := range zones {
		out[i] = z.Position
	}
	return out
}

// nextPosition is the position a new zone or method is offered: after
// the last.
func nextPosition(positions []int) int {
	next := 1
	for _, p := range positions {
		next = max(next, p+1)
	}
	return min(next, backoffice.MaxPosition)
}
