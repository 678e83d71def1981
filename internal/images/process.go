package images

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // source formats image.Decode understands
	"image/jpeg"
	_ "image/png"
	"net/http"
	"runtime"
	"slices"
	"strconv"

	"github.com/gen2brain/webp" // registers the WebP decoder too

	"github.com/nocturne/storefront/internal/shop"
)

// Decoding limits. Decoding allocates up to 4 bytes per pixel (a PNG's
// RGBA; a JPEG's YCbCr is 1.5 to 3), so the pixel count, not the file size
// (a 50 kB PNG can claim 10000×5000), is what bounds memory. 40 megapixels
// is above any product photo a shop shows; IMAGE_MAX_PIXELS changes it.
const (
	DefaultMaxPixels = 40_000_000
	maxDimension     = 20_000
	// collectAbove is the photo size (pixels) from which process collects
	// the decoded photo before encoding (16 MB of RGBA).
	collectAbove = 4_000_000
	webpQuality  = 70
	// webpDenseQuality is the WebP quality from denseWidth up. Those
	// variants are mostly seen on screens of 2 or 3 device pixels per CSS
	// pixel (a phone's card at 92vw picks 640 px; a retina laptop's grid,
	// too), where quality 60's artefacts are smaller than a CSS pixel. With
	// four real photos (one a detailed circuit board), a 375 px phone's
	// first screen of /products went from 102.2 to 91.5 KB (the page-weight
	// budget is 100 KB).
	webpDenseQuality = 60
	denseWidth       = 640
	// webpMethod 4 (libwebp's default) makes files ~16% smaller than the
	// method 0 an Options literal would otherwise ask for; 6 saves ~3% more
	// for more time. Paid once per photo, at import.
	webpMethod  = 4
	jpegQuality = 78
)

// ErrNotImage is the error for bytes that are not a supported image.
var ErrNotImage = errors.New("not a JPEG, PNG, GIF or WebP image")

// ErrTooManyPixels matches the error for an image whose header claims more
// pixels (or a longer side) than we decode.
var ErrTooManyPixels = errors.New("too many pixels")

// tooManyPixels is that error, with the sizes for the message.
type tooManyPixels struct{ width, height, max int }

func (e *tooManyPixels) Error() string {
	return fmt.Sprintf("image of %d×%d pixels is over the %s megapixel limit", e.width, e.height, megapixels(e.max))
}

func (e *tooManyPixels) Is(target error) bool { return target == ErrTooManyPixels }

// sourceTypes are the sniffed content types we decode.
var sourceTypes = []string{"image/jpeg", "image/png", "image/gif", "image/webp"}

// processed is a decoded image's size and its variants.
type processed struct {
	Photo    shop.Photo // without Hash
	Variants []shop.ImageVariant
}

// check sniffs body and reads its header: the content type a server
// claims is ignored, the bytes decide, and an image over maxPixels (or
// maxDimension a side) is refused before a pixel is decoded.
func check(body []byte, maxPixels int) error {
	if ct := http.DetectContentType(body); !slices.Contains(sourceTypes, ct) {
		return fmt.Errorf("%w (the bytes look like %s)", ErrNotImage, ct)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotImage, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > maxDimension || cfg.Height > maxDimension ||
		cfg.Width*cfg.Height > maxPixels {
		return &tooManyPixels{cfg.Width, cfg.Height, maxPixels}
	}
	return nil
}

// megapixels formats n pixels in millions: 40, 2.5.
func megapixels(n int) string { return strconv.FormatFloat(float64(n)/1e6, 'f', -1, 64) }

// process checks and decodes body, then makes every variant: each of the
// photo's widths as WebP and as JPEG.
func process(body []byte, maxPixels int) (processed, error) {
	if err := check(body, maxPixels); err != nil {
		return processed{}, err
	}
	src, _, err := image.Decode(bytes.NewReader(body))
	if err != nil {
		return processed{}, fmt.Errorf("decode image: %w", err)
	}
	b := src.Bounds()
	o := jpegOrientation(body)
	out := processed{Photo: shop.Photo{Width: b.Dx(), Height: b.Dy()}}
	if swapsSides(o) {
		out.Photo.Width, out.Photo.Height = b.Dy(), b.Dx()
	}
	widths := out.Photo.Widths()
	// Each width is scaled from the original: scaling from the next wider
	// variant compounds Catmull-Rom's sharpening, which costs bytes. All are
	// scaled in one pass, so the decoded photo can go before encoding.
	// Small variants are turned upright after scaling, which is cheaper
	// than turning the original.
	sizes := make([]image.Point, len(widths))
	for i, w := range widths {
		sizes[i] = image.Pt(w, out.Photo.HeightAt(w))
		if swapsSides(o) {
			sizes[i] = image.Pt(sizes[i].Y, sizes[i].X)
		}
	}
	scaled := scaleAll(src, sizes)
	// The decoded photo is the biggest buffer by far, and now garbage. The
	// collector would let the heap grow to twice what was live (the photo)
	// before reusing it, and the WebP encoder allocates tens of MB: collect
	// it now, so the encoders reuse its memory. A few milliseconds, paid
	// only for big photos.
	src = nil
	if b.Dx()*b.Dy() >= collectAbove {
		runtime.GC()
	}
	for i := len(scaled) - 1; i >= 0; i-- {
		dst := orient(scaled[i], o)
		scaled[i] = nil
		w := dst.Bounds().Dx()
		var wb, jb bytes.Buffer
		q := webpQuality
		if w >= denseWidth {
			q = webpDenseQuality
		}
		if err := webp.Encode(&wb, dst, webp.Options{Quality: q, Method: webpMethod}); err != nil {
			return processed{}, fmt.Errorf("encode WebP: %w", err)
		}
		if err := jpeg.Encode(&jb, dst, &jpeg.Options{Quality: jpegQuality}); err != nil {
			return processed{}, fmt.Errorf("encode JPEG: %w", err)
		}
		out.Variants = append(out.Variants,
			shop.ImageVariant{Width: w, Format: shop.PhotoWebP, Data: wb.Bytes()},
			shop.ImageVariant{Width: w, Format: shop.PhotoJPEG, Data: jb.Bytes()})
	}
	return out, nil
}
