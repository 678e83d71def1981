package handlers

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/health"
	"github.com/nocturne/storefront/internal/pricing"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// pageHandlers serve the help pages and the contact form.
type pageHandlers struct {
	*web.Pages
	contact  shop.ContactStore
	throttle *shop.Throttle
	// staffMail and staffEmail tell staff of each contact message.
	staffMail  shop.MailSender
	staffEmail string
	clientIP   func(*fiber.Ctx) string
	prices     Pricer
	location   *time.Location
}

// routes registers the help pages and the contact form.
func (a *pageHandlers) routes(app *fiber.App) {
	app.Get("/contact", a.contactPage)
	app.Post("/contact", a.contactSubmit)
	app.Get("/faq", a.faq)
	app.Get("/shipping", a.shipping)
	app.Get("/returns", a.returns)
}

func (a *catalogHandlers) home(c *fiber.Ctx) error {
	// The landing page is where the cart can change without a page load, so
	// it mounts the cart badge island.
	f := a.IslandFrame(c, "")
	f.Description = "Electronics, fashion, jewelry and home goods at " + a.Config.ShopName + "."
	f.Canonical = a.Config.BaseURL.String() + "/"
	featured, err := a.catalog.Featured(c.UserContext(), featuredOnLanding)
	if err != nil {
		// The landing page still works; the carousel shows its empty state.
		a.Log.Error("featured products", "err", err, "request_id", web.RequestID(c))
	}
	return web.Render(c, fiber.StatusOK, pages.Home(f, a.cards(c, featured, 4), a.shippingFacts(c)))
}

func (a *pageHandlers) faq(c *fiber.Ctx) error {
	f := a.Frame(c, "FAQ")
	f.Description = "Answers about shipping, returns, refunds, payment and orders at " + a.Config.ShopName + "."
	rules, err := a.prices.Rules(c.UserContext())
	if err != nil {
		return err
	}
	return web.Render(c, fiber.StatusOK, pages.FAQ(f, pages.NewShippingFacts(rules), a.Config.ReturnWindowDays))
}

func (a *pageHandlers) shipping(c *fiber.Ctx) error {
	rules, err := a.prices.Rules(c.UserContext())
	if err != nil {
		return err
	}
	rows := shippingRows(rules, a.Now().In(a.location).Format("MST"))
	f := a.Frame(c, "Shipping Information")
	f.Description = "Delivery times and costs at " + a.Config.ShopName + "."
	if len(rows) > 0 {
		f.Description = "Delivery times and costs at " + a.Config.ShopName + ": " + rows[0].Method + " shipping " + rows[0].Cost + "."
	}
	return web.Render(c, fiber.StatusOK, pages.Shipping(f, rows))
}

// shippingRows are the shipping methods offered, by zone, as the shipping
// page states them.
func shippingRows(rules pricing.Rules, zone string) []pages.ShippingRow {
	var rows []pages.ShippingRow
	for _, zm := range rules.ByZone() {
		for _, m := range zm.Methods {
			delivery := pricing.Estimate(m)
			if m.CutoffHour >= 0 {
				delivery += ", for orders placed before " + hourText(m.CutoffHour) + " " + zone
			}
			cost := m.Price.String()
			if m.FreeFrom > 0 {
				cost = m.Price.String() + " on orders under " + m.FreeFrom.Whole() + "; free on orders of " + m.FreeFrom.Whole() + " or more"
			}
			rows = append(rows, pages.ShippingRow{ID: m.ID, Zone: zoneLabel(zm.Zone), Method: m.Name, Delivery: delivery, Cost: cost})
		}
	}
	return rows
}

// hourText states an hour of the day as shoppers read it: "2 PM".
func hourText(h int) string {
	switch {
	case h == 0:
		return "midnight"
	case h == 12:
		return "noon"
	case h < 12:
		return fmt.Sprintf("%d AM", h)
	}
	return fmt.Sprintf("%d PM", h-12)
}

func (a *pageHandlers) returns(c *fiber.Ctx) error {
	f := a.Frame(c, "Returns & Refunds")
	f.Description = fmt.Sprintf("Return most items within %d days; how to return an item and when refunds arrive at %s.", a.Config.ReturnWindowDays, a.Config.ShopName)
	return web.Render(c, fiber.StatusOK, pages.Returns(f, a.Config.ReturnWindowDays))
}

// healthz reports whether the shop can serve, as plain text: "ok", or 503
// with "unavailable: database" or what it lacks ("degraded: no
// catalogue"). It only reads; the monitor logs why when the state changes,
// so a load balancer's checks do not flood the log.
func (a *site) healthz(c *fiber.Ctx) error {
	ctx, cancel := context.WithTimeout(c.UserContext(), 2*time.Second)
	defer cancel()
	c.Set(fiber.HeaderCacheControl, "no-store")
	if err := a.health.Check(ctx); err != nil {
		body := "unavailable: database"
		var d *health.Degraded
		if errors.As(err, &d) {
			body = d.Error()
		}
		c.Set(fiber.HeaderRetryAfter, retryAfterUnavailable)
		return c.Status(fiber.StatusServiceUnavailable).SendString(body)
	}
	return c.SendString("ok")
}
