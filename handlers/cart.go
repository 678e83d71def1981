package handlers

import (
	"log/slog"
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/session"
	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/cart"
	"github.com/nocturne/storefront/internal/checkout"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/layout"
	"github.com/nocturne/storefront/views/pages"
)

const (
	sessionCartKey  = "cart"
	anonCartPrefix  = "anon_"
	defaultReturnTo = "/cart"
)

// cartOwners tells whose cart a request is about; the cart, checkout and
// account handlers and the frame's cart badge share it.
type cartOwners struct {
	sessions Sessions
	Log      *slog.Logger
}

// cartHandlers serve the cart and the wishlist.
type cartHandlers struct {
	*web.Pages
	owners    *cartOwners
	cart      *cart.Service
	carts     shop.CartStore
	wishlists shop.WishlistStore
	prices    Pricer
	sessions  Sessions
}

// routes registers the cart's and the wishlist's routes.
func (a *cartHandlers) routes(app *fiber.App) {
	app.Get("/cart", a.cartPage)
	app.Post("/cart/code", a.cartCode)
	app.Post("/cart/items", a.cartAdd)
	app.Post("/cart/items/:id", a.cartSet)
	app.Post("/cart/items/:id/delete", a.cartRemove)
	app.Post("/cart/clear", a.cartClear)
	app.Post("/wishlist/:id/toggle", a.wishlistToggle)
	app.Get("/wishlist", session.RequireAccount, a.wishlistPage)
	app.Post("/wishlist/:id/move", session.RequireAccount, a.wishlistMove)
	app.Post("/wishlist/:id/delete", session.RequireAccount, a.wishlistRemove)
}

// cartOwner names the cart of this request: the current user's (account or
// guest), else the anonymous cart kept in the session, else "" (no cart yet).
func (a *cartOwners) cartOwner(c *fiber.Ctx) string {
	if u := session.User(c); u != nil {
		return u.ID
	}
	v, err := a.sessions.Get(c, sessionCartKey)
	if err != nil {
		a.Log.Error("cart session", "err", err, "request_id", web.RequestID(c))
	}
	if key, _ := v.(string); key != "" {
		return anonCartPrefix + key
	}
	return ""
}

// ensureCartOwner is cartOwner for a request that puts something in the
// cart: a signed-out visitor gets an anonymous cart in a new session.
func (a *cartOwners) ensureCartOwner(c *fiber.Ctx) (string, error) {
	if owner := a.cartOwner(c); owner != "" {
		return owner, nil
	}
	key := shop.RandomToken(32)
	if err := a.sessions.Set(c, sessionCartKey, key); err != nil {
		return "", err
	}
	return anonCartPrefix + key, nil
}

// wantsJSON reports whether the request comes from a script that wants a
// JSON answer instead of a redirect.
func wantsJSON(c *fiber.Ctx) bool {
	return strings.Contains(c.Get(fiber.HeaderAccept), fiber.MIMEApplicationJSON)
}

// returnTo is the local page a card's form came from, else fallback.
func returnTo(c *fiber.Ctx, fallback string) string {
	if p := web.LocalPath(web.FormValue(c, "return_to")); p != "" {
		return p
	}
	if p := web.RefererPath(c); p != "" {
		return p
	}
	return fallback
}

// cartResult answers a cart change: JSON for scripts, else a redirect with a
// flash; err is the change's outcome.
func (a *cartHandlers) cartResult(c *fiber.Ctx, owner string, err error, okMsg string) error {
	back := returnTo(c, defaultReturnTo)
	if err != nil {
		code := shop.ErrorCode(err)
		if code != shop.EINVALID && code != shop.ENOTFOUND {
			return err
		}
		if wantsJSON(c) {
			return c.Status(fiber.StatusUnprocessableEntity).JSON(fiber.Map{"error": shop.ErrorMessage(err)})
		}
		return a.RedirectWithError(c, back, shop.ErrorMessage(err))
	}
	if wantsJSON(c) {
		cart, err := a.carts.Cart(c.UserContext(), owner)
		if err != nil {
			return err
		}
		return c.JSON(fiber.Map{"message": okMsg, "count": cart.ItemCount(), "subtotal": cart.Subtotal().String()})
	}
	return a.RedirectWithFlash(c, back, okMsg)
}

func (a *cartHandlers) cartAdd(c *fiber.Ctx) error {
	owner, err := a.cart.Add(c.UserContext(), a.owners.cartOwner(c), func() (string, error) { return a.owners.ensureCartOwner(c) },
		web.FormValue(c, "product_id"), web.FormValue(c, "variant"), web.FormValue(c, "quantity"))
	return a.cartResult(c, owner, err, cart.MsgAdded)
}

func (a *cartHandlers) cartSet(c *fiber.Ctx) error {
	owner := a.owners.cartOwner(c)
	msg, err := a.cart.Set(c.UserContext(), owner, c.Params("id"), web.FormValue(c, "quantity"))
	return a.cartResult(c, owner, err, msg)
}

func (a *cartHandlers) cartRemove(c *fiber.Ctx) error {
	owner := a.owners.cartOwner(c)
	return a.cartResult(c, owner, a.cart.Remove(c.UserContext(), owner, c.Params("id")), cart.MsgRemoved)
}

func (a *cartHandlers) cartClear(c *fiber.Ctx) error {
	owner := a.owners.cartOwner(c)
	return a.cartResult(c, owner, a.cart.Clear(c.UserContext(), owner), cart.MsgCleared)
}

func (a *cartHandlers) cartPage(c *fiber.Ctx) error {
	f := a.ScriptFrame(c, "Cart") // quantities apply on change
	var cart shop.Cart
	if owner := a.owners.cartOwner(c); owner != "" {
		var err error
		if cart, err = a.carts.Cart(c.UserContext(), owner); err != nil {
			return err
		}
	}
	return a.renderCart(c, fiber.StatusOK, f, cart, "", "")
}

// renderCart renders the cart priced for the default country with the
// session's promo code, or with a code typed and why it was refused.
func (a *cartHandlers) renderCart(c *fiber.Ctx, status int, f layout.Frame, cart shop.Cart, typed, refused string) error {
	set, _ := a.Assets.Current()
	p := pages.CartPage{Cart: cart}
	for _, l := range cart.Lines {
		p.Images = append(p.Images, web.ThumbnailURL(set, l.Product))
	}
	if len(cart.Lines) > 0 {
		kept := promoCode(c, a.sessions)
		if refused != "" {
			kept = ""
		}
		priced, err := a.prices.Price(c.UserContext(), cart, checkout.Choice{Code: kept, Customer: customerOf(session.User(c), "")})
		if err != nil {
			return err
		}
		p.Totals, p.Code = totalsView(priced), codeForm("/cart/code", priced, kept)
		if refused != "" {
			p.Code = pages.CodeForm{Action: "/cart/code", Value: typed, Error: refused}
		}
	}
	return web.Render(c, status, pages.CartView(f, p))
}

// cartCode applies the promo code typed in the cart, or removes the one
// applied. A code refused is shown next to the field, as typed.
func (a *cartHandlers) cartCode(c *fiber.Ctx) error {
	if c.FormValue("action") == "remove" {
		if err := a.sessions.Set(c, sessionCode, ""); err != nil {
			return err
		}
		return c.Redirect("/cart", fiber.StatusSeeOther)
	}
	var cart shop.Cart
	if owner := a.owners.cartOwner(c); owner != "" {
		var err error
		if cart, err = a.carts.Cart(c.UserContext(), owner); err != nil {
			return err
		}
	}
	if len(cart.Lines) == 0 {
		return c.Redirect("/cart", fiber.StatusSeeOther)
	}
	typed := typedCode(c)
	msg := shop.MsgPromoUnknown
	if typed != "" {
		priced, err := a.prices.Price(c.UserContext(), cart, checkout.Choice{Code: typed, Customer: customerOf(session.User(c), "")})
		if err != nil {
			return err
		}
		if priced.CodeErr == nil {
			if err := a.sessions.Set(c, sessionCode, typed); err != nil {
				return err
			}
			return c.Redirect("/cart", fiber.StatusSeeOther)
		}
		msg = shop.ErrorMessage(priced.CodeErr)
	}
	if err := a.sessions.Set(c, sessionCode, ""); err != nil {
		return err
	}
	return a.renderCart(c, fiber.StatusUnprocessableEntity, a.ScriptFrame(c, "Cart"), cart, typed, msg)
}

// wishlistUser is the account a wishlist request acts for; visitors and
// guests are sent to sign in first (the spec's roles and permissions), back to where they were.
func (a *cartHandlers) wishlistUser(c *fiber.Ctx) (*shop.User, error) {
	u := session.User(c)
	if u != nil && !u.IsGuest {
		return u, nil
	}
	login := "/login?from=" + url.QueryEscape(returnTo(c, "/"))
	if wantsJSON(c) {
		return nil, c.Status(fiber.StatusUnauthorized).JSON(fiber.Map{"error": "Please sign in to use your wishlist.", "login": login})
	}
	return nil, c.Redirect(login, fiber.StatusSeeOther)
}

func (a *cartHandlers) wishlistToggle(c *fiber.Ctx) error {
	u, done := a.wishlistUser(c)
	if u == nil {
		return done
	}
	on, err := a.wishlists.ToggleWishlist(c.UserContext(), u.ID, c.Params("id"))
	if shop.ErrorCode(err) == shop.ENOTFOUND {
		if wantsJSON(c) {
			return c.Status(fiber.StatusNotFound).JSON(fiber.Map{"error": shop.ErrorMessage(err)})
		}
		return a.RedirectWithError(c, returnTo(c, "/wishlist"), shop.ErrorMessage(err))
	} else if err != nil {
		return err
	}
	msg := "Removed from your wishlist"
	if on {
		msg = "Added to your wishlist"
	}
	if wantsJSON(c) {
		return c.JSON(fiber.Map{"on": on, "message": msg})
	}
	return a.RedirectWithFlash(c, returnTo(c, "/wishlist"), msg)
}

func (a *cartHandlers) wishlistRemove(c *fiber.Ctx) error {
	u := session.User(c)
	if err := a.wishlists.RemoveFromWishlist(c.UserContext(), u.ID, c.Params("id")); err != nil {
		return err
	}
	return a.RedirectWithFlash(c, "/wishlist", "Removed from your wishlist")
}

// wishlistMove is the wishlist's Add to Cart: the item moves to the cart.
func (a *cartHandlers) wishlistMove(c *fiber.Ctx) error {
	u := session.User(c)
	err := a.wishlists.MoveToCart(c.UserContext(), u.ID, c.Params("id"))
	if code := shop.ErrorCode(err); code == shop.EINVALID || code == shop.ENOTFOUND {
		return a.RedirectWithError(c, "/wishlist", shop.ErrorMessage(err))
	} else if err != nil {
		return err
	}
	return a.RedirectWithFlash(c, "/wishlist", "Moved to your cart")
}

func (a *cartHandlers) wishlistPage(c *fiber.Ctx) error {
	u := session.User(c)
	items, err := a.wishlists.Wishlist(c.UserContext(), u.ID)
	if err != nil {
		return err
	}
	f := a.IslandFrame(c, "Wishlist")
	set, _ := a.Assets.Current()
	p := pages.WishlistPage{Items: items}
	for i, it := range items {
		pic := picture(set, it.Product, cardSizes)
		pic.Alt, pic.Lazy = it.Product.Title, i >= 4 // the title is a separate link
		p.Images = append(p.Images, pic)
	}
	return web.Render(c, fiber.StatusOK, pages.Wishlist(f, p))
}
