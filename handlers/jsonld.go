package handlers

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/nocturne/storefront/internal/shop"
)

// Structured data of a product page (schema.org), as structs: encoding
// them costs a fraction of what maps of interfaces do, on every view.
type (
	ldProduct struct {
		Context     string    `json:"@context,omitempty"`
		Type        string    `json:"@type"`
		SKU         string    `json:"sku"`
		Name        string    `json:"name"`
		Description string    `json:"description,omitempty"`
		Image       string    `json:"image"`
		Category    string    `json:"category,omitempty"`
		URL         string    `json:"url"`
		Size        string    `json:"size,omitempty"`
		Color       string    `json:"color,omitempty"`
		Material    string    `json:"material,omitempty"`
		Pattern     string    `json:"pattern,omitempty"`
		Rating      *ldRating `json:"aggregateRating,omitempty"`
		Offers      ldOffer   `json:"offers"`
	}
	ldGroup struct {
		Context     string      `json:"@context"`
		Type        string      `json:"@type"`
		GroupID     string      `json:"productGroupID"`
		Name        string      `json:"name"`
		Description string      `json:"description"`
		Image       string      `json:"image"`
		Category    string      `json:"category"`
		URL         string      `json:"url"`
		VariesBy    []string    `json:"variesBy,omitempty"`
		Rating      ldRating    `json:"aggregateRating"`
		Variants    []ldProduct `json:"hasVariant"`
	}
	ldRating struct {
		Type        string  `json:"@type"`
		RatingValue float64 `json:"ratingValue"`
		ReviewCount int     `json:"reviewCount"`
	}
	ldOffer struct {
		Type          string `json:"@type"`
		PriceCurrency string `json:"priceCurrency"`
		Price         string `json:"price"`
		Availability  string `json:"availability"`
		URL           string `json:"url"`
	}
)

// productJSONLD describes a product without options: one Product, one
// Offer.
func productJSONLD(p shop.Product, canonical, image string) ldProduct {
	return ldProduct{
		Context: "https://schema.org", Type: "Product", SKU: p.ID, Name: p.Title, Description: p.Description,
		Image: image, Category: p.Category, URL: canonical,
		Rating: &ldRating{Type: "AggregateRating", RatingValue: p.Rating, ReviewCount: p.ReviewCount},
		Offers: ldOffer{Type: "Offer", PriceCurrency: shop.CurrentCurrency().Code(), Price: ldPrice(p.Price), Availability: availability(p), URL: canonical},
	}
}

// variesBy are the schema.org properties Google reads for the options a
// product group varies by.
var variesBy = map[string]string{"size": "size", "colour": "color", "color": "color", "material": "material", "pattern": "pattern"}

// productGroupJSONLD describes a product with options as schema.org's
// ProductGroup: each enabled variant a Product with its own Offer (price,
// availability, SKU) and its option values.
func productGroupJSONLD(p shop.Product, c shop.Choices, canonical, image string) ldGroup {
	g := ldGroup{Context: "https://schema.org", Type: "ProductGroup", GroupID: p.ID, Name: p.Title, Description: p.Description,
		Image: image, Category: p.Category, URL: canonical,
		Rating:   ldRating{Type: "AggregateRating", RatingValue: p.Rating, ReviewCount: p.ReviewCount},
		Variants: make([]ldProduct, 0, len(c.Variants))}
	props := make([]string, len(c.Options))
	for i, o := range c.Options {
		if prop, ok := variesBy[strings.ToLower(o.Name)]; ok {
			props[i] = prop
			g.VariesBy = append(g.VariesBy, "https://schema.org/"+prop)
		}
	}
	for _, v := range c.Variants {
		if !v.Enabled {
			continue
		}
		sku := v.SKU
		if sku == "" {
			sku = v.ID
		}
		u := canonical + "?variant=" + url.QueryEscape(v.ID)
		offered := p
		offered.Price, offered.Stock = v.Price, v.Stock
		item := ldProduct{Type: "Product", SKU: sku, Name: p.Title + " – " + shop.Variation(c.Options, v.Values), Image: image, URL: u,
			Offers: ldOffer{Type: "Offer", PriceCurrency: shop.CurrentCurrency().Code(), Price: ldPrice(v.Price), Availability: availability(offered), URL: u}}
		for i, prop := range props {
			if i >= len(v.Values) {
				break
			}
			switch prop {
			case "size":
				item.Size = v.Values[i]
			case "color":
				item.Color = v.Values[i]
			case "material":
				item.Material = v.Values[i]
			case "pattern":
				item.Pattern = v.Values[i]
			}
		}
		g.Variants = append(g.Variants, item)
	}
	return g
}

// ldPrice is an offer's price as schema.org wants it, a plain decimal
// with the shop currency's digits: "189.00", "189" in yen.
func ldPrice(c shop.Cents) string {
	cur := shop.CurrentCurrency()
	if cur.Digits() == 0 {
		return fmt.Sprint(int64(c))
	}
	unit := int64(cur.Unit())
	return fmt.Sprintf("%d.%0*d", int64(c)/unit, cur.Digits(), int64(c)%unit)
}
