package handlers

import (
	"github.com/gofiber/fiber/v2"
)

// serveStatic answers asset requests from the current asset set. Names carry
// a content hash, so a response may be cached for a year.
func (a *site) serveStatic(c *fiber.Ctx) error {
	set, err := a.Assets.Current()
	if err != nil {
		return err
	}
	asset, ok := set.Lookup(c.Path())
	if !ok {
		return fiber.ErrNotFound
	}
	c.Set(fiber.HeaderContentType, asset.ContentType)
	c.Vary(fiber.HeaderAcceptEncoding)
	if a.Config.Dev {
		c.Set(fiber.HeaderCacheControl, "no-cache")
		return c.Send(asset.Body)
	}
	c.Set(fiber.HeaderCacheControl, "public, max-age=31536000, immutable")
	h := &c.Request().Header
	if body, enc := asset.Compressed(h.HasAcceptEncoding("br"), h.HasAcceptEncoding("gzip")); body != nil {
		c.Set(fiber.HeaderContentEncoding, enc)
		return c.Send(body)
	}
	return c.Send(asset.Body)
}

// serveFavicon answers browsers that ask for /favicon.ico before reading the
// page's icon link.
func (a *site) serveFavicon(c *fiber.Ctx) error {
	set, err := a.Assets.Current()
	if err != nil {
		return err
	}
	asset, ok := set.Lookup(set.URL("img/favicon.svg"))
	if !ok {
		return fiber.ErrNotFound
	}
	c.Set(fiber.HeaderContentType, asset.ContentType)
	c.Set(fiber.HeaderCacheControl, "public, max-age=86400")
	return c.Send(asset.Body)
}
