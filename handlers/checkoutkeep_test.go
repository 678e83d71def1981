package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"testing"

	"github.com/oauth2-proxy/mockoidc"

	"github.com/nocturne/storefront/internal/shop"
)

// applyCode types code into the cart's code field and checks the cart
// says it is applied.
func applyCode(t *testing.T, c *client, code string) {
	t.Helper()
	if res, _ := c.postFrom("/cart", "/cart/code", url.Values{"code": {code}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("apply %s: %d", code, res.StatusCode)
	}
	if _, doc := c.get("/cart"); text(doc, `[data-testid="applied-code"]`) != code {
		t.Fatalf("cart does not say %s is applied", code)
	}
}

// A code applied in the cart is still applied after Continue as Guest:
// the cart and the review take its discount off.
func TestCheckout_CodeSurvivesContinueAsGuest(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	savePromo(t, app, shop.PromoCode{Code: "TENOFF", Kind: shop.PromoPercent, Value: 1000})
	c := app.client(t)
	c.addToCart("/products", "nb-042", "1") // $16.00
	applyCode(t, c, "TENOFF")
	c.postFrom("/checkout", "/guest", url.Values{"from": {"/checkout"}})
	_, doc := c.get("/cart")
	if got := text(doc, `[data-testid="applied-code"]`); got != "TENOFF" {
		t.Errorf("cart after Continue as Guest: code %q, want TENOFF applied", got)
	}
	if got := text(doc, `[data-testid="discount"]`); got != "−$1.60" {
		t.Errorf("cart discount after Continue as Guest: %q, want −$1.60", got)
	}
	toReviewWith(t, c, usAddress("express"))
	_, doc = c.get("/checkout/review")
	if got := text(doc, `[data-testid="discount"]`); got != "−$1.60" {
		t.Errorf("review discount: %q, want −$1.60", got)
	}
	if got := text(doc, `[data-testid="applied-code"]`); got != "TENOFF" {
		t.Errorf("review code %q, want TENOFF applied", got)
	}
}

// A guest who typed an address, chose Express and applied a code, then
// signs in (by password into an account whose cart is merged with the
// guest's, by an e-mailed link, or with Google), finds all three kept.
func TestCheckout_KeptThroughSignIn(t *testing.T) {
	t.Parallel()
	const pw = "night-owl-41"
	// guestWithCheckout is a guest with a cart, a code and the shipping
	// step done.
	guestWithCheckout := func(t *testing.T, app *testApp) *client {
		t.Helper()
		savePromo(t, app, shop.PromoCode{Code: "TENOFF", Kind: shop.PromoPercent, Value: 1000})
		c := app.client(t)
		c.addToCart("/products", "nb-042", "1")
		applyCode(t, c, "TENOFF")
		c.postFrom("/checkout", "/guest", url.Values{"from": {"/checkout"}})
		address := usAddress("express")
		address.Set("city", "Shelbyville")
		if res, _ := c.postFrom("/checkout/shipping", "/checkout/shipping", address); res.Header.Get("Location") != "/checkout/payment" {
			t.Fatalf("shipping: %d to %q", res.StatusCode, res.Header.Get("Location"))
		}
		return c
	}
	kept := func(t *testing.T, c *client, wantDiscount string) {
		t.Helper()
		_, doc := c.get("/checkout/shipping")
		if got := doc.Find(`input[name="city"]`).AttrOr("value", ""); got != "Shelbyville" {
			t.Errorf("city typed as a guest: %q after signing in, want Shelbyville", got)
		}
		if _, ok := doc.Find(`input[name="shipMethod"][value="express"]`).Attr("checked"); !ok {
			t.Error("Express chosen as a guest is not chosen after signing in")
		}
		if res, _ := c.postFrom("/checkout/payment", "/checkout/payment", paymentValues(testCard)); res.Header.Get("Location") != "/checkout/review" {
			t.Fatalf("payment: %d to %q", res.StatusCode, res.Header.Get("Location"))
		}
		_, doc = c.get("/checkout/review")
		if got := text(doc, `[data-testid="discount"]`); got != wantDiscount {
			t.Errorf("review discount after signing in: %q, want %q", got, wantDiscount)
		}
	}

	t.Run("PasswordMergingCarts", func(t *testing.T) {
		t.Parallel()
		app := newTestApp(t)
		app.register(t, "Ada", "ada@example.com", pw).addToCart("/products", "nb-042", "1")
		c := guestWithCheckout(t, app)
		if res := app.signIn(t, c, "ada@example.com", pw, "/checkout"); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("sign in: %d", res.StatusCode)
		}
		if got := cartLines(t, c); got["nb-042"] != "2" {
			t.Errorf("merged cart %v, want nb-042 ×2", got)
		}
		kept(t, c, "−$3.20") // 10 % of $32.00
	})

	t.Run("SignInLink", func(t *testing.T) {
		t.Parallel()
		app := newTestApp(t)
		app.register(t, "Ada", "ada@example.com", pw)
		c := guestWithCheckout(t, app)
		c.post("/login/link", url.Values{"email": {"ada@example.com"}})
		mails, _ := app.db.Outbox(context.Background())
		var link string
		for _, m := range mails {
			if l := regexp.MustCompile(`/login/link\?token=[A-Za-z0-9_-]+`).FindString(m.Body); l != "" {
				link = l
			}
		}
		if link == "" {
			t.Fatal("no sign-in link mailed")
		}
		_, doc := c.get(link)
		token := doc.Find(`[data-testid="signin-link-confirm"] input[name="token"]`).AttrOr("value", "")
		if res, _ := c.post("/login/link/confirm", url.Values{"token": {token}}); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("confirm: %d", res.StatusCode)
		}
		kept(t, c, "−$1.60")
	})

	t.Run("Google", func(t *testing.T) {
		t.Parallel()
		app, m := newGoogleApp(t)
		m.QueueUser(&mockoidc.MockUser{Subject: "g-ada", Email: "ada@example.com", EmailVerified: true})
		c := guestWithCheckout(t, app)
		if res, _ := googleRoundTrip(t, c, "/checkout", nil); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("callback: %d", res.StatusCode)
		}
		kept(t, c, "−$1.60")
	})

	// The account signed in to used the once-per-customer code already:
	// the review leaves it out and says why where the code was.
	t.Run("CodeNoLongerApplies", func(t *testing.T) {
		t.Parallel()
		app := newTestApp(t)
		savePromo(t, app, shop.PromoCode{Code: "ONCE", Kind: shop.PromoPercent, Value: 1000, OncePerCustomer: true})
		ada := app.register(t, "Ada", "ada@example.com", pw)
		ada.addToCart("/products", "nb-042", "1")
		applyCode(t, ada, "ONCE")
		checkoutToReview(t, ada, testCard)
		placeOrder(t, ada)

		c := guestWithCheckout(t, app)
		applyCode(t, c, "ONCE")
		app.signIn(t, c, "ada@example.com", pw, "/checkout")
		kept(t, c, "")
		_, doc := c.get("/checkout/review")
		if got := text(doc, `[data-testid="code-form"] .field-error`); got != shop.MsgPromoAlreadyUsed {
			t.Errorf("review code field error %q, want %q", got, shop.MsgPromoAlreadyUsed)
		}
		if got := doc.Find(`input[name="code"]`).AttrOr("value", ""); got != "ONCE" {
			t.Errorf("review code field %q, want ONCE as typed", got)
		}
	})
}
