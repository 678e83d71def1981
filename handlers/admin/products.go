package admin

import (
	"fmt"
	"io"
	"mime/multipart"
	"net/url"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/money"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// productPages serve the product list and editor.
type productPages struct {
	*web.Pages
	products shop.ProductAdminStore
	catalog  Catalog
	audit    Recorder
}

func (a *productPages) adminProducts(c *fiber.Ctx) error {
	q := strings.TrimSpace(c.Query("q"))
	page := pageParam(c)
	ps, total, err := a.products.AdminProducts(c.UserContext(), q, page)
	if err != nil {
		return err
	}
	p := pages.AdminProductsPage{Nav: adminNav(c, backoffice.AreaProducts), Products: ps, Total: total, Query: q}
	p.Pagination = web.Paginate(page, lastPage(total, shop.AdminProductsPageSize), func(n int) string {
		v := url.Values{}
		if q != "" {
			v.Set("q", q)
		}
		if n > 1 {
			v.Set("page", strconv.Itoa(n))
		}
		return web.WithQuery("/admin/products", v.Encode())
	})
	return web.Render(c, fiber.StatusOK, pages.AdminProducts(a.Frame(c, "Products · Back office"), p))
}

func formOf(p *shop.Product) pages.ProductForm {
	f := pages.ProductForm{ID: p.ID, Title: p.Title, Description: p.Description, Category: p.Category,
		Price: money.Text(p.Price), Stock: strconv.Itoa(p.Stock), StockWas: strconv.Itoa(p.Stock), Featured: p.Featured, Visible: !p.Hidden, Image: p.Image,
		Variants: p.HasOptions(), FinalSale: p.FinalSale}
	if p.Original > 0 {
		f.Original = money.Text(p.Original)
	}
	return f
}

func (a *productPages) renderProductEditor(c *fiber.Ctx, status int, p pages.AdminProductPage, prod *shop.Product) error {
	p.Nav = adminNav(c, backoffice.AreaProducts)
	cats, err := a.catalog.Categories(c.UserContext())
	if err != nil {
		return err
	}
	p.Categories = cats
	if prod != nil && prod.Photo.Ready() {
		p.ImageURL = web.ThumbnailURL(nil, *prod)
	}
	title := "New product · Back office"
	if !p.New {
		title = "Edit " + p.Form.Title + " · Back office"
	}
	return web.Render(c, status, pages.AdminProduct(a.Frame(c, title), p))
}

func (a *productPages) adminNewProduct(c *fiber.Ctx) error {
	return a.renderProductEditor(c, fiber.StatusOK, pages.AdminProductPage{New: true, Form: pages.ProductForm{Visible: true, Stock: "0"}}, nil)
}

func (a *productPages) adminEditProduct(c *fiber.Ctx) error {
	p, err := a.products.AdminProduct(c.UserContext(), c.Params("id"))
	if shop.ErrorCode(err) == shop.ENOTFOUND {
		return fiber.ErrNotFound
	} else if err != nil {
		return err
	}
	return a.renderProductEditor(c, fiber.StatusOK, pages.AdminProductPage{Form: formOf(p)}, p)
}

func (a *productPages) adminCreateProduct(c *fiber.Ctx) error { return a.saveProduct(c, nil) }

func (a *productPages) adminSaveProduct(c *fiber.Ctx) error {
	p, err := a.products.AdminProduct(c.UserContext(), c.Params("id"))
	if shop.ErrorCode(err) == shop.ENOTFOUND {
		return fiber.ErrNotFound
	} else if err != nil {
		return err
	}
	return a.saveProduct(c, p)
}

// saveProduct validates the editor's form and saves it; before is nil for
// a new product.
func (a *productPages) saveProduct(c *fiber.Ctx, before *shop.Product) error {
	form := pages.ProductForm{
		ID: strings.TrimSpace(web.FormValue(c, "id")), Title: web.FormValue(c, "title"), Description: web.FormValue(c, "description"),
		Category: web.FormValue(c, "category"), Price: web.FormValue(c, "price"), Original: web.FormValue(c, "original"), Stock: web.FormValue(c, "stock"),
		StockWas: web.FormValue(c, "stock_was"), Featured: web.FormValue(c, "featured") != "", Visible: web.FormValue(c, "visible") != "",
		FinalSale: web.FormValue(c, "final_sale") != "",
	}
	if before != nil {
		form.ID, form.Image = before.ID, before.Image
		// A product with options has no stock of its own to edit here:
		// what is posted equals what was loaded, so none is written.
		form.Variants = before.HasOptions()
	}
	edit, errs := backoffice.ParseProduct(backoffice.ProductInput{ID: form.ID, Title: form.Title, Description: form.Description,
		Category: form.Category, Price: form.Price, Original: form.Original, Stock: form.Stock, StockWas: form.StockWas,
		Featured: form.Featured, Visible: form.Visible, FinalSale: form.FinalSale}, before == nil)
	edit.Image = form.Image
	if errs == nil {
		if fh, err := c.FormFile("image"); err == nil && fh.Size > 0 {
			name, ierr := a.uploadPhoto(c, fh)
			if ierr != nil {
				errs = shop.FieldErrors{"image": ierr.Error()}
				if shop.ErrorCode(ierr) == shop.EINVALID {
					errs["image"] = shop.ErrorMessage(ierr)
				} else {
					return ierr
				}
			}
			edit.Image = name
		}
	}
	if errs == nil {
		err := a.products.SaveProduct(c.UserContext(), edit)
		switch shop.ErrorCode(err) {
		case "":
		case shop.ECONFLICT:
			field := shop.ErrorField(err)
			if field == "" {
				field = "id"
			}
			errs = shop.FieldErrors{field: shop.ErrorMessage(err)}
			if field == "stock" {
				// The next save is checked against the stock found now;
				// what staff typed stays in the field.
				if now, err := a.products.AdminProduct(c.UserContext(), edit.ID); err == nil {
					form.StockWas = strconv.Itoa(now.Stock)
				}
			}
		default:
			return err
		}
	}
	if errs != nil {
		return a.renderProductEditor(c, fiber.StatusUnprocessableEntity, pages.AdminProductPage{New: before == nil, Form: form, Errors: errs}, before)
	}
	action := "product.update"
	if before == nil {
		action = "product.create"
	}
	var was any
	after := edit.Product
	if before != nil {
		was = backoffice.ProductRecord(before)
		if edit.Stock == edit.StockWas {
			after.Stock = before.Stock // stock was left alone
		}
	}
	a.audit.Record(c.UserContext(), staffEmail(c), action, edit.ID, was, backoffice.ProductRecord(&after))
	// This instance shows the change at once; the others within a second
	// (they watch the catalogue version).
	if err := a.catalog.Reload(c.UserContext()); err != nil {
		a.Log.Error("catalogue reload after edit", "err", err)
	}
	return a.RedirectWithFlash(c, "/admin/products/"+edit.ID, "Product saved.")
}

// uploadPhoto sends an uploaded photo through the image pipeline.
func (a *productPages) uploadPhoto(c *fiber.Ctx, fh *multipart.FileHeader) (string, error) {
	f, err := fh.Open()
	if err != nil {
		return "", fmt.Errorf("open upload: %w", err)
	}
	defer f.Close()
	body, err := io.ReadAll(io.LimitReader(f, MaxUpload+1))
	if err != nil {
		return "", fmt.Errorf("read upload: %w", err)
	}
	if len(body) > MaxUpload {
		return "", shop.Errorf(shop.EINVALID, "The photo is too large.")
	}
	return a.catalog.UploadPhoto(c.UserContext(), body)
}

// MaxUpload bounds an uploaded photo.
const MaxUpload = 8 << 20

// TakesPhoto reports whether a request may carry an upload larger than a
// form: a product editor's save (a photo), or a catalogue file.
func TakesPhoto(c *fiber.Ctx) bool {
	return takesCatalogFile(c) ||
		c.Method() == fiber.MethodPost && strings.HasPrefix(c.Path(), "/admin/products/") && strings.Count(c.Path(), "/") == 3
}
