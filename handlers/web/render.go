// Package web holds what every page handler of the shop and of the back
// office shares: rendering a templ page, the frame around it, one-time
// flash messages across a redirect, reading form fields, page links, and
// where images are served. It knows no feature and no store.
package web

import (
	"log/slog"
	"math"
	"net/url"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/session"
	"github.com/nocturne/storefront/internal/config"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/static"
	"github.com/nocturne/storefront/views/layout"
	"github.com/nocturne/storefront/views/pages"
)

// Render writes a templ component as the response. Fiber v2 has no templ
// adapter, so the component renders straight into the response body.
func Render(c *fiber.Ctx, status int, component templ.Component) error {
	c.Status(status)
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	return component.Render(c.UserContext(), c.Response().BodyWriter())
}

// Pages builds what every page shares: its frame, and the flash message a
// redirect carries to it.
type Pages struct {
	Config *config.Config
	Log    *slog.Logger
	Now    func() time.Time
	Assets static.Source
	// InlineCSS is the stylesheet every page carries in its head (empty in
	// development, where the file changes under the server).
	InlineCSS string
	Flash     *Flasher
	// CartCount is the number of items in this request's cart, for the top
	// bar (0 when it has none).
	CartCount func(c *fiber.Ctx) (int, error)
	// Unavailable tells a failure of the database to serve now (see
	// DBUnavailable); nil: only errors the store already marked.
	Unavailable func(err error) bool
}

// DBUnavailable reports whether err says the database cannot serve now:
// marked by a store (shop.ErrUnavailable) or recognised by its classifier.
func (p *Pages) DBUnavailable(err error) bool {
	return err != nil && (shop.ErrorCode(err) == shop.EUNAVAILABLE || (p.Unavailable != nil && p.Unavailable(err)))
}

// Frame builds the shared frame's view model for this request. Pages that
// mount islands use IslandFrame instead.
func (p *Pages) Frame(c *fiber.Ctx, title string) layout.Frame {
	f := p.BareFrame(c, title)
	f.Flash, f.FlashError = p.Flash.take(c)
	if p.CartCount != nil {
		n, err := p.CartCount(c)
		if err != nil {
			p.Log.Error("cart count", "err", err, "request_id", RequestID(c))
		}
		f.CartCount = n
	}
	return f
}

// BareFrame is the frame without what the session and the database add
// (flash, cart count): the page shown while the database cannot serve.
func (p *Pages) BareFrame(c *fiber.Ctx, title string) layout.Frame {
	f := layout.Frame{
		ShopName:    p.Config.ShopName,
		CareersURL:  p.Config.CareersURL,
		Title:       title,
		User:        shop.UserFromContext(c.UserContext()),
		CurrentPath: string(c.Request().URI().RequestURI()),
		Year:        p.Now().Year(),
	}
	// Every page has a meta description (search results and link previews
	// show it); pages with a better one of their own replace it.
	f.Description = p.Config.ShopName + ": electronics, fashion, jewelry and home goods, delivered to your door."
	if title != "" {
		f.Description = title + " – " + f.Description
	}
	if set, err := p.Assets.Current(); err == nil {
		f.CSSURL = set.URL("css/app.css")
		if Anonymous(c) {
			// A first visit paints from the HTML alone. A shopper with a
			// session has been here before and holds the stylesheet in
			// the browser's cache, so their pages (compressed on every
			// request) link it instead of carrying it.
			f.InlineCSS = p.InlineCSS
		}
		f.IconURL = set.URL("img/favicon.svg")
	} else {
		p.Log.Error("load assets", "err", err)
	}
	return f
}

// ScriptFrame is Frame for pages with forms that scripts enhance (apply on
// change, "Processing..."), but no island.
func (p *Pages) ScriptFrame(c *fiber.Ctx, title string) layout.Frame {
	f := p.Frame(c, title)
	if set, err := p.Assets.Current(); err == nil {
		f.ScriptURL = set.Entry()
	}
	return f
}

// IslandFrame is Frame for pages whose islands need the entry script; the
// cart can change on them without a page load, so the badge is live too.
func (p *Pages) IslandFrame(c *fiber.Ctx, title string) layout.Frame {
	f := p.ScriptFrame(c, title)
	f.LiveCart = true
	return f
}

// Anonymous reports whether the request carries none of the cookies that
// make a page personal: a session (cart, sign-in) or a flash message.
func Anonymous(c *fiber.Ctx) bool {
	return c.Cookies(session.CookieName) == "" && c.Cookies(flashCookie) == ""
}

// RequestID is the request's id for the logs (set by the request-id
// middleware).
func RequestID(c *fiber.Ctx) string {
	id, _ := c.Locals("requestid").(string)
	return id
}

// LocalPath returns s when it is a path on this site ("/…", not "//…", no
// scheme, host or backslash), else "". Every redirect target that comes from
// the client goes through it, so the shop is never an open redirect.
func LocalPath(s string) string {
	if s == "" || s[0] != '/' || strings.HasPrefix(s, "//") || strings.ContainsAny(s, "\\\r\n\t") {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil {
		return ""
	}
	return s
}

// RefererPath returns the local path of the Referer header, or "".
func RefererPath(c *fiber.Ctx) string {
	ref := c.Get(fiber.HeaderReferer)
	if ref == "" {
		return ""
	}
	u, err := url.Parse(ref)
	if err != nil || u.Host != string(c.Request().Host()) {
		return ""
	}
	return LocalPath(u.RequestURI())
}

// FormValue returns a field of a POST's body, as valid UTF-8. Unlike
// Fiber's FormValue it never reads the query string, so a password or any
// other field cannot arrive in a URL (and so in logs, history and Referer
// headers).
func FormValue(c *fiber.Ctx, key string) string {
	if v := c.Request().PostArgs().Peek(key); v != nil {
		return validText(string(v))
	}
	if mf, err := c.MultipartForm(); err == nil && mf != nil {
		if vs := mf.Value[key]; len(vs) > 0 {
			return validText(vs[0])
		}
	}
	return ""
}

// FormValues is every value posted under key (the boxes of a group
// ticked), in the order sent, each made valid UTF-8 as FormValue does.
func FormValues(c *fiber.Ctx, key string) []string {
	var out []string
	for _, v := range c.Request().PostArgs().PeekMulti(key) {
		out = append(out, validText(string(v)))
	}
	if len(out) == 0 {
		if mf, err := c.MultipartForm(); err == nil && mf != nil {
			for _, v := range mf.Value[key] {
				out = append(out, validText(v))
			}
		}
	}
	return out
}

// validText makes form text valid UTF-8: each invalid byte sequence becomes
// U+FFFD, as browsers do when they decode, so nothing stored or rendered is
// malformed.
func validText(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }

// Paginate builds the Previous / numbered / Next links of page cur of last;
// url gives a page's address.
func Paginate(cur, last int, url func(int) string) pages.Listing {
	l := pages.Listing{Page: cur, Pages: last}
	if cur > 1 {
		l.PrevURL = url(cur - 1)
	}
	if cur < last {
		l.NextURL = url(cur + 1)
	}
	for _, n := range pageWindow(cur, last) {
		if n == 0 {
			l.Links = append(l.Links, pages.PageLink{Gap: true})
		} else {
			l.Links = append(l.Links, pages.PageLink{Number: n, URL: url(n), Current: n == cur})
		}
	}
	return l
}

// pageWindow lists the page numbers to link: the first, the last, and two
// either side of the current one; 0 marks a gap.
func pageWindow(cur, last int) []int {
	var out []int
	for n := 1; n <= last; n++ {
		if n == 1 || n == last || (n >= cur-2 && n <= cur+2) {
			out = append(out, n)
		} else if len(out) > 0 && out[len(out)-1] != 0 {
			out = append(out, 0)
		}
	}
	return out
}

// LastPage is the number of pages total items fill at size a page (at
// least 1).
func LastPage(total, size int) int { return max(1, int(math.Ceil(float64(total)/float64(size)))) }

// WithQuery joins a path and an encoded query.
func WithQuery(path, q string) string {
	if q == "" {
		return path
	}
	return path + "?" + q
}
