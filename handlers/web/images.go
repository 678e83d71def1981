package web

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/nocturne/storefront/internal/images"
	"github.com/nocturne/storefront/internal/shop"
)

// ThumbWidth is the width of the small images of cart and order lines.
const ThumbWidth = 160

// AssetURLs names the built assets' addresses (static's asset set).
type AssetURLs interface{ URL(string) string }

// PhotoURL is where a variant of p's photo is served; the hash in v changes
// whenever the photo does, so the response may be cached for good.
func PhotoURL(p shop.Product, width int, format string) string {
	return fmt.Sprintf("/img/%s/%d.%s?v=%s", url.PathEscape(p.ID), width, format, p.Photo.Hash)
}

// GalleryPhotoURL is where a variant of a product's gallery photo is
// served, by its position; like PhotoURL, the hash in v changes whenever
// the photo does.
func GalleryPhotoURL(productID string, ph shop.GalleryPhoto, width int, format string) string {
	return fmt.Sprintf("/img/%s/%d/%d.%s?v=%s", url.PathEscape(productID), ph.Position, width, format, ph.Photo.Hash)
}

// ThumbnailURL is a small image of p for cart and order lines.
func ThumbnailURL(set AssetURLs, p shop.Product) string {
	if !p.Photo.Ready() {
		return IllustrationURL(set, p)
	}
	ws := p.Photo.Widths()
	w := ws[0]
	for _, x := range ws {
		if x <= ThumbWidth {
			w = x
		}
	}
	return PhotoURL(p, w, shop.PhotoJPEG)
}

// IllustrationURL is a built-in product's own asset, or for an imported
// product its category's illustration.
func IllustrationURL(set AssetURLs, p shop.Product) string {
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
