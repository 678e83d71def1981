package catalogcsv

import (
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Read parses a product CSV into products, in the order their Handles
// first appear. Rows it cannot import are skipped and reported as Problems
// (see the package documentation); err is only for a file that cannot be
// read at all: a missing or bad header, or an I/O failure.
func Read(r io.Reader) ([]Product, []Problem, error) {
	cr := csv.NewReader(r)
	// Field counts are checked per row so a bad row is a Problem rather
	// than the end of the import.
	cr.FieldsPerRecord = -1
	head, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, nil, errors.New("read header: the file is empty")
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read header: %w", err)
	}
	cols, err := parseHeader(head)
	if err != nil {
		return nil, nil, fmt.Errorf("read header: %w", err)
	}

	rd := &reader{cols: cols, width: len(head), groups: map[string]*group{}}
	for name := range cols {
		rd.known = append(rd.known, name)
	}
	slices.SortFunc(rd.known, func(a, b string) int { return cmp.Compare(cols[a], cols[b]) })
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			// The reader resumes on the line after a broken one, so the
			// rest of the file can still be imported. The partial record
			// holds the fields before the break, which may include the
			// Handle.
			handle := ""
			if i := cols[colHandle]; i < len(rec) {
				handle = printable(strings.TrimSpace(canon(rec[i])))
			}
			rd.refuse(pe.StartLine, handle, []string{csvMessage(pe)})
			continue
		}
		if err != nil {
			// Not a CSV error: the reader failed, and there is no record
			// to place.
			return nil, nil, fmt.Errorf("read rows: %w", err)
		}
		line, _ := cr.FieldPos(0)
		rd.row(line, rec)
	}
	return rd.products(), rd.problems, nil
}

// extraOption matches option columns past Shopify's three, which some
// tools write; a row using one cannot be imported whole.
var extraOption = regexp.MustCompile(`^Option([4-9]|[1-9][0-9]+) (Name|Value)$`)

// parseHeader maps each known column to its index and checks the header
// can describe a product at all.
func parseHeader(head []string) (map[string]int, error) {
	known := make(map[string]bool, len(header))
	for _, name := range header {
		known[name] = true
	}
	cols := map[string]int{}
	for i, name := range head {
		if i == 0 {
			name = strings.TrimPrefix(name, "\uFEFF")
		}
		name = strings.TrimSpace(name)
		if !known[name] && !extraOption.MatchString(name) {
			continue
		}
		if _, dup := cols[name]; dup {
			return nil, fmt.Errorf("column %q appears twice", name)
		}
		cols[name] = i
	}
	var missing []string
	for _, name := range required {
		if _, ok := cols[name]; !ok {
			missing = append(missing, fmt.Sprintf("%q", name))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("no %s column; is this a Shopify product CSV?", strings.Join(missing, " or "))
	}
	return cols, nil
}

// csvMessage says what is wrong with a row the CSV reader could not parse.
func csvMessage(pe *csv.ParseError) string {
	switch {
	case errors.Is(pe.Err, csv.ErrQuote):
		return "A quoted value is not closed, or has a stray quote mark; this row and any lines it swallowed were skipped"
	case errors.Is(pe.Err, csv.ErrBareQuote):
		return "A value has a quote mark in it but is not itself in quotes; put the value in quotes and double the quote mark"
	default:
		return fmt.Sprintf("This row is not valid CSV: %v", pe.Err)
	}
}

// reader is the state of one Read.
type reader struct {
	cols     map[string]int
	known    []string // the known columns, in file order
	width    int
	order    []string // Handles in order of first appearance
	groups   map[string]*group
	problems []Problem
}

// group collects the rows of one Handle.
type group struct {
	first   int  // line of the first row
	refused bool // the first row was refused, so the product is skipped
	product Product
	combos  map[string]bool
	// badOptions is set when the first row's option names are wrong, so
	// its option values are not judged against them as well.
	badOptions bool
	images     []Image // Position is the file's, renumbered at the end
	lastPos    int
}

// fields is one row's values by column name.
type fields struct {
	rec  []string
	cols map[string]int
}

// get is the trimmed value of a column, "" when the file has no such
// column.
func (f fields) get(col string) string {
	i, ok := f.cols[col]
	if !ok || i >= len(f.rec) {
		return ""
	}
	return strings.TrimSpace(canon(f.rec[i]))
}

// raw is a column's value without trimming, for the body.
func (f fields) raw(col string) string {
	i, ok := f.cols[col]
	if !ok || i >= len(f.rec) {
		return ""
	}
	return canon(f.rec[i])
}

// canon stores line breaks as "\n". A CSV reader turns "\r\n" inside a
// quoted value into "\n" but leaves a lone "\r", so without this a value
// would not read back as it was written.
func canon(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

func (rd *reader) problem(line int, handle, msg string) {
	rd.problems = append(rd.problems, Problem{Line: line, Handle: handle, Msg: msg})
}

// refuse reports a row's problems. When the row would have started its
// Handle's product, the product is marked refused so its later rows are
// skipped too.
func (rd *reader) refuse(line int, handle string, msgs []string) {
	for _, m := range msgs {
		rd.problem(line, handle, m)
	}
	if handle != "" && rd.groups[handle] == nil {
		rd.groups[handle] = &group{first: line, refused: true}
	}
}

// row reads one data row.
func (rd *reader) row(line int, rec []string) {
	f := fields{rec: rec, cols: rd.cols}
	// A Handle that is not UTF-8 is refused below; until then it is only
	// shown, so it is made printable.
	handle := printable(f.get(colHandle))
	if len(rec) != rd.width {
		rd.refuse(line, handle, []string{fmt.Sprintf(
			"This row has %d columns but the header has %d; a value with a comma in it may be missing its quotes",
			len(rec), rd.width)})
		return
	}
	for _, name := range rd.known {
		if !utf8.ValidString(rec[rd.cols[name]]) {
			rd.refuse(line, handle, []string{fmt.Sprintf(
				"Column %s is not UTF-8 text; save the file as \"CSV UTF-8\" and import it again", name)})
			return
		}
	}
	if handle == "" {
		rd.problem(line, "", "Handle is empty; every row needs the Handle of the product it belongs to")
		return
	}
	var msgs []string
	for _, name := range rd.known {
		if v := f.get(name); v != "" && extraOption.MatchString(name) {
			msgs = append(msgs, fmt.Sprintf("%s is %s, but a product can have at most %d options",
				name, quote(v), maxOptions))
		}
	}

	g := rd.groups[handle]
	switch {
	case g == nil:
		rd.first(line, handle, f, msgs)
	case g.refused:
		rd.problem(line, handle, fmt.Sprintf(
			"Skipped because the first row of product %s (line %d) could not be imported", quote(handle), g.first))
	default:
		rd.continuation(line, g, f, msgs)
	}
}

// first reads the row that starts a product.
func (rd *reader) first(line int, handle string, f fields, msgs []string) {
	title := f.get(colTitle)
	if title == "" {
		if hasAny(f, colBody, colVendor, colType, colTags, colPublished, colStatus, colOpt1Name, colOpt2Name, colOpt3Name) {
			msgs = append(msgs, "Title is empty; the first row of a product needs its Title")
		} else {
			msgs = append(msgs, fmt.Sprintf(
				"This row continues product %s, but no earlier row starts that product with a Title", quote(handle)))
		}
	}
	g := &group{first: line, combos: map[string]bool{}}
	p := &g.product
	p.Line = line
	p.Handle = handle
	p.Title = title
	p.BodyHTML = SanitizeBody(f.raw(colBody))
	p.Vendor = f.get(colVendor)
	p.Type = f.get(colType)
	p.Tags = normalTags(f.get(colTags))

	switch v := f.get(colPublished); strings.ToLower(v) {
	case "true":
		p.Published = true
	case "false", "":
	default:
		msgs = append(msgs, fmt.Sprintf("Published is %s; use TRUE or FALSE", quote(v)))
	}
	switch v := f.get(colStatus); strings.ToLower(v) {
	case StatusActive, "":
		p.Status = StatusActive
	case StatusDraft, StatusArchived:
		p.Status = strings.ToLower(v)
	default:
		msgs = append(msgs, fmt.Sprintf("Status is %s; use active, draft or archived", quote(v)))
	}

	omsgs := g.readOptions(f)
	g.badOptions = len(omsgs) > 0
	msgs = append(msgs, omsgs...)
	v, vmsgs := g.readVariant(f)
	v.Line = line
	msgs = append(msgs, vmsgs...)
	img, hasImage, imsgs := g.readImage(f)
	msgs = append(msgs, imsgs...)

	if len(msgs) > 0 {
		rd.refuse(line, handle, msgs)
		return
	}
	g.addVariant(v)
	if hasImage {
		g.addImage(img)
	}
	rd.groups[handle] = g
	rd.order = append(rd.order, handle)
}

// readOptions reads the option names of a first row.
func (g *group) readOptions(f fields) []string {
	var names [maxOptions]string
	for i := range names {
		names[i] = f.get(optNameCols[i])
	}
	if names == [maxOptions]string{noOptionName, "", ""} && f.get(colOpt1Value) == noOptionValue {
		return nil
	}
	var msgs []string
	seen := map[string]bool{}
	for i, name := range names {
		if name == "" {
			continue
		}
		if i > 0 && names[i-1] == "" {
			msgs = append(msgs, fmt.Sprintf("%s is %s but %s is empty; fill the options in order",
				optNameCols[i], quote(name), optNameCols[i-1]))
			return msgs
		}
		if seen[strings.ToLower(name)] {
			msgs = append(msgs, fmt.Sprintf("Two options are called %s; each option needs its own name", quote(name)))
			return msgs
		}
		seen[strings.ToLower(name)] = true
		g.product.Options = append(g.product.Options, Option{Name: name})
	}
	return msgs
}

// variantCols are the columns that make a row a variant row.
var variantCols = []string{colOpt1Value, colOpt2Value, colOpt3Value, colSKU, colPrice, colCompareAt, colInventory, colVarImage, colExported}

// continuation reads a later row of a product: a variant, an image, or
// both.
func (rd *reader) continuation(line int, g *group, f fields, msgs []string) {
	isVariant := hasAny(f, variantCols...)
	var v Variant
	if isVariant {
		var vmsgs []string
		v, vmsgs = g.readVariant(f)
		v.Line = line
		msgs = append(msgs, vmsgs...)
	}
	img, hasImage, imsgs := g.readImage(f)
	msgs = append(msgs, imsgs...)
	if len(msgs) > 0 {
		rd.refuse(line, g.product.Handle, msgs)
		return
	}
	if isVariant {
		g.addVariant(v)
	}
	if hasImage {
		g.addImage(img)
	}
}

// readVariant reads the variant columns of a row of g's product.
func (g *group) readVariant(f fields) (Variant, []string) {
	values, msgs := g.readOptionValues(f)
	v := Variant{Values: values, SKU: f.get(colSKU)}
	msgs = append(msgs, readAmounts(f, &v)...)

	p := &g.product
	if len(msgs) == 0 && g.combos[comboKey(v.Values)] {
		if len(p.Options) == 0 {
			msgs = append(msgs, fmt.Sprintf(
				"Product %s has no options, so it has one variant; this row would be a second one", quote(p.Handle)))
		} else {
			msgs = append(msgs, fmt.Sprintf("Product %s already has the variant %s",
				quote(p.Handle), describeCombo(p.Options, v.Values)))
		}
	}
	return v, msgs
}

// readOptionValues reads a row's option values: one for each of the
// product's options, and none beyond them (but the Shopify way of saying a
// product has no options). Nothing is read when the options were refused.
func (g *group) readOptionValues(f fields) ([]string, []string) {
	var values, msgs []string
	p := &g.product
	n := len(p.Options)
	if n > 0 {
		values = make([]string, n)
	}
	for i := range maxOptions {
		if g.badOptions {
			break
		}
		val := f.get(optValueCols[i])
		switch {
		case i < n && val == "":
			msgs = append(msgs, fmt.Sprintf("%s is empty; product %s has the option %s",
				optValueCols[i], quote(p.Handle), quote(p.Options[i].Name)))
		case i < n:
			values[i] = val
		case val == "" || (i == 0 && n == 0 && val == noOptionValue):
			// A product without options may say so the Shopify way.
		case n == 0:
			msgs = append(msgs, fmt.Sprintf("%s is %s, but product %s has no options",
				optValueCols[i], quote(val), quote(p.Handle)))
		default:
			msgs = append(msgs, fmt.Sprintf("%s is %s, but product %s has only %d option(s)",
				optValueCols[i], quote(val), quote(p.Handle), n))
		}
	}
	return values, msgs
}

// readAmounts reads a variant row's price (required), compare-at price,
// inventory, exported inventory and image into v.
func readAmounts(f fields, v *Variant) []string {
	var msgs []string
	if s := f.get(colPrice); s == "" {
		msgs = append(msgs, "Variant Price is empty; every variant needs a price like 12.50")
	} else if c, msg := parsePrice(colPrice, s); msg != "" {
		msgs = append(msgs, msg)
	} else {
		v.Price = c
	}
	if s := f.get(colCompareAt); s != "" && !isZero(s) {
		if c, msg := parsePrice(colCompareAt, s); msg != "" {
			msgs = append(msgs, msg)
		} else {
			v.CompareAt = c
		}
	}
	if s := f.get(colInventory); s != "" {
		if n, msg := parseInventory(colInventory, s); msg != "" {
			msgs = append(msgs, msg)
		} else {
			v.Inventory = n
		}
	}
	if s := f.get(colExported); s != "" {
		if n, msg := parseInventory(colExported, s); msg != "" {
			msgs = append(msgs, msg)
		} else {
			v.Exported = &n
		}
	}
	if s := f.get(colVarImage); s != "" {
		if msg := checkURL(colVarImage, s); msg != "" {
			msgs = append(msgs, msg)
		} else {
			v.Image = s
		}
	}
	return msgs
}

// readImage reads the image columns of a row. ok is false when the row
// has no image, or only repeats one the product already has.
func (g *group) readImage(f fields) (img Image, ok bool, msgs []string) {
	src, pos, alt := f.get(colImageSrc), f.get(colImagePos), f.get(colImageAlt)
	if src == "" {
		switch {
		case pos != "":
			msgs = append(msgs, fmt.Sprintf("Image Position is %s but Image Src is empty", quote(pos)))
		case alt != "":
			msgs = append(msgs, fmt.Sprintf("Image Alt Text is %s but Image Src is empty", quote(alt)))
		}
		return Image{}, false, msgs
	}
	if msg := checkURL(colImageSrc, src); msg != "" {
		msgs = append(msgs, msg)
	}
	img = Image{Src: src, Alt: alt}
	if pos != "" {
		n, msg := parsePosition(pos)
		if msg != "" {
			msgs = append(msgs, msg)
		}
		img.Position = n
	}
	if len(msgs) > 0 {
		return Image{}, false, msgs
	}
	for _, have := range g.images {
		if have.Src != src {
			continue
		}
		// Some tools repeat an image on every row of a variant it
		// shows; the same image again adds nothing, but a different alt
		// text or position is a contradiction the merchant must settle.
		if have.Alt == alt && (pos == "" || have.Position == img.Position) {
			return Image{}, false, nil
		}
		return Image{}, false, []string{fmt.Sprintf(
			"Image Src %s is already an image of product %s with another Alt Text or Position",
			quote(src), quote(g.product.Handle))}
	}
	return img, true, nil
}

func (g *group) addVariant(v Variant) {
	g.combos[comboKey(v.Values)] = true
	g.product.Variants = append(g.product.Variants, v)
}

// addImage keeps an image; one without a position goes after the highest
// position so far.
func (g *group) addImage(img Image) {
	if img.Position == 0 {
		img.Position = g.lastPos + 1
	}
	g.lastPos = max(g.lastPos, img.Position)
	g.images = append(g.images, img)
}

// products finishes the products read: option values from the variants,
// images in position order.
func (rd *reader) products() []Product {
	out := make([]Product, 0, len(rd.order))
	for _, h := range rd.order {
		g := rd.groups[h]
		p := g.product
		for i := range p.Options {
			seen := map[string]bool{}
			for _, v := range p.Variants {
				if !seen[v.Values[i]] {
					seen[v.Values[i]] = true
					p.Options[i].Values = append(p.Options[i].Values, v.Values[i])
				}
			}
		}
		p.Images = orderImages(g.images)
		out = append(out, p)
	}
	return out
}

// orderImages sorts images by position, keeping file order for equal
// positions, and renumbers them 1, 2, 3...
func orderImages(images []Image) []Image {
	if len(images) == 0 {
		return nil
	}
	out := slices.Clone(images)
	slices.SortStableFunc(out, func(a, b Image) int { return cmp.Compare(a.Position, b.Position) })
	for i := range out {
		out[i].Position = i + 1
	}
	return out
}

// hasAny reports whether any of the columns has a value on the row.
func hasAny(f fields, cols ...string) bool {
	for _, c := range cols {
		if f.get(c) != "" {
			return true
		}
	}
	return false
}

func comboKey(values []string) string { return strings.Join(values, "\x00") }

// describeCombo names a variant for a message: Size "S" / Colour "Black".
func describeCombo(opts []Option, values []string) string {
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = opts[i].Name + " " + quote(v)
	}
	return strings.Join(parts, " / ")
}

// printable is s with bytes that are not UTF-8 replaced, for a Handle in
// a Problem about such bytes.
func printable(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }

// quote shows a value in a message, shortened so a pasted paragraph does
// not drown the sentence.
func quote(s string) string {
	const limit = 60
	if utf8.RuneCountInString(s) > limit {
		s = string([]rune(s)[:limit]) + "…"
	}
	return fmt.Sprintf("%q", s)
}
