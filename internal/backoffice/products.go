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
	p := &e.Product
	errs := shop.FieldErrors{}
	p.ID = strings.ToLower(strings.TrimSpace(in.ID))
	if isNew && !productID.MatchString(p.ID) {
		errs["id"] = "Use 1 to 64 lower-case letters, digits and dashes."
	}
	p.Title = strings.TrimSpace(in.Title)
	p.Description = strings.TrimSpace(strings.ReplaceAll(in.Description, "\r\n", "\n"))
	p.Category = strings.ToLower(strings.TrimSpace(in.Category))
	switch {
	case p.Title == "":
		errs["title"] = "Title is required."
	case len(p.Title) > 300:
		errs["title"] = "Title is too long (at most 300 characters)."
	}
	if len(p.Description) > 10_000 {
		errs["description"] = "Description is too long (at most 10,000 characters)."
	}
	switch {
	case p.Category == "":
		errs["category"] = "Category is required."
	case len(p.Category) > 60 || p.Category == shop.FeaturedCategory:
		errs["category"] = "Choose another category name."
	}
	var err error
	if p.Price, err = money.Parse(in.Price); err != nil {
		errs["price"] = shop.ErrorMessage(err)
	}
	if strings.TrimSpace(in.Original) != "" {
		if p.Original, err = money.Parse(in.Original); err != nil {
			errs["original"] = shop.ErrorMessage(err) + " Or leave it empty."
		} else if p.Price > 0 && p.Original < p.Price {
			errs["original"] = "The original price cannot be below the price."
		}
	}
	n, err := strconv.Atoi(strings.TrimSpace(in.Stock))
	if err != nil || n < 0 || n > MaxStock {
		errs["stock"] = "Enter a whole number from 0 to 1000000."
	}
	p.Stock = n
	e.StockWas = n
	if !isNew {
		// Without the stock it was loaded with, an edit can't be told from
		// a sale, so nothing is written over the stored stock.
		if was, err := strconv.Atoi(strings.TrimSpace(in.StockWas)); err == nil && was >= 0 {
			e.StockWas = was
		} else if errs["stock"] == "" {
			errs["stock"] = "This editor is out of date: open the product again."
		}
	}
	p.Featured, p.Hidden, p.FinalSale = in.Featured, !in.Visible, in.FinalSale
	if len(errs) > 0 {
		return e, errs
	}
	return e, nil
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
