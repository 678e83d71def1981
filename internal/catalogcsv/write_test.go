package catalogcsv_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/nocturne/storefront/internal/catalogcsv"
	"github.com/nocturne/storefront/internal/shop"
)

// TestRoundTrip: the test file read, written, read and written again
// gives the same products and the same bytes.
func TestRoundTrip(t *testing.T) {
	products, problems, err := catalogcsv.Read(bytes.NewReader(readFile(t, "testdata/products.csv")))
	if err != nil || len(problems) > 0 {
		t.Fatalf("Read: %v %v", err, problems)
	}
	var first bytes.Buffer
	if err := catalogcsv.Write(&first, products); err != nil {
		t.Fatalf("Write: %v", err)
	}
	again, problems, err := catalogcsv.Read(bytes.NewReader(first.Bytes()))
	if err != nil || len(problems) > 0 {
		t.Fatalf("Read of the export: %v %v", err, problems)
	}
	// The lines are the export's, not the hand-made file's.
	if !reflect.DeepEqual(withoutLines(again), withoutLines(products)) {
		t.Errorf("the export read back differs:\n got %+v\nwant %+v", again, products)
	}
	var second bytes.Buffer
	if err := catalogcsv.Write(&second, again); err != nil {
		t.Fatalf("Write: %v", err)
	}
	if !bytes.Equal(first.Bytes(), second.Bytes()) {
		t.Errorf("export -> import -> export changed the file:\n%s\n---\n%s", first.Bytes(), second.Bytes())
	}
}

// withoutLines is products with the lines Read noted cleared, to compare
// what two files say whatever rows they said it on.
func withoutLines(products []catalogcsv.Product) []catalogcsv.Product {
	out := make([]catalogcsv.Product, len(products))
	for i, p := range products {
		p.Line = 0
		p.Variants = append([]catalogcsv.Variant(nil), p.Variants...)
		for j := range p.Variants {
			p.Variants[j].Line = 0
		}
		out[i] = p
	}
	return out
}

// TestWriteLayout pins the layout: the first row carries the product, the
// first variant and the first image; later variant rows carry the next
// images; leftover images get rows of their own; a product without
// options is written as Title / Default Title.
func TestWriteLayout(t *testing.T) {
	products := []catalogcsv.Product{
		{
			Handle: " tee ", Title: "Tee", BodyHTML: `<p onclick="x()">Soft</p><img src="http://127.0.0.1:9/x.jpg">`,
			Vendor: "Nocturne", Type: "Shirts", Tags: []string{"cotton", " basics", "a, b", "cotton"}, Published: true,
			Options: []catalogcsv.Option{{Name: "Size"}},
			Variants: []catalogcsv.Variant{
				{SKU: "T-S", Values: []string{"S"}, Price: 1250, CompareAt: 1500, Inventory: 3, Image: img + "b.jpg", Exported: ptr(3)},
				{SKU: "T-M", Values: []string{"M"}, Price: 1300},
			},
			Images: []catalogcsv.Image{
				{Src: img + "c.jpg", Position: 9},
				{Src: img + "a.jpg", Position: 2, Alt: "Front"},
				{Src: img + "b.jpg", Position: 5, Alt: "Back, folded"},
			},
		},
		{
			Handle: "mug", Title: "Mug", Status: "Archived",
			Variants: []catalogcsv.Variant{{Price: 800, Inventory: -1, Exported: ptr(-1)}},
		},
	}
	const want = "Handle,Title,Body (HTML),Vendor,Type,Tags,Published,Option1 Name,Option1 Value,Option2 Name,Option2 Value,Option3 Name,Option3 Value,Variant SKU,Variant Price,Variant Compare At Price,Variant Inventory Qty,Image Src,Image Position,Image Alt Text,Variant Image,Status,Exported Inventory Qty\n" +
		"tee,Tee,<p>Soft</p>,Nocturne,Shirts,\"cotton, basics, a, b\",TRUE,Size,S,,,,,T-S,12.50,15,3," + img + "a.jpg,1,Front," + img + "b.jpg,active,3\n" +
		"tee,,,,,,,,M,,,,,T-M,13,,0," + img + "b.jpg,2,\"Back, folded\",,,\n" +
		"tee,,,,,,,,,,,,,,,,," + img + "c.jpg,3,,,,\n" +
		"mug,Mug,,,,,FALSE,Title,Default Title,,,,,,8,,-1,,,,,archived,-1\n"
	var b bytes.Buffer
	if err := catalogcsv.Write(&b, products); err != nil {
		t.Fatalf("Write: %v", err)
	}
	if b.String() != want {
		t.Errorf("wrote\n%s\nwant\n%s", b.String(), want)
	}
}

func TestWriteRefuses(t *testing.T) {
	good := func() catalogcsv.Product {
		return catalogcsv.Product{
			Handle: "p", Title: "P",
			Options:  []catalogcsv.Option{{Name: "Size"}},
			Variants: []catalogcsv.Variant{{Values: []string{"S"}, Price: 100}},
		}
	}
	for _, tc := range []struct {
		name   string
		change func(p *catalogcsv.Product)
		want   string
	}{
		{"no handle", func(p *catalogcsv.Product) { p.Handle = " " }, "the Handle is empty"},
		{"no title", func(p *catalogcsv.Product) { p.Title = "" }, "the Title is empty"},
		{"no variants", func(p *catalogcsv.Product) { p.Variants = nil }, "it has no variants"},
		{"four options", func(p *catalogcsv.Product) {
			p.Options = []catalogcsv.Option{{Name: "A"}, {Name: "B"}, {Name: "C"}, {Name: "D"}}
		}, "it has 4 options"},
		{"values for other options", func(p *catalogcsv.Product) { p.Variants[0].Values = nil }, "variant 1 has 0 option values for 1 options"},
		{"empty value", func(p *catalogcsv.Product) { p.Variants[0].Values = []string{" "} }, `variant 1 has no value for option "Size"`},
		{"same variant twice", func(p *catalogcsv.Product) { p.Variants = append(p.Variants, p.Variants[0]) }, `two variants are Size "S"`},
		{"zero price", func(p *catalogcsv.Product) { p.Variants[0].Price = 0 }, "variant 1 has price 0 cents"},
		{"negative compare-at", func(p *catalogcsv.Product) { p.Variants[0].CompareAt = -5 }, "compare-at price -5 cents"},
		{"Title / Default Title", func(p *catalogcsv.Product) {
			p.Options[0].Name = "Title"
			p.Variants[0].Values = []string{"Default Title"}
		}, "would read back as a product without options"},
		{"bad status", func(p *catalogcsv.Product) { p.Status = "gone" }, `the Status "gone"`},
		{"image twice", func(p *catalogcsv.Product) {
			p.Images = []catalogcsv.Image{{Src: img + "a.jpg"}, {Src: img + "a.jpg"}}
		}, "appears twice"},
		{"image not a web address", func(p *catalogcsv.Product) {
			p.Images = []catalogcsv.Image{{Src: "/local/a.jpg"}}
		}, "is not a web address"},
		{"not UTF-8", func(p *catalogcsv.Product) { p.Vendor = "Caf\xe9" }, "Vendor is not valid UTF-8 text"},
		{"exported inventory too large", func(p *catalogcsv.Product) { p.Variants[0].Exported = ptr(2_000_000_000) }, "exported inventory 2000000000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := good()
			tc.change(&p)
			var b bytes.Buffer
			err := catalogcsv.Write(&b, []catalogcsv.Product{good(), p})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one containing %q", err, tc.want)
			}
			if b.Len() > 0 {
				t.Errorf("wrote %d bytes before refusing", b.Len())
			}
		})
	}
	t.Run("handle twice", func(t *testing.T) {
		err := catalogcsv.Write(&bytes.Buffer{}, []catalogcsv.Product{good(), good()})
		if err == nil || !strings.Contains(err.Error(), `Handle "p" is already used`) {
			t.Fatalf("err = %v", err)
		}
	})
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteError(t *testing.T) {
	err := catalogcsv.Write(failingWriter{}, fileProducts)
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("err = %v, want the writer's error", err)
	}
}

// TestRoundTripGenerated writes products made of awkward text (commas,
// quotes, line breaks of every kind, padding) and checks the export reads
// back without problems and writes the same bytes: Write must store each
// value the way Read will give it back.
func TestRoundTripGenerated(t *testing.T) {
	awkward := []string{"a", "a,b", `say "hi"`, "two\nlines", "cr\ronly", "crlf\r\nend", "\r\r\n", " padded ",
		"Ünïcødé", "Default Title", "Title", "=1+1", "<b>bold</b><script>x</script>", "tab\there", ""}
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func() string { return awkward[rng.IntN(len(awkward))] }
	written := 0
	for n := range 500 {
		p := catalogcsv.Product{
			Handle: fmt.Sprintf("p%d%s", n, pick()), Title: "T" + pick(), BodyHTML: pick() + pick(),
			Vendor: pick(), Type: pick(), Tags: []string{pick(), pick()}, Published: rng.IntN(2) == 0,
			Status: []string{"", "active", "Draft", "archived"}[rng.IntN(4)],
		}
		for i := range rng.IntN(4) {
			p.Options = append(p.Options, catalogcsv.Option{Name: fmt.Sprintf("O%d%s", i, pick())})
		}
		for i := range 1 + rng.IntN(3) {
			v := catalogcsv.Variant{SKU: pick(), Price: shop.Cents(1 + rng.IntN(100000)), Inventory: rng.IntN(20) - 5}
			if rng.IntN(2) == 0 {
				v.Exported = ptr(rng.IntN(20) - 5)
			}
			if rng.IntN(2) == 0 {
				v.CompareAt = shop.Cents(1 + rng.IntN(100000))
			}
			for j := range p.Options {
				v.Values = append(v.Values, fmt.Sprintf("v%d%s", i*len(p.Options)+j, pick()))
			}
			if rng.IntN(3) == 0 {
				v.Image = img + url.PathEscape(pick())
			}
			p.Variants = append(p.Variants, v)
		}
		for i := range rng.IntN(5) {
			p.Images = append(p.Images, catalogcsv.Image{Src: fmt.Sprintf("%s%d.jpg", img, i), Position: rng.IntN(4), Alt: pick()})
		}

		var first bytes.Buffer
		if err := catalogcsv.Write(&first, []catalogcsv.Product{p}); err != nil {
			t.Logf("refused: %v", err) // e.g. a variant that repeats another
			continue
		}
		written++
		again, problems, err := catalogcsv.Read(bytes.NewReader(first.Bytes()))
		if err != nil || len(problems) > 0 {
			t.Fatalf("the export does not read back: %v %v\n%q", err, problems, first.Bytes())
		}
		var second bytes.Buffer
		if err := catalogcsv.Write(&second, again); err != nil {
			t.Fatalf("second Write: %v", err)
		}
		if !bytes.Equal(first.Bytes(), second.Bytes()) {
			t.Fatalf("Write(Read(Write(x))) != Write(x):\n%q\n%q", first.Bytes(), second.Bytes())
		}
	}
	if written < 400 {
		t.Errorf("only %d of 500 generated products were written", written)
	}
}

func ptr(n int) *int { return &n }
