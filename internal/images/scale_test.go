package images

import (
	"bytes"
	"image"
	"image/color"
	"image/color/palette"
	"image/jpeg"
	"testing"

	xdraw "golang.org/x/image/draw"

	"github.com/nocturne/storefront/internal/images/imagestest"
)

// The streaming scaler makes the same variants as x/image/draw's
// Catmull-Rom onto white (what the shop used before), from every kind of
// image the decoders return, so photos look as they did.
func TestScaleAllMatchesXDraw(t *testing.T) {
	t.Parallel()
	photo := imagestest.Photo(301, 207)
	nrgba := image.NewNRGBA(photo.Bounds())
	gray := image.NewGray(photo.Bounds())
	paletted := image.NewPaletted(photo.Bounds(), palette.WebSafe)
	rgba64 := image.NewRGBA64(photo.Bounds())
	for y := range 207 {
		for x := range 301 {
			c := photo.RGBAAt(x, y)
			nrgba.SetNRGBA(x, y, color.NRGBA{c.R, c.G, c.B, uint8(x * 255 / 300)}) // transparent on the left
			gray.SetGray(x, y, color.Gray{c.G})
			paletted.Set(x, y, c)
			rgba64.Set(x, y, c)
		}
	}
	ycbcr, err := jpeg.Decode(bytes.NewReader(imagestest.JPEG(t, 301, 207)))
	if err != nil {
		t.Fatal(err)
	}
	sub := func(m image.Image) image.Image {
		return m.(interface {
			SubImage(image.Rectangle) image.Image
		}).SubImage(image.Rect(3, 5, 290, 200))
	}
	sizes := []image.Point{{160, 110}, {97, 50}, {301, 207}, {1, 1}}
	for name, src := range map[string]image.Image{
		"RGBA": photo, "NRGBA": nrgba, "Gray": gray, "Paletted": paletted, "RGBA64": rgba64, "YCbCr": ycbcr,
		"RGBA sub-image": sub(photo), "YCbCr sub-image": sub(ycbcr),
	} {
		t.Run(name, func(t *testing.T) {
			got := scaleAll(src, sizes)
			for i, sz := range sizes {
				want := image.NewRGBA(image.Rectangle{Max: sz})
				xdraw.Draw(want, want.Bounds(), image.NewUniform(color.White), image.Point{}, xdraw.Src)
				xdraw.CatmullRom.Scale(want, want.Bounds(), src, src.Bounds(), xdraw.Over, nil)
				if got[i].Bounds() != want.Bounds() {
					t.Fatalf("%v: bounds %v, want %v", sz, got[i].Bounds(), want.Bounds())
				}
				most := 0
				for k := range want.Pix {
					most = max(most, abs(int(got[i].Pix[k])-int(want.Pix[k])))
				}
				if most > 1 {
					t.Errorf("%v: a channel differs by %d from x/image/draw's, want at most 1", sz, most)
				}
			}
		})
	}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
