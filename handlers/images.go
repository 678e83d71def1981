package handlers

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/internal/images"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/components"
)

// sizes tell the browser how wide an image is drawn before the CSS loads,
// so it picks the right width from srcset: cards are one column on a
// phone, two to four on wider screens (1200 px container); the product
// page's image is half the container from 768 px.
const (
	cardSizes    = "(min-width: 1024px) 280px, (min-width: 640px) 45vw, 92vw"
	productSizes = "(min-width: 1200px) 560px, (min-width: 768px) 46vw, 92vw"
	// fallbackWidth is the JPEG in src, for browsers without srcset.
	fallbackWidth = 640
	thumbWidth    = 160
)

// imagePrefix is where product photos are served; browsers cache them, so
// neither the page cache nor the compressor (they are WebP/JPEG) takes them.
const imagePrefix = "/img/"

type assetURLs interface{ URL(string) string }

// picture is the view model of p's image: its stored photo, or the built-in
// asset it names, or its category's illustration when its photo is not
// (yet) stored.
func picture(set assetURLs, p shop.Product, sizes string) components.Picture {
	if !p.Photo.Ready() {
		return components.Picture{Src: illustrationURL(set, p), Width: 400, Height: 400, Sizes: sizes}
	}
	// A card is at most ~345 CSS px wide, so 640 px covers a 2× phone;
	// offering 960 would only make 3× phones download twice the bytes.
	maxWidth := shop.PhotoWidths[len(shop.PhotoWidths)-1]
	if sizes == cardSizes {
		maxWidth = fallbackWidth
	}
	var webp, jpg []string
	src := 0
	for _, w := range p.Photo.Widths() {
		if w > maxWidth && src != 0 {
			break
		}
		webp = append(webp, fmt.Sprintf("%s %dw", photoURL(p, w, shop.PhotoWebP), w))
		jpg = append(jpg, fmt.Sprintf("%s %dw", photoURL(p, w, shop.PhotoJPEG), w))
		if w <= fallbackWidth || src == 0 {
			src = w
		}
	}
	return components.Picture{
		Src:        photoURL(p, src, shop.PhotoJPEG),
		WebPSrcset: strings.Join(webp, ", "),
		JPEGSrcset: strings.Join(jpg, ", "),
		Sizes:      sizes,
		Width:      src,
		Height:     p.Photo.HeightAt(src),
		Photo:      true,
	}
}

// photoURL is where a variant of p's photo is served; the hash in v changes
// whenever the photo does, so the response may be cached for good.
func photoURL(p shop.Product, width int, format string) string {
	return fmt.Sprintf("/img/%s/%d.%s?v=%s", url.PathEscape(p.ID), width, format, p.Photo.Hash)
}

// thumbnailURL is a small image of p for cart and order lines.
func thumbnailURL(set assetURLs, p shop.Product) string {
	if !p.Photo.Ready() {
		return illustrationURL(set, p)
	}
	ws := p.Photo.Widths()
	w := ws[0]
	for _, x := range ws {
		if x <= thumbWidth {
			w = x
		}
	}
	return photoURL(p, w, shop.PhotoJPEG)
}

// illustrationURL is a built-in product's own asset, or for an imported
// product its category's illustration.
func illustrationURL(set assetURLs, p shop.Product) string {
	if set == nil {
		return ""
	}
	if !images.HTTPURL(p.Image) {
		if u := set.URL(p.Image); u != "" {
			return u
		}
	}
	if u := set.URL("img/categories/" + illustrationName(p.Category) + ".svg"); u != "" {
		return u
	}
	return set.URL("img/products/placeholder.svg")
}

// illustrationName maps a category, ours or an imported catalogue's ("men's
// clothing"), to one of the built-in illustrations.
func illustrationName(category string) string {
	c := strings.ToLower(category)
	switch {
	case strings.Contains(c, "electr"), strings.Contains(c, "computer"), strings.Contains(c, "phone"):
		return "electronics"
	case strings.Contains(c, "jewel"), strings.Contains(c, "watch"):
		return "jewelery"
	case strings.Contains(c, "cloth"), strings.Contains(c, "fashion"), strings.Contains(c, "shoe"), strings.Contains(c, "wear"), strings.Contains(c, "bag"):
		return "fashion"
	case strings.Contains(c, "home"), strings.Contains(c, "kitchen"), strings.Contains(c, "furniture"), strings.Contains(c, "garden"):
		return "home"
	}
	return "other"
}

// serveImage serves a stored variant of a product's photo:
// /img/{product}/{width}.{webp|jpg}?v={hash}. With the current hash it is
// cached for good. A width the photo lacks is sent to its nearest width,
// and a product without a stored photo (it failed, or is not fetched yet)
// to its illustration.
func (a *App) serveImage(c *fiber.Ctx) error {
	id, ext := c.Params("product"), c.Params("ext")
	width, err := strconv.Atoi(c.Params("width"))
	if err != nil || width <= 0 || width > 10_000 || (ext != shop.PhotoWebP && ext != shop.PhotoJPEG) {
		return fiber.ErrNotFound
	}
	data, hash, err := a.Images.ProductImage(c.UserContext(), id, width, ext)
	if shop.ErrorCode(err) == shop.ENOTFOUND {
		p, perr := a.Catalog.StoredProduct(c.UserContext(), id)
		if shop.ErrorCode(perr) == shop.ENOTFOUND {
			return fiber.ErrNotFound
		} else if perr != nil {
			return perr
		}
		c.Set(fiber.HeaderCacheControl, "public, max-age=300")
		if ws := p.Photo.Widths(); p.Photo.Ready() {
			// A width this photo lacks (it is narrower): its nearest one.
			w := ws[0]
			for _, x := range ws {
				if x <= width {
					w = x
				}
			}
			return c.Redirect(photoURL(*p, w, ext), fiber.StatusFound)
		}
		set, _ := a.Assets.Current()
		return c.Redirect(illustrationURL(set, *p), fiber.StatusFound)
	} else if err != nil {
		return err
	}
	etag := `"` + hash + `"`
	c.Set(fiber.HeaderETag, etag)
	if c.Query("v") == hash {
		c.Set(fiber.HeaderCacheControl, "public, max-age=31536000, immutable")
	} else {
		c.Set(fiber.HeaderCacheControl, "public, max-age=300")
	}
	if string(c.Request().Header.Peek(fiber.HeaderIfNoneMatch)) == etag {
		return c.SendStatus(fiber.StatusNotModified)
	}
	c.Set(fiber.HeaderContentType, map[string]string{shop.PhotoWebP: "image/webp", shop.PhotoJPEG: "image/jpeg"}[ext])
	return c.Send(data)
}

// orderLineImage is an order line's thumbnail. A line keeps the image its
// product had when ordered, not the photo's hash: the route sends it the
// current photo, or the illustration when there is none.
func orderLineImage(set assetURLs, l shop.OrderLine) string {
	if images.HTTPURL(l.Image) {
		return fmt.Sprintf("/img/%s/%d.%s", url.PathEscape(l.ProductID), thumbWidth, shop.PhotoJPEG)
	}
	return illustrationURL(set, shop.Product{Image: l.Image})
}
