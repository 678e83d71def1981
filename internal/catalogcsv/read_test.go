package catalogcsv_test

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/nocturne/storefront/internal/catalogcsv"
	"github.com/nocturne/storefront/internal/shop"
)

const img = "http://127.0.0.1:9/images/"

// fileProducts is what testdata/products.csv holds. The file is laid out
// as a Shopify export: its column order, many columns this package does
// not know, variant rows carrying only the Handle and variant columns, and
// image-only rows.
var fileProducts = []catalogcsv.Product{
	{
		// Two options: Size with three values and Colour with two, so six
		// variants. The body had a <script> and an onclick to remove.
		Handle: "linen-shirt",
		Title:  "Linen Shirt",
		Line:   2,
		BodyHTML: "<p>Loose-fit shirt in <strong>washed linen</strong>.</p>\n" +
			`<ul><li>100% linen</li><li>See the <a href="https://nocturne.test/care" rel="nofollow noopener">care guide</a></li></ul>`,
		Vendor:    "Nocturne",
		Type:      "Shirts",
		Tags:      []string{"linen", "summer", "shirts"},
		Published: true,
		Status:    "active",
		Options: []catalogcsv.Option{
			{Name: "Size", Values: []string{"S", "M", "L"}},
			{Name: "Colour", Values: []string{"Black", "Ivory"}},
		},
		Variants: []catalogcsv.Variant{
			{SKU: "LS-S-BLK", Values: []string{"S", "Black"}, Price: 4500, Inventory: 5, Image: img + "linen-shirt-black.jpg", Line: 2},
			{SKU: "LS-S-IVO", Values: []string{"S", "Ivory"}, Price: 4500, Inventory: 3, Image: img + "linen-shirt-ivory.jpg", Line: 4},
			{SKU: "LS-M-BLK", Values: []string{"M", "Black"}, Price: 4500, Inventory: 8, Image: img + "linen-shirt-black.jpg", Line: 5},
			{SKU: "LS-M-IVO", Values: []string{"M", "Ivory"}, Price: 4500, Inventory: 0, Image: img + "linen-shirt-ivory.jpg", Line: 6},
			{SKU: "LS-L-BLK", Values: []string{"L", "Black"}, Price: 4850, CompareAt: 5500, Inventory: 2, Image: img + "linen-shirt-black.jpg", Line: 7},
			{SKU: "LS-L-IVO", Values: []string{"L", "Ivory"}, Price: 4850, CompareAt: 5500, Inventory: 1, Image: img + "linen-shirt-ivory.jpg", Line: 8},
		},
		Images: []catalogcsv.Image{
			{Src: img + "linen-shirt-black.jpg", Position: 1, Alt: "Linen shirt in black"},
			{Src: img + "linen-shirt-ivory.jpg", Position: 2, Alt: "Linen shirt in ivory"},
			{Src: img + "linen-shirt-detail.jpg", Position: 3, Alt: "Close-up of the collar, stitched"},
		},
	},
	{
		// Option1 Name "Title" with "Default Title": no options.
		Handle:    "ceramic-mug",
		Title:     "Ceramic Mug",
		BodyHTML:  "<p>Stoneware, 350 ml. Dishwasher safe.</p>",
		Vendor:    "Nocturne Studio",
		Type:      "Kitchen",
		Tags:      []string{"kitchen", "gifts"},
		Published: false,
		Status:    "draft",
		Variants:  []catalogcsv.Variant{{SKU: "MUG-01", Price: 1800, Inventory: 40, Line: 11}},
		Line:      11,
		Images: []catalogcsv.Image{
			{Src: img + "mug-front.jpg", Position: 1, Alt: "Mug, front"},
			{Src: img + "mug-side.jpg", Position: 2, Alt: "Mug, side"},
		},
	},
	{
		// One option, three values; "$1,049.99", a compare-at of "0.00"
		// (none), negative stock, no Status (active), "true" in lower case,
		// untidy tags.
		Handle:    "wool-scarf",
		Line:      13,
		Title:     "Wool Scarf",
		BodyHTML:  "<p>Merino, <em>very</em> warm.</p>",
		Vendor:    "Nocturne",
		Type:      "Accessories",
		Tags:      []string{"winter", "wool", "scarves"},
		Published: true,
		Status:    "active",
		Options:   []catalogcsv.Option{{Name: "Colour", Values: []string{"Charcoal", "Moss", "Rust"}}},
		Variants: []catalogcsv.Variant{
			{SKU: "WS-CHA", Values: []string{"Charcoal"}, Price: 104999, CompareAt: 120000, Inventory: 12, Image: img + "scarf-charcoal.jpg", Line: 13},
			{SKU: "WS-MOS", Values: []string{"Moss"}, Price: 104999, Inventory: 0, Line: 14},
			{Values: []string{"Rust"}, Price: 104999, Inventory: -2, Line: 15},
		},
		Images: []catalogcsv.Image{
			{Src: img + "scarf-charcoal.jpg", Position: 1},
			{Src: img + "scarf-moss.jpg", Position: 2},
		},
	},
	{
		// Three options, no body, no images, Status "Active".
		Handle:    "canvas-tote",
		Line:      16,
		Title:     "Canvas Tote",
		Vendor:    "Nocturne",
		Type:      "Bags",
		Published: true,
		Status:    "active",
		Options: []catalogcsv.Option{
			{Name: "Size", Values: []string{"One Size"}},
			{Name: "Colour", Values: []string{"Natural"}},
			{Name: "Strap", Values: []string{"Short", "Long"}},
		},
		Variants: []catalogcsv.Variant{
			{SKU: "CT-S", Values: []string{"One Size", "Natural", "Short"}, Price: 2400, Inventory: 7, Line: 16},
			{SKU: "CT-L", Values: []string{"One Size", "Natural", "Long"}, Price: 2600, Inventory: 4, Line: 17},
		},
	},
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestReadFile(t *testing.T) {
	got, problems, err := catalogcsv.Read(bytes.NewReader(readFile(t, "testdata/products.csv")))
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	if len(problems) > 0 {
		t.Fatalf("problems: %v", problems)
	}
	if len(got) != len(fileProducts) {
		t.Fatalf("read %d products, want %d", len(got), len(fileProducts))
	}
	for i := range got {
		if !reflect.DeepEqual(got[i], fileProducts[i]) {
			t.Errorf("product %d:\n got %+v\nwant %+v", i, got[i], fileProducts[i])
		}
	}
}

// TestReadColumnOrder reads the test file with its columns shuffled and
// more unknown columns added: nothing may change.
func TestReadColumnOrder(t *testing.T) {
	records, err := csv.NewReader(bytes.NewReader(readFile(t, "testdata/products.csv"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	width := len(records[0])
	for _, tc := range []struct {
		name  string
		order func(i int) int // the source column of column i
		extra bool
		head  func(h string, i int) string
	}{
		{name: "reversed", order: func(i int) int { return width - 1 - i }},
		{name: "rotated", order: func(i int) int { return (i + 7) % width }},
		{name: "unknown columns", order: func(i int) int { return i }, extra: true},
		{
			name:  "spaces and byte order mark",
			order: func(i int) int { return (i + 3) % width },
			head: func(h string, i int) string {
				if i == 0 {
					return "\uFEFF " + h
				}
				return "  " + h + " "
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			w := csv.NewWriter(&b)
			for r, rec := range records {
				out := make([]string, width)
				for i := range out {
					out[i] = rec[tc.order(i)]
					if r == 0 && tc.head != nil {
						out[i] = tc.head(out[i], i)
					}
				}
				if tc.extra {
					more := []string{"Variant Barcode 2", "Rough Notes", "Handle Colour"}
					if r > 0 {
						more = []string{"123", "ignore me, please", "red"}
					}
					out = append(more[:2], append(out, more[2])...)
				}
				if err := w.Write(out); err != nil {
					t.Fatal(err)
				}
			}
			w.Flush()
			got, problems, err := catalogcsv.Read(&b)
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			if len(problems) > 0 {
				t.Fatalf("problems: %v", problems)
			}
			if !reflect.DeepEqual(got, fileProducts) {
				t.Errorf("read\n%+v\nwant\n%+v", got, fileProducts)
			}
		})
	}
}

func TestReadHeaderErrors(t *testing.T) {
	for _, tc := range []struct {
		name, file, want string
	}{
		{"empty file", "", "read header: the file is empty"},
		{"no handle", "Title,Variant Price\nShirt,10\n", `no "Handle" column`},
		{"no title or price", "Handle,Vendor\nshirt,Nocturne\n", `no "Title" or "Variant Price" column`},
		{"twice", "Handle,Title,Variant Price, Title\n", `column "Title" appears twice`},
		{"broken header", "Handle,\"Title\n", "read header:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := catalogcsv.Read(strings.NewReader(tc.file))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("connection reset") }

// TestReadIOError: a reader failing part way is an error, not a Problem.
func TestReadIOError(t *testing.T) {
	r := io.MultiReader(strings.NewReader("Handle,Title,Variant Price\np,P,5\n"), failingReader{})
	_, _, err := catalogcsv.Read(r)
	if err == nil || !strings.Contains(err.Error(), "connection reset") {
		t.Fatalf("err = %v, want the reader's error", err)
	}
}

// csvRow encodes one row the way a spreadsheet would.
func csvRow(fields ...string) string {
	var b strings.Builder
	w := csv.NewWriter(&b)
	_ = w.Write(fields)
	w.Flush()
	return b.String()
}

// TestReadProblems feeds a file with one bad row of each kind. Each must
// be reported on its own line and skipped, and the good rows imported.
func TestReadProblems(t *testing.T) {
	head := csvRow("Handle", "Title", "Body (HTML)", "Vendor", "Published", "Option1 Name", "Option1 Value",
		"Option2 Name", "Option2 Value", "Option4 Name", "Variant SKU", "Variant Price", "Variant Inventory Qty",
		"Image Src")
	// r is a row of that header: Handle, then the other columns by name.
	r := func(handle string, kv ...string) string {
		cols := map[string]int{"Title": 1, "Body": 2, "Vendor": 3, "Published": 4, "O1": 5, "V1": 6,
			"O2": 7, "V2": 8, "O4": 9, "SKU": 10, "Price": 11, "Qty": 12, "Src": 13}
		f := make([]string, 14)
		f[0] = handle
		for i := 0; i < len(kv); i += 2 {
			f[cols[kv[i]]] = kv[i+1]
		}
		return csvRow(f...)
	}
	lines := []string{
		head, // line 1
		// Lines 2-4: one record; its body spans three lines.
		r("good", "Title", "Good", "Body", "<p>one</p>\n<p>two</p>\n<p>three</p>", "O1", "Size", "V1", "S",
			"O2", "Colour", "V2", "Red", "Price", "10.00"),
		r("good", "V1", "M", "V2", "Red", "Price", "12,5"),                        // 5: decimal comma
		r("good", "V1", "M", "V2", "Red", "Price", "11", "Qty", "3.5"),            // 6: fractional stock
		r("good", "V1", "L", "Price", "11"),                                       // 7: Option2 Value missing
		r("good", "V1", "S", "V2", "Red", "Price", "11"),                          // 8: same as line 2
		r("good", "V1", "L", "V2", "Blue", "Price", "11", "Src", "ftp://x/"),      // 9: not a web address; the variant goes too
		r("good", "V1", "M", "V2", "Red", "Price", "11.00"),                       // 10: fine
		r("orphan", "SKU", "O-1", "Price", "5"),                                   // 11: nothing started "orphan"
		r("untitled", "Vendor", "Acme", "Price", "5"),                             // 12: first row without Title
		r("untitled", "Src", img+"u.jpg"),                                         // 13: skipped with its product
		r("four", "Title", "Four", "O1", "A", "V1", "a", "O4", "D", "Price", "5"), // 14: a fourth option
		// Lines 15-16: a first row spanning two lines with a bad Published.
		r("bad-publish", "Title", "Bad", "Body", "<p>x</p>\n<p>y</p>", "Published", "yes", "Price", "5"),
		r("bad-publish", "Src", img+"b.jpg"),                                                     // 17: skipped with its product
		r("later", "Title", "Later", "O1", "Size", "V1", "S", "Price", "$1,299.00", "Qty", "-1"), // 18: fine
		r("", "Price", "5"),                             // 19: no Handle
		"later,Too,few,columns\n",                       // 20
		"later,,,,,,X,,,,Bad \"quote,5,,\n",             // 21: bare quote
		r("later", "V1", "M", "Price", "1,300"),         // 22: fine, after the broken CSV row
		r("good", "V1", "L", "V2", "Red", "Price", "0"), // 23: zero price
	}
	file := strings.Join(lines, "")

	got, problems, err := catalogcsv.Read(strings.NewReader(file))
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	want := []struct {
		line   int
		handle string
		msg    string
	}{
		{5, "good", `Variant Price "12,5" is not an amount like 12.50`},
		{6, "good", `Variant Inventory Qty "3.5" is not a whole number like 5`},
		{7, "good", `Option2 Value is empty; product "good" has the option "Colour"`},
		{8, "good", `Product "good" already has the variant Size "S" / Colour "Red"`},
		{9, "good", `Image Src "ftp://x/" is not a web address starting with http:// or https://`},
		{11, "orphan", `This row continues product "orphan", but no earlier row starts that product with a Title`},
		{12, "untitled", "Title is empty; the first row of a product needs its Title"},
		{13, "untitled", `Skipped because the first row of product "untitled" (line 12) could not be imported`},
		{14, "four", `Option4 Name is "D", but a product can have at most 3 options`},
		{15, "bad-publish", `Published is "yes"; use TRUE or FALSE`},
		{17, "bad-publish", `Skipped because the first row of product "bad-publish" (line 15) could not be imported`},
		{19, "", "Handle is empty; every row needs the Handle of the product it belongs to"},
		{20, "later", "This row has 4 columns but the header has 14; a value with a comma in it may be missing its quotes"},
		{21, "later", "A value has a quote mark in it but is not itself in quotes; put the value in quotes and double the quote mark"},
		{23, "good", `Variant Price "0" must be more than 0`},
	}
	for i := 0; i < max(len(want), len(problems)); i++ {
		switch {
		case i >= len(problems):
			t.Errorf("missing problem %+v", want[i])
		case i >= len(want):
			t.Errorf("unexpected problem %+v", problems[i])
		case problems[i] != catalogcsv.Problem{Line: want[i].line, Handle: want[i].handle, Msg: want[i].msg}:
			t.Errorf("problem %d:\n got %+v\nwant %+v", i, problems[i], want[i])
		}
	}

	wantProducts := []catalogcsv.Product{
		{
			Handle: "good", Title: "Good", BodyHTML: "<p>one</p>\n<p>two</p>\n<p>three</p>", Status: "active", Line: 2,
			Options: []catalogcsv.Option{{Name: "Size", Values: []string{"S", "M"}}, {Name: "Colour", Values: []string{"Red"}}},
			Variants: []catalogcsv.Variant{
				{Values: []string{"S", "Red"}, Price: 1000, Line: 2},
				{Values: []string{"M", "Red"}, Price: 1100, Line: 10},
			},
		},
		{
			Handle: "later", Title: "Later", Status: "active", Line: 18,
			Options: []catalogcsv.Option{{Name: "Size", Values: []string{"S", "M"}}},
			Variants: []catalogcsv.Variant{
				{Values: []string{"S"}, Price: 129900, Inventory: -1, Line: 18},
				{Values: []string{"M"}, Price: 130000, Line: 22},
			},
		},
	}
	if !reflect.DeepEqual(got, wantProducts) {
		t.Errorf("products\n got %+v\nwant %+v", got, wantProducts)
	}
}

// TestReadRowRules covers single rules, each on a small file whose first
// product row is good unless the case is about it.
func TestReadRowRules(t *testing.T) {
	const head = "Handle,Title,Option1 Name,Option1 Value,Option2 Name,Option2 Value,Option3 Name,Option3 Value," +
		"Variant Price,Variant Compare At Price,Variant Image,Image Src,Image Position,Image Alt Text,Status\n"
	for _, tc := range []struct {
		name string
		rows string
		want string // the one problem's message, or "" for none
	}{
		{"options out of order", "p,P,,,Colour,Red,,,5,,,,,,\n",
			`Option2 Name is "Colour" but Option1 Name is empty; fill the options in order`},
		{"option names repeat", "p,P,Colour,Red,colour,Blue,,,5,,,,,,\n",
			`Two options are called "colour"; each option needs its own name`},
		{"value without option", "p,P,,Red,,,,,5,,,,,,\n",
			`Option1 Value is "Red", but product "p" has no options`},
		{"value past the options", "p,P,Size,S,,,,,5,,,,,,\np,,,M,,,,L,5,,,,,,\n",
			`Option3 Value is "L", but product "p" has only 1 option(s)`},
		{"second variant without options", "p,P,Title,Default Title,,,,,5,,,,,,\np,,,,,,,,6,,,,,,\n",
			`Product "p" has no options, so it has one variant; this row would be a second one`},
		{"Default Title again", "p,P,Title,Default Title,,,,,5,,,,,,\np,,,Default Title,,,,,6,,,,,,\n",
			`Product "p" has no options, so it has one variant; this row would be a second one`},
		{"a real option called Title", "p,P,Title,Large,,,,,5,,,,,,\np,,,Small,,,,,6,,,,,,\n", ""},
		{"empty option names mean none", "p,P,,,,,,,5,,,,,,\n", ""},
		{"no price", "p,P,,,,,,,,,,,,,\n", "Variant Price is empty; every variant needs a price like 12.50"},
		{"too many decimals", "p,P,,,,,,,1.005,,,,,,\n", `Variant Price "1.005" has more than 2 decimal places`},
		{"too large", "p,P,,,,,,,1000000.01,,,,,,\n",
			`Variant Price "1000000.01" is more than the largest price the shop takes, 1000000`},
		{"exponent", "p,P,,,,,,,5e2,,,,,,\n", `Variant Price "5e2" is not an amount like 12.50`},
		{"negative compare-at", "p,P,,,,,,,5,-6,,,,,\n", `Variant Compare At Price "-6" must be more than 0`},
		{"zero compare-at is none", "p,P,,,,,,,5,$0,,,,,\n", ""},
		{"variant image not a web address", "p,P,,,,,,,5,,javascript:alert(1),,,,\n",
			`Variant Image "javascript:alert(1)" is not a web address starting with http:// or https://`},
		{"bad status", "p,P,,,,,,,5,,,,,,sold\n", `Status is "sold"; use active, draft or archived`},
		{"position not a number", "p,P,,,,,,,5,,,http://127.0.0.1:9/a.jpg,first,,\n",
			`Image Position "first" is not a whole number of 1 or more`},
		{"alt without image", "p,P,,,,,,,5,,,,,A mug,\n", `Image Alt Text is "A mug" but Image Src is empty`},
		{"image repeated the same", "p,P,,,,,,,5,,,http://127.0.0.1:9/a.jpg,1,A,\np,,,,,,,,,,,http://127.0.0.1:9/a.jpg,,A,\n", ""},
		{"image repeated differently", "p,P,,,,,,,5,,,http://127.0.0.1:9/a.jpg,1,A,\np,,,,,,,,,,,http://127.0.0.1:9/a.jpg,,B,\n",
			`Image Src "http://127.0.0.1:9/a.jpg" is already an image of product "p" with another Alt Text or Position`},
		{"row with only a handle adds nothing", "p,P,,,,,,,5,,,,,,\np,,,,,,,,,,,,,,\n", ""},
		{"not UTF-8", "p,P\xe9,,,,,,,5,,,,,,\n",
			`Column Title is not UTF-8 text; save the file as "CSV UTF-8" and import it again`},
		{"unclosed quote", "p,\"P,,,,,,,5,,,,,,\n", "A quoted value is not closed, or has a stray quote mark; this row and any lines it swallowed were skipped"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, problems, err := catalogcsv.Read(strings.NewReader(head + tc.rows))
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			switch {
			case tc.want == "" && len(problems) > 0:
				t.Errorf("problems: %v", problems)
			case tc.want != "" && len(problems) != 1:
				t.Errorf("problems: %v, want one: %s", problems, tc.want)
			case tc.want != "" && problems[0].Msg != tc.want:
				t.Errorf("problem:\n got %s\nwant %s", problems[0].Msg, tc.want)
			}
		})
	}
}

// useCurrency makes code, written for locale, the shop's currency until the
// test ends. Tests that call it must not be parallel.
func useCurrency(t *testing.T, code, locale string) {
	t.Helper()
	c, err := shop.NewCurrency(code, locale)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(shop.SetCurrency(c))
}

// Prices are read in the shop's currency, exactly: a price with more
// decimals than the currency has is reported and its row skipped, never
// rounded. A file's decimals follow a point, whatever the shop's locale.
func TestReadPricesPerCurrency(t *testing.T) {
	const head = "Handle,Title,Variant Price,Variant Compare At Price\n"
	for _, tc := range []struct {
		name, code, locale string
		rows               string
		want               string // the one problem, or "" for none
		price, compareAt   shop.Cents
	}{
		{"yen", "JPY", "en-US", "p,P,1235,1500\n", "", 1235, 1500},
		{"yen with separators", "JPY", "en-US", "p,P,\"1,235\",\n", "", 1235, 0},
		{"yen with decimals", "JPY", "en-US", "p,P,109.95,\n", `Variant Price "109.95" has decimal places, which JPY amounts do not have`, 0, 0},
		{"yen compare-at with decimals", "JPY", "en-US", "p,P,110,120.5\n",
			`Variant Compare At Price "120.5" has decimal places, which JPY amounts do not have`, 0, 0},
		{"yen decimal comma", "JPY", "en-US", "p,P,\"12,5\",\n", `Variant Price "12,5" is not an amount like 1250`, 0, 0},
		{"yen in dollars", "JPY", "en-US", "p,P,$12,\n", `Variant Price "$12" is not an amount like 1250`, 0, 0},
		{"dinars", "KWD", "en-US", "p,P,1.005,\n", "", 1005, 0},
		{"dinars with four decimals", "KWD", "en-US", "p,P,1.0005,\n", `Variant Price "1.0005" has more than 3 decimal places`, 0, 0},
		{"euros in German", "EUR", "de-DE", "p,P,\"1,299.50\",\n", "", 129950, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			useCurrency(t, tc.code, tc.locale)
			got, problems, err := catalogcsv.Read(strings.NewReader(head + tc.rows))
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			if tc.want != "" {
				if len(problems) != 1 || problems[0].Msg != tc.want {
					t.Fatalf("problems: %v, want one: %s", problems, tc.want)
				}
				if len(got) != 0 {
					t.Errorf("got %+v, want the product skipped", got)
				}
				return
			}
			if len(problems) > 0 {
				t.Fatalf("problems: %v", problems)
			}
			if len(got) != 1 || len(got[0].Variants) != 1 || got[0].Variants[0].Price != tc.price || got[0].Variants[0].CompareAt != tc.compareAt {
				t.Fatalf("got %+v, want one variant at %d (compare at %d)", got, tc.price, tc.compareAt)
			}
		})
	}
}

// TestReadImageOrder: images come out by position, those without one
// after the highest so far, renumbered without gaps.
func TestReadImageOrder(t *testing.T) {
	const file = "Handle,Title,Variant Price,Image Src,Image Position\n" +
		"p,P,5,http://127.0.0.1:9/c.jpg,30\n" +
		"p,,,http://127.0.0.1:9/a.jpg,10\n" +
		"p,,,http://127.0.0.1:9/d.jpg,\n" +
		"p,,,http://127.0.0.1:9/b.jpg,20\n"
	got, problems, err := catalogcsv.Read(strings.NewReader(file))
	if err != nil || len(problems) > 0 {
		t.Fatalf("Read: %v %v", err, problems)
	}
	want := []catalogcsv.Image{
		{Src: "http://127.0.0.1:9/a.jpg", Position: 1},
		{Src: "http://127.0.0.1:9/b.jpg", Position: 2},
		{Src: "http://127.0.0.1:9/c.jpg", Position: 3},
		{Src: "http://127.0.0.1:9/d.jpg", Position: 4},
	}
	if !reflect.DeepEqual(got[0].Images, want) {
		t.Errorf("images %+v, want %+v", got[0].Images, want)
	}
}

// TestReadExported reads the shop's own Exported Inventory Qty column: a
// whole number per variant, nil where it is empty or the file lacks it,
// and each variant keeps the line of its row.
func TestReadExported(t *testing.T) {
	const head = "Handle,Title,Option1 Name,Option1 Value,Variant Price,Variant Inventory Qty,Exported Inventory Qty\n"
	got, problems, err := catalogcsv.Read(strings.NewReader(head +
		"p,P,Size,S,5,4,3\n" + // line 2
		"p,,,M,5,2,\n" + // 3: not known
		"p,,,L,5,1,1.5\n" + // 4: not a whole number
		"p,,,XL,5,0,-2\n" + // 5: oversold when exported
		"q,Q,,,5,7,7\n")) // 6
	if err != nil {
		t.Fatal(err)
	}
	wantProblems := []catalogcsv.Problem{{Line: 4, Handle: "p", Msg: `Exported Inventory Qty "1.5" is not a whole number like 5`}}
	if !reflect.DeepEqual(problems, wantProblems) {
		t.Errorf("problems %v, want %v", problems, wantProblems)
	}
	type variant struct {
		line     int
		exported string
	}
	var vs []variant
	for _, p := range got {
		for _, v := range p.Variants {
			e := "nil"
			if v.Exported != nil {
				e = strconv.Itoa(*v.Exported)
			}
			vs = append(vs, variant{v.Line, e})
		}
	}
	if want := []variant{{2, "3"}, {3, "nil"}, {5, "-2"}, {6, "7"}}; !reflect.DeepEqual(vs, want) {
		t.Errorf("variants (line, exported) %v, want %v", vs, want)
	}
	if len(got) != 2 || got[0].Line != 2 || got[1].Line != 6 {
		t.Errorf("product lines: %+v", got)
	}

	// A file without the column says nothing about any variant.
	got, _, err = catalogcsv.Read(strings.NewReader("Handle,Title,Variant Price,Variant Inventory Qty\np,P,5,4\n"))
	if err != nil || len(got) != 1 || got[0].Variants[0].Exported != nil {
		t.Errorf("no column: %+v, %v", got, err)
	}
}
