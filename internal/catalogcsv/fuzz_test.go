package catalogcsv_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/nocturne/storefront/internal/catalogcsv"
)

// FuzzRead checks that Read never panics, that Write takes whatever Read
// accepted, and that the export then reads back without problems and
// writes the same bytes again.
func FuzzRead(f *testing.F) {
	if b, err := os.ReadFile("testdata/products.csv"); err == nil {
		f.Add(b)
	}
	const head = "Handle,Title,Body (HTML),Option1 Name,Option1 Value,Option2 Name,Option2 Value,Variant Price,Variant Compare At Price,Variant Inventory Qty,Image Src,Image Position,Image Alt Text,Variant Image,Tags,Status,Published\n"
	for _, rows := range []string{
		"p,P,<p>x</p>,Title,Default Title,,,5,,,,,,,,,\n",
		"p,P,\"<a href=\"\"https://x.test\"\">a</a>\r\n<script>1</script>\",Size,S,Colour,Red,1.50,2,3,http://127.0.0.1:9/a.jpg,2,A,http://127.0.0.1:9/a.jpg,\"a, b\",draft,true\np,,,,M,,Red,1,,,http://127.0.0.1:9/b.jpg,,,,,,\n",
		"p,P,,Size,S,,,5,,,,,,,,,\np,,,,S,,,5,,,,,,,,,\nq,,,,x,,,5,,,,,,,,,\n",
		"p,\"P\r\rQ\",\" \",,,,,\"$1,000\",0,-4,,,,,\" , ,\",ACTIVE,FALSE\n",
	} {
		f.Add([]byte(head + rows))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		products, _, err := catalogcsv.Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		var first bytes.Buffer
		if err := catalogcsv.Write(&first, products); err != nil {
			t.Fatalf("Write refused what Read accepted: %v\n%+v", err, products)
		}
		again, problems, err := catalogcsv.Read(bytes.NewReader(first.Bytes()))
		if err != nil || len(problems) > 0 {
			t.Fatalf("the export does not read back: %v %v\n%s", err, problems, first.Bytes())
		}
		var second bytes.Buffer
		if err := catalogcsv.Write(&second, again); err != nil {
			t.Fatalf("second Write: %v", err)
		}
		if !bytes.Equal(first.Bytes(), second.Bytes()) {
			t.Fatalf("Write(Read(Write(x))) != Write(x):\n%q\n%q", first.Bytes(), second.Bytes())
		}
	})
}

// FuzzSanitizeBody checks the sanitiser is stable: a body written after
// sanitising must read back unchanged, or round trips would drift.
func FuzzSanitizeBody(f *testing.F) {
	for _, s := range []string{
		`<p onclick="x">a &amp; b</p><script>1</script>`,
		`<a href="https://x.test/?a=1&b=2" rel="x">l</a><a href="mailto:a@b.test">m</a>`,
		"<ul><li>a<li>b</ul>\r\n<h2>t</h2><br/><table><tr><td>x</td></tr></table>",
		`<a href="javascript:1">j</a><img src=x onerror=1><iframe>i</iframe>`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		once := catalogcsv.SanitizeBody(s)
		if twice := catalogcsv.SanitizeBody(once); twice != once {
			t.Fatalf("SanitizeBody(%q) = %q, but sanitising that gives %q", s, once, twice)
		}
	})
}
