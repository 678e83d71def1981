package shop

import "context"

// GalleryPhoto is one photo of a product's gallery. Photo 1 is the cover:
// the product's Image, which cards, carts and orders show.
type GalleryPhoto struct {
	// Position is the photo's place in the gallery, 1, 2, 3... with no gaps.
	Position int
	// URL is what a product's Image holds: the source URL of a fetched
	// photo, an uploaded photo's name, or a built-in asset.
	URL string
	// Alt describes the photo for those who cannot see it.
	Alt string
	// Photo is the stored photo the image pipeline made of URL (its hash
	// and size); zero while it is not fetched yet, or when its fetch
	// failed, and for a built-in asset.
	Photo Photo
}

// MaxGalleryPhotos is how many photos a product may have, as in Shopify's
// product format.
const MaxGalleryPhotos = 250

// GalleryStore keeps products' galleries and serves their stored photos.
type GalleryStore interface {
	// Photos returns a product's gallery in order; none for a product
	// without photos (or unknown).
	Photos(ctx context.Context, productID string) ([]GalleryPhoto, error)
	// SetPhotos replaces a product's gallery with photos, in the order
	// given (their Position is ignored and renumbered 1, 2, 3...), and
	// makes the product's Image the first one's URL ("" for none) in the
	// same transaction. An unknown product is an ENOTFOUND; an empty or
	// repeated URL, or more than MaxGalleryPhotos, an EINVALID.
	SetPhotos(ctx context.Context, productID string, photos []GalleryPhoto) error
	// GalleryImage returns a stored variant of a product's photo at
	// position and that photo's current hash, or an ENOTFOUND (no such
	// photo, not stored yet, or no variant of that width and format).
	GalleryImage(ctx context.Context, productID string, position, width int, format string) ([]byte, string, error)
}
