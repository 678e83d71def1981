package handlers

import (
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"testing"
)

// The spliced stream is ordinary gzip: any reader gets the page back, with
// the checksum and size it checks, wherever the stylesheet sits.
func TestCSSGzip_DecodesToThePage(t *testing.T) {
	t.Parallel()
	css := strings.Repeat("body{color:#eee;background:#0b0b10}.card{padding:1rem}", 200)
	g, err := newCSSGzip(css)
	if err != nil {
		t.Fatal(err)
	}
	style := "<style>" + css + "</style>"
	for _, tt := range []struct{ name, page string }{
		{"middle", "<!doctype html><head><title>x</title>" + style + "</head><body>" + strings.Repeat("<li>lamp</li>", 500) + "</body>"},
		{"first", style + "<p>after</p>"},
		{"last", "<p>before</p>" + style},
		{"alone", style},
		{"none", "<!doctype html><head><link rel=stylesheet href=/a.css></head><body>" + strings.Repeat("<li>lamp</li>", 500) + "</body>"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			page := []byte(tt.page)
			at := g.find(page)
			if (at < 0) != (tt.name == "none") {
				t.Fatalf("stylesheet found at %d", at)
			}
			var zb bytes.Buffer
			g.compress(&zb, page, at)
			z := zb.Bytes()
			zr, err := gzip.NewReader(bytes.NewReader(z))
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(zr) // checks CRC-32 and size at the end
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if !bytes.Equal(got, page) {
				t.Fatalf("decoded %d bytes, want the %d-byte page", len(got), len(page))
			}
			if len(z) >= len(page)/2 {
				t.Errorf("compressed to %d of %d bytes", len(z), len(page))
			}
		})
	}
	if g.find([]byte("<style>other</style>")) >= 0 {
		t.Error("another style element taken for the stylesheet")
	}
}
