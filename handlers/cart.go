package handlers

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/internal/auth"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// Texts of the cart.
const (
	MsgAddedToCart  = "Added to cart"
	MsgBadQuantity  = "Please enter a whole number from 1 to 10."
	MsgCartUpdated  = "Cart updated"
	MsgRemoved      = "Removed from cart"
	MsgCartCleared  = "Your cart is empty now"
	sessionCartKey  = "cart"
	anonCartPrefix  = "anon_"
	defaultReturnTo = "/cart"
)

// cartOwner names the cart of this request: the current user's (account or
// guest), else the anonymous cart kept in the session, else "" (no cart yet).
func (a *App) cartOwner(c *fiber.Ctx) string {
	if u := auth.User(c); u != nil {
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

// parseQuantity reads a quantity field: a whole number; empty means def.
func parseQuantity(s string, def int) (int, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return def, true
	}
	n, err := strconv.Atoi(s)
	if err != nil || len(s) > 6 {
		return 0, false
	}
	return n, true
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
	qty, ok := parseQuantity(formValue(c, "quantity"), 1)
	if !ok || qty < 1 {
		return a.cartResult(c, "", shop.Errorf(shop.EINVALID, MsgBadQuantity), "")
	}
	if qty > shop.MaxCartQuantity {
		return a.cartResult(c, "", shop.Errorf(shop.EINVALID, shop.MsgQuantityCap), "")
	}
	// The price is never read from the form: the cart joins the catalogue.
	id := formValue(c, "product_id")
	p, err := a.Catalog.Product(c.UserContext(), id)
	if err != nil {
		if shop.ErrorCode(err) == shop.ENOTFOUND {
			err = shop.Errorf(shop.ENOTFOUND, shop.MsgUnknownProduct)
		}
		return a.cartResult(c, "", err, "")
	}
	// Refused before a session is made for it: a sold-out item adds nothing.
	if err := a.checkStock(c, a.cartOwner(c), p, qty, 0); err != nil {
		return a.cartResult(c, "", err, "")
	}
	owner, err := a.ensureCartOwner(c)
	if err != nil {
		return err
	}
	return a.cartResult(c, owner, a.Carts.AddToCart(c.UserContext(), owner, id, qty), MsgAddedToCart)
}

func (a *App) cartSet(c *fiber.Ctx) error {
	owner := a.cartOwner(c)
	qty, ok := parseQuantity(formValue(c, "quantity"), -1)
	switch {
	case owner == "":
		return a.cartResult(c, owner, shop.Errorf(shop.ENOTFOUND, shop.MsgNotInCart), "")
	case !ok || qty == -1 && formValue(c, "quantity") == "":
		return a.cartResult(c, owner, shop.Errorf(shop.EINVALID, MsgBadQuantity), "")
	case qty > shop.MaxCartQuantity:
		return a.cartResult(c, owner, shop.Errorf(shop.EINVALID, MsgBadQuantity), "")
	}
	msg := MsgCartUpdated
	if qty <= 0 {
		msg = MsgRemoved
	} else if p, err := a.Catalog.Product(c.UserContext(), c.Params("id")); err == nil {
		if err := a.checkStock(c, owner, p, 0, qty); err != nil {
			return a.cartResult(c, owner, err, "")
		}
	}
	return a.cartResult(c, owner, a.Carts.SetCartQuantity(c.UserContext(), owner, c.Params("id"), qty), msg)
}

func (a *App) cartRemove(c *fiber.Ctx) error {
	owner := a.cartOwner(c)
	var err error
	if owner != "" {
		err = a.Carts.RemoveFromCart(c.UserContext(), owner, c.Params("id"))
	}
	return a.cartResult(c, owner, err, MsgRemoved)
}

func (a *App) cartClear(c *fiber.Ctx) error {
	owner := a.cartOwner(c)
	var err error
	if owner != "" {
		err = a.Carts.ClearCart(c.UserContext(), owner)
	}
	return a.cartResult(c, owner, err, MsgCartCleared)
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
	u := auth.User(c)
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
	u := auth.User(c)
	if err := a.Wishlists.RemoveFromWishlist(c.UserContext(), u.ID, c.Params("id")); err != nil {
		return err
	}
	return a.redirectWithFlash(c, "/wishlist", "Removed from your wishlist")
}

// wishlistMove is the wishlist's Add to Cart: the item moves to the cart.
func (a *App) wishlistMove(c *fiber.Ctx) error {
	u := auth.User(c)
	err := a.Wishlists.MoveToCart(c.UserContext(), u.ID, c.Params("id"))
	if code := shop.ErrorCode(err); code == shop.EINVALID || code == shop.ENOTFOUND {
		return a.redirectWithError(c, "/wishlist", shop.ErrorMessage(err))
	} else if err != nil {
		return err
	}
	return a.redirectWithFlash(c, "/wishlist", "Moved to your cart")
}

func (a *App) wishlistPage(c *fiber.Ctx) error {
	u := auth.User(c)
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

// checkStock refuses a cart change that would ask for more of p than the
// shop holds, read live from the store (issue 17): adding add to the
// quantity in the cart, or setting it to set. Stock is only taken when an
// order is placed, so this is advice the claim enforces.
func (a *App) checkStock(c *fiber.Ctx, owner string, p *shop.Product, add, set int) error {
	if a.Stock == nil {
		return nil
	}
	n, err := a.Stock.Stock(c.UserContext(), p.ID)
	if err != nil {
		return err
	}
	want := set
	if add > 0 {
		want = add
		if owner != "" {
			cart, err := a.Carts.Cart(c.UserContext(), owner)
			if err != nil {
				return err
			}
			for _, l := range cart.Lines {
				if l.Product.ID == p.ID {
					want += l.Quantity
				}
			}
		}
	}
	if want > n {
		return shop.StockError(p.Title, n)
	}
	return nil
}
