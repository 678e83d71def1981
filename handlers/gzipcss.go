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
type cssGzip struct {
	marker  []byte // "<style>" + stylesheet + "</style>", as the layout writes it
	blocks  []byte // marker's deflate blocks, sync-flushed, not final
	writers sync.Pool
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
	g.writers.New = func() any {
		w, _ := flate.NewWriter(nil, flate.BestSpeed) // BestSpeed is a valid level: no error
		return w
	}
	return g, nil
}

// middleware gzips an HTML response that holds the stylesheet, for a client
// that accepts gzip. Anything else passes untouched to the general
// compressor, which leaves a response alone once it has a Content-Encoding.
func (g *cssGzip) middleware(c *fiber.Ctx) error {
	if err := c.Next(); err != nil {
		return err
	}
	resp := c.Response()
	if len(resp.Header.ContentEncoding()) > 0 || !c.Request().Header.HasAcceptEncoding("gzip") ||
		!bytes.HasPrefix(resp.Header.ContentType(), []byte(fiber.MIMETextHTML)) {
		return nil
	}
	body := resp.Body()
	at := g.find(body)
	if at < 0 {
		return nil
	}
	resp.SetBodyRaw(g.compress(make([]byte, 0, len(body)/4+len(g.blocks)+64), body, at))
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

// compress appends to dst the gzip stream of page, whose stylesheet element
// starts at at.
func (g *cssGzip) compress(dst, page []byte, at int) []byte {
	out := bytes.NewBuffer(dst)
	out.Write(gzipHeader)
	w := g.writers.Get().(*flate.Writer)
	defer g.writers.Put(w)
	// Writes to a bytes.Buffer cannot fail, so neither can the writer's.
	w.Reset(out)
	_, _ = w.Write(page[:at])
	_ = w.Flush()
	out.Write(g.blocks)
	// A new stream for the rest: it may not refer back to bytes the
	// stylesheet's blocks hold, and it does not, since it starts empty.
	w.Reset(out)
	_, _ = w.Write(page[at+len(g.marker):])
	_ = w.Close()
	var trailer [8]byte
	binary.LittleEndian.PutUint32(trailer[:4], crc32.ChecksumIEEE(page))
	binary.LittleEndian.PutUint32(trailer[4:], uint32(len(page))) //nolint:gosec // ISIZE is the size mod 2^32 by definition
	out.Write(trailer[:])
	return out.Bytes()
}
