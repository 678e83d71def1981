// Package imagestest makes real image bytes and serves them from a loopback
// server, for tests of the image pipeline and of the pages that show it.
package imagestest

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
)

// Photo draws a w×h picture with gradients and detail, so encoders have
// something photo-like to compress.
func Photo(w, h int) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			// A lit object on a pale backdrop, with fine texture.
			dx, dy := float64(x-w/2)/float64(w), float64(y-h/2)/float64(h)
			d := dx*dx + dy*dy
			v := uint8(235 - min(200, int(d*600)))
			tex := uint8((x*7 + y*13) % 17)
			m.Set(x, y, color.RGBA{R: v - tex, G: uint8(180-min(150, int(d*400))) + tex, B: uint8(120 + (x*y)%60), A: 255})
		}
	}
	return m
}

// JPEG encodes a w×h photo as JPEG.
func JPEG(tb testing.TB, w, h int) []byte {
	tb.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, Photo(w, h), &jpeg.Options{Quality: 85}); err != nil {
		tb.Fatal(err)
	}
	return b.Bytes()
}

// PNG encodes a w×h photo as PNG.
func PNG(tb testing.TB, w, h int) []byte {
	tb.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, Photo(w, h)); err != nil {
		tb.Fatal(err)
	}
	return b.Bytes()
}

// Gradient draws a smooth w×h picture: as a PNG it compresses to a few
// kilobytes per megapixel, as the small files that claim many pixels do.
func Gradient(w, h int) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			i := m.PixOffset(x, y)
			m.Pix[i], m.Pix[i+1], m.Pix[i+2], m.Pix[i+3] = uint8(x*255/w), uint8(y*255/h), 128, 255
		}
	}
	return m
}

// GradientPNG encodes a w×h Gradient as PNG: 8-bit RGB, as png.Encode
// writes an opaque picture, so it decodes to the same pixels. The rows are
// written as they are made, each after the first as its difference from
// the row above (PNG's Up filter: only green changes), without the whole
// picture in memory or trying every filter on every row: a 24-megapixel
// one in a fraction of the time png.Encode takes.
func GradientPNG(tb testing.TB, w, h int) []byte {
	tb.Helper()
	var idat bytes.Buffer
	z, _ := zlib.NewWriterLevel(&idat, zlib.BestSpeed)
	row := make([]byte, 1+3*w)
	for y := range h {
		g := uint8(y * 255 / h)
		if y == 0 {
			row[0] = 0 // None: the pixels themselves
			for x := range w {
				row[1+3*x], row[2+3*x], row[3+3*x] = uint8(x*255/w), g, 128
			}
		} else {
			row[0] = 2 // Up: only green changes from the row above
			dg := g - uint8((y-1)*255/h)
			for x := range w {
				row[1+3*x], row[2+3*x], row[3+3*x] = 0, dg, 0
			}
		}
		if _, err := z.Write(row); err != nil {
			tb.Fatal(err)
		}
	}
	if err := z.Close(); err != nil {
		tb.Fatal(err)
	}
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 2 // 8-bit RGB
	writeChunk(&b, "IHDR", ihdr)
	writeChunk(&b, "IDAT", idat.Bytes())
	writeChunk(&b, "IEND", nil)
	return b.Bytes()
}

// writeChunk appends one PNG chunk: length, type, data and CRC.
func writeChunk(b *bytes.Buffer, typ string, data []byte) {
	binary.Write(b, binary.BigEndian, uint32(len(data)))
	crc := crc32.NewIEEE()
	crc.Write([]byte(typ))
	crc.Write(data)
	b.WriteString(typ)
	b.Write(data)
	binary.Write(b, binary.BigEndian, crc.Sum32())
}

// PNGHeader is the start of a PNG that claims to be w×h: a valid signature
// and IHDR chunk and nothing else, which is all a decompression bomb needs
// to show before its (tiny, highly compressed) pixel data.
func PNGHeader(w, h int) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 2 // 8-bit RGB
	chunk := append([]byte("IHDR"), ihdr...)
	binary.Write(&b, binary.BigEndian, uint32(len(ihdr)))
	b.Write(chunk)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

// File is one response of a Server.
type File struct {
	ContentType string
	Body        []byte
	// Handler, when set, answers instead (redirects, slow servers).
	Handler http.HandlerFunc
}

// Server serves Files by path on loopback, with an ETag per file, and
// counts the requests and the full bodies sent.
type Server struct {
	*httptest.Server
	mu     sync.Mutex
	files  map[string]File
	hits   map[string]int
	bodies map[string]int
}

// NewServer starts a Server; it stops when the test ends.
func NewServer(tb testing.TB, files map[string]File) *Server {
	s := &Server{files: files, hits: map[string]int{}, bodies: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	tb.Cleanup(s.Close)
	return s
}

// Set replaces (or adds) the file at path.
func (s *Server) Set(path string, f File) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files[path] = f
}

// Hits is how many requests path got; Bodies how many got the full body.
func (s *Server) Hits(path string) (hits, bodies int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path], s.bodies[path]
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	f, ok := s.files[r.URL.Path]
	s.hits[r.URL.Path]++
	s.mu.Unlock()
	switch {
	case !ok:
		http.NotFound(w, r)
		return
	case f.Handler != nil:
		f.Handler(w, r)
		return
	}
	etag := `"` + strconv.FormatUint(uint64(crc32.ChecksumIEEE(f.Body)), 16) + `"`
	w.Header().Set("ETag", etag)
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	s.mu.Lock()
	s.bodies[r.URL.Path]++
	s.mu.Unlock()
	w.Header().Set("Content-Type", f.ContentType)
	w.Write(f.Body)
}
