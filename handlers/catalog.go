package handlers

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/session"
	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/catalog"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/components"
	"github.com/nocturne/storefront/views/pages"
)

// Texts of the catalogue's error states (the spec's error catalogue).
const (
	MsgProductsFailed = "Failed to load products. Please try again later."
	MsgProductFailed  = shop.MsgProductNotFound
	featuredOnLanding = 8
)

// catalogHandlers serve the catalogue: the landing page, listings, search,
// product pages, the grid island's JSON, and what crawlers read.
type catalogHandlers struct {
	*web.Pages
	catalog   Catalog
	wishlists shop.WishlistStore
	// stock answers live stock for product pages; nil: the catalogue's.
	stock shop.StockStore
	// variants are the options and variants of products that have them;
	// nil: every product is sold as its default variant.
	variants Variants
	// cardHTML remembers rendered product cards (cardhtml.go), fragments
	// the variant choices and option filters (fragments.go).
	cardHTML  *cardHTML
	fragments *fragments
	// prices holds the shipping settings the cards promise.
	prices Pricer
}

// routes registers the catalogue's pages (robots.txt and the sitemap are
// served before the session, in routes.go).
func (a *catalogHandlers) routes(app *fiber.App) {
	app.Get("/", a.home)
	app.Get("/search", a.search)
	app.Get("/products", a.products)
	app.Get("/product/:id", a.product)
	app.Get("/api/products", a.productsAPI)
}

// cards turns products into card view models for this request.
func (a *catalogHandlers) cards(c *fiber.Ctx, products []shop.Product, eager int) []components.Card {
	set, _ := a.Assets.Current()
	back := web.LocalPath(string(c.Request().URI().RequestURI()))
	var wished map[string]bool
	if u := session.User(c); u != nil && !u.IsGuest && len(products) > 0 {
		var err error
		if wished, err = a.wishlists.WishlistIDs(c.UserContext(), u.ID); err != nil {
			a.Log.Error("wishlist ids", "err", err, "request_id", web.RequestID(c))
		}
	}
	note := a.shippingFacts(c).Note()
	out := make([]components.Card, len(products))
	for i, p := range products {
		out[i] = components.Card{
			Product:      p,
			Image:        picture(set, p, cardSizes),
			ReturnTo:     back,
			InWishlist:   wished[p.ID],
			ShippingNote: note,
		}
		out[i].Image.Lazy = i >= eager
	}
	return out
}

// shippingFacts are the shipping settings pages promise. Without them
// (the store failed) the promise is left out and the page still serves.
func (a *catalogHandlers) shippingFacts(c *fiber.Ctx) pages.ShippingFacts {
	rules, err := a.prices.Rules(c.UserContext())
	if err != nil {
		a.Log.Error("shipping settings", "err", err, "request_id", web.RequestID(c))
		return pages.ShippingFacts{}
	}
	return pages.NewShippingFacts(rules)
}

func (a *catalogHandlers) categories(c *fiber.Ctx) []string {
	cats, err := a.catalog.Categories(c.UserContext())
	if err != nil {
		// The filter still works with the categories it cannot list (the spec's error catalogue:
		// a category list failure is only logged).
		a.Log.Error("load categories", "err", err, "request_id", web.RequestID(c))
	}
	return cats
}

// listing builds the grid view model for filter f at path ("/products" or
// "/search").
func (a *catalogHandlers) listing(c *fiber.Ctx, path string, f catalog.Filter) pages.Listing {
	page, err := a.catalog.List(c.UserContext(), f.ProductFilter)
	if err != nil {
		a.Log.Error("list products", "err", err, "request_id", web.RequestID(c))
		return pages.Listing{Error: MsgProductsFailed, RetryURL: web.WithQuery(path, f.Query(f.Page))}
	}
	pagesN := max(1, int(math.Ceil(float64(page.Total)/float64(f.PageSize))))
	l := web.Paginate(f.Page, pagesN, func(n int) string { return web.WithQuery(path, f.Query(n)) })
	l.Cards = a.cards(c, page.Products, 4)
	l.CardsHTML = a.cardHTML.Cards(l.Cards)
	l.Total = page.Total
	props, _ := json.Marshal(gridProps{
		Page:     f.Page,
		HasMore:  f.Page < pagesN,
		NextAPI:  web.WithQuery("/api/products", f.Query(f.Page+1)),
		BasePath: path,
		PageAPI:  web.WithQuery("/api/products", f.Query(1)),
	})
	l.IslandJSON = string(props)
	return l
}

// gridProps are the infinite-scroll island's props (a struct: marshalling a
// map sorted and boxed its keys on every listing).
type gridProps struct {
	BasePath string `json:"basePath"`
	HasMore  bool   `json:"hasMore"`
	NextAPI  string `json:"nextApi"`
	Page     int    `json:"page"`
	// PageAPI is any page of the listing: this address with page set, for
	// loading earlier pages (Show previous, Back to a scrolled grid).
	PageAPI string `json:"pageApi"`
}

// filterForm is the form view model of an applied filter; its option
// filter is remembered per catalogue and choice.
func (a *catalogHandlers) filterForm(c *fiber.Ctx, action string, f catalog.Filter, cats []string, facets []shop.Option) pages.FilterForm {
	form := pages.FilterForm{Action: action, Query: f.ProductFilter.Query, Category: f.Category, Sort: f.Sort,
		MinPrice: f.MinPriceText, MaxPrice: f.MaxPriceText, MinRating: f.MinRating, Categories: cats}
	if len(facets) == 0 {
		return form
	}
	for _, o := range f.Options {
		if o.Name != "" {
			form.OptionsChosen++
		}
	}
	key := fragmentKey{kind: fragmentFacets, version: a.catalog.Version(), options: f.Options}
	html, err := a.fragments.get(c.UserContext(), key, func() templ.Component { return pages.OptionFilter(facetFields(f, facets)) })
	if err != nil {
		a.Log.Error("option filter", "err", err, "request_id", web.RequestID(c))
		return form
	}
	form.Options = templ.Raw(html)
	return form
}

// facetFields are the option filter's selects with f's choices.
func facetFields(f catalog.Filter, facets []shop.Option) []pages.Facet {
	out := make([]pages.Facet, 0, len(facets))
	for _, o := range facets {
		facet := pages.Facet{Name: o.Name}
		for _, v := range o.Values {
			facet.Values = append(facet.Values, v.Value)
		}
		for _, p := range f.Options {
			if p.Name == o.Name {
				facet.Selected = p.Value
			}
		}
		out = append(out, facet)
	}
	return out
}

// facets are the options listings can be filtered by; none when the
// catalogue can't say (the listing then shows its own error).
func (a *catalogHandlers) facets(c *fiber.Ctx) []shop.Option {
	facets, err := a.catalog.Facets(c.UserContext())
	if err != nil {
		return nil
	}
	return facets
}

// canonical redirects a listing URL to its one canonical form, so the query
// string always shows exactly the filters that are applied. It returns ""
// when the request is already canonical.
func canonical(c *fiber.Ctx, path string, f catalog.Filter) string {
	return canonicalQuery(c, path, f.Query(f.Page))
}

// canonicalQuery is canonical for a wanted query string.
func canonicalQuery(c *fiber.Ctx, path, want string) string {
	have := string(c.Request().URI().QueryString())
	if have == want {
		return ""
	}
	if wv, err := url.ParseQuery(want); err == nil {
		if hv, err := url.ParseQuery(have); err == nil && wv.Encode() == hv.Encode() {
			return ""
		}
	}
	return web.WithQuery(path, want)
}

func (a *catalogHandlers) products(c *fiber.Ctx) error {
	cats := a.categories(c)
	facets := a.facets(c)
	f := catalog.ParseFilter(query(c), cats, facets...)
	f.ProductFilter.Query = "" // /products does not search; /search does
	if to := canonical(c, "/products", f); to != "" {
		return c.Redirect(to, fiber.StatusFound)
	}
	fr := a.IslandFrame(c, "")
	l := a.listing(c, "/products", f)
	if l.Error == "" && f.Page > l.Pages {
		return c.Redirect(web.WithQuery("/products", f.Query(l.Pages)), fiber.StatusFound)
	}
	heading := "All Products"
	switch {
	case f.Category == shop.FeaturedCategory:
		heading = "Featured Products"
	case f.Category != "":
		heading = pages.CategoryLabel(f.Category) + " Products"
	}
	fr.Title = heading
	if f.Page > 1 {
		fr.Title += fmt.Sprintf(" – Page %d", f.Page)
	}
	fr.Description = "Shop " + strings.ToLower(heading) + " at " + a.Config.ShopName + "."
	fr.Canonical = a.Config.BaseURL.String() + web.WithQuery("/products", f.Query(f.Page))
	status := fiber.StatusOK
	if l.Error != "" {
		status = fiber.StatusServiceUnavailable
	}
	return web.Render(c, status, pages.Products(fr, pages.ProductsPage{Heading: heading, Filter: a.filterForm(c, "/products", f, cats, facets), Listing: l}))
}

func (a *catalogHandlers) search(c *fiber.Ctx) error {
	cats := a.categories(c)
	facets := a.facets(c)
	f := catalog.ParseFilter(query(c), cats, facets...)
	if f.ProductFilter.Query == "" {
		back := web.RefererPath(c)
		if back == "" || strings.HasPrefix(back, "/search") {
			back = "/products"
		}
		return c.Redirect(back, fiber.StatusSeeOther)
	}
	// exact=1 ("search instead for …") searches for the words as typed,
	// without correcting them.
	exact := c.Query("exact") == "1"
	want := f.Query(f.Page)
	if exact {
		want += "&exact=1"
	}
	if to := canonicalQuery(c, "/search", want); to != "" {
		return c.Redirect(to, fiber.StatusFound)
	}
	fr := a.IslandFrame(c, "Search: "+f.ProductFilter.Query)
	l := a.listing(c, "/search", f)
	p := pages.SearchPage{Query: f.ProductFilter.Query, Filter: a.filterForm(c, "/search", f, cats, facets), Listing: l}
	if s, err := a.catalog.Suggest(c.UserContext(), p.Query); err != nil {
		a.Log.Error("search suggestion", "err", err, "request_id", web.RequestID(c))
	} else if s != "" && !strings.EqualFold(s, p.Query) {
		p.Suggestion, p.SuggestionURL = s, "/search?q="+url.QueryEscape(s)
		// A typo that finds nothing shows what its correction finds, the
		// way shoppers know from search engines; the page and its links
		// (filters, pages, infinite scroll) then search the correction.
		if l.Error == "" && l.Total == 0 && !exact {
			cf := f
			cf.ProductFilter.Query = s
			if cl := a.listing(c, "/search", cf); cl.Error == "" && cl.Total > 0 {
				p.Listing, p.Filter, p.Corrected = cl, a.filterForm(c, "/search", cf, cats, facets), s
				p.ExactURL = "/search?q=" + url.QueryEscape(f.ProductFilter.Query) + "&exact=1"
			}
		}
	}
	return web.Render(c, fiber.StatusOK, pages.Search(fr, p))
}

// productsAPI serves the next page of a listing to the infinite-scroll
// island: the cards as server-rendered HTML (the same markup as the page),
// and where to go next.
func (a *catalogHandlers) productsAPI(c *fiber.Ctx) error {
	cats := a.categories(c)
	facets := a.facets(c)
	f := catalog.ParseFilter(query(c), cats, facets...)
	path := "/products"
	if f.ProductFilter.Query != "" {
		path = "/search"
	}
	page, err := a.catalog.List(c.UserContext(), f.ProductFilter)
	if err != nil {
		a.Log.Error("list products", "err", err, "request_id", web.RequestID(c))
		return c.Status(fiber.StatusServiceUnavailable).JSON(fiber.Map{"error": MsgProductsFailed})
	}
	// The cards' forms return to the page the shopper is on.
	c.Request().URI().SetPath(path)
	var html strings.Builder
	if err := a.cardHTML.Cards(a.cards(c, page.Products, 0)).Render(c.UserContext(), &html); err != nil {
		return err
	}
	hasMore := f.Offset()+len(page.Products) < page.Total
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(fiber.Map{
		"html":    html.String(),
		"count":   len(page.Products),
		"page":    f.Page,
		"hasMore": hasMore,
		"pageUrl": web.WithQuery(path, f.Query(f.Page)),
		"nextApi": web.WithQuery("/api/products", f.Query(f.Page+1)),
	})
}

func (a *catalogHandlers) product(c *fiber.Ctx) error {
	p, err := a.catalog.Product(c.UserContext(), c.Params("id"))
	if shop.ErrorCode(err) == shop.ENOTFOUND {
		fr := a.Frame(c, "Product not found")
		return web.Render(c, fiber.StatusNotFound, pages.ProductNotFound(fr))
	} else if err != nil {
		return err
	}
	var choices shop.Choices
	var sel shop.Variant
	var buy *pages.VariantBuy
	if p.HasOptions() && a.variants != nil {
		// The page shows the variant chosen (?variant=), read as it is now:
		// its price, its stock, its own photo if it has one.
		if choices, err = a.variants.Choices(c.UserContext(), p.ID); err != nil {
			return err
		}
		sel = choices.Select(c.Query("variant"))
		p.Price, p.Original, p.PriceMin, p.PriceMax, p.Stock = sel.Price, sel.Original, sel.Price, sel.Price, sel.Stock
		if !sel.Enabled {
			p.Stock = 0
		}
		buy = &pages.VariantBuy{VariantID: sel.ID, Buyable: sel.Buyable(), Variation: shop.Variation(choices.Options, sel.Values)}
	} else if a.stock != nil {
		// The product page shows the stock as it is now, not the in-memory
		// catalogue's copy, which may be a few seconds old.
		if n, err := a.stock.Stock(c.UserContext(), p.ID); err == nil {
			p.Stock = n
		}
	}
	fr := a.IslandFrame(c, p.Title)
	card := a.cards(c, []shop.Product{*p}, 1)[0]
	set, _ := a.Assets.Current()
	card.Image = picture(set, *p, productSizes)
	card.Image.Alt, card.Image.High = p.Title, true
	var gallery *pages.Gallery
	if p.PhotoCount > 1 {
		// Several photos: the one asked for (?photo=N), else the chosen
		// variant's, else the cover; the others as thumbnails.
		if photos, err := a.catalog.Gallery(c.UserContext(), p.ID); err != nil {
			a.Log.Error("product gallery", "err", err, "product", p.ID, "request_id", web.RequestID(c))
		} else {
			card.Image, gallery = productGallery(set, *p, photos, c.Query("photo"), sel.Image, c.Query("variant"))
		}
	}
	base := a.Config.BaseURL.String()
	fr.Canonical = base + "/product/" + url.PathEscape(p.ID)
	fr.Description = truncate(p.Description, 160)
	fr.OGType = "product"
	fr.OGImage = card.Image.Src
	if strings.HasPrefix(fr.OGImage, "/") {
		fr.OGImage = base + fr.OGImage
	}
	page := pages.ProductPage{Card: card, CategoryLabel: pages.CategoryLabel(p.Category), CanonicalURL: fr.Canonical, Buy: buy,
		Gallery: gallery}
	if buy == nil {
		fr.Head = templ.JSONScript("product-jsonld", productJSONLD(*p, fr.Canonical, fr.OGImage)).WithType("application/ld+json")
		return web.Render(c, fiber.StatusOK, pages.Product(fr, page))
	}
	// The choice of variant and the structured data depend only on the
	// catalogue, the variant chosen and which variants can be bought.
	key := fragmentKey{kind: fragmentPicker, version: a.catalog.Version(), product: p.ID, variant: sel.ID}
	picker := func() templ.Component { return pages.VariantChoice(variantPicker(p.ID, choices, sel)) }
	ld := func() templ.Component {
		return templ.JSONScript("product-jsonld", productGroupJSONLD(*p, choices, fr.Canonical, fr.OGImage)).WithType("application/ld+json")
	}
	sig, cacheable := stockSignature(choices)
	if !cacheable {
		page.Picker, fr.Head = picker(), ld()
		return web.Render(c, fiber.StatusOK, pages.Product(fr, page))
	}
	key.stock = sig
	html, err := a.fragments.get(c.UserContext(), key, picker)
	if err != nil {
		return err
	}
	key.kind = fragmentGroupLD
	head, err := a.fragments.get(c.UserContext(), key, ld)
	if err != nil {
		return err
	}
	page.Picker, fr.Head = templ.Raw(html), templ.Raw(head)
	return web.Render(c, fiber.StatusOK, pages.Product(fr, page))
}

// productGallery is a product page's photo shown (main) and its
// thumbnails, links to ?photo=N beside the variant chosen: the photo
// asked for, else the variant's own (variantImage), else the cover.
func productGallery(set web.AssetURLs, p shop.Product, photos []shop.GalleryPhoto, photoParam, variantImage, variantParam string) (components.Picture, *pages.Gallery) {
	pics, urls := galleryWithURLs(set, p, photos, productSizes)
	shown := 0
	if n, err := strconv.Atoi(photoParam); err == nil && n >= 1 && n <= len(pics) {
		shown = n - 1
	} else if i := slices.Index(urls, variantImage); variantImage != "" && i >= 0 {
		shown = i
	}
	main := pics[shown]
	main.High = true
	g := &pages.Gallery{FullSize: main.Src}
	if len(pics) < 2 {
		return main, nil
	}
	thumbs, _ := galleryWithURLs(set, p, photos, thumbSizes)
	for i, pic := range thumbs {
		q := url.Values{"photo": {strconv.Itoa(i + 1)}}
		if variantParam != "" {
			q.Set("variant", variantParam)
		}
		pic.Lazy = true
		g.Thumbs = append(g.Thumbs, pages.Thumb{Picture: pic, URL: "/product/" + url.PathEscape(p.ID) + "?" + q.Encode() + "#photo",
			Current: i == shown, Number: i + 1})
	}
	return main, g
}

// thumbSizes are a gallery thumbnail's rendered widths. A thumbnail
// offers only the smallest stored width (photoPicture), which covers 80 CSS
// px at 2×: a 3× phone would otherwise fetch the next width up for each
// thumbnail on the first screen.
const thumbSizes = "80px"

// variantPicker is the product page's choice of variant: each option's
// values as links to the variant they lead to, the combinations that can't
// be bought crossed out.
func variantPicker(productID string, c shop.Choices, sel shop.Variant) *pages.VariantPicker {
	vp := &pages.VariantPicker{}
	for i, o := range c.Options {
		g := pages.OptionGroup{Name: o.Name}
		if i < len(sel.Values) {
			g.Selected = sel.Values[i]
		}
		for _, val := range o.Values {
			ch := pages.OptionChoice{Value: val.Value, Swatch: val.Swatch, Current: val.Value == g.Selected}
			v, exact, ok := c.Switch(sel, i, val.Value)
			ch.Unavailable = !exact || !v.Buyable()
			if ok {
				ch.URL = "/product/" + url.PathEscape(productID) + "?variant=" + url.QueryEscape(v.ID)
			}
			g.Values = append(g.Values, ch)
		}
		vp.Options = append(vp.Options, g)
	}
	return vp
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// sitemap lists every page a search engine should know: the help pages, the
// catalogue, each category and each product.
func (a *catalogHandlers) sitemap(c *fiber.Ctx) error {
	ids, err := a.catalog.ProductIDs(c.UserContext())
	if err != nil {
		return err
	}
	base := a.Config.BaseURL.String()
	paths := []string{"/", "/products", "/products?category=featured", "/contact", "/faq", "/shipping", "/returns"}
	for _, cat := range a.categories(c) {
		paths = append(paths, "/products?category="+url.QueryEscape(cat))
	}
	for _, id := range ids {
		paths = append(paths, "/product/"+url.PathEscape(id))
	}
	var b strings.Builder
	b.WriteString(xml.Header + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, p := range paths {
		b.WriteString("<url><loc>")
		xml.EscapeText(&b, []byte(base+p))
		b.WriteString("</loc></url>\n")
	}
	b.WriteString("</urlset>\n")
	c.Set(fiber.HeaderContentType, "application/xml; charset=utf-8")
	return c.SendString(b.String())
}

func (a *catalogHandlers) robots(c *fiber.Ctx) error {
	c.Set(fiber.HeaderContentType, "text/plain; charset=utf-8")
	return c.SendString("User-agent: *\nDisallow: /cart\nDisallow: /checkout\nDisallow: /profile\nDisallow: /settings\nDisallow: /orders\nDisallow: /api/\nDisallow: /search\n\nSitemap: " + a.Config.BaseURL.String() + "/sitemap.xml\n")
}

func query(c *fiber.Ctx) func(string) string {
	return func(k string) string { return c.Query(k) }
}

// availability is the product's stock as schema.org names it.
func availability(p shop.Product) string {
	switch {
	case !p.InStock():
		return "https://schema.org/OutOfStock"
	case p.Stock <= shop.OnlyFewLeft:
		return "https://schema.org/LimitedAvailability"
	}
	return "https://schema.org/InStock"
}
