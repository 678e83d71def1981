package backoffice

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nocturne/storefront/internal/catalog"
	"github.com/nocturne/storefront/internal/money"
	"github.com/nocturne/storefront/internal/shop"
)

// The options and variants editor's rules: what staff may type, which
// combinations "Generate combinations" makes, and what the audit log keeps
// of each change. Stock is only ever changed as a change checked against
// the stock the page showed (decision 0007); decision 0011 says where a
// product's stock goes when it gets variants.

// Messages of the options and variants editor.
const (
	MsgOptionName   = "Name the option, such as Size (at most 40 characters)."
	MsgOptionValue  = "Enter a value, such as XL (at most 40 characters)."
	MsgSwatch       = "Enter a colour as #rrggbb, such as #1f2937, or leave it empty."
	MsgSKU          = "An SKU is at most 64 letters, digits and signs, without spaces at either end."
	MsgVariantStock = "Enter a whole number from 0 to 1000000."
	MsgPageOutdated = "This page is out of date: open it again."
	MsgPhotoURL     = "Enter the photo's address, starting with https://, or leave it empty."
	MsgCompareAt    = "The compare-at price cannot be below the price."
	MsgSelectSome   = "Select the variants to change."
	MsgBulkNothing  = "Enter a price or a stock for the selected variants."
	MsgBulkAdd      = "Enter a whole number from 1 to 1000000 to add."
	MsgBulkTooMuch  = "Adding %d would take the stock over 1000000."
	MsgNoOptions    = "Add an option and its values first."
	// MsgOptionEmpty: %s is the option's name.
	MsgOptionEmpty = "Add a value to %s first: every variant has one of each option's values."
	// MsgTooManyCombinations: %d the combinations, %d shop.MaxVariants.
	MsgTooManyCombinations = "That makes %d combinations, and a product can have at most %d variants. Remove some values first."
	MsgAllGenerated        = "Every combination has its variant already."
)

const maxNameLen = 40

// cleanName trims a name or value and checks its length and characters.
func cleanName(s string) (string, bool) {
	s = strings.TrimSpace(s)
	n := utf8.RuneCountInString(s)
	return s, n > 0 && n <= maxNameLen && !strings.ContainsFunc(s, unicode.IsControl)
}

// ParseOptionName checks an option's name; the message is "" when it is
// good.
func ParseOptionName(name string) (string, string) {
	name, ok := cleanName(name)
	if !ok {
		return name, MsgOptionName
	}
	return name, ""
}

var swatchPattern = regexp.MustCompile(`^#[0-9a-f]{6}$`)

// ParseOptionValue checks a value and its optional swatch colour, keyed
// "value" and "swatch".
func ParseOptionValue(value, swatch string) (shop.OptionValue, shop.FieldErrors) {
	v := shop.OptionValue{Swatch: strings.ToLower(strings.TrimSpace(swatch))}
	var ok bool
	errs := shop.FieldErrors{}
	if v.Value, ok = cleanName(value); !ok {
		errs["value"] = MsgOptionValue
	}
	if v.Swatch != "" && !swatchPattern.MatchString(v.Swatch) {
		errs["swatch"] = MsgSwatch
	}
	if len(errs) > 0 {
		return v, errs
	}
	return v, nil
}

// ColourLike reports whether an option names colours, whose values the
// editor offers a swatch for.
func ColourLike(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"colour", "color", "shade", "finish"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// Combinations lists every combination of the options' values, the first
// option's values varying slowest; none when an option has no values.
func Combinations(opts []shop.Option) [][]string {
	if len(opts) == 0 {
		return nil
	}
	out := [][]string{{}}
	for _, o := range opts {
		var next [][]string
		for _, c := range out {
			for _, v := range o.Values {
				next = append(next, append(slices.Clone(c), v.Value))
			}
		}
		out = next
	}
	return out
}

// Missing returns the variants "Generate combinations" makes for c: one
// for every combination without a variant, enabled, with no stock and the
// product's price, named as the catalogue names variants
// (catalog.VariantID: "nb-001-xl-black"; the store gives an id another
// product holds a suffix). It refuses while an option has no values or when the
// product would have more than shop.MaxVariants variants.
func Missing(productID string, c shop.Choices) ([]shop.Variant, error) {
	if len(c.Options) == 0 {
		return nil, shop.Errorf(shop.EINVALID, MsgNoOptions)
	}
	for _, o := range c.Options {
		if len(o.Values) == 0 {
			return nil, shop.Errorf(shop.EINVALID, MsgOptionEmpty, o.Name)
		}
	}
	all := Combinations(c.Options)
	if len(all) > shop.MaxVariants {
		return nil, shop.Errorf(shop.EINVALID, MsgTooManyCombinations, len(all), shop.MaxVariants)
	}
	var out []shop.Variant
	for _, vals := range all {
		if _, ok := c.Match(vals); ok {
			continue
		}
		out = append(out, shop.Variant{ID: catalog.VariantID(productID, vals), ProductID: productID, Values: vals, Enabled: true})
	}
	return out, nil
}

// DefaultVariant returns the product's default variant while it still
// has one, which generating its first variants replaces.
func DefaultVariant(productID string, c shop.Choices) (shop.Variant, bool) {
	return c.Variant(productID)
}

// VariantInput is one variant's row of the editor as typed.
type VariantInput struct {
	SKU, Price, Original, Stock string
	// StockWas is the stock the page showed (a hidden field).
	StockWas string
	Image    string
	Enabled  bool
}

// ParseVariant checks a variant's row: an empty price sells at the
// product's (productPrice, which a compare-at price may not be below), an
// empty compare-at price shows none of the variant's own. Problems are
// keyed "sku", "price", "original", "stock" and "image".
func ParseVariant(id string, in VariantInput, productPrice shop.Cents) (shop.VariantEdit, shop.FieldErrors) {
	e := shop.VariantEdit{Variant: shop.Variant{ID: id, Enabled: in.Enabled}}
	errs := checkFields(&e, variantRow{in, productPrice}, variantChecks)
	return e, errs
}

// variantRow is a variant's row as typed, with the product's price that
// an empty price falls back to.
type variantRow struct {
	VariantInput
	productPrice shop.Cents
}

// variantChecks read a variant's row, in order.
var variantChecks = []fieldCheck[shop.VariantEdit, variantRow]{
	{"sku", checkVariantSKU},
	{"price", checkVariantPrice},
	{"original", checkVariantOriginal},
	{"stock", checkVariantStock},
	{"stock", checkVariantStockWas},
	{"image", checkVariantImage},
}

// checkVariantSKU reads the SKU: at most 64 characters, none of them control characters.
func checkVariantSKU(e *shop.VariantEdit, in variantRow, _ shop.FieldErrors) string {
	e.SKU = strings.TrimSpace(in.SKU)
	if utf8.RuneCountInString(e.SKU) > 64 || strings.ContainsFunc(e.SKU, unicode.IsControl) {
		return MsgSKU
	}
	return ""
}

// checkVariantPrice reads the variant's own price; empty, it sells at the product's.
func checkVariantPrice(e *shop.VariantEdit, in variantRow, _ shop.FieldErrors) string {
	if strings.TrimSpace(in.Price) == "" {
		return ""
	}
	var err error
	if e.Price, err = money.Parse(in.Price); err != nil {
		return shop.ErrorMessage(err) + " Or leave it empty for the product's price."
	}
	return ""
}

// checkVariantOriginal reads the optional compare-at price, not below the price it sells at.
func checkVariantOriginal(e *shop.VariantEdit, in variantRow, errs shop.FieldErrors) string {
	if strings.TrimSpace(in.Original) == "" {
		return ""
	}
	price := in.productPrice
	if e.Price > 0 {
		price = e.Price
	}
	var err error
	if e.Original, err = money.Parse(in.Original); err != nil {
		return shop.ErrorMessage(err) + " Or leave it empty."
	} else if errs["price"] == "" && e.Original < price {
		return MsgCompareAt
	}
	return ""
}

// checkVariantStock reads the stock typed.
func checkVariantStock(e *shop.VariantEdit, in variantRow, _ shop.FieldErrors) string {
	n, err := strconv.Atoi(strings.TrimSpace(in.Stock))
	e.Stock = n
	if err != nil || n < 0 || n > MaxStock {
		return MsgVariantStock
	}
	return ""
}

// checkVariantStockWas reads the stock the page showed.
func checkVariantStockWas(e *shop.VariantEdit, in variantRow, _ shop.FieldErrors) string {
	// Without the stock the page showed, an edit can't be told from a
	// sale, so nothing is written over the stored stock.
	if was, err := strconv.Atoi(strings.TrimSpace(in.StockWas)); err == nil && was >= 0 {
		e.StockWas = was
		return ""
	}
	return MsgPageOutdated
}

// checkVariantImage reads the optional photo address, an absolute http(s) URL.
func checkVariantImage(e *shop.VariantEdit, in variantRow, _ shop.FieldErrors) string {
	e.Image = strings.TrimSpace(in.Image)
	if e.Image == "" {
		return ""
	}
	u, err := url.Parse(e.Image)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || len(e.Image) > 2000 || strings.ContainsAny(e.Image, " \t\n") {
		return MsgPhotoURL
	}
	return ""
}

// Unchanged reports whether saving e would change nothing of v.
func Unchanged(v shop.Variant, e shop.VariantEdit) bool {
	return e.Stock == e.StockWas && v.SKU == e.SKU && v.Price == e.Price && v.Original == e.Original &&
		v.Image == e.Image && v.Enabled == e.Enabled
}

// Stock modes of the bulk edit.
const (
	BulkStockSet = "set"
	BulkStockAdd = "add"
)

// BulkInput is the bulk edit's form as typed: the selected variants, a
// price for all of them and a stock to set or to add.
type BulkInput struct {
	Selected         []string
	Price            string
	StockMode, Stock string
}

// Bulk is a checked bulk edit. A zero Price leaves prices alone; an empty
// StockMode leaves stock alone.
type Bulk struct {
	Selected  []string
	Price     shop.Cents
	StockMode string
	Stock     int
}

// ParseBulk checks the bulk edit, keyed "selected", "price" and "stock".
func ParseBulk(in BulkInput) (Bulk, shop.FieldErrors) {
	b := Bulk{Selected: in.Selected}
	errs := shop.FieldErrors{}
	if len(in.Selected) == 0 {
		errs["selected"] = MsgSelectSome
	}
	var err error
	if strings.TrimSpace(in.Price) != "" {
		if b.Price, err = money.Parse(in.Price); err != nil {
			errs["price"] = shop.ErrorMessage(err) + " Or leave it empty."
		}
	}
	if s := strings.TrimSpace(in.Stock); s != "" {
		n, err := strconv.Atoi(s)
		b.StockMode, b.Stock = BulkStockSet, n
		if in.StockMode == BulkStockAdd {
			b.StockMode = BulkStockAdd
			if err != nil || n < 1 || n > MaxStock {
				errs["stock"] = MsgBulkAdd
			}
		} else if err != nil || n < 0 || n > MaxStock {
			errs["stock"] = MsgVariantStock
		}
	}
	if strings.TrimSpace(in.Price) == "" && b.StockMode == "" {
		errs["price"] = MsgBulkNothing
	}
	if len(errs) > 0 {
		return b, errs
	}
	return b, nil
}

// StockTo is the stock a bulk edit gives a variant that had was.
func (b Bulk) StockTo(was int) (int, error) {
	if b.StockMode == BulkStockAdd {
		if was+b.Stock > MaxStock {
			return 0, shop.Errorf(shop.EINVALID, MsgBulkTooMuch, b.Stock)
		}
		return was + b.Stock, nil
	}
	return b.Stock, nil
}

// AuditRecorder writes a staff action to the audit log (Service does).
type AuditRecorder interface {
	Record(ctx context.Context, actor, action, subject string, before, after any)
}

// VariantEditor carries out staff edits of a product's options and
// variants: it checks what was typed, asks the store and records each
// change in the audit log. Problems with what was typed come back as
// FieldErrors, keyed as the Parse functions say; an error is a conflict
// with someone else's change, or a failure.
type VariantEditor struct {
	Store shop.VariantAdminStore
	Audit AuditRecorder
}

// fieldError turns a store's refusal that belongs next to a field into
// FieldErrors.
func fieldError(err error) (shop.FieldErrors, error) {
	if f := shop.ErrorField(err); f != "" && (shop.ErrorCode(err) == shop.EINVALID || shop.ErrorCode(err) == shop.ECONFLICT) {
		return shop.FieldErrors{f: shop.ErrorMessage(err)}, nil
	}
	return nil, err
}

// AddOption adds an option (errors keyed "name").
func (ed *VariantEditor) AddOption(ctx context.Context, actor, productID, name string) (shop.FieldErrors, error) {
	name, msg := ParseOptionName(name)
	if msg != "" {
		return shop.FieldErrors{"name": msg}, nil
	}
	if err := ed.Store.AddOption(ctx, productID, name); err != nil {
		return fieldError(err)
	}
	ed.Audit.Record(ctx, actor, "variant.option.add", productID, nil, map[string]string{"option": name})
	return nil, nil
}

// RenameOption renames an option (errors keyed "name").
func (ed *VariantEditor) RenameOption(ctx context.Context, actor, productID, option, to string) (shop.FieldErrors, error) {
	to, msg := ParseOptionName(to)
	if msg != "" {
		return shop.FieldErrors{"name": msg}, nil
	}
	if to == option {
		return nil, nil
	}
	if err := ed.Store.RenameOption(ctx, productID, option, to); err != nil {
		return fieldError(err)
	}
	ed.Audit.Record(ctx, actor, "variant.option.rename", productID, map[string]string{"option": option}, map[string]string{"option": to})
	return nil, nil
}

// changeRecord is what the audit log keeps of what an options edit did to
// the variants.
type changeRecord struct {
	Created []string       `json:"created,omitempty"`
	Deleted map[string]int `json:"deleted,omitempty"` // id → the stock it had
	MovedTo string         `json:"stock_moved_to,omitempty"`
	Moved   int            `json:"stock_moved,omitempty"`
}

func recordOf(ch shop.VariantChange) changeRecord {
	r := changeRecord{MovedTo: ch.MovedTo, Moved: ch.Moved}
	for _, v := range ch.Created {
		r.Created = append(r.Created, v.ID)
	}
	if len(ch.Deleted) > 0 {
		r.Deleted = map[string]int{}
		for _, v := range ch.Deleted {
			r.Deleted[v.ID] = v.Stock
		}
	}
	if r.Moved == 0 {
		r.MovedTo = ""
	}
	return r
}

// RemoveOption removes an option with one value at most.
func (ed *VariantEditor) RemoveOption(ctx context.Context, actor, productID, option string) (shop.VariantChange, error) {
	ch, err := ed.Store.RemoveOption(ctx, productID, option)
	if err != nil {
		return ch, err
	}
	ed.Audit.Record(ctx, actor, "variant.option.remove", productID, map[string]string{"option": option}, recordOf(ch))
	return ch, nil
}

// AddValue adds a value to an option (errors keyed "value" and "swatch").
func (ed *VariantEditor) AddValue(ctx context.Context, actor, productID, option, value, swatch string) (shop.FieldErrors, error) {
	v, errs := ParseOptionValue(value, swatch)
	if errs != nil {
		return errs, nil
	}
	if err := ed.Store.AddOptionValue(ctx, productID, option, v); err != nil {
		return fieldError(err)
	}
	after := map[string]string{"option": option, "value": v.Value}
	if v.Swatch != "" {
		after["swatch"] = v.Swatch
	}
	ed.Audit.Record(ctx, actor, "variant.value.add", productID, nil, after)
	return nil, nil
}

// RemoveValue removes a value and the variants that have it.
func (ed *VariantEditor) RemoveValue(ctx context.Context, actor, productID, option, value string) (shop.VariantChange, error) {
	ch, err := ed.Store.RemoveOptionValue(ctx, productID, option, value)
	if err != nil {
		return ch, err
	}
	ed.Audit.Record(ctx, actor, "variant.value.remove", productID, map[string]string{"option": option, "value": value}, recordOf(ch))
	return ch, nil
}

// MoveValue moves a value one place up (by -1) or down (by 1).
func (ed *VariantEditor) MoveValue(ctx context.Context, actor, productID, option, value string, by int) error {
	if by != -1 && by != 1 {
		return shop.Errorf(shop.EINVALID, MsgPageOutdated)
	}
	if err := ed.Store.MoveOptionValue(ctx, productID, option, value, by); err != nil {
		return err
	}
	dir := "down"
	if by < 0 {
		dir = "up"
	}
	ed.Audit.Record(ctx, actor, "variant.value.move", productID, nil, map[string]string{"option": option, "value": value, "moved": dir})
	return nil
}

// Generate creates the variants of every combination that has none, from
// the options as c shows them (the store refuses when they changed since).
func (ed *VariantEditor) Generate(ctx context.Context, actor, productID string, c shop.Choices) (shop.VariantChange, error) {
	missing, err := Missing(productID, c)
	if err != nil {
		return shop.VariantChange{}, err
	}
	if len(missing) == 0 {
		return shop.VariantChange{}, shop.Errorf(shop.EINVALID, MsgAllGenerated)
	}
	ch, err := ed.Store.AddVariants(ctx, productID, missing)
	if err != nil {
		return ch, err
	}
	ed.Audit.Record(ctx, actor, "variant.generate", productID, nil, recordOf(ch))
	return ch, nil
}

// variantRecord is what the audit log keeps of a variant.
type variantRecord struct {
	SKU      string `json:"sku,omitempty"`
	Price    string `json:"price"`
	Original string `json:"compare_at,omitempty"`
	Stock    int    `json:"stock"`
	Image    string `json:"image,omitempty"`
	Enabled  bool   `json:"enabled"`
}

// VariantRecord is v as the audit log shows it; "product's" stands for a
// price of the product's.
func VariantRecord(v shop.Variant) any {
	r := variantRecord{SKU: v.SKU, Price: "product's", Stock: v.Stock, Image: v.Image, Enabled: v.Enabled}
	if v.Price > 0 {
		r.Price = v.Price.String()
	}
	if v.Original > 0 {
		r.Original = v.Original.String()
	}
	return r
}

// SaveVariant saves one variant's row, before being the variant as the
// store holds it. A stock that moved since the page showed it refuses the
// whole row (an error with the field "stock", as the store says).
func (ed *VariantEditor) SaveVariant(ctx context.Context, actor, productID string, before shop.Variant, e shop.VariantEdit) error {
	if err := ed.Store.UpdateVariant(ctx, productID, e); err != nil {
		return err
	}
	after := e.Variant
	if e.Stock == e.StockWas {
		after.Stock = before.Stock // stock was left alone
	}
	ed.Audit.Record(ctx, actor, "variant.update", e.ID, VariantRecord(before), VariantRecord(after))
	return nil
}

// BulkResult is what a bulk edit did: how many variants got the price,
// and, for each selected variant whose stock it could not change, why.
type BulkResult struct {
	Priced  int
	Stocked int
	// Refused holds, by variant id, the refusal of a stock change: the
	// stock moved since the page showed it, or the variant is gone.
	Refused map[string]error
}

// ApplyBulk gives the selected variants of the product a price and
// changes their stock, each change checked against the stock the page
// showed (was, by id); a variant whose stock moved keeps it and is named
// in the result. before holds the variants as the store holds them.
func (ed *VariantEditor) ApplyBulk(ctx context.Context, actor, productID string, b Bulk, was map[string]int, before shop.Choices) (BulkResult, error) {
	res := BulkResult{Refused: map[string]error{}}
	var selected []string
	for _, id := range b.Selected {
		if _, ok := before.Variant(id); ok {
			selected = append(selected, id)
		} else {
			res.Refused[id] = shop.Errorf(shop.ENOTFOUND, shop.MsgVariantGone)
		}
	}
	if b.Price > 0 && len(selected) > 0 {
		n, err := ed.Store.SetVariantPrices(ctx, productID, selected, b.Price)
		if err != nil {
			return res, err
		}
		res.Priced = n
		for _, id := range selected {
			v, _ := before.Variant(id)
			if v.Price != b.Price {
				ed.Audit.Record(ctx, actor, "variant.price", id, map[string]string{"price": VariantRecord(v).(variantRecord).Price},
					map[string]string{"price": b.Price.String()})
			}
		}
	}
	if b.StockMode == "" {
		return res, nil
	}
	for _, id := range selected {
		w, ok := was[id]
		if !ok {
			res.Refused[id] = shop.Errorf(shop.EINVALID, MsgPageOutdated)
			continue
		}
		to, err := b.StockTo(w)
		if err == nil {
			err = ed.Store.ChangeVariantStock(ctx, id, w, to)
		}
		switch code := shop.ErrorCode(err); {
		case err == nil:
			res.Stocked++
			if to != w {
				ed.Audit.Record(ctx, actor, "variant.stock", id, map[string]int{"stock": w}, map[string]int{"stock": to})
			}
		case code == shop.ECONFLICT || code == shop.ENOTFOUND || code == shop.EINVALID:
			res.Refused[id] = err
		default:
			return res, fmt.Errorf("bulk stock of %s: %w", id, err)
		}
	}
	return res, nil
}
