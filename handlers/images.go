package handlers

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/web"
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
)

// imagePrefix is where product photos are served; browsers cache them, so
// neither the page cache nor the compressor (they are WebP/JPEG) takes them.
const imagePrefix = "/img/"

// PhotoStore serves stored photos: a product's cover by its id, and the
// photos of its gallery by their position.
type PhotoStore interface {
	shop.ImageStore
	shop.GalleryStore
}

// picture is the view model of p's image: its stored photo, or the built-in
// asset it names, or its category's illustration when its photo is not
// (yet) stored.
func picture(set web.AssetURLs, p shop.Product, sizes string) components.Picture {
	if !p.Photo.Ready() {
		return components.Picture{Src: web.IllustrationURL(set, p), Width: 400, Height: 400, Sizes: sizes}
	}
	return photoPicture(p.Photo, sizes, func(w int, format string) string { return web.PhotoURL(p, w, format) })
}

// galleryPictures are the view models of a product's gallery, for its
// page, in order, each with its photo's alt text (the title when it has
// none): photo 1 is the cover, shown as picture shows it (its
// illustration while its photo is not stored); a later photo is left out
// until it is stored (not fetched yet, or its fetch failed). photos are
// catalog.Service.Gallery's.
func galleryPictures(set web.AssetURLs, p shop.Product, photos []shop.GalleryPhoto, sizes string) []components.Picture {
	pics, _ := galleryWithURLs(set, p, photos, sizes)
	return pics
}

// galleryWithURLs is galleryPictures with the URL each picture shows (a
// variant names its photo by URL).
func galleryWithURLs(set web.AssetURLs, p shop.Product, photos []shop.GalleryPhoto, sizes string) ([]components.Picture, []string) {
	var out []components.Picture
	var urls []string
	for _, ph := range photos {
		var pic components.Picture
		switch {
		case ph.Position == 1:
			pic = picture(set, p, sizes)
		case ph.Photo.Ready():
			pic = photoPicture(ph.Photo, sizes, func(w int, format string) string {
				return web.GalleryPhotoURL(p.ID, ph, w, format)
			})
		default:
			continue
		}
		pic.Alt = ph.Alt
		if pic.Alt == "" {
			pic.Alt = p.Title
		}
		out = append(out, pic)
		urls = append(urls, ph.URL)
	}
	if len(out) == 0 { // no photo at all: the illustration, as for the cover
		pic := picture(set, p, sizes)
		pic.Alt = p.Title
		out = append(out, pic)
		urls = append(urls, p.Image)
	}
	return out, urls
}

// photoPicture is the view model of a stored photo whose variants urlOf
// names.
func photoPicture(ph shop.Photo, sizes string, urlOf func(width int, format string) string) components.Picture {
	// A card is at most ~345 CSS px wide, so 640 px covers a 2× phone;
	// offering 960 would only make 3× phones download twice the bytes.
	maxWidth := shop.PhotoWidths[len(shop.PhotoWidths)-1]
	switch sizes {
	case cardSizes:
		maxWidth = fallbackWidth
	case thumbSizes:
		maxWidth = shop.PhotoWidths[0]
	}
	var webp, jpg []string
	src := 0
	for _, w := range ph.Widths() {
		if w > maxWidth && src != 0 {
			break
		}
		webp = append(webp, fmt.Sprintf("%s %dw", urlOf(w, shop.PhotoWebP), w))
		jpg = append(jpg, fmt.Sprintf("%s %dw", urlOf(w, shop.PhotoJPEG), w))
		if w <= fallbackWidth || src == 0 {
			src = w
		}
	}
	return components.Picture{
		Src:        urlOf(src, shop.PhotoJPEG),
		WebPSrcset: strings.Join(webp, ", "),
		JPEGSrcset: strings.Join(jpg, ", "),
		Sizes:      sizes,
		Width:      src,
		Height:     ph.HeightAt(src),
		Photo:      true,
	}
}

// serveImage serves a stored variant of a product's photo:
// /img/{product}/{width}.{webp|jpg}?v={hash}. With the current hash it is
// cached for good. A width the photo lacks is sent to its nearest width,
// and a product without a stored photo (it failed, or is not fetched yet)
// to its illustration.
func (a *site) serveImage(c *fiber.Ctx) error {
	id, ext := c.Params("product"), c.Params("ext")
	width, err := strconv.Atoi(c.Params("width"))
	if err != nil || width <= 0 || width > 10_000 || (ext != shop.PhotoWebP && ext != shop.PhotoJPEG) {
		return fiber.ErrNotFound
	}
	data, hash, err := a.images.ProductImage(c.UserContext(), id, width, ext)
	if shop.ErrorCode(err) == shop.ENOTFOUND {
		p, perr := a.catalog.StoredProduct(c.UserContext(), id)
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
			return c.Redirect(web.PhotoURL(*p, w, ext), fiber.StatusFound)
		}
		set, _ := a.Assets.Current()
		return c.Redirect(web.IllustrationURL(set, *p), fiber.StatusFound)
	} else if err != nil {
		return err
	}
	return sendPhoto(c, data, hash, ext)
}

// serveGalleryImage serves a stored variant of a gallery's photo:
// /img/{product}/{position}/{width}.{webp|jpg}?v={hash}, cached as
// serveImage caches. A width the photo lacks is sent to its nearest
// width; a photo not stored (not fetched yet, its fetch failed, or no
// such position) is not found: pages show only stored ones.
func (a *site) serveGalleryImage(c *fiber.Ctx) error {
	id, ext := c.Params("product"), c.Params("ext")
	position, perr := strconv.Atoi(c.Params("photo"))
	width, werr := strconv.Atoi(c.Params("width"))
	if perr != nil || werr != nil || position < 1 || position > shop.MaxGalleryPhotos || width <= 0 || width > 10_000 ||
		(ext != shop.PhotoWebP && ext != shop.PhotoJPEG) {
		return fiber.ErrNotFound
	}
	data, hash, err := a.images.GalleryImage(c.UserContext(), id, position, width, ext)
	if shop.ErrorCode(err) == shop.ENOTFOUND {
		photos, err := a.images.Photos(c.UserContext(), id)
		if err != nil {
			return err
		}
		for _, ph := range photos {
			if ph.Position != position || !ph.Photo.Ready() || ph.Photo.HasWidth(width) {
				continue
			}
			ws := ph.Photo.Widths()
			w := ws[0]
			for _, x := range ws {
				if x <= width {
					w = x
				}
			}
			c.Set(fiber.HeaderCacheControl, "public, max-age=300")
			return c.Redirect(web.GalleryPhotoURL(id, ph, w, ext), fiber.StatusFound)
		}
		return fiber.ErrNotFound
	} else if err != nil {
		return err
	}
	return sendPhoto(c, data, hash, ext)
}

// sendPhoto answers with a stored variant: cached for good when the URL
// names its current hash, for five minutes otherwise (the photo changed
// since the page was made).
func sendPhoto(c *fiber.Ctx, data []byte, hash, ext string) error {
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
func orderLineImage(set web.AssetURLs, l shop.OrderLine) string {
	if images.HTTPURL(l.Image) {
		return fmt.Sprintf("/img/%s/%d.%s", url.PathEscape(l.ProductID), web.ThumbWidth, shop.PhotoJPEG)
	}
	return web.IllustrationURL(set, shop.Product{Image: l.Image})
}
