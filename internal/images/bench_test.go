package images

import (
	"testing"

	"github.com/nocturne/storefront/internal/images/imagestest"
)

// BenchmarkProcess is the import-time cost of one typical catalogue photo
// (1200×900 JPEG): decode, five widths, WebP and JPEG each.
func BenchmarkProcess(b *testing.B) {
	src := imagestest.JPEG(b, 1200, 900)
	if _, err := process(src, DefaultMaxPixels); err != nil { // outside the loop: the WebP encoder compiles on first use
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := process(src, DefaultMaxPixels); err != nil {
			b.Fatal(err)
		}
	}
}
