package static_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/nocturne/storefront/static"
)

func TestLoad(t *testing.T) {
	fsys := fstest.MapFS{
		"css/app.css":           {Data: []byte("body{}")},
		"dist/manifest.json":    {Data: []byte(`{"entry":"entry-AB12.js"}`)},
		"dist/entry-AB12.js":    {Data: []byte("import('./chunks/x-CD34.js')")},
		"dist/chunks/x-CD34.js": {Data: []byte("export{}")},
		"dist/README.md":        {Data: []byte("placeholder")},
	}
	set, err := static.Load(fsys)
	if err != nil {
		t.Fatal(err)
	}
	css := set.URL("css/app.css")
	if !strings.HasPrefix(css, "/static/css/app.") || !strings.HasSuffix(css, ".css") || css == "/static/css/app.css" {
		t.Errorf("css URL not hashed: %q", css)
	}
	if got := set.Entry(); got != "/static/dist/entry-AB12.js" {
		t.Errorf("entry: got %q", got)
	}
	if _, ok := set.Lookup("/static/dist/chunks/x-CD34.js"); !ok {
		t.Error("chunk not served under esbuild's name")
	}
	if _, ok := set.Lookup("/static/dist/README.md"); ok {
		t.Error("README served as an asset")
	}

	fsys["css/app.css"] = &fstest.MapFile{Data: []byte("body{color:red}")}
	set2, _ := static.Load(fsys)
	if set2.URL("css/app.css") == css {
		t.Error("changed content kept the same URL")
	}
}

func TestLoad_NotBuilt(t *testing.T) {
	set, err := static.Load(fstest.MapFS{"css/app.css": {Data: []byte("x")}})
	if err != nil {
		t.Fatal(err)
	}
	if set.Entry() != "" {
		t.Errorf("entry without a build: %q", set.Entry())
	}
}

func TestLoad_BadManifest(t *testing.T) {
	_, err := static.Load(fstest.MapFS{"dist/manifest.json": {Data: []byte(`{"entry":"gone.js"}`)}})
	if err == nil {
		t.Fatal("a manifest naming a missing file was accepted")
	}
}

func TestAsset_Compressed(t *testing.T) {
	set, _ := static.Load(fstest.MapFS{
		"css/app.css": {Data: []byte(strings.Repeat("a{color:red}", 100))},
		"img/x.png":   {Data: []byte("\x89PNG")},
	})
	a, _ := set.Lookup(set.URL("css/app.css"))
	if body, enc := a.Compressed(true, true); enc != "br" || len(body) >= len(a.Body) {
		t.Errorf("brotli: got %q, %d bytes of %d", enc, len(body), len(a.Body))
	}
	if _, enc := a.Compressed(false, true); enc != "gzip" {
		t.Errorf("gzip only: got %q", enc)
	}
	if body, enc := a.Compressed(false, false); body != nil || enc != "" {
		t.Errorf("identity: got %q", enc)
	}
	png, _ := set.Lookup(set.URL("img/x.png"))
	if body, _ := png.Compressed(true, true); body != nil {
		t.Error("compressed an image")
	}
}

// The stylesheet goes inline in every anonymous page, so it is served
// without its comments and indentation; what it says stays.
func TestLoad_MinifiesTheStylesheet(t *testing.T) {
	src := "/* The shop's colours. */\nbody {\n  color: #eeeeee;\n  background: #0b0b10;\n}\n\n.card > a:hover { text-decoration: underline; }\n"
	set, err := static.Load(fstest.MapFS{"css/app.css": {Data: []byte(src)}})
	if err != nil {
		t.Fatal(err)
	}
	asset, ok := set.Lookup(set.URL("css/app.css"))
	if !ok {
		t.Fatal("no stylesheet")
	}
	got := string(asset.Body)
	if strings.Contains(got, "colours") || strings.Contains(got, "\n") || len(got) >= len(src)*2/3 {
		t.Errorf("not minified: %q", got)
	}
	for _, want := range []string{"body{", "#0b0b10", ".card>a:hover{text-decoration:underline}"} {
		if !strings.Contains(got, want) {
			t.Errorf("minified stylesheet %q lacks %q", got, want)
		}
	}
}
