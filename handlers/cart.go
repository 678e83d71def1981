package handlers

import (
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/session"
	"github.com/nocturne/storefront/internal/cart"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

const (
	sessionCartKey  = "cart"
	anonCartPrefix  = "anon_"
	defaultReturnTo = "/cart"
)

// cartOwner names the cart of this request: the current user's (account or
// guest), else the anonymous cart kept in the session, else "" (no cart yet).
func (a *App) cartOwner(c *fiber.Ctx) string {
	if u := session.User(c); u != nil {
		return u.ID
	}
	v, err := a.Sessions.Get(c, sessionCartKey)
	if err != nil {
		a.Log.Error("cart session", "err", err, "request_id", requestID(c))
	}
	if key, _ := v.(string); key != "" {
		return anonCartPrefix + key
	}
	return ""
}

// ensureCartOwner is cartOwner for a request that puts something in the
// cart: a signed-out visitor gets an anonymous cart in a new session.
func (a *App) ensureCartOwner(c *fiber.Ctx) (string, error) {
	if owner := a.cartOwner(c); owner != "" {
		return owner, nil
	}
	key := shop.RandomToken(32)
	if err := a.Sessions.Set(c, sessionCartKey, key); err != nil {
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
	if p := localPath(formValue(c, "return_to")); p != "" {
		return p
	}
	if p := refererPath(c); p != "" {
		return p
	}
	return fallback
}

// cartResult answers a cart change: JSON for scripts, else a redirect with a
// flash; err is the change's outcome.
func (a *App) cartResult(c *fiber.Ctx, owner string, err error, okMsg string) error {
	back := returnTo(c, defaultReturnTo)
	if err != nil {
		code := shop.ErrorCode(err)
		if code != shop.EINVALID && code != shop.ENOTFOUND {
			return err
		}
		if wantsJSON(c) {
			return c.Status(fiber.StatusUnprocessableEntity).JSON(fiber.Map{"error": shop.ErrorMessage(err)})
		}
		return a.redirectWithError(c, back, shop.ErrorMessage(err))
	}
	if wantsJSON(c) {
		cart, err := a.Carts.Cart(c.UserContext(), owner)
		if err != nil {
			return err
		}
		return c.JSON(fiber.Map{"message": okMsg, "count": cart.ItemCount(), "subtotal": cart.Subtotal().String(), "total": cart.Total().String()})
	}
	return a.redirectWithFlash(c, back, okMsg)
}

func (a *App) cartAdd(c *fiber.Ctx) error {
	owner, err := a.Cart.Add(c.UserContext(), a.cartOwner(c), func() (string, error) { return a.ensureCartOwner(c) },
		formValue(c, "product_id"), formValue(c, "quantity"))
	return a.cartResult(c, owner, err, cart.MsgAdded)
}

func (a *App) cartSet(c *fiber.Ctx) error {
	owner := a.cartOwner(c)
	msg, err := a.Cart.Set(c.UserContext(), owner, c.Params("id"), formValue(c, "quantity"))
	return a.cartResult(c, owner, err, msg)
}

func (a *App) cartRemove(c *fiber.Ctx) error {
	owner := a.cartOwner(c)
	return a.cartResult(c, owner, a.Cart.Remove(c.UserContext(), owner, c.Params("id")), cart.MsgRemoved)
}

func (a *App) cartClear(c *fiber.Ctx) error {
	owner := a.cartOwner(c)
	return a.cartResult(c, owner, a.Cart.Clear(c.UserContext(), owner), cart.MsgCleared)
}

func (a *App) cartPage(c *fiber.Ctx) error {
	f := a.scriptFrame(c, "Cart") // quantities apply on change
	var cart shop.Cart
	if owner := a.cartOwner(c); owner != "" {
		var err error
		if cart, err = a.Carts.Cart(c.UserContext(), owner); err != nil {
			return err
		}
	}
	set, _ := a.Assets.Current()
	p := pages.CartPage{Cart: cart}
	for _, l := range cart.Lines {
		p.Images = append(p.Images, thumbnailURL(set, l.Product))
	}
	return render(c, fiber.StatusOK, pages.CartView(f, p))
}

// wishlistUser is the account a wishlist request acts for; visitors and
// guests are sent to sign in first (spec §6), back to where they were.
func (a *App) wishlistUser(c *fiber.Ctx) (*shop.User, error) {
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

func (a *App) wishlistToggle(c *fiber.Ctx) error {
	u, done := a.wishlistUser(c)
	if u == nil {
		return done
	}
	on, err := a.Wishlists.ToggleWishlist(c.UserContext(), u.ID, c.Params("id"))
	if shop.ErrorCode(err) == shop.ENOTFOUND {
		if wantsJSON(c) {
			return c.Status(fiber.StatusNotFound).JSON(fiber.Map{"error": shop.ErrorMessage(err)})
		}
		return a.redirectWithError(c, returnTo(c, "/wishlist"), shop.ErrorMessage(err))
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
	return a.redirectWithFlash(c, returnTo(c, "/wishlist"), msg)
}

func (a *App) wishlistRemove(c *fiber.Ctx) error {
	u := session.User(c)
	if err := a.Wishlists.RemoveFromWishlist(c.UserContext(), u.ID, c.Params("id")); err != nil {
		return err
	}
	return a.redirectWithFlash(c, "/wishlist", "Removed from your wishlist")
}

// wishlistMove is the wishlist's Add to Cart: the item moves to the cart.
func (a *App) wishlistMove(c *fiber.Ctx) error {
	u := session.User(c)
	err := a.Wishlists.MoveToCart(c.UserContext(), u.ID, c.Params("id"))
	if code := shop.ErrorCode(err); code == shop.EINVALID || code == shop.ENOTFOUND {
		return a.redirectWithError(c, "/wishlist", shop.ErrorMessage(err))
	} else if err != nil {
		return err
	}
	return a.redirectWithFlash(c, "/wishlist", "Moved to your cart")
}

func (a *App) wishlistPage(c *fiber.Ctx) error {
	u := session.User(c)
	items, err := a.Wishlists.Wishlist(c.UserContext(), u.ID)
	if err != nil {
		return err
	}
	f := a.islandFrame(c, "Wishlist")
	set, _ := a.Assets.Current()
	p := pages.WishlistPage{Items: items}
	for i, it := range items {
		pic := picture(set, it.Product, cardSizes)
		pic.Alt, pic.Lazy = it.Product.Title, i >= 4 // the title is a separate link
		p.Images = append(p.Images, pic)
	}
	return render(c, fiber.StatusOK, pages.Wishlist(f, p))
}
