package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/nocturne/storefront/internal/cart"
)

// addToCart posts a card's Add to Cart form from page.
func (c *client) addToCart(page, productID, qty string, extra ...string) *http.Response {
	c.tb.Helper()
	form := url.Values{"product_id": {productID}, "quantity": {qty}, "return_to": {page}}
	for i := 0; i+1 < len(extra); i += 2 {
		form.Set(extra[i], extra[i+1])
	}
	res, _ := c.postFrom(page, "/cart/items", form)
	return res
}

func cartLines(t *testing.T, c *client) map[string]string {
	t.Helper()
	_, doc := c.get("/cart")
	out := map[string]string{}
	doc.Find(`[data-testid="cart-line"]`).Each(func(_ int, s *goquery.Selection) {
		out[s.AttrOr("data-product-id", "")] = s.Find(`select option[selected]`).AttrOr("value", "")
	})
	return out
}

func TestCart_AddUpdateRemoveClear(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.client(t)
	res := c.addToCart("/product/nb-001", "nb-001", "3")
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/product/nb-001" {
		t.Fatalf("add: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	_, doc := c.get("/product/nb-001")
	if got := text(doc, `[data-testid="flash"]`); got != cart.MsgAdded {
		t.Errorf("flash %q", got)
	}
	if got := text(doc, `.nav-wide [data-testid="cart-badge"] [aria-hidden]`); got != "3" {
		t.Errorf("badge %q, want 3", got)
	}
	c.addToCart("/products", "nb-001", "")
	c.addToCart("/products", "nb-002", "1")
	if got := cartLines(t, c); got["nb-001"] != "4" || got["nb-002"] != "1" || len(got) != 2 {
		t.Fatalf("cart %v", got)
	}

	_, doc = c.get("/cart")
	sub := text(doc, `[data-testid="subtotal"]`)
	if text(doc, `[data-testid="shipping"]`) != "Free" || sub == "" { // over $50: standard shipping is free
		t.Errorf("summary: subtotal %q shipping %q", sub, text(doc, `[data-testid="shipping"]`))
	}
	if got := doc.Find(`[data-testid="checkout"]`).AttrOr("href", ""); got != "/checkout" {
		t.Errorf("Proceed to Checkout goes to %q", got)
	}

	res, _ = c.postFrom("/cart", "/cart/items/nb-001", url.Values{"quantity": {"7"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("update: %d", res.StatusCode)
	}
	if got := cartLines(t, c)["nb-001"]; got != "7" {
		t.Errorf("quantity after update %q", got)
	}
	c.postFrom("/cart", "/cart/items/nb-001", url.Values{"quantity": {"0"}})
	if _, ok := cartLines(t, c)["nb-001"]; ok {
		t.Error("quantity 0 did not remove the line")
	}
	c.postFrom("/cart", "/cart/items/nb-002/delete", url.Values{})
	if len(cartLines(t, c)) != 0 {
		t.Error("remove left the line")
	}
	c.addToCart("/products", "nb-003", "2")
	c.postFrom("/cart", "/cart/clear", url.Values{})
	_, doc = c.get("/cart")
	if got := text(doc, `[data-testid="cart-empty"] .lead`); got != "Your cart is empty" {
		t.Errorf("empty state %q", got)
	}
}

func TestCart_BadQuantities(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.client(t)
	c.addToCart("/products", "nb-001", "2")
	for _, tt := range []struct{ qty, msg string }{
		{"abc", cart.MsgBadQuantity},
		{"-1", cart.MsgBadQuantity},
		{"0", cart.MsgBadQuantity},
		{"1e9", cart.MsgBadQuantity},
		{"2.5", cart.MsgBadQuantity},
		{"11", "You can have at most 10 of an item in your cart."},
		{"9", "You can have at most 10 of an item in your cart."}, // 2 + 9 > 10
	} {
		t.Run(tt.qty, func(t *testing.T) {
			res := c.addToCart("/products", "nb-001", tt.qty)
			if res.StatusCode != http.StatusSeeOther {
				t.Fatalf("status %d", res.StatusCode)
			}
			_, doc := c.get(res.Header.Get("Location"))
			if got := text(doc, `[data-testid="flash"]`); got != tt.msg {
				t.Errorf("message %q, want %q", got, tt.msg)
			}
			if doc.Find(`.flash-error[role="alert"]`).Length() != 1 {
				t.Error("the refusal is not shown as an error")
			}
			if got := cartLines(t, c)["nb-001"]; got != "2" {
				t.Errorf("quantity changed to %q", got)
			}
		})
	}
	t.Run("UnknownProduct", func(t *testing.T) {
		res := c.addToCart("/products", "nb-999", "1")
		_, doc := c.get(res.Header.Get("Location"))
		if got := text(doc, `[data-testid="flash"]`); got != "That product is no longer available." {
			t.Errorf("message %q", got)
		}
	})
	t.Run("JSON", func(t *testing.T) {
		req := formRequest("/cart/items", url.Values{"product_id": {"nb-001"}, "quantity": {"abc"}})
		req.Header.Set("Accept", "application/json")
		if res := c.do(req); res.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("status %d, want 422", res.StatusCode)
		}
	})
}

func TestCart_PriceFromCatalogue(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.client(t)
	c.addToCart("/products", "nb-001", "2", "price", "0.01", "price_cents", "1", "title", "Free stuff")
	p, err := app.db.Product(context.Background(), "nb-001")
	if err != nil {
		t.Fatal(err)
	}
	_, doc := c.get("/cart")
	if got, want := text(doc, `[data-testid="subtotal"]`), (p.Price * 2).String(); got != want {
		t.Errorf("subtotal %q, want %q from the catalogue", got, want)
	}
	if !strings.Contains(text(doc, `.cart-line-title`), p.Title) {
		t.Error("title not from the catalogue")
	}
}

// Fifty shoppers' tabs pressing Add to Cart at once on one cart: every add
// is either applied or refused at the 10 cap, none is lost.
func TestCart_ConcurrentAdds(t *testing.T) {
	t.Parallel()
	app := newTestApp(t, withDBFile(t.TempDir()+"/shop.db"))
	c := app.client(t)
	c.addToCart("/products", "nb-002", "1") // creates the cart and session
	var wg sync.WaitGroup
	var mu sync.Mutex
	outcomes := map[int]int{}
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := formRequest("/cart/items", url.Values{"product_id": {"nb-001"}, "quantity": {"1"}})
			req.Header.Set("Accept", "application/json")
			for k, v := range c.cookies {
				req.AddCookie(&http.Cookie{Name: k, Value: v})
			}
			res, err := app.app.Test(req, -1)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			outcomes[res.StatusCode]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if outcomes[200] != 10 || outcomes[422] != 40 {
		t.Fatalf("outcomes %v, want 10 applied and 40 refused at the cap", outcomes)
	}
	if got := cartLines(t, c)["nb-001"]; got != "10" {
		t.Errorf("quantity %q, want 10", got)
	}
}

func TestCart_CrossSiteChangesNothing(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.client(t)
	c.addToCart("/products", "nb-001", "1")
	for _, path := range []string{"/cart/items", "/cart/items/nb-001", "/cart/items/nb-001/delete", "/cart/clear"} {
		res, _ := c.post(path, url.Values{"product_id": {"nb-001"}, "quantity": {"5"}}, "Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example")
		if res.StatusCode != http.StatusForbidden {
			t.Errorf("%s: %d, want 403", path, res.StatusCode)
		}
	}
	if got := cartLines(t, c)["nb-001"]; got != "1" {
		t.Errorf("a cross-site post changed the cart: %q", got)
	}
}

func TestCart_KeptAtSignIn(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	app.register(t, "Ada", "ada@example.com", "night-owl-41").addToCart("/products", "nb-001", "9")

	visitor := app.client(t)
	visitor.addToCart("/products", "nb-001", "4")
	visitor.addToCart("/products", "nb-002", "1")
	app.signIn(t, visitor, "ada@example.com", "night-owl-41", "")
	if got := cartLines(t, visitor); got["nb-001"] != "10" || got["nb-002"] != "1" {
		t.Errorf("merged cart %v, want nb-001 capped at 10 and nb-002 1", got)
	}

	guest := app.client(t)
	guest.postFrom("/", "/guest", url.Values{})
	guest.addToCart("/products", "nb-003", "2")
	guest.postFrom("/register", "/register", registerForm("Bo", "bo@example.com", "night-owl-41"))
	if got := cartLines(t, guest); got["nb-003"] != "2" {
		t.Errorf("guest's cart after registering: %v", got)
	}
	_, doc := guest.get("/profile")
	if got := text(doc, `[data-testid="cart-items-count"]`); got != "2" {
		t.Errorf("profile cart items %q, want 2", got)
	}
}

func TestWishlist(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)

	t.Run("VisitorAndGuestGoToLogin", func(t *testing.T) {
		guest := app.client(t)
		guest.postFrom("/", "/guest", url.Values{})
		for name, c := range map[string]*client{"Visitor": app.client(t), "Guest": guest} {
			res, _ := c.postFrom("/products?page=2", "/wishlist/nb-001/toggle", url.Values{"return_to": {"/products?page=2"}})
			if want := "/login?from=" + url.QueryEscape("/products?page=2"); res.Header.Get("Location") != want {
				t.Errorf("%s: went to %q, want %q", name, res.Header.Get("Location"), want)
			}
		}
	})

	c := app.register(t, "Ada", "ada@example.com", "night-owl-41")
	t.Run("TogglePersists", func(t *testing.T) {
		c.postFrom("/product/nb-001", "/wishlist/nb-001/toggle", url.Values{"return_to": {"/product/nb-001"}})
		_, doc := c.get("/product/nb-001")
		if got := doc.Find(`.buy-box [data-testid="wishlist-heart"]`).AttrOr("aria-pressed", ""); got != "true" {
			t.Errorf("heart after toggle: aria-pressed=%q", got)
		}
		c.postFrom("/product/nb-001", "/wishlist/nb-001/toggle", url.Values{})
		_, doc = c.get("/product/nb-001")
		if got := doc.Find(`.buy-box [data-testid="wishlist-heart"]`).AttrOr("aria-pressed", ""); got != "false" {
			t.Errorf("heart after second toggle: aria-pressed=%q", got)
		}
	})
	t.Run("PageAndMoveToCart", func(t *testing.T) {
		c.postFrom("/products", "/wishlist/nb-004/toggle", url.Values{})
		c.postFrom("/products", "/wishlist/nb-005/toggle", url.Values{})
		_, doc := c.get("/wishlist")
		if got := text(doc, `[data-testid="wishlist-count"]`); got != "2 items" {
			t.Errorf("count %q", got)
		}
		if got := text(doc, `[data-testid="added-date"]`); got != "Added Nov 21, 2026" {
			t.Errorf("added %q", got)
		}
		c.postFrom("/wishlist", "/wishlist/nb-004/move", url.Values{})
		if got := cartLines(t, c)["nb-004"]; got != "1" {
			t.Errorf("moved item in cart: %q", got)
		}
		_, doc = c.get("/wishlist")
		if doc.Find(`[data-product-id="nb-004"]`).Length() != 0 {
			t.Error("moved item still on the wishlist")
		}
		c.postFrom("/wishlist", "/wishlist/nb-005/delete", url.Values{})
		_, doc = c.get("/wishlist")
		if got := text(doc, `[data-testid="wishlist-empty"] .lead`); got != "Your wishlist is empty" {
			t.Errorf("empty state %q", got)
		}
	})
	t.Run("MoveIsAllOrNothing", func(t *testing.T) {
		c.postFrom("/products", "/wishlist/nb-006/toggle", url.Values{})
		c.addToCart("/products", "nb-006", "10")
		c.postFrom("/wishlist", "/wishlist/nb-006/move", url.Values{})
		ids, _ := app.db.WishlistIDs(context.Background(), userID(t, app, "ada@example.com"))
		if !ids["nb-006"] {
			t.Error("item left the wishlist although the cart refused it")
		}
	})
	t.Run("RequiresAccount", func(t *testing.T) {
		if res, _ := app.client(t).get("/wishlist"); res.Header.Get("Location") != "/login?from=%2Fwishlist" {
			t.Errorf("visitor went to %q", res.Header.Get("Location"))
		}
	})
}

func userID(t *testing.T, app *testApp, email string) string {
	u, _, err := app.db.UserByEmail(context.Background(), email)
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}
