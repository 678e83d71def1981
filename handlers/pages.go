package handlers

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/internal/health"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

func (a *App) home(c *fiber.Ctx) error {
	// The landing page is where the cart can change without a page load, so
	// it mounts the cart badge island.
	f := a.islandFrame(c, "")
	f.Description = "Electronics, fashion, jewelry and home goods at " + a.Config.ShopName + "."
	f.Canonical = a.Config.BaseURL.String() + "/"
	featured, err := a.Catalog.Featured(c.UserContext(), featuredOnLanding)
	if err != nil {
		// The landing page still works; the carousel shows its empty state.
		a.Log.Error("featured products", "err", err, "request_id", requestID(c))
	}
	return render(c, fiber.StatusOK, pages.Home(f, a.cards(c, featured, 4)))
}

func (a *App) faq(c *fiber.Ctx) error {
	f := a.frame(c, "FAQ")
	f.Description = "Answers about shipping, returns, refunds, payment and orders at " + a.Config.ShopName + "."
	return render(c, fiber.StatusOK, pages.FAQ(f))
}

func (a *App) shipping(c *fiber.Ctx) error {
	f := a.frame(c, "Shipping Information")
	f.Description = "Delivery times and costs at " + a.Config.ShopName + ": standard shipping " + shop.StandardShippingTerms() + "."
	return render(c, fiber.StatusOK, pages.Shipping(f))
}

func (a *App) returns(c *fiber.Ctx) error {
	f := a.frame(c, "Returns & Refunds")
	f.Description = fmt.Sprintf("Return most items within %d days; how to return an item and when refunds arrive at %s.", shop.ReturnWindowDays, a.Config.ShopName)
	return render(c, fiber.StatusOK, pages.Returns(f))
}

// healthz reports whether the shop can serve, as plain text: "ok", or 503
// with "unavailable: database" or what it lacks ("degraded: no
// catalogue"). It only reads; the monitor logs why when the state changes,
// so a load balancer's checks do not flood the log.
func (a *App) healthz(c *fiber.Ctx) error {
	ctx, cancel := context.WithTimeout(c.UserContext(), 2*time.Second)
	defer cancel()
	c.Set(fiber.HeaderCacheControl, "no-store")
	if err := a.Health.Check(ctx); err != nil {
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
