package handlers

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"sync"

	"github.com/gofiber/fiber/v2"
	"github.com/klauspost/compress/flate"
)

// cssGzip compresses pages that carry the inline stylesheet without
// compressing the stylesheet again.
//
// An anonymous page is about 40 % stylesheet: the same 30 KB in every page.
// A page the page cache cannot answer (every listing URL a crawler walks
// through is new) would pay to compress it each time, which was half the
// CPU of such a request. Deflate allows a stream to be cut at a byte
// boundary (a sync flush) and carry on with blocks made elsewhere, so the
// stylesheet is compressed once, at the best level, when the server starts,
// and each page is the gzip stream: the page's head up to <style>, then
// those blocks, then the rest of the page, each part flushed to a byte
// boundary. Only the CRC-32 is computed over the whole page, which costs
// little next to compressing it.
//
// Every other HTML page is gzipped here too, in one call to the same pooled
// writer: fasthttp's compressor, which Fiber's middleware uses, hands each
// body to a worker goroutine and back, which made a signed-in listing's
// compression cost 50 µs instead of 38.
type cssGzip struct {
	marker  []byte // "<style>" + stylesheet + "</style>", as the layout writes it
	blocks  []byte // marker's deflate blocks, sync-flushed, not final
	writers sync.Pool
	buffers sync.Pool // *bytes.Buffer for the compressed page
}

// gzip header: magic, deflate, no flags, no mtime, no extra flags, OS unknown.
var gzipHeader = []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255}

// newCSSGzip compresses the stylesheet's element once.
func newCSSGzip(css string) (*cssGzip, error) {
	g := &cssGzip{marker: []byte("<style>" + css + "</style>")}
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		return nil, fmt.Errorf("stylesheet deflate writer: %w", err)
	}
	if _, err := w.Write(g.marker); err != nil {
		return nil, fmt.Errorf("compress stylesheet: %w", err)
	}
	// Flush, not Close: the blocks end at a byte boundary and are not
	// final, so the page's own blocks can follow them.
	if err := w.Flush(); err != nil {
		return nil, fmt.Errorf("compress stylesheet: %w", err)
	}
	g.blocks = buf.Bytes()
	g.buffers.New = func() any { return new(bytes.Buffer) }
	g.writers.New = func() any {
		w, _ := flate.NewWriter(nil, flate.BestSpeed) // BestSpeed is a valid level: no error
		return w
	}
	return g, nil
}

// minGzip is the smallest body worth compressing (fasthttp's threshold).
const minGzip = 200

// middleware gzips an HTML response for a client that accepts gzip. Anything
// else passes untouched to the general compressor, which leaves a response
// alone once it has a Content-Encoding.
func (g *cssGzip) middleware(c *fiber.Ctx) error {
	if err := c.Next(); err != nil {
		return err
	}
	resp := c.Response()
	if len(resp.Header.ContentEncoding()) > 0 || !c.Request().Header.HasAcceptEncoding("gzip") ||
		!bytes.HasPrefix(resp.Header.ContentType(), []byte(fiber.MIMETextHTML)) || len(resp.Body()) < minGzip {
		return nil
	}
	body := resp.Body()
	out := g.buffers.Get().(*bytes.Buffer)
	defer g.buffers.Put(out)
	out.Reset()
	g.compress(out, body, g.find(body))
	// A copy of exactly the compressed size (about a quarter of the page)
	// becomes the body, and the buffer with its headroom goes back to the
	// pool. (SetBody, which copies into the response's own buffer instead,
	// made BenchmarkUncachedListing 30 % slower, with 172 KB allocated a
	// request, somewhere in fasthttp's body buffers; not pursued.)
	resp.SetBodyRaw(bytes.Clone(out.Bytes()))
	resp.Header.Set(fiber.HeaderContentEncoding, "gzip")
	c.Vary(fiber.HeaderAcceptEncoding)
	return nil
}

// headScan is how far into a page find looks for the stylesheet: the layout
// writes it early in <head>, and a signed-in shopper's page, which links the
// stylesheet instead, should not pay for scanning its whole body (5 % of its
// CPU). A page whose stylesheet started later would still be served, by the
// general compressor.
const headScan = 4 << 10

// find returns where the stylesheet's element starts in body, or -1.
func (g *cssGzip) find(body []byte) int {
	at := bytes.Index(body[:min(len(body), headScan)], []byte("<style>"))
	if at < 0 || !bytes.HasPrefix(body[at:], g.marker) {
		return -1
	}
	return at
}

// compress writes to out the gzip stream of page, whose stylesheet element
// starts at at (-1: page has none).
func (g *cssGzip) compress(out *bytes.Buffer, page []byte, at int) {
	out.Write(gzipHeader)
	w := g.writers.Get().(*flate.Writer)
	defer g.writers.Put(w)
	// Writes to a bytes.Buffer cannot fail, so neither can the writer's.
	w.Reset(out)
	rest := page
	if at >= 0 {
		_, _ = w.Write(page[:at])
		_ = w.Flush()
		out.Write(g.blocks)
		// A new stream for the rest: it may not refer back to bytes the
		// stylesheet's blocks hold, and it does not, since it starts empty.
		w.Reset(out)
		rest = page[at+len(g.marker):]
	}
	_, _ = w.Write(rest)
	_ = w.Close()
	var trailer [8]byte
	binary.LittleEndian.PutUint32(trailer[:4], crc32.ChecksumIEEE(page))
	binary.LittleEndian.PutUint32(trailer[4:], uint32(len(page))) //nolint:gosec // ISIZE is the size mod 2^32 by definition
	out.Write(trailer[:])
}
