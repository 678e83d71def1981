package imagestest_test

import (
	"bytes"
	"image"
	"image/png"
	"testing"

	"github.com/nocturne/storefront/internal/images/imagestest"
)

// GradientPNG writes its PNG by hand: it decodes, with png.Decode, to
// exactly the pixels of Gradient.
func TestGradientPNG_DecodesToGradient(t *testing.T) {
	t.Parallel()
	for _, sz := range []image.Point{{1, 1}, {7, 3}, {300, 200}} {
		m, err := png.Decode(bytes.NewReader(imagestest.GradientPNG(t, sz.X, sz.Y)))
		if err != nil {
			t.Fatalf("%v: %v", sz, err)
		}
		got, ok := m.(*image.RGBA)
		if !ok {
			t.Fatalf("%v: decoded as %T, want *image.RGBA (as png.Encode's opaque RGB)", sz, m)
		}
		want := imagestest.Gradient(sz.X, sz.Y)
		if got.Bounds() != want.Bounds() || !bytes.Equal(got.Pix, want.Pix) {
			t.Errorf("%v: pixels differ from Gradient", sz)
		}
	}
}
