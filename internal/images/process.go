package images

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	_ "image/gif" // source formats image.Decode understands
	"image/jpeg"
	_ "image/png"
	"net/http"
	"slices"

	"github.com/gen2brain/webp" // registers the WebP decoder too
	xdraw "golang.org/x/image/draw"

	"github.com/nocturne/storefront/internal/shop"
)

// Decoding limits. Decoding allocates about 4 bytes per pixel, so the pixel
// cap (not the file size: a 50 kB PNG can claim 10000×5000) is what bounds
// memory; 24 megapixels is above any product photo a shop shows.
const (
	MaxPixels    = 24_000_000
	maxDimension = 20_000
	webpQuality  = 70
	// webpDenseQuality is the WebP quality from denseWidth up. Those
	// variants are mostly seen on screens of 2 or 3 device pixels per CSS
	// pixel (a phone's card at 92vw picks 640 px; a retina laptop's grid,
	// too), where quality 60's artefacts are smaller than a CSS pixel. With
	// four real photos (one a detailed circuit board), a 375 px phone's
	// first screen of /products went from 102.2 to 91.5 KB (issue 15's budget is
	// 100 KB).
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

// sourceTypes are the sniffed content types we decode.
var sourceTypes = []string{"image/jpeg", "image/png", "image/gif", "image/webp"}

// processed is a decoded image's size and its variants.
type processed struct {
	Photo    shop.Photo // without Hash
	Variants []shop.ImageVariant
}

// process sniffs, checks and decodes body, then makes every variant: each
// of the photo's widths as WebP and as JPEG. The content type a server
// claims is ignored; the bytes decide.
func process(body []byte) (processed, error) {
	if ct := http.DetectContentType(body); !slices.Contains(sourceTypes, ct) {
		return processed{}, fmt.Errorf("%w (the bytes look like %s)", ErrNotImage, ct)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(body))
	if err != nil {
		return processed{}, fmt.Errorf("%w: %v", ErrNotImage, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > maxDimension || cfg.Height > maxDimension ||
		cfg.Width*cfg.Height > MaxPixels {
		return processed{}, fmt.Errorf("image of %d×%d pixels is over the %d megapixel limit", cfg.Width, cfg.Height, MaxPixels/1_000_000)
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
	// variant compounds Catmull-Rom's sharpening, which costs bytes. Small
	// variants are turned upright after scaling, which is cheaper than
	// turning the original.
	for i := len(widths) - 1; i >= 0; i-- {
		w, h := widths[i], out.Photo.HeightAt(widths[i])
		if swapsSides(o) {
			w, h = h, w
		}
		dst := orient(resize(src, w, h), o)
		w = dst.Bounds().Dx()
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

// resize scales src to w×h onto white, so transparent PNGs look the same
// in JPEG (which has no alpha) and WebP, on the shop's light photo tiles.
func resize(src image.Image, w, h int) *image.RGBA {
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	xdraw.Draw(dst, dst.Bounds(), image.NewUniform(color.White), image.Point{}, xdraw.Src)
	xdraw.CatmullRom.Scale(dst, dst.Bounds(), src, src.Bounds(), xdraw.Over, nil)
	return dst
}
