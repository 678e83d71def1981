package handlers

import (
	"fmt"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// ContactSuccess is the flash shown after a message is stored (spec §8).
const ContactSuccess = "Message sent successfully! We'll get back to you soon."

func (a *App) contactPage(c *fiber.Ctx) error {
	return render(c, fiber.StatusOK, pages.Contact(a.frame(c, "Contact Us"), pages.ContactForm{}))
}

func (a *App) contactSubmit(c *fiber.Ctx) error {
	m := shop.ContactMessage{
		Name:    formValue(c, "name"),
		Email:   formValue(c, "email"),
		Subject: formValue(c, "subject"),
		Message: formValue(c, "message"),
	}
	m.Normalize()
	if errs := m.Validate(); errs != nil {
		form := pages.ContactForm{Name: m.Name, Email: m.Email, Subject: m.Subject, Message: m.Message, Errors: errs}
		return render(c, fiber.StatusUnprocessableEntity, pages.Contact(a.frame(c, "Contact Us"), form))
	}
	if err := a.Contact.CreateContactMessage(c.UserContext(), &m); err != nil {
		return fmt.Errorf("contact form: %w", err)
	}
	return a.redirectWithFlash(c, "/contact", ContactSuccess)
}
