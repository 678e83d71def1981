package images

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/jpeg"
	"testing"

	"github.com/nocturne/storefront/internal/shop"
)

// withOrientation puts an EXIF block with the given orientation right after
// a JPEG's start marker, as a phone camera writes it.
func withOrientation(t *testing.T, jpg []byte, o uint16) []byte {
	t.Helper()
	tiff := []byte("MM\x00\x2a\x00\x00\x00\x08")
	tiff = binary.BigEndian.AppendUint16(tiff, 1)      // one IFD entry
	tiff = binary.BigEndian.AppendUint16(tiff, 0x0112) // Orientation
	tiff = binary.BigEndian.AppendUint16(tiff, 3)      // SHORT
	tiff = binary.BigEndian.AppendUint32(tiff, 1)      // one value
	tiff = append(binary.BigEndian.AppendUint16(tiff, o), 0, 0)
	tiff = binary.BigEndian.AppendUint32(tiff, 0) // no next IFD
	payload := append([]byte("Exif\x00\x00"), tiff...)
	app1 := binary.BigEndian.AppendUint16([]byte{0xFF, 0xE1}, uint16(len(payload)+2))
	out := append([]byte{}, jpg[:2]...)
	out = append(append(out, app1...), payload...)
	return append(out, jpg[2:]...)
}

// A 300×200 photo, red in its stored top-left corner, blue elsewhere.
func cornerJPEG(t *testing.T) []byte {
	m := image.NewRGBA(image.Rect(0, 0, 300, 200))
	for y := range 200 {
		for x := range 300 {
			c := color.RGBA{0, 0, 255, 255}
			if x < 90 && y < 60 {
				c = color.RGBA{255, 0, 0, 255}
			}
			m.SetRGBA(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, m, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestProcess_TurnsPhotosUpright(t *testing.T) {
	t.Parallel()
	src := cornerJPEG(t)
	for _, tc := range []struct {
		orientation   uint16
		width, height int
		redX, redY    float64 // where the red corner shows, as a fraction
	}{
		{1, 300, 200, 0.05, 0.05},
		{3, 300, 200, 0.95, 0.95},
		{6, 200, 300, 0.95, 0.05}, // turned clockwise: top-left goes top-right
		{8, 200, 300, 0.05, 0.95},
	} {
		body := withOrientation(t, src, tc.orientation)
		if got := jpegOrientation(body); got != int(tc.orientation) {
			t.Fatalf("orientation %d read as %d", tc.orientation, got)
		}
		p, err := process(body, DefaultMaxPixels)
		if err != nil {
			t.Fatal(err)
		}
		if p.Photo.Width != tc.width || p.Photo.Height != tc.height {
			t.Errorf("orientation %d: photo %dx%d, want %dx%d", tc.orientation, p.Photo.Width, p.Photo.Height, tc.width, tc.height)
		}
		for _, v := range p.Variants {
			if v.Format != shop.PhotoJPEG || v.Width != 160 {
				continue
			}
			m, err := jpeg.Decode(bytes.NewReader(v.Data))
			if err != nil {
				t.Fatal(err)
			}
			b := m.Bounds()
			if b.Dx() != 160 || b.Dy() != p.Photo.HeightAt(160) {
				t.Errorf("orientation %d: variant %v", tc.orientation, b)
			}
			r, _, bl, _ := m.At(int(tc.redX*float64(b.Dx())), int(tc.redY*float64(b.Dy()))).RGBA()
			if r < 0xc000 || bl > 0x4000 {
				t.Errorf("orientation %d: the red corner is not at (%.2f, %.2f)", tc.orientation, tc.redX, tc.redY)
			}
		}
	}
	if got := jpegOrientation(src); got != 1 {
		t.Errorf("no EXIF: orientation %d", got)
	}
	if got := jpegOrientation([]byte("\xff\xd8\xff\xe1\x00")); got != 1 {
		t.Errorf("truncated EXIF: orientation %d", got)
	}
}
