package handlers

import (
	"fmt"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/auth"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// ContactSuccess is the flash shown after a message is stored (the spec's wording).
const ContactSuccess = "Message sent successfully! We'll get back to you soon."

func (a *pageHandlers) contactPage(c *fiber.Ctx) error {
	return web.Render(c, fiber.StatusOK, pages.Contact(a.Frame(c, "Contact Us"), pages.ContactForm{}))
}

func (a *pageHandlers) contactSubmit(c *fiber.Ctx) error {
	m := shop.ContactMessage{
		Name:    web.FormValue(c, "name"),
		Email:   web.FormValue(c, "email"),
		Subject: web.FormValue(c, "subject"),
		Message: web.FormValue(c, "message"),
	}
	desk := shop.ContactDesk{Store: a.contact, Throttle: a.throttle, Mailer: a.staffMail, StaffEmail: a.staffEmail}
	errs, err := desk.Send(c.UserContext(), &m, a.clientIP(c))
	form := pages.ContactForm{Name: m.Name, Email: m.Email, Subject: m.Subject, Message: m.Message, Errors: errs}
	if retry, ok := auth.Throttled(err); ok {
		// Refused, not stored: say so and keep what was typed.
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(int(retry.Seconds()+0.5)))
		form.Error = fmt.Sprintf(shop.MsgContactThrottled, shop.RetryIn(retry))
		return web.Render(c, fiber.StatusTooManyRequests, pages.Contact(a.Frame(c, "Contact Us"), form))
	} else if err != nil {
		return fmt.Errorf("contact form: %w", err)
	}
	if errs != nil {
		return web.Render(c, fiber.StatusUnprocessableEntity, pages.Contact(a.Frame(c, "Contact Us"), form))
	}
	return a.RedirectWithFlash(c, "/contact", ContactSuccess)
}
