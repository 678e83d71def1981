package admin

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// photoPages serve a product's gallery editor, under the product editor's
// role: the photos' order and alt text, removing one, adding one by its
// address (fetched into the image pipeline afterwards).
type photoPages struct {
	*web.Pages
	products shop.ProductAdminStore
	gallery  shop.GalleryStore
	catalog  Catalog
	service  *backoffice.Service
}

// MsgPhotosSaved confirms a gallery edit.
const MsgPhotosSaved = "Photos saved."

// maxAltText bounds a photo's alt text, as the store does.
const maxAltText = 512

func photosPath(productID string) string { return "/admin/products/" + productID + "/photos" }

func (a *photoPages) adminPhotos(c *fiber.Ctx) error {
	p, err := a.products.AdminProduct(c.UserContext(), c.Params("id"))
	if err != nil {
		return notFoundOr(err)
	}
	photos, err := a.gallery.Photos(c.UserContext(), p.ID)
	if err != nil {
		return err
	}
	rows := make([]pages.PhotoRow, len(photos))
	for i, ph := range photos {
		rows[i] = pages.PhotoRow{URL: ph.URL, Alt: ph.Alt, Position: strconv.Itoa(i + 1)}
	}
	return a.render(c, fiber.StatusOK, p, pages.AdminPhotosPage{Rows: rows})
}

func (a *photoPages) render(c *fiber.Ctx, status int, p *shop.Product, page pages.AdminPhotosPage) error {
	page.Nav, page.ProductID, page.Title = adminNav(c, backoffice.AreaProducts), p.ID, p.Title
	return web.Render(c, status, pages.AdminPhotos(a.Frame(c, "Photos of "+p.Title+" · Back office"), page))
}

// adminSavePhotos saves the gallery as the form lists it: each photo at
// the position typed (ties keep the page's order), without the ones to
// remove, and a new one at the end.
func (a *photoPages) adminSavePhotos(c *fiber.Ctx) error {
	ctx := c.UserContext()
	p, err := a.products.AdminProduct(ctx, c.Params("id"))
	if err != nil {
		return notFoundOr(err)
	}
	before, err := a.gallery.Photos(ctx, p.ID)
	if err != nil {
		return err
	}
	page := pages.AdminPhotosPage{Errors: shop.FieldErrors{}, NewURL: strings.TrimSpace(web.FormValue(c, "new_url")),
		NewAlt: strings.TrimSpace(web.FormValue(c, "new_alt"))}
	keep := readPhotoRows(c, before, &page)
	if newPhoto, ok := checkNewPhoto(&page, len(before)+1); ok {
		keep = append(keep, newPhoto)
	}
	if len(page.Errors) > 0 {
		page.Alert = "Please correct the fields marked below."
		return a.render(c, fiber.StatusUnprocessableEntity, p, page)
	}
	photos := inOrder(keep)
	if err := a.gallery.SetPhotos(ctx, p.ID, photos); err != nil {
		if code := shop.ErrorCode(err); code != shop.EINVALID && code != shop.ENOTFOUND {
			return err
		}
		page.Alert = shop.ErrorMessage(err)
		return a.render(c, fiber.StatusUnprocessableEntity, p, page)
	}
	a.service.Record(ctx, staffEmail(c), "product.photos", p.ID, photoList(before), photoList(photos))
	if page.NewURL != "" {
		a.catalog.FetchPhotosLater([]string{page.NewURL}, photoFetchLimit)
	}
	if err := a.catalog.Reload(ctx); err != nil {
		a.Log.Error("reload after photos", "err", err, "request_id", web.RequestID(c))
	}
	return a.RedirectWithFlash(c, photosPath(p.ID), MsgPhotosSaved)
}

// placedPhoto is a photo with the position typed for it.
type placedPhoto struct {
	photo shop.GalleryPhoto
	pos   int
}

// readPhotoRows reads the form's row for each photo the page showed into
// page, with each problem; it returns the photos not marked for removal.
func readPhotoRows(c *fiber.Ctx, before []shop.GalleryPhoto, page *pages.AdminPhotosPage) []placedPhoto {
	var keep []placedPhoto
	for i, ph := range before {
		n := strconv.Itoa(i)
		row := pages.PhotoRow{URL: ph.URL, Alt: strings.TrimSpace(web.FormValue(c, "alt_"+n)),
			Position: strings.TrimSpace(web.FormValue(c, "pos_"+n)), Remove: web.FormValue(c, "remove_"+n) != ""}
		page.Rows = append(page.Rows, row)
		pos, err := strconv.Atoi(row.Position)
		switch {
		case err != nil || pos < 1 || pos > len(before)+1:
			page.Errors["pos_"+n] = "Please enter a position from 1 to " + strconv.Itoa(len(before)+1) + "."
		case len(row.Alt) > maxAltText:
			page.Errors["alt_"+n] = "Please keep the description under " + strconv.Itoa(maxAltText) + " characters."
		}
		if !row.Remove {
			keep = append(keep, placedPhoto{shop.GalleryPhoto{URL: ph.URL, Alt: row.Alt}, pos})
		}
	}
	return keep
}

// checkNewPhoto checks the photo to add, if one was typed (ok), which goes
// at position last.
func checkNewPhoto(page *pages.AdminPhotosPage, last int) (p placedPhoto, ok bool) {
	if page.NewURL == "" {
		return placedPhoto{}, false
	}
	if u, err := url.Parse(page.NewURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		page.Errors["new_url"] = "Please enter the photo's web address, starting with https://."
	} else if len(page.NewAlt) > maxAltText {
		page.Errors["new_alt"] = "Please keep the description under " + strconv.Itoa(maxAltText) + " characters."
	}
	return placedPhoto{shop.GalleryPhoto{URL: page.NewURL, Alt: page.NewAlt}, last}, true
}

// inOrder is the gallery by the positions typed; ties keep the page's
// order.
func inOrder(keep []placedPhoto) []shop.GalleryPhoto {
	slices.SortStableFunc(keep, func(x, y placedPhoto) int { return x.pos - y.pos })
	photos := make([]shop.GalleryPhoto, len(keep))
	for i, k := range keep {
		photos[i] = k.photo
	}
	return photos
}

// photoList is a gallery as the audit log keeps it: each photo's address
// and alt text, in order.
func photoList(photos []shop.GalleryPhoto) []string {
	out := make([]string, len(photos))
	for i, ph := range photos {
		out[i] = ph.URL + " (" + ph.Alt + ")"
	}
	return out
}

// notFoundOr is err, with an unknown product as the 404 page.
func notFoundOr(err error) error {
	if shop.ErrorCode(err) == shop.ENOTFOUND {
		return fiber.ErrNotFound
	}
	return err
}
