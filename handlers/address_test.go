package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/nocturne/storefront/internal/shop"
)

// caRate gives California 7.25 % beside the seeded 10 % everywhere else.
func caRate(t *testing.T, app *testApp, state string) {
	t.Helper()
	if _, err := app.db.SaveTaxRate(context.Background(), shop.TaxRate{Name: "Sales tax", Country: "United States", State: state, Rate: 725}); err != nil {
		t.Fatal(err)
	}
}

// Tax follows the state, not how it was spelt: "California" and "Calif."
// are CA, and the order keeps the code.
func TestCheckout_StateByNamePricesAsItsCode(t *testing.T) {
	t.Parallel()
	for _, typed := range []string{"California", "Calif.", " ca "} {
		t.Run(typed, func(t *testing.T) {
			t.Parallel()
			app := newTestApp(t)
			caRate(t, app, "CA")
			c := app.client(t)
			c.addToCart("/products", "nb-042", "1") // $16.00
			address := usAddress("standard")
			address.Set("state", typed)
			address.Set("zipCode", "94103")
			toReviewWith(t, c, address)
			_, doc := c.get("/checkout/review")
			if got := text(doc, `[data-testid="tax"]`); got != "$1.16" { // 7.25 % of $16.00
				t.Errorf("tax %q, want $1.16 (CA's 7.25 %%)", got)
			}
			o, err := app.db.Order(context.Background(), strings.TrimPrefix(orderPath(placeOrder(t, c)), "/orders/"))
			if err != nil {
				t.Fatal(err)
			}
			if o.ShipTo.State != "CA" || o.Tax != 116 {
				t.Errorf("order ships to state %q taxed %d, want CA taxed 116", o.ShipTo.State, o.Tax)
			}
		})
	}
}

// A rate a merchant typed as the state's name still applies to the code.
func TestCheckout_RateKeptByStateNameStillApplies(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	caRate(t, app, "California")
	c := app.client(t)
	c.addToCart("/products", "nb-042", "1")
	address := usAddress("standard")
	address.Set("state", "CA")
	toReviewWith(t, c, address)
	if _, doc := c.get("/checkout/review"); text(doc, `[data-testid="tax"]`) != "$1.16" {
		t.Errorf("tax %q, want $1.16", text(doc, `[data-testid="tax"]`))
	}
}

// A state the country does not have is refused next to the field, with
// what was typed and the rest of the form kept; a look-alike in another
// script is not the state it looks like.
func TestCheckout_UnknownStateRefused(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.client(t)
	c.addToCart("/products", "nb-042", "1")
	c.postFrom("/checkout", "/guest", url.Values{"from": {"/checkout"}})
	for _, typed := range []string{"Atlantis", "СА"} { // the second is Cyrillic
		address := usAddress("standard")
		address.Set("state", typed)
		res, doc := c.postFrom("/checkout/shipping", "/checkout/shipping", address)
		if res.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("%q: status %d, want 422", typed, res.StatusCode)
		}
		if got, want := text(doc, `[data-testid="ship-state-error"]`), "Please enter a state or province of United States, e.g. CA or California."; got != want {
			t.Errorf("%q: message %q, want %q", typed, got, want)
		}
		if got := doc.Find(`#ship-state`).AttrOr("value", ""); got != typed {
			t.Errorf("state field %q, want %q kept", got, typed)
		}
		if got := doc.Find(`#ship-state`).AttrOr("aria-invalid", ""); got != "true" {
			t.Errorf("state field not marked invalid")
		}
		if got := doc.Find(`input[name="city"]`).AttrOr("value", ""); got != "Springfield" {
			t.Errorf("city %q, want the typed Springfield", got)
		}
	}
}

// The state field stays free text, with the states and provinces offered
// and the browser's address-level1 autofill, on the checkout and the
// profile alike.
func TestAddressForms_StateSuggestions(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.register(t, "Ada Lovelace", "ada@example.com", "night-owl-41")
	c.addToCart("/products", "nb-042", "1")
	for page, id := range map[string]string{"/checkout/shipping": "ship-state", "/profile?edit=1": "profile-state"} {
		_, doc := c.get(page)
		in := doc.Find("#" + id)
		if in.AttrOr("type", "") != "text" || in.AttrOr("autocomplete", "") != "address-level1" {
			t.Errorf("%s: state input type %q autocomplete %q", page, in.AttrOr("type", ""), in.AttrOr("autocomplete", ""))
		}
		list := doc.Find("datalist#" + in.AttrOr("list", "none"))
		if list.Find(`option[value="CA"]`).Text() != "California, United States" || list.Find(`option[value="QC"]`).Length() != 1 {
			t.Errorf("%s: datalist lacks California or Quebec", page)
		}
	}
}

// The profile takes the same rules: a state by name is kept as its code, an
// unknown one and a postcode of the wrong shape are refused at the field.
func TestProfile_AddressRules(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.register(t, "Ada Lovelace", "ada@example.com", "night-owl-41")
	form := url.Values{"displayName": {"Ada"}, "phoneNumber": {"217 555 0100"}, "address": {"1 Main St"}, "city": {"Springfield"},
		"state": {"Atlantis"}, "zipCode": {"6270"}, "country": {"United States"}}
	res, doc := c.postFrom("/profile?edit=1", "/profile", form)
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("status %d, want 422", res.StatusCode)
	}
	if got := text(doc, `[data-testid="profile-state-error"]`); got == "" || doc.Find("#profile-state").AttrOr("value", "") != "Atlantis" {
		t.Errorf("state error %q, field %q", got, doc.Find("#profile-state").AttrOr("value", ""))
	}
	if got := text(doc, `[data-testid="profile-zip-error"]`); got != "Please enter a valid ZIP code, e.g. 62701 or 62701-1234." {
		t.Errorf("zip error %q", got)
	}
	form.Set("state", "illinois")
	form.Set("zipCode", "62701")
	if res, _ := c.postFrom("/profile?edit=1", "/profile", form); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: %d", res.StatusCode)
	}
	u, _, err := app.db.UserByEmail(context.Background(), "ada@example.com")
	if err != nil || u.State != "IL" {
		t.Errorf("stored state %q, %v, want IL", u.State, err)
	}
}
