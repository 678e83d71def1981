package catalogcsv

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nocturne/storefront/internal/money"
	"github.com/nocturne/storefront/internal/shop"
)

// Write writes products as a product CSV in Shopify's layout: the header,
// then for each product its first row (product fields, first variant,
// first image), a row per further variant (with the next image, if any),
// and a row per remaining image.
//
// Values are written the way Read would read them back (trimmed, tags
// split on commas, body sanitised, images renumbered by position), so
// Write(Read(Write(x))) is byte for byte Write(x). A product the format
// cannot carry faithfully, such as one without variants, with a price
// Read would refuse or with two products sharing a Handle, is an error and
// nothing is written.
func Write(w io.Writer, products []Product) error {
	rows := [][]string{header}
	handles := make(map[string]bool, len(products))
	for i, p := range products {
		prows, err := productRows(p)
		if err != nil {
			return fmt.Errorf("write product %d (%s): %w", i+1, quote(p.Handle), err)
		}
		h := prows[0][col(colHandle)]
		if handles[h] {
			return fmt.Errorf("write product %d: Handle %s is already used by another product", i+1, quote(h))
		}
		handles[h] = true
		rows = append(rows, prows...)
	}
	cw := csv.NewWriter(w)
	if err := cw.WriteAll(rows); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	return nil
}

// colIndex is each column's place in header.
var colIndex = func() map[string]int {
	m := make(map[string]int, len(header))
	for i, name := range header {
		m[name] = i
	}
	return m
}()

func col(name string) int { return colIndex[name] }

// productRows checks one product and lays it out as rows.
func productRows(p Product) ([][]string, error) {
	t := &cleaner{}
	f, err := t.productFields(p)
	if err != nil {
		return nil, err
	}
	names, err := t.optionNames(p.Options)
	if err != nil {
		return nil, err
	}
	variants, err := t.variantRows(p, names)
	if err != nil {
		return nil, err
	}
	images, err := t.images(p.Images)
	if err != nil {
		return nil, err
	}
	// Text that is not UTF-8 is reported only once the product's shape has
	// passed, so a broken product is named by its first structural fault.
	if len(t.bad) > 0 {
		return nil, fmt.Errorf("%s is not valid UTF-8 text", strings.Join(t.bad, ", "))
	}
	return layoutRows(f, names, variants, images), nil
}

// cleaner trims and canonicalises the text of one product's fields as Read
// would, and remembers, in order, the fields that are not valid UTF-8.
type cleaner struct{ bad []string }

func (t *cleaner) text(field, s string) string {
	if !utf8.ValidString(s) {
		t.bad = append(t.bad, field)
	}
	return strings.TrimSpace(canon(s))
}

// productFields are a product's own columns, written on its first row.
type productFields struct {
	handle, title, vendor, typ, body, status string
	tags                                     []string
	published                                bool
}

// productFields cleans and checks the product's own columns.
func (t *cleaner) productFields(p Product) (productFields, error) {
	f := productFields{
		handle:    t.text("Handle", p.Handle),
		title:     t.text("Title", p.Title),
		vendor:    t.text("Vendor", p.Vendor),
		typ:       t.text("Type", p.Type),
		body:      SanitizeBody(canon(p.BodyHTML)),
		tags:      normalTags(t.text("Tags", strings.Join(p.Tags, ","))),
		status:    strings.ToLower(t.text("Status", p.Status)),
		published: p.Published,
	}
	if !utf8.ValidString(p.BodyHTML) {
		t.bad = append(t.bad, "BodyHTML")
	}

	switch {
	case f.handle == "":
		return f, errors.New("the Handle is empty")
	case f.title == "":
		return f, errors.New("the Title is empty")
	}
	switch f.status {
	case "":
		f.status = StatusActive
	case StatusActive, StatusDraft, StatusArchived:
	default:
		return f, fmt.Errorf("the Status %s is not active, draft or archived", quote(p.Status))
	}
	return f, nil
}

// optionNames cleans the option names: at most Shopify's number, none
// blank, none twice (in any case).
func (t *cleaner) optionNames(options []Option) ([]string, error) {
	if len(options) > maxOptions {
		return nil, fmt.Errorf("it has %d options; Shopify allows at most %d", len(options), maxOptions)
	}
	names := make([]string, len(options))
	seen := map[string]bool{}
	for i, o := range options {
		names[i] = t.text("Option name", o.Name)
		if names[i] == "" {
			return nil, fmt.Errorf("option %d has no name", i+1)
		}
		if seen[strings.ToLower(names[i])] {
			return nil, fmt.Errorf("two options are called %s", quote(names[i]))
		}
		seen[strings.ToLower(names[i])] = true
	}
	return names, nil
}

// variantRows lays out a row per variant (option values and variant
// columns), refusing a product without variants and two variants with the
// same option values.
func (t *cleaner) variantRows(p Product, names []string) ([][]string, error) {
	if len(p.Variants) == 0 {
		return nil, errors.New("it has no variants")
	}
	rows := make([][]string, len(p.Variants))
	combos := map[string]bool{}
	for i, v := range p.Variants {
		values, err := t.optionValues(i, v, names)
		if err != nil {
			return nil, err
		}
		if combos[comboKey(values)] {
			if len(names) == 0 {
				return nil, errors.New("it has no options but more than one variant")
			}
			return nil, fmt.Errorf("two variants are %s", describeCombo(p.Options, values))
		}
		combos[comboKey(values)] = true
		if i == 0 && len(names) == 1 && names[0] == noOptionName && values[0] == noOptionValue {
			return nil, fmt.Errorf("option %q with value %q would read back as a product without options",
				noOptionName, noOptionValue)
		}
		if rows[i], err = t.variantRow(i, v, names, values); err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// optionValues cleans variant i's option values: one per option, none
// blank.
func (t *cleaner) optionValues(i int, v Variant, names []string) ([]string, error) {
	if len(v.Values) != len(names) {
		return nil, fmt.Errorf("variant %d has %d option values for %d options", i+1, len(v.Values), len(names))
	}
	values := make([]string, len(v.Values))
	for j, val := range v.Values {
		values[j] = t.text("Option value", val)
		if values[j] == "" {
			return nil, fmt.Errorf("variant %d has no value for option %s", i+1, quote(names[j]))
		}
	}
	return values, nil
}

// variantRow checks variant i's amounts and image, and lays out its row
// with the option values already cleaned.
func (t *cleaner) variantRow(i int, v Variant, names, values []string) ([]string, error) {
	if !priceOK(v.Price) {
		return nil, fmt.Errorf("variant %d has price %d cents, which Read would refuse", i+1, v.Price)
	}
	compare := ""
	if v.CompareAt != 0 {
		if !priceOK(v.CompareAt) {
			return nil, fmt.Errorf("variant %d has compare-at price %d cents, which Read would refuse", i+1, v.CompareAt)
		}
		compare = money.Text(v.CompareAt)
	}
	if v.Inventory > maxInventory || v.Inventory < -maxInventory {
		return nil, fmt.Errorf("variant %d has inventory %d, beyond ±%d", i+1, v.Inventory, maxInventory)
	}
	exported := ""
	if v.Exported != nil {
		if *v.Exported > maxInventory || *v.Exported < -maxInventory {
			return nil, fmt.Errorf("variant %d has exported inventory %d, beyond ±%d", i+1, *v.Exported, maxInventory)
		}
		exported = strconv.Itoa(*v.Exported)
	}
	image := t.text("Variant image", v.Image)
	if image != "" {
		if msg := checkURL(colVarImage, image); msg != "" {
			return nil, errors.New(msg)
		}
	}

	row := make([]string, len(header))
	for j := range maxOptions {
		if j < len(values) {
			row[col(optValueCols[j])] = values[j]
		}
	}
	if len(names) == 0 {
		row[col(colOpt1Value)] = noOptionValue
	}
	row[col(colSKU)] = t.text("SKU", v.SKU)
	row[col(colPrice)] = money.Text(v.Price)
	row[col(colCompareAt)] = compare
	row[col(colInventory)] = strconv.Itoa(v.Inventory)
	row[col(colVarImage)] = image
	row[col(colExported)] = exported
	return row, nil
}

// images cleans the product's images, each a valid address and none
// twice, in the order Read would give them.
func (t *cleaner) images(imgs []Image) ([]Image, error) {
	images := make([]Image, len(imgs))
	srcs := map[string]bool{}
	for i, img := range imgs {
		images[i] = Image{Src: t.text("Image Src", img.Src), Position: img.Position, Alt: t.text("Image Alt", img.Alt)}
		if msg := checkURL(colImageSrc, images[i].Src); msg != "" {
			return nil, errors.New(msg)
		}
		if srcs[images[i].Src] {
			return nil, fmt.Errorf("image %s appears twice", quote(images[i].Src))
		}
		srcs[images[i].Src] = true
	}
	return orderImages(images), nil
}

// layoutRows puts a checked product on rows. The first variant's row
// becomes the product's first row; later variant rows carry the next
// images, and leftover images get rows of their own, as Shopify exports
// them.
func layoutRows(f productFields, names []string, variants [][]string, images []Image) [][]string {
	rows := variants
	first := rows[0]
	first[col(colTitle)] = f.title
	first[col(colBody)] = f.body
	first[col(colVendor)] = f.vendor
	first[col(colType)] = f.typ
	first[col(colTags)] = strings.Join(f.tags, ", ")
	first[col(colPublished)] = "FALSE"
	if f.published {
		first[col(colPublished)] = "TRUE"
	}
	for j := range maxOptions {
		if j < len(names) {
			first[col(optNameCols[j])] = names[j]
		}
	}
	if len(names) == 0 {
		first[col(colOpt1Name)] = noOptionName
	}
	first[col(colStatus)] = f.status
	for i, img := range images {
		if i >= len(rows) {
			rows = append(rows, make([]string, len(header)))
		}
		rows[i][col(colImageSrc)] = img.Src
		rows[i][col(colImagePos)] = strconv.Itoa(img.Position)
		rows[i][col(colImageAlt)] = img.Alt
	}
	for _, row := range rows {
		row[col(colHandle)] = f.handle
	}
	return rows
}

// priceOK reports whether c is an amount Read accepts, asking the money
// package rather than repeating its rules.
func priceOK(c shop.Cents) bool {
	back, err := money.Parse(money.Text(c))
	return err == nil && back == c
}
