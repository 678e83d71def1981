package admin

import (
	"cmp"
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/components"
	"github.com/nocturne/storefront/views/pages"
)

// codePages serve the promo codes (admin only): the list, a new code,
// and pausing or resuming one. Times are typed and shown in the shop's
// time zone, loc.
type codePages struct {
	*web.Pages
	promos shop.PromoStore
	// methods are the shipping methods a free-shipping code may cover;
	// nil offers no choice (the zone's cheapest).
	methods shippingMethods
	audit   Recorder
	loc     *time.Location
}

// shippingMethods lists the shop's shipping methods.
type shippingMethods interface {
	ShippingMethods(ctx context.Context) ([]shop.ShippingMethod, error)
}

// Flash messages of the promo code page.
const (
	MsgCodeCreated = "Code %s created."
	MsgCodePaused  = "Code %s paused: shoppers can't use it until it is resumed."
	MsgCodeResumed = "Code %s resumed."
)

const codesPath = "/admin/codes"

// promoKinds are the kinds of code, as the form offers them.
var promoKinds = []components.Choice{
	{Value: shop.PromoPercent, Label: "Percent off the subtotal"},
	{Value: shop.PromoFixed, Label: "Amount off the subtotal"},
	{Value: shop.PromoFreeShipping, Label: "Free shipping"},
}

func kindLabel(kind string) string {
	for _, k := range promoKinds {
		if k.Value == kind {
			return k.Label
		}
	}
	return kind
}

func (a *codePages) adminCodes(c *fiber.Ctx) error {
	if a.promos == nil {
		return fiber.ErrNotFound
	}
	return a.render(c, fiber.StatusOK, pages.PromoForm{Kind: shop.PromoPercent}, nil)
}

// render shows the list with the new code form as typed.
func (a *codePages) render(c *fiber.Ctx, status int, form pages.PromoForm, errs shop.FieldErrors) error {
	codes, err := a.promos.PromoCodes(c.UserContext())
	if err != nil {
		return err
	}
	methods, err := a.shippingMethods(c.UserContext())
	if err != nil {
		return err
	}
	p := pages.AdminCodesPage{Nav: adminNav(c, backoffice.AreaCodes), Form: form, Errors: errs, Kinds: promoKinds, TimeZone: a.loc.String()}
	names := map[string]string{}
	for _, m := range methods {
		p.Methods = append(p.Methods, components.Choice{Value: m.ID, Label: m.Name})
		names[m.ID] = m.Name
	}
	now := a.Now()
	for _, pc := range codes {
		p.Codes = append(p.Codes, pages.PromoView{Code: pc.Code, Kind: kindLabel(pc.Kind), Value: backoffice.PromoValueText(pc),
			Conditions: a.conditions(pc, names), Used: usedText(pc), State: backoffice.PromoState(pc, now), Paused: pc.Paused})
	}
	return web.Render(c, status, pages.AdminCodes(a.Frame(c, "Promo codes · Back office"), p))
}

// shippingMethods are the methods a free-shipping code may cover, none
// when the back office has no pricing store.
func (a *codePages) shippingMethods(ctx context.Context) ([]shop.ShippingMethod, error) {
	if a.methods == nil {
		return nil, nil
	}
	return a.methods.ShippingMethods(ctx)
}

// conditions states what a code needs, its times in the shop's zone, and
// which methods a free-shipping code frees (names: the methods' names by
// id; a method deleted since shows its id).
func (a *codePages) conditions(pc shop.PromoCode, names map[string]string) []string {
	var out []string
	if pc.Kind == shop.PromoFreeShipping {
		out = append(out, freeMethodsText(pc.FreeMethods, names))
	}
	const layout = "Jan 2, 2006 15:04 MST"
	if pc.MinSubtotal > 0 {
		out = append(out, "A subtotal of at least "+pc.MinSubtotal.String())
	}
	if !pc.StartsAt.IsZero() {
		out = append(out, "From "+pc.StartsAt.In(a.loc).Format(layout))
	}
	if !pc.EndsAt.IsZero() {
		out = append(out, "Until "+pc.EndsAt.In(a.loc).Format(layout))
	}
	if pc.OncePerCustomer {
		out = append(out, "Once per customer")
	}
	return out
}

// freeMethodsText states which methods a free-shipping code frees.
func freeMethodsText(ids []string, names map[string]string) string {
	if len(ids) == 0 {
		return "Free shipping by the cheapest method of the shopper's zone"
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = cmp.Or(names[id], id)
	}
	return "Free shipping by " + strings.Join(out, ", ")
}

func usedText(pc shop.PromoCode) string {
	if pc.UsageCap > 0 {
		return fmt.Sprintf("%d of %d", pc.Used, pc.UsageCap)
	}
	return strconv.Itoa(pc.Used) + " (no limit)"
}

func (a *codePages) adminCreateCode(c *fiber.Ctx) error {
	if a.promos == nil {
		return fiber.ErrNotFound
	}
	form := pages.PromoForm{Code: web.FormValue(c, "code"), Kind: web.FormValue(c, "kind"), Value: web.FormValue(c, "value"),
		MinSubtotal: web.FormValue(c, "min_subtotal"), StartsAt: web.FormValue(c, "starts_at"), EndsAt: web.FormValue(c, "ends_at"),
		UsageCap: web.FormValue(c, "usage_cap"), OncePerCustomer: web.FormValue(c, "once_per_customer") != "",
		FreeMethods: web.FormValues(c, "free_methods")}
	methods, err := a.shippingMethods(c.UserContext())
	if err != nil {
		return err
	}
	ids := make([]string, len(methods))
	for i, m := range methods {
		ids[i] = m.ID
	}
	pc, errs := backoffice.ParsePromo(backoffice.PromoInput{Code: form.Code, Kind: form.Kind, Value: form.Value, MinSubtotal: form.MinSubtotal,
		StartsAt: form.StartsAt, EndsAt: form.EndsAt, UsageCap: form.UsageCap, OncePerCustomer: form.OncePerCustomer,
		FreeMethods: form.FreeMethods, MethodIDs: ids}, a.loc)
	if errs == nil {
		saved, err := a.promos.SavePromoCode(c.UserContext(), pc)
		if shop.ErrorCode(err) == shop.EINVALID {
			// The form checks the rest: what the store refuses is a code
			// that exists already, in some case.
			errs = shop.FieldErrors{"code": shop.ErrorMessage(err)}
		} else if err != nil {
			return err
		}
		pc = saved
	}
	if errs != nil {
		return a.render(c, fiber.StatusUnprocessableEntity, form, errs)
	}
	a.audit.Record(c.UserContext(), staffEmail(c), "promo.create", pc.Code, nil, backoffice.PromoRecord(pc))
	return a.RedirectWithFlash(c, codesPath, fmt.Sprintf(MsgCodeCreated, pc.Code))
}

func (a *codePages) adminPauseCode(c *fiber.Ctx) error  { return a.setPaused(c, true) }
func (a *codePages) adminResumeCode(c *fiber.Ctx) error { return a.setPaused(c, false) }

// setPaused pauses or resumes the code posted. A code already so (the
// button pressed twice) is left as it is and not recorded again.
func (a *codePages) setPaused(c *fiber.Ctx, paused bool) error {
	if a.promos == nil {
		return fiber.ErrNotFound
	}
	ctx := c.UserContext()
	pc, err := a.promos.PromoCode(ctx, strings.TrimSpace(web.FormValue(c, "code")))
	if shop.ErrorCode(err) == shop.ENOTFOUND {
		return a.RedirectWithError(c, codesPath, "That code no longer exists.")
	} else if err != nil {
		return err
	}
	msg := MsgCodeResumed
	if paused {
		msg = MsgCodePaused
	}
	if pc.Paused != paused {
		if err := a.promos.SetPromoPaused(ctx, pc.Code, paused); err != nil {
			return err
		}
		action := "promo.resume"
		if paused {
			action = "promo.pause"
		}
		a.audit.Record(ctx, staffEmail(c), action, pc.Code, map[string]bool{"paused": pc.Paused}, map[string]bool{"paused": paused})
	}
	return a.RedirectWithFlash(c, codesPath, fmt.Sprintf(msg, pc.Code))
}
