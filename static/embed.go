// Package static owns the shop's browser assets: the stylesheet, images and
// the island bundles that esbuild writes to dist/. In production they are
// embedded in the binary and served under content-hashed names so browsers
// may cache them forever; in development they are read from disk on every
// request so edits show up on reload.
package static

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"path"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
	"github.com/tdewolff/minify/v2/css"
)

// Embedded is the production copy of the assets. dist/ always holds at least
// its README, so the package compiles on a fresh clone before any build.
//
//go:embed css img dist
var Embedded embed.FS

// Prefix is where assets are served.
const Prefix = "/static/"

// Asset is one file, ready to serve: its bytes and compressed variants,
// made on first use and kept, so no later request pays for compression.
type Asset struct {
	ContentType string
	Body        []byte

	once   sync.Once
	gzip   []byte
	brotli []byte
}

// Set is an immutable snapshot of the assets: logical names to URLs, and URLs
// to contents.
type Set struct {
	urls   map[string]string // "css/app.css" -> "/static/css/app.1a2b3c4d.css"
	assets map[string]*Asset // "/static/css/app.1a2b3c4d.css" -> asset
	entry  string            // URL of the islands entry script, "" if not built
}

// Load reads every file of fsys. Files under dist/ already carry esbuild's
// content hash (and import each other by those names), so they keep them;
// every other file gets a hash of its content inserted before the extension.
func Load(fsys fs.FS) (*Set, error) {
	s := &Set{urls: map[string]string{}, assets: map[string]*Asset{}}
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(name, ".go") || strings.HasSuffix(name, ".md") {
			return err
		}
		body, err := fs.ReadFile(fsys, name)
		if err != nil {
			return fmt.Errorf("read asset %s: %w", name, err)
		}
		if path.Ext(name) == ".css" {
			if body, err = minifyCSS(body); err != nil {
				return fmt.Errorf("minify %s: %w", name, err)
			}
		}
		url := Prefix + name
		if !strings.HasPrefix(name, "dist/") {
			sum := sha256.Sum256(body)
			ext := path.Ext(name)
			url = Prefix + strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:])[:10] + ext
		}
		ct := mime.TypeByExtension(path.Ext(name))
		if ct == "" {
			ct = "application/octet-stream"
		}
		s.urls[name] = url
		s.assets[url] = &Asset{ContentType: ct, Body: body}
		return nil
	})
	if err != nil {
		return nil, err
	}
	manifest, err := fs.ReadFile(fsys, "dist/manifest.json")
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil // islands not built: pages still work, without enhancement
	} else if err != nil {
		return nil, fmt.Errorf("read island manifest: %w", err)
	}
	var m struct{ Entry string }
	if err := json.Unmarshal(manifest, &m); err != nil {
		return nil, fmt.Errorf("parse island manifest: %w", err)
	}
	if _, ok := s.urls["dist/"+m.Entry]; m.Entry == "" || !ok {
		return nil, fmt.Errorf("island manifest names %q, which is not in dist/", m.Entry)
	}
	s.entry = s.urls["dist/"+m.Entry]
	return s, nil
}

// minifyCSS drops the stylesheet's comments and spaces. It is put inline in
// every anonymous page (a third of the page): minified, /products fits in a
// phone's first round trip (TCP's initial window, about 14 KB), where the
// commented source made it take two.
func minifyCSS(src []byte) ([]byte, error) {
	var out bytes.Buffer
	if err := css.Minify(nil, &out, bytes.NewReader(src), nil); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// Compressed returns the body encoded as "br" or "gzip" (whichever the client
// accepts, brotli first), or nil with "" when the client accepts neither or
// the type does not compress.
func (a *Asset) Compressed(acceptsBrotli, acceptsGzip bool) ([]byte, string) {
	if !compressible(a.ContentType) || (!acceptsBrotli && !acceptsGzip) {
		return nil, ""
	}
	a.once.Do(func() {
		var gz, br bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		zw.Write(a.Body) // writes to a bytes.Buffer cannot fail
		zw.Close()
		bw := brotli.NewWriterLevel(&br, 9)
		bw.Write(a.Body)
		bw.Close()
		a.gzip, a.brotli = gz.Bytes(), br.Bytes()
	})
	if acceptsBrotli {
		return a.brotli, "br"
	}
	return a.gzip, "gzip"
}

func compressible(ct string) bool {
	return strings.HasPrefix(ct, "text/") || strings.Contains(ct, "javascript") ||
		strings.Contains(ct, "json") || strings.Contains(ct, "svg")
}

// URL returns the hashed URL of a logical asset name such as "css/app.css",
// or "" when there is no such asset.
func (s *Set) URL(name string) string { return s.urls[name] }

// Entry returns the URL of the islands entry script, or "" when the islands
// have not been built.
func (s *Set) Entry() string { return s.entry }

// Lookup returns the asset served at url.
func (s *Set) Lookup(url string) (*Asset, bool) {
	a, ok := s.assets[url]
	return a, ok
}

// Source gives the current asset set: fixed for embedded assets, re-read from
// disk for development.
type Source interface {
	Current() (*Set, error)
}

// Fixed is a Source that never changes.
type Fixed struct{ Set *Set }

// Current returns the fixed set.
func (f Fixed) Current() (*Set, error) { return f.Set, nil }

// Disk re-reads a directory whenever asked, so a rebuilt bundle or an edited
// stylesheet is served on the next reload. Only for development.
type Disk struct {
	FS fs.FS
	mu sync.Mutex
}

// Current loads the directory afresh.
func (d *Disk) Current() (*Set, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return Load(d.FS)
}
