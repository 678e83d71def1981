package handlers

import (
	"net/netip"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/admin"
	"github.com/nocturne/storefront/internal/shop"
)

// permissionsPolicy turns off every powerful browser feature the shop does
// not use, for its pages and anything framed in them.
const permissionsPolicy = "accelerometer=(), autoplay=(), camera=(), display-capture=(), encrypted-media=(), " +
	"fullscreen=(), geolocation=(), gyroscope=(), hid=(), idle-detection=(), magnetometer=(), microphone=(), " +
	"midi=(), payment=(), picture-in-picture=(), publickey-credentials-get=(), screen-wake-lock=(), serial=(), " +
	"usb=(), xr-spatial-tracking=(), interest-cohort=(), browsing-topics=()"

// personalPrefixes are the pages that show one shopper's data: no shared
// cache (a proxy, a CDN) may keep them, and no browser may keep them on disk
// for the next person at a shared computer.
var personalPrefixes = []string{"/orders", "/profile", "/settings", "/checkout", "/cart", "/wishlist",
	// pages that carry a one-time token
	"/login/link", "/reset-password", "/confirm-email"}

// isPersonal reports whether path is one of the personal pages or below one.
func isPersonal(path string) bool {
	for _, p := range personalPrefixes {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}

// noStorePersonal marks personal pages Cache-Control: private, no-store,
// whatever a handler or later middleware set.
func noStorePersonal(c *fiber.Ctx) error {
	err := c.Next()
	if isPersonal(c.Path()) {
		c.Set(fiber.HeaderCacheControl, "private, no-store")
	}
	return err
}

// maxRequestIDLength bounds a request id accepted from a client (or a proxy
// in front of the shop).
const maxRequestIDLength = 64

// safeRequestID reports whether id is a short token of letters, digits and
// . _ - : nothing a log reader or a log parser could be fooled by.
func safeRequestID(id string) bool {
	if id == "" || len(id) > maxRequestIDLength {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

// requestIDs gives every request an id for the logs and the X-Request-Id
// response header: the one a client or proxy sent when it is a safe short
// token, a fresh random one otherwise.
func requestIDs(c *fiber.Ctx) error {
	id := c.Get(fiber.HeaderXRequestID)
	if !safeRequestID(id) {
		id = shop.RandomHex(16)
	}
	c.Set(fiber.HeaderXRequestID, id)
	c.Locals("requestid", id)
	return c.Next()
}

// proxies are the trusted reverse proxies (TRUSTED_PROXIES) as prefixes.
type proxies []netip.Prefix

func parseProxies(list []string) proxies {
	var out proxies
	for _, s := range list {
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
		} else if a, err := netip.ParseAddr(s); err == nil {
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
		}
	}
	return out
}

func (ps proxies) trusted(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range ps {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// scheme is the scheme the client used: https over TLS, or when a trusted
// proxy says so in X-Forwarded-Proto; http otherwise.
func (a *site) scheme(c *fiber.Ctx) string {
	if c.Context().IsTLS() {
		return "https"
	}
	if peer, ok := netip.AddrFromSlice(c.Context().RemoteIP()); ok && a.proxies.trusted(peer) &&
		strings.EqualFold(strings.TrimSpace(c.Get(fiber.HeaderXForwardedProto)), "https") {
		return "https"
	}
	return "http"
}

// clientIP is the address the throttles count by: the peer, or, when the
// peer is a trusted proxy, the right-most address of X-Forwarded-For that
// is not a trusted proxy. (The left-most entries are whatever the client
// sent, so they could dodge every per-address limit.)
func (a *site) clientIP(c *fiber.Ctx) string {
	peer, ok := netip.AddrFromSlice(c.Context().RemoteIP())
	if !ok {
		return c.Context().RemoteIP().String()
	}
	peer = peer.Unmap()
	if !a.proxies.trusted(peer) {
		return peer.String()
	}
	hops := strings.Split(c.Get(fiber.HeaderXForwardedFor), ",")
	client := peer
	for i := len(hops) - 1; i >= 0; i-- {
		h, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break
		}
		client = h.Unmap()
		if !a.proxies.trusted(client) {
			break
		}
	}
	return client.String()
}

// multipartOverhead is room for the editor's other fields and the
// multipart framing beside a photo of admin.MaxUpload bytes, so a photo
// just over the limit reaches the handler and gets a message by its field.
const multipartOverhead = 256 << 10

// maxBody bounds the body of every request but a product save.
const maxBody = 1 << 20

// limitBody refuses a body over maxBody, by its Content-Length before it is
// looked at, on every route that takes no photo.
func limitBody(c *fiber.Ctx) error {
	if admin.TakesPhoto(c) {
		return c.Next()
	}
	if c.Request().Header.ContentLength() > maxBody || len(c.Request().Body()) > maxBody {
		return fiber.NewError(fiber.StatusRequestEntityTooLarge, "This request is too large for the shop to accept.")
	}
	return c.Next()
}
