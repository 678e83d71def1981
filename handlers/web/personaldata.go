package web

import (
	"encoding/json"
	"fmt"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/internal/shop"
)

// SendPersonalData answers with d as the JSON file the person takes
// away, as an attachment named for whom and which day. Nothing may keep
// a copy on the way (no-store), and it is made whole before the first
// byte is sent: one person's data is small, and a failure midway then
// answers an error page rather than a file cut short.
func (p *Pages) SendPersonalData(c *fiber.Ctx, d *shop.PersonalData) error {
	now := p.Now()
	body, err := json.MarshalIndent(d.File(now), "", "  ")
	if err != nil {
		return fmt.Errorf("personal data file: %w", err)
	}
	name := d.Email
	if name == "" {
		name = d.Key
	}
	day := now.UTC()
	if p.Config != nil && p.Config.Location != nil {
		day = now.In(p.Config.Location) // the shop's day, as its other files name theirs
	}
	c.Set(fiber.HeaderCacheControl, "private, no-store")
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
	c.Set(fiber.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="%s"`, shop.PersonalFileName(name, day)))
	return c.Send(append(body, '\n'))
}
