package handlers

import (
	"github.com/nocturne/storefront/handlers/admin"
	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/components"
)

// MaxUpload is the largest product photo, for tests of the limits.
const MaxUpload = admin.MaxUpload

// GalleryPictures is the product page's gallery view model, for tests
// until the page shows it.
func GalleryPictures(set web.AssetURLs, p shop.Product, photos []shop.GalleryPhoto) []components.Picture {
	return galleryPictures(set, p, photos, productSizes)
}
