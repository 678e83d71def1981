package handlers

import (
	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/session"
	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/shop"
)

// personalDataHandlers give a signed-in shopper their own data as one
// file ("Download my data" on Account Settings).
type personalDataHandlers struct {
	*web.Pages
	store shop.PersonalDataStore
}

func (h *personalDataHandlers) routes(app *fiber.App) {
	// A GET: the download only reads (no audit row, no session saved), so
	// a plain link-like form works without JavaScript and a repeat is
	// harmless. Staff's download of a customer's is a POST, as it is
	// audited.
	app.Get("/settings/data", session.RequireAccount, h.download)
}

func (h *personalDataHandlers) download(c *fiber.Ctx) error {
	if h.store == nil {
		return fiber.ErrNotFound
	}
	d, err := h.store.PersonalData(c.UserContext(), session.User(c).ID)
	if err != nil {
		return err
	}
	return h.SendPersonalData(c, d)
}
