package backoffice

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/nocturne/storefront/internal/money"
	"github.com/nocturne/storefront/internal/shop"
)

// ProductInput is the product editor's form as typed.
type ProductInput struct {
	ID, Title, Description, Category, Price, Original, Stock string
	// StockWas is the stock the editor was loaded with (a hidden field).
	StockWas          string
	Featured, Visible bool
	// FinalSale marks a product that can't be returned.
	FinalSale bool
}

var productID = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)

// MaxStock bounds the stock staff can type.
const MaxStock = 1_000_000

// ParseProduct validates the editor's form: every field's problem comes
// back in FieldErrors, next to the field.
func ParseProduct(in ProductInput, isNew bool) (shop.ProductEdit, shop.FieldErrors) {
	e := shop.ProductEdit{New: isNew}
	errs := checkFields(&e, in, productChecks)
	e.Product.Featured, e.Product.Hidden, e.Product.FinalSale = in.Featured, !in.Visible, in.FinalSale
	return e, errs
}

// productChecks read the product editor's fields, in order.
var productChecks = []fieldCheck[shop.ProductEdit, ProductInput]{
	{"id", checkProductID},
	{"title", checkProductTitle},
	{"description", checkProductDescription},
	{"category", checkProductCategory},
	{"price", checkProductPrice},
	{"original", checkProductOriginal},
	{"stock", checkProductStock},
	{"stock", checkProductStockWas},
}

// checkProductID reads the id, which is checked only for a new product:
// an existing one keeps the id it has.
func checkProductID(e *shop.ProductEdit, in ProductInput, _ shop.FieldErrors) string {
	e.Product.ID = strings.ToLower(strings.TrimSpace(in.ID))
	if e.New && !productID.MatchString(e.Product.ID) {
		return "Use 1 to 64 lower-case letters, digits and dashes."
	}
	return ""
}

// checkProductTitle reads the title, required and at most 300 characters.
func checkProductTitle(e *shop.ProductEdit, in ProductInput, _ shop.FieldErrors) string {
	e.Product.Title = strings.TrimSpace(in.Title)
	switch {
	case e.Product.Title == "":
		return "Title is required."
	case len(e.Product.Title) > 300:
		return "Title is too long (at most 300 characters)."
	}
	return ""
}

// checkProductDescription reads the description, with Windows line ends made plain.
func checkProductDescription(e *shop.ProductEdit, in ProductInput, _ shop.FieldErrors) string {
	e.Product.Description = strings.TrimSpace(strings.ReplaceAll(in.Description, "\r\n", "\n"))
	if len(e.Product.Description) > 10_000 {
		return "Description is too long (at most 10,000 characters)."
	}
	return ""
}

// checkProductCategory reads the category, which cannot be the featured products.
func checkProductCategory(e *shop.ProductEdit, in ProductInput, _ shop.FieldErrors) string {
	e.Product.Category = strings.ToLower(strings.TrimSpace(in.Category))
	switch {
	case e.Product.Category == "":
		return "Category is required."
	case len(e.Product.Category) > 60 || e.Product.Category == shop.FeaturedCategory:
		return "Choose another category name."
	}
	return ""
}

// checkProductPrice reads the price.
func checkProductPrice(e *shop.ProductEdit, in ProductInput, _ shop.FieldErrors) string {
	var err error
	if e.Product.Price, err = money.Parse(in.Price); err != nil {
		return shop.ErrorMessage(err)
	}
	return ""
}

// checkProductOriginal reads the optional original price, not below the price.
func checkProductOriginal(e *shop.ProductEdit, in ProductInput, _ shop.FieldErrors) string {
	if strings.TrimSpace(in.Original) == "" {
		return ""
	}
	var err error
	if e.Product.Original, err = money.Parse(in.Original); err != nil {
		return shop.ErrorMessage(err) + " Or leave it empty."
	} else if e.Product.Price > 0 && e.Product.Original < e.Product.Price {
		return "The original price cannot be below the price."
	}
	return ""
}

// checkProductStock reads the stock typed.
func checkProductStock(e *shop.ProductEdit, in ProductInput, _ shop.FieldErrors) string {
	n, err := strconv.Atoi(strings.TrimSpace(in.Stock))
	e.Product.Stock, e.StockWas = n, n
	if err != nil || n < 0 || n > MaxStock {
		return "Enter a whole number from 0 to 1000000."
	}
	return ""
}

// checkProductStockWas reads the stock an existing product's editor was loaded with.
func checkProductStockWas(e *shop.ProductEdit, in ProductInput, _ shop.FieldErrors) string {
	if e.New {
		return ""
	}
	// Without the stock it was loaded with, an edit can't be told from
	// a sale, so nothing is written over the stored stock.
	if was, err := strconv.Atoi(strings.TrimSpace(in.StockWas)); err == nil && was >= 0 {
		e.StockWas = was
		return ""
	}
	return "This editor is out of date: open the product again."
}

// productRecord is what the audit log keeps of a product.
type productRecord struct {
	Title       string `json:"title"`
	Description string `json:"description"`
	Category    string `json:"category"`
	Price       string `json:"price"`
	Original    string `json:"original,omitempty"`
	Stock       int    `json:"stock"`
	Featured    bool   `json:"featured"`
	Visible     bool   `json:"visible"`
	Image       string `json:"image,omitempty"`
	FinalSale   bool   `json:"final_sale,omitempty"`
}

// ProductRecord is p as the audit log shows it.
func ProductRecord(p *shop.Product) any {
	r := productRecord{Title: p.Title, Description: p.Description, Category: p.Category, Price: p.Price.String(),
		Stock: p.Stock, Featured: p.Featured, Visible: !p.Hidden, Image: p.Image, FinalSale: p.FinalSale}
	if p.Original > 0 {
		r.Original = p.Original.String()
	}
	return r
}
