package shop

import (
	"context"
	"time"
)

// Photo is what the views need of an imported product's photo: the hash of
// its stored variants (for cache-busting URLs) and the original's size (for
// the aspect ratio and which widths exist). A zero Photo means the product
// has no stored photo: it shows its category's built-in illustration.
type Photo struct {
	Hash          string
	Width, Height int
}

// PhotoWidths are the widths, in pixels, of the variants made of each
// imported photo: enough steps that a 375 px phone and a 2× laptop both
// find one close to what they draw.
var PhotoWidths = []int{160, 320, 480, 640, 960}

// Photo variant formats, as the file extension in their URL.
const (
	PhotoWebP = "webp"
	PhotoJPEG = "jpg"
)

// Ready reports whether the photo's variants are stored.
func (p Photo) Ready() bool { return p.Hash != "" && p.Width > 0 && p.Height > 0 }

// Widths lists the variant widths stored for the photo, smallest first:
// every PhotoWidths step narrower than the original, plus the original's
// own width when it is narrower than the widest step (photos are never
// enlarged).
func (p Photo) Widths() []int {
	if p.Width <= 0 {
		return nil
	}
	var out []int
	for _, w := range PhotoWidths {
		if w <= p.Width {
			out = append(out, w)
		}
	}
	if last := PhotoWidths[len(PhotoWidths)-1]; p.Width < last && (len(out) == 0 || out[len(out)-1] < p.Width) {
		out = append(out, p.Width)
	}
	return out
}

// HeightAt is the height of the variant w pixels wide, keeping the
// original's proportions.
func (p Photo) HeightAt(w int) int {
	if p.Width <= 0 {
		return 0
	}
	return max(1, (w*p.Height+p.Width/2)/p.Width)
}

// HasWidth reports whether a variant w pixels wide is stored.
func (p Photo) HasWidth(w int) bool {
	for _, x := range p.Widths() {
		if x == w {
			return true
		}
	}
	return false
}

// ImageRecord is what the store keeps of one imported image URL besides its
// variants: what the last successful fetch found (Hash "" when none has
// succeeded) and what the next fetch sends to skip an unchanged image.
type ImageRecord struct {
	URL           string
	Hash          string
	Width, Height int
	ETag          string
	LastModified  string
	// Error is why the last fetch failed; "" after a success.
	Error     string
	CheckedAt time.Time
}

// Photo is the record as the views see it.
func (r ImageRecord) Photo() Photo {
	return Photo{Hash: r.Hash, Width: r.Width, Height: r.Height}
}

// ImageVariant is one stored, resized copy of an image.
type ImageVariant struct {
	Width  int
	Format string // PhotoWebP or PhotoJPEG
	Data   []byte
}

// ImageStore keeps imported images and their variants, shared by every
// instance of the shop.
type ImageStore interface {
	// ImageRecords returns the records of those urls that have one.
	ImageRecords(ctx context.Context, urls []string) (map[string]ImageRecord, error)
	// SaveImage stores rec. With variants, they replace the url's stored
	// variants; without (a failed or unchanged fetch), the stored ones stay.
	SaveImage(ctx context.Context, rec ImageRecord, variants []ImageVariant) error
	// ProductImage returns a stored variant of a product's photo and the
	// photo's current hash, or an ENOTFOUND.
	ProductImage(ctx context.Context, productID string, width int, format string) ([]byte, string, error)
	// PruneImages deletes the images (and variants) no product names: as
	// its image, a photo of its gallery or a variant's image.
	PruneImages(ctx context.Context) (int64, error)
	// PhotosChanged bumps the catalogue version (see CatalogVersion):
	// products' photos are part of the catalogue servers hold in memory.
	PhotosChanged(ctx context.Context) error
}
