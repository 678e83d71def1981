package handlers

import (
	"net/url"
	"strings"

	"github.com/a-h/templ"
	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/layout"
)

// render writes a templ component as the response. Fiber v2 has no templ
// adapter, so the component renders straight into the response body.
func render(c *fiber.Ctx, status int, component templ.Component) error {
	c.Status(status)
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	return component.Render(c.UserContext(), c.Response().BodyWriter())
}

// frame builds the shared frame's view model for this request. Pages that
// mount islands use islandFrame instead.
func (a *App) frame(c *fiber.Ctx, title string) layout.Frame {
	f := a.bareFrame(c, title)
	f.Flash, f.FlashError = a.flash.take(c)
	if owner := a.cartOwner(c); owner != "" {
		n, err := a.Carts.CartCount(c.UserContext(), owner)
		if err != nil {
			a.Log.Error("cart count", "err", err, "request_id", requestID(c))
		}
		f.CartCount = n
	}
	return f
}

// bareFrame is the frame without what the session and the database add
// (flash, cart count): the page shown while the database cannot serve.
func (a *App) bareFrame(c *fiber.Ctx, title string) layout.Frame {
	f := layout.Frame{
		ShopName:    a.Config.ShopName,
		CareersURL:  a.Config.CareersURL,
		Title:       title,
		User:        shop.UserFromContext(c.UserContext()),
		CurrentPath: string(c.Request().URI().RequestURI()),
		Year:        a.Now().Year(),
	}
	// Every page has a meta description (search results and link previews
	// show it); pages with a better one of their own replace it.
	f.Description = a.Config.ShopName + ": electronics, fashion, jewelry and home goods, delivered to your door."
	if title != "" {
		f.Description = title + " – " + f.Description
	}
	if set, err := a.Assets.Current(); err == nil {
		f.CSSURL = set.URL("css/app.css")
		if anonymous(c) {
			// A first visit paints from the HTML alone. A shopper with a
			// session has been here before and holds the stylesheet in
			// the browser's cache, so their pages (compressed on every
			// request) link it instead of carrying it.
			f.InlineCSS = a.inlineCSS
		}
		f.IconURL = set.URL("img/favicon.svg")
	} else {
		a.Log.Error("load assets", "err", err)
	}
	return f
}

// scriptFrame is frame for pages with forms that scripts enhance (apply on
// change, "Processing..."), but no island.
func (a *App) scriptFrame(c *fiber.Ctx, title string) layout.Frame {
	f := a.frame(c, title)
	if set, err := a.Assets.Current(); err == nil {
		f.ScriptURL = set.Entry()
	}
	return f
}

// islandFrame is frame for pages whose islands need the entry script; the
// cart can change on them without a page load, so the badge is live too.
func (a *App) islandFrame(c *fiber.Ctx, title string) layout.Frame {
	f := a.scriptFrame(c, title)
	f.LiveCart = true
	return f
}

// localPath returns s when it is a path on this site ("/…", not "//…", no
// scheme, host or backslash), else "". Every redirect target that comes from
// the client goes through it, so the shop is never an open redirect.
func localPath(s string) string {
	if s == "" || s[0] != '/' || strings.HasPrefix(s, "//") || strings.ContainsAny(s, "\\\r\n\t") {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil {
		return ""
	}
	return s
}

// refererPath returns the local path of the Referer header, or "".
func refererPath(c *fiber.Ctx) string {
	ref := c.Get(fiber.HeaderReferer)
	if ref == "" {
		return ""
	}
	u, err := url.Parse(ref)
	if err != nil || u.Host != string(c.Request().Host()) {
		return ""
	}
	return localPath(u.RequestURI())
}
