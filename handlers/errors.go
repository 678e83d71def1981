package handlers

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// retryAfterUnavailable is the Retry-After (seconds) of a 503 while the
// database cannot serve: a few of the health monitor's probe intervals.
const retryAfterUnavailable = "30"

// handleError is the one place an error becomes a response: domain error
// codes and Fiber errors map to statuses, only internal failures are logged,
// and the shopper always gets a page of the shop, never a stack trace. A
// database that cannot serve (down, full, read-only) is 503 with
// Retry-After and a plain message, never 500.
func (a *site) handleError(c *fiber.Ctx, err error) error {
	status := fiber.StatusInternalServerError
	var fe *fiber.Error
	if errors.As(err, &fe) {
		status = fe.Code
	} else if a.DBUnavailable(err) {
		return a.unavailablePage(c, err)
	} else {
		switch shop.ErrorCode(err) {
		case shop.EINVALID:
			status = fiber.StatusUnprocessableEntity
		case shop.ENOTFOUND:
			status = fiber.StatusNotFound
		case shop.ECONFLICT:
			status = fiber.StatusConflict
		}
	}
	if status >= 500 {
		a.Log.Error("request failed", "err", err, "method", c.Method(), "path", c.Path(), "request_id", web.RequestID(c))
	}

	f := a.Frame(c, "")
	switch {
	case status == fiber.StatusNotFound:
		f.Title = "Page Not Found"
		return web.Render(c, status, pages.NotFound(f))
	case errors.Is(err, errCSRF):
		a.Log.Warn("cross-site request refused", "err", err, "method", c.Method(), "path", c.Path(),
			"sec_fetch_site", c.Get("Sec-Fetch-Site"), "origin", c.Get(fiber.HeaderOrigin), "request_id", web.RequestID(c))
		f.Title = "Request refused"
		return web.Render(c, status, pages.Error(f, pages.ErrorPage{
			Status:  status,
			Heading: "This form came from another site",
			Message: "For your security, we only accept forms sent from this shop's own pages. Please go back, reload the page and try again.",
		}))
	case status < 500:
		msg := shop.ErrorMessage(err)
		if fe != nil && fe.Message != http.StatusText(status) {
			msg = fe.Message // written for shoppers, e.g. the rate limit's
		}
		f.Title = http.StatusText(status)
		return web.Render(c, status, pages.Error(f, pages.ErrorPage{
			Status:  status,
			Heading: http.StatusText(status),
			Message: msg,
		}))
	default:
		f.Title = "Something went wrong"
		return web.Render(c, status, pages.Error(f, pages.ErrorPage{
			Status:  status,
			Heading: "Something went wrong",
			Message: "We could not complete your request. Please try again in a moment.",
			Retry:   web.LocalPath(string(c.Request().URI().RequestURI())),
		}))
	}
}

// unavailablePage answers 503 with Retry-After while the database cannot
// serve. Its frame reads nothing from the database (no cart count), and
// the cause is logged as a warning: the health monitor has logged the
// outage itself once.
func (a *site) unavailablePage(c *fiber.Ctx, err error) error {
	a.Log.Warn("request failed: database unavailable", "err", err, "method", c.Method(), "path", c.Path(), "request_id", web.RequestID(c))
	c.Set(fiber.HeaderRetryAfter, retryAfterUnavailable)
	c.Set(fiber.HeaderCacheControl, "no-store")
	f := a.BareFrame(c, "Temporarily unavailable")
	return web.Render(c, fiber.StatusServiceUnavailable, pages.Error(f, pages.ErrorPage{
		Status:  fiber.StatusServiceUnavailable,
		Heading: "Temporarily unavailable",
		Message: shop.MsgUnavailable,
		Retry:   web.LocalPath(string(c.Request().URI().RequestURI())),
	}))
}

func (a *site) logPanic(c *fiber.Ctx, e any) {
	a.Log.Error("panic", "panic", fmt.Sprint(e), "path", c.Path(), "request_id", web.RequestID(c))
}

// accessLog writes one structured line per request. It runs the error
// handler itself so the logged status is the one the client received.
func (a *site) accessLog(c *fiber.Ctx) error {
	start := a.Now()
	err := c.Next()
	if err != nil {
		if herr := c.App().ErrorHandler(c, err); herr != nil {
			_ = c.SendStatus(fiber.StatusInternalServerError)
		}
	}
	status := c.Response().StatusCode()
	level := slog.LevelInfo
	if status >= 500 {
		level = slog.LevelError
	}
	a.Log.LogAttrs(c.UserContext(), level, "request",
		slog.String("method", c.Method()),
		slog.String("path", c.Path()),
		slog.Int("status", status),
		slog.Duration("duration", a.Now().Sub(start)),
		slog.Int("bytes", bodySize(c)),
		slog.String("request_id", web.RequestID(c)),
	)
	return nil
}

// bodySize is the response body's size for the access log; -1 for a
// streamed body (a back-office export), whose size is known only once
// it is sent: asking for its bytes would read all of it into memory
// first.
func bodySize(c *fiber.Ctx) int {
	if c.Response().IsBodyStream() {
		return -1
	}
	return len(c.Response().Body())
}
