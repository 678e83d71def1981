package handlers_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// The built-in field jacket (nb-014) comes in sizes S–XL and colours Black
// and Olive: L/Olive is sold out, XL/Olive is not sold, XL/Black costs
// $199.00 and M/Black has 3 left.
const jacket = "/product/nb-014"

// optionValues maps "Size=M" to whether that value is shown crossed out,
// for every value link or text of the page's picker.
func optionValues(doc *goquery.Document) map[string]string {
	out := map[string]string{}
	doc.Find(`[data-testid="option-group"]`).Each(func(_ int, g *goquery.Selection) {
		name, _, _ := strings.Cut(strings.TrimSpace(g.Find(".option-name").Text()), ":")
		g.Find(`[data-testid="option-value"]`).Each(func(_ int, v *goquery.Selection) {
			state := "available"
			if v.AttrOr("data-unavailable", "") == "true" {
				state = "crossed out"
			}
			if _, link := v.Attr("href"); !link {
				state = "not sold"
			}
			out[name+"="+v.AttrOr("data-value", "")] = state
		})
	})
	return out
}

// Choosing a variant is following a link: each variant has its own URL
// with its own price and stock line, the product's URL stays canonical,
// and combinations that can't be bought are crossed out.
func TestProductPage_ChoosesVariantsWithoutJavaScript(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.client(t)
	for _, tt := range []struct {
		name, query, price, stock, selected string
		crossed                             []string
	}{
		{"first buyable by default", "", "$189.00", "In stock", "S Black", nil},
		{"M / Black", "?variant=nb-014-m-black", "$189.00", "Only 3 left", "M Black", nil},
		{"XL / Black costs more", "?variant=nb-014-xl-black", "$199.00", "Only 5 left", "XL Black", []string{"Colour=Olive"}},
		{"L / Olive is sold out", "?variant=nb-014-l-olive", "$189.00", "Out of stock", "L Olive", []string{"Size=L", "Size=XL", "Colour=Olive"}},
		{"an unknown variant shows the default", "?variant=nope", "$189.00", "In stock", "S Black", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, doc := c.get(jacket + tt.query)
			if res.StatusCode != http.StatusOK {
				t.Fatalf("status %d", res.StatusCode)
			}
			if got := text(doc, `[data-testid="product-detail"] [data-testid="price"]`); got != tt.price {
				t.Errorf("price %q, want %q", got, tt.price)
			}
			if got := text(doc, `[data-testid="product-detail"] [data-testid="stock"]`); got != tt.stock {
				t.Errorf("stock %q, want %q", got, tt.stock)
			}
			var sel []string
			doc.Find(`[data-testid="option-selected"]`).Each(func(_ int, s *goquery.Selection) { sel = append(sel, s.Text()) })
			if got := strings.Join(sel, " "); got != tt.selected {
				t.Errorf("selected %q, want %q", got, tt.selected)
			}
			values := optionValues(doc)
			for v, state := range values {
				if crossed := slices.Contains(tt.crossed, v); crossed != (state != "available") {
					t.Errorf("%s is %s: %v", v, state, values)
				}
			}
			if got := doc.Find(`link[rel="canonical"]`).AttrOr("href", ""); !strings.HasSuffix(got, jacket) {
				t.Errorf("canonical %q, want the product's URL", got)
			}
		})
	}

	// From M / Black, Olive leads to M / Olive, and XL to XL / Black.
	_, doc := c.get(jacket + "?variant=nb-014-m-black")
	links := map[string]string{}
	doc.Find(`a[data-testid="option-value"]`).Each(func(_ int, a *goquery.Selection) {
		links[a.AttrOr("data-value", "")] = a.AttrOr("href", "")
	})
	if links["Olive"] != jacket+"?variant=nb-014-m-olive" || links["XL"] != jacket+"?variant=nb-014-xl-black" {
		t.Errorf("value links %v", links)
	}
	if doc.Find(`[data-testid="add-to-cart-form"] input[name="variant"]`).AttrOr("value", "") != "nb-014-m-black" {
		t.Error("Add to Cart does not post the chosen variant")
	}
	// A sold-out variant's page has nothing to press.
	_, doc = c.get(jacket + "?variant=nb-014-l-olive")
	if doc.Find(`[data-testid="add-to-cart"]`).Length() != 0 || text(doc, `[data-testid="variant-unavailable"]`) == "" {
		t.Error("a sold-out variant can be added, or does not say it is sold out")
	}
}

// The product's structured data is a ProductGroup whose variants each have
// their own offer: price, availability and SKU.
func TestProductPage_VariantsJSONLD(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	_, doc := app.client(t).get(jacket)
	var ld struct {
		Type     string   `json:"@type"`
		GroupID  string   `json:"productGroupID"`
		VariesBy []string `json:"variesBy"`
		Variants []struct {
			SKU    string `json:"sku"`
			Size   string `json:"size"`
			Color  string `json:"color"`
			Offers struct {
				Price        string `json:"price"`
				Availability string `json:"availability"`
			} `json:"offers"`
		} `json:"hasVariant"`
	}
	if err := json.Unmarshal([]byte(doc.Find(`#product-jsonld`).Text()), &ld); err != nil {
		t.Fatal(err)
	}
	if ld.Type != "ProductGroup" || ld.GroupID != "nb-014" || strings.Join(ld.VariesBy, " ") != "https://schema.org/size https://schema.org/color" {
		t.Errorf("group %+v", ld)
	}
	offers := map[string]string{}
	for _, v := range ld.Variants {
		offers[v.SKU] = v.Size + "/" + v.Color + " " + v.Offers.Price + " " + strings.TrimPrefix(v.Offers.Availability, "https://schema.org/")
	}
	want := map[string]string{
		"nb-014-s-black": "S/Black 189.00 InStock", "nb-014-s-olive": "S/Olive 189.00 InStock",
		"nb-014-m-black": "M/Black 189.00 LimitedAvailability", "nb-014-m-olive": "M/Olive 189.00 InStock",
		"nb-014-l-black": "L/Black 189.00 InStock", "nb-014-l-olive": "L/Olive 189.00 OutOfStock",
		"nb-014-xl-black": "XL/Black 199.00 LimitedAvailability",
	}
	for sku, w := range want {
		if offers[sku] != w {
			t.Errorf("offer %s: %q, want %q", sku, offers[sku], w)
		}
	}
	if len(offers) != len(want) {
		t.Errorf("%d offers, want %d", len(offers), len(want))
	}
}

// Add to Cart takes a variant: without one a product with options asks for
// the choice, a sold-out one is refused by name, and the chosen one lands
// in the cart, named, priced from the catalogue; the order and its mail
// name it too.
func TestCart_VariantsFromProductPageToOrder(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.register(t, "Ada", "ada@example.com", "night-owl-41")
	for _, tt := range []struct{ variant, want string }{
		{"", "Please choose size and colour before adding this to your cart."},
		{"nb-014-l-olive", "Sorry, Midnight Waxed Cotton Field Jacket (Size: L / Colour: Olive) is out of stock."},
		{"nb-001", "Sorry, that combination isn't available. Please choose another."},
	} {
		res := c.addToCart(jacket, "nb-014", "1", "variant", tt.variant, "price", "1")
		_, doc := c.get(res.Header.Get("Location"))
		if got := text(doc, `[data-testid="flash"]`); got != tt.want {
			t.Errorf("variant %q: %q, want %q", tt.variant, got, tt.want)
		}
	}
	if n := len(cartLines(t, c)); n != 0 {
		t.Fatalf("refused adds left %d lines", n)
	}
	c.addToCart(jacket+"?variant=nb-014-m-black", "nb-014", "2", "variant", "nb-014-m-black")
	c.addToCart(jacket+"?variant=nb-014-xl-black", "nb-014", "1", "variant", "nb-014-xl-black")
	_, doc := c.get("/cart")
	var lines []string
	doc.Find(`[data-testid="cart-line"]`).Each(func(_ int, l *goquery.Selection) {
		lines = append(lines, l.AttrOr("data-variant-id", "")+" "+strings.TrimSpace(l.Find(`[data-testid="variation"]`).Text())+" "+
			strings.TrimSpace(l.Find(`[data-testid="line-total"]`).Text()))
	})
	if got := strings.Join(lines, " | "); got != "nb-014-m-black Size: M / Colour: Black $378.00 | nb-014-xl-black Size: XL / Colour: Black $199.00" {
		t.Errorf("cart lines %q", got)
	}
	// Three M / Black are more than the shop has.
	res := c.addToCart(jacket, "nb-014", "2", "variant", "nb-014-m-black")
	if _, doc := c.get(res.Header.Get("Location")); text(doc, `[data-testid="flash"]`) != "Sorry, only 3 of Midnight Waxed Cotton Field Jacket (Size: M / Colour: Black) left in stock." {
		t.Errorf("over the variant's stock: %q", text(doc, `[data-testid="flash"]`))
	}

	checkoutToReview(t, c, testCard)
	_, doc = c.get("/checkout/review")
	if got := text(doc, `.review-lines`); !strings.Contains(got, "Midnight Waxed Cotton Field Jacket (Size: M / Colour: Black) × 2") {
		t.Errorf("review lines %q", got)
	}
	res = placeOrder(t, c)
	_, doc = c.get(orderPath(res))
	var variations []string
	doc.Find(`[data-testid="variation"]`).Each(func(_ int, s *goquery.Selection) { variations = append(variations, s.Text()) })
	if got := strings.Join(variations, " | "); got != "Size: M / Colour: Black | Size: XL / Colour: Black" {
		t.Errorf("order page variations %q", got)
	}
	id := strings.TrimPrefix(orderPath(res), "/orders/")
	mail := mailWithSubject(t, app, "Your order "+id)
	if !strings.Contains(mail.Body, "2 × Midnight Waxed Cotton Field Jacket (Size: M / Colour: Black)  $378.00") {
		t.Errorf("mail:\n%s", mail.Body)
	}
	for variant, want := range map[string]int{"nb-014-m-black": 1, "nb-014-xl-black": 4, "nb-014-s-black": 8} {
		if n, _ := app.db.Stock(t.Context(), variant); n != want {
			t.Errorf("stock of %s after the order: %d, want %d", variant, n, want)
		}
	}
}

// A listing's card of a product whose variants cost different amounts says
// where the price starts, and leads to the choice instead of adding.
func TestListing_CardOfProductWithOptions(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	_, doc := app.client(t).get("/products?category=fashion")
	card := doc.Find(`[data-testid="product-card"][data-product-id="nb-014"]`)
	if card.Length() != 1 {
		t.Fatal("no card for the jacket")
	}
	if got := strings.Join(strings.Fields(card.Find(`[data-testid="price"]`).Text()), " "); got != "from $189.00" {
		t.Errorf("card price %q", got)
	}
	if card.Find(`[data-testid="add-to-cart"]`).Length() != 0 || card.Find(`[data-testid="choose-options"]`).AttrOr("href", "") != jacket {
		t.Error("the card adds to the cart instead of leading to the choice")
	}
}

// Listings filter by option values in the same GET form as the spec's
// filters (o.Size=M): the canonical URL keeps a value the catalogue has, in
// its own spelling, and drops one it hasn't; a search is filtered alike.
func TestListing_OptionFilter(t *testing.T) {
	t.Parallel()
	app := newTestApp(t)
	c := app.client(t)
	for _, tt := range []struct{ path, location string }{
		{"/products?o.Size=m", "/products?o.Size=M"},
		{"/products?o.Size=XXL", "/products"},
		{"/products?o.Material=Silk", "/products"},
	} {
		if res, _ := c.get(tt.path); res.StatusCode != http.StatusFound || res.Header.Get("Location") != tt.location {
			t.Errorf("%s: %d to %q, want %q", tt.path, res.StatusCode, res.Header.Get("Location"), tt.location)
		}
	}
	cards := func(path string) string {
		res, doc := c.get(path)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d", path, res.StatusCode)
		}
		var ids []string
		doc.Find(`[data-testid="product-card"]`).Each(func(_ int, s *goquery.Selection) { ids = append(ids, s.AttrOr("data-product-id", "")) })
		return strings.Join(ids, ",")
	}
	for path, want := range map[string]string{
		"/products?o.Size=M":                 "nb-014",
		"/products?o.Colour=Olive&o.Size=XL": "", // XL comes in Black only
		"/products?category=home&o.Size=M":   "",
		"/search?o.Size=L&q=jacket":          "nb-014",
		"/products?o.Colour=Olive&o.Size=L":  "nb-014", // sold out, still sold: the card says so
	} {
		if got := cards(path); got != want {
			t.Errorf("%s: cards %q, want %q", path, got, want)
		}
	}
	_, doc := c.get("/products?o.Size=M")
	sel := doc.Find(`select[name="o.Size"]`)
	if sel.Find(`option[selected]`).AttrOr("value", "") != "M" || sel.Find("option").Length() != 5 {
		t.Errorf("size filter: %q", sel.Text())
	}
	if text(doc, `[data-testid="filters-summary"]`) != "Filters · 1 active" {
		t.Errorf("summary %q", text(doc, `[data-testid="filters-summary"]`))
	}
}
