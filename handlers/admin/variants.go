package admin

import (
	"fmt"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/money"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// variantPages serve a product's options and variants editor, under the
// product editor's role.
type variantPages struct {
	*web.Pages
	products shop.ProductAdminStore
	store    shop.VariantAdminStore
	editor   *backoffice.VariantEditor
	catalog  Catalog
}

func newVariantPages(p *web.Pages, d Deps) *variantPages {
	v := &variantPages{Pages: p, products: d.Products, store: d.Variants, catalog: d.Catalog}
	if d.Variants != nil {
		v.editor = &backoffice.VariantEditor{Store: d.Variants, Audit: d.Service}
	}
	return v
}

// variantsState is what a refused post shows again: its errors, keyed by
// the input's id, and what was typed.
type variantsState struct {
	errs      shop.FieldErrors
	alert     string
	refused   []string
	newOption string
	rename    map[string]string    // option → the new name typed
	newValue  map[string][2]string // option → the value and swatch typed
	rows      map[string]backoffice.VariantInput
	bulk      pages.BulkForm
	selected  map[string]bool
}

func newVariantsState() *variantsState {
	return &variantsState{errs: shop.FieldErrors{}, rename: map[string]string{}, newValue: map[string][2]string{},
		rows: map[string]backoffice.VariantInput{}, selected: map[string]bool{}}
}

const msgCorrectFields = "Please correct the fields marked below."

func variantsPath(productID string) string { return "/admin/products/" + productID + "/variants" }

// load reads the route's product and its options and variants as staff
// edit them.
func (a *variantPages) load(c *fiber.Ctx) (*shop.Product, shop.Choices, error) {
	if a.store == nil {
		return nil, shop.Choices{}, fiber.ErrNotFound
	}
	p, err := a.products.AdminProduct(c.UserContext(), c.Params("id"))
	if shop.ErrorCode(err) == shop.ENOTFOUND {
		return nil, shop.Choices{}, fiber.ErrNotFound
	} else if err != nil {
		return nil, shop.Choices{}, err
	}
	ch, err := a.store.EditChoices(c.UserContext(), p.ID)
	return p, ch, err
}

func (a *variantPages) adminVariants(c *fiber.Ctx) error {
	p, ch, err := a.load(c)
	if err != nil {
		return err
	}
	return a.render(c, fiber.StatusOK, p, ch, newVariantsState())
}

// variantLabel names a variant by its values; the default variant is the
// product as one item.
func variantLabel(opts []shop.Option, v shop.Variant) string {
	if s := shop.Variation(opts, v.Values); s != "" {
		return s
	}
	if len(opts) > 0 {
		return "The product as one item (until its variants are generated)"
	}
	return "The product as one item"
}

// ownCents is a variant's own amount as the editor shows it: empty for the
// product's.
func ownCents(c shop.Cents) string {
	if c == 0 {
		return ""
	}
	return money.Text(c)
}

func (a *variantPages) render(c *fiber.Ctx, status int, prod *shop.Product, ch shop.Choices, st *variantsState) error {
	p := pages.AdminVariantsPage{Nav: adminNav(c, backoffice.AreaProducts), ProductID: prod.ID, Title: prod.Title, Price: prod.Price,
		NewOption: st.newOption, CanAddOption: len(ch.Options) < shop.MaxOptions, Bulk: st.bulk, Errors: st.errs,
		Alert: st.alert, Refused: st.refused}
	for i, o := range ch.Options {
		ov := pages.OptionView{N: i + 1, Name: o.Name, Rename: o.Name, Colour: backoffice.ColourLike(o.Name), Removable: len(o.Values) <= 1}
		if typed, ok := st.rename[o.Name]; ok {
			ov.Rename = typed
		}
		if typed, ok := st.newValue[o.Name]; ok {
			ov.NewValue, ov.NewSwatch = typed[0], typed[1]
		}
		for j, v := range o.Values {
			vv := pages.ValueView{Value: v.Value, Swatch: v.Swatch, First: j == 0, Last: j == len(o.Values)-1}
			for _, x := range ch.Variants {
				if i < len(x.Values) && x.Values[i] == v.Value {
					vv.Variants++
					vv.Stock += x.Stock
				}
			}
			ov.Values = append(ov.Values, vv)
		}
		p.Options = append(p.Options, ov)
	}
	missing, err := backoffice.Missing(prod.ID, ch)
	switch {
	case err != nil:
		p.NoGenerate = shop.ErrorMessage(err)
	case len(missing) == 0:
		p.NoGenerate = backoffice.MsgAllGenerated
	default:
		p.Missing = len(missing)
	}
	if def, ok := backoffice.DefaultVariant(prod.ID, ch); ok && len(ch.Options) > 0 {
		p.HasDefault, p.DefaultStock = true, def.Stock
		if len(missing) > 0 {
			p.FirstVariant = shop.Variation(ch.Options, missing[0].Values)
		}
	}
	for i, v := range ch.Variants {
		r := pages.VariantRow{N: i + 1, ID: v.ID, Label: variantLabel(ch.Options, v), SKU: v.SKU, Price: ownCents(v.Price),
			Original: ownCents(v.Original), Stock: strconv.Itoa(v.Stock), StockWas: strconv.Itoa(v.Stock), Image: v.Image,
			Enabled: v.Enabled, Selected: st.selected[v.ID]}
		if in, ok := st.rows[v.ID]; ok {
			r.SKU, r.Price, r.Original, r.Stock, r.StockWas, r.Image, r.Enabled = in.SKU, in.Price, in.Original, in.Stock, in.StockWas, in.Image, in.Enabled
		}
		p.Rows = append(p.Rows, r)
	}
	return web.Render(c, status, pages.AdminVariants(a.Frame(c, "Options and variants of "+prod.Title+" · Back office"), p))
}

// done shows the change on this instance at once (the others see the
// catalogue version move within a second) and goes back to the editor.
func (a *variantPages) done(c *fiber.Ctx, prod *shop.Product, msg string) error {
	if err := a.catalog.Reload(c.UserContext()); err != nil {
		a.Log.Error("catalogue reload after a variants edit", "err", err)
	}
	return a.RedirectWithFlash(c, variantsPath(prod.ID), msg)
}

// refused answers an edit the store or the rules refused as a whole:
// someone changed the options meanwhile, or the edit cannot be made as
// they are. The editor shows them as they are now, with why.
func (a *variantPages) refused(c *fiber.Ctx, prod *shop.Product, err error) error {
	switch shop.ErrorCode(err) {
	case shop.ECONFLICT, shop.EINVALID:
		return a.RedirectWithError(c, variantsPath(prod.ID), shop.ErrorMessage(err))
	case shop.ENOTFOUND:
		if _, perr := a.products.AdminProduct(c.UserContext(), prod.ID); shop.ErrorCode(perr) == shop.ENOTFOUND {
			return fiber.ErrNotFound
		}
		return a.RedirectWithError(c, variantsPath(prod.ID), shop.ErrorMessage(err))
	}
	return err
}

// option finds the posted option among the product's, by name.
func option(c *fiber.Ctx, ch shop.Choices) (int, string, bool) {
	name := web.FormValue(c, "option")
	for i, o := range ch.Options {
		if o.Name == name {
			return i, name, true
		}
	}
	return -1, name, false
}

func optionKey(i int, field string) string { return fmt.Sprintf("opt%d-%s", i+1, field) }

func (a *variantPages) adminAddOption(c *fiber.Ctx) error {
	prod, ch, err := a.load(c)
	if err != nil {
		return err
	}
	typed := web.FormValue(c, "name")
	errs, err := a.editor.AddOption(c.UserContext(), staffEmail(c), prod.ID, typed)
	if err != nil {
		return a.refused(c, prod, err)
	}
	if errs != nil {
		st := newVariantsState()
		st.errs["new-option"], st.newOption, st.alert = errs["name"], typed, msgCorrectFields
		return a.render(c, fiber.StatusUnprocessableEntity, prod, ch, st)
	}
	name, _ := backoffice.ParseOptionName(typed)
	return a.done(c, prod, "Option "+name+" added: now add its values.")
}

func (a *variantPages) adminRenameOption(c *fiber.Ctx) error {
	prod, ch, err := a.load(c)
	if err != nil {
		return err
	}
	i, name, ok := option(c, ch)
	if !ok {
		return a.refused(c, prod, shop.Errorf(shop.ECONFLICT, shop.MsgOptionsChanged))
	}
	typed := web.FormValue(c, "name")
	errs, err := a.editor.RenameOption(c.UserContext(), staffEmail(c), prod.ID, name, typed)
	if err != nil {
		return a.refused(c, prod, err)
	}
	if errs != nil {
		st := newVariantsState()
		st.errs[optionKey(i, "name")], st.rename[name], st.alert = errs["name"], typed, msgCorrectFields
		return a.render(c, fiber.StatusUnprocessableEntity, prod, ch, st)
	}
	to, _ := backoffice.ParseOptionName(typed)
	return a.done(c, prod, "Option "+name+" is called "+to+" now.")
}

func (a *variantPages) adminRemoveOption(c *fiber.Ctx) error {
	prod, ch, err := a.load(c)
	if err != nil {
		return err
	}
	_, name, ok := option(c, ch)
	if !ok {
		return a.refused(c, prod, shop.Errorf(shop.ECONFLICT, shop.MsgOptionsChanged))
	}
	change, err := a.editor.RemoveOption(c.UserContext(), staffEmail(c), prod.ID, name)
	if err != nil {
		return a.refused(c, prod, err)
	}
	msg := "Option " + name + " removed."
	if change.MovedTo != "" {
		msg += fmt.Sprintf(" The product is sold as one item again, with %d in stock.", change.Moved)
	}
	return a.done(c, prod, msg)
}

func (a *variantPages) adminAddValue(c *fiber.Ctx) error {
	prod, ch, err := a.load(c)
	if err != nil {
		return err
	}
	i, name, ok := option(c, ch)
	if !ok {
		return a.refused(c, prod, shop.Errorf(shop.ECONFLICT, shop.MsgOptionsChanged))
	}
	value, swatch := web.FormValue(c, "value"), web.FormValue(c, "swatch")
	errs, err := a.editor.AddValue(c.UserContext(), staffEmail(c), prod.ID, name, value, swatch)
	if err != nil {
		return a.refused(c, prod, err)
	}
	if errs != nil {
		st := newVariantsState()
		for field, msg := range errs {
			st.errs[optionKey(i, field)] = msg
		}
		st.newValue[name], st.alert = [2]string{value, swatch}, msgCorrectFields
		return a.render(c, fiber.StatusUnprocessableEntity, prod, ch, st)
	}
	v, _ := backoffice.ParseOptionValue(value, swatch)
	return a.done(c, prod, v.Value+" added to "+name+". Generate combinations to sell it.")
}

func (a *variantPages) adminRemoveValue(c *fiber.Ctx) error {
	prod, ch, err := a.load(c)
	if err != nil {
		return err
	}
	_, name, ok := option(c, ch)
	if !ok {
		return a.refused(c, prod, shop.Errorf(shop.ECONFLICT, shop.MsgOptionsChanged))
	}
	value := web.FormValue(c, "value")
	change, err := a.editor.RemoveValue(c.UserContext(), staffEmail(c), prod.ID, name, value)
	if err != nil {
		return a.refused(c, prod, err)
	}
	msg := value + " removed from " + name + "."
	if n := len(change.Deleted); n > 0 {
		stock := 0
		for _, v := range change.Deleted {
			stock += v.Stock
		}
		msg = fmt.Sprintf("%s removed from %s, with its %s (%d in stock).", value, name, plural(n, "variant", "variants"), stock)
	}
	return a.done(c, prod, msg)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func (a *variantPages) adminMoveValue(c *fiber.Ctx) error {
	prod, ch, err := a.load(c)
	if err != nil {
		return err
	}
	_, name, ok := option(c, ch)
	if !ok {
		return a.refused(c, prod, shop.Errorf(shop.ECONFLICT, shop.MsgOptionsChanged))
	}
	by := map[string]int{"up": -1, "down": 1}[web.FormValue(c, "dir")]
	value := web.FormValue(c, "value")
	if err := a.editor.MoveValue(c.UserContext(), staffEmail(c), prod.ID, name, value, by); err != nil {
		return a.refused(c, prod, err)
	}
	return a.done(c, prod, value+" moved "+map[int]string{-1: "up", 1: "down"}[by]+".")
}

func (a *variantPages) adminGenerate(c *fiber.Ctx) error {
	prod, ch, err := a.load(c)
	if err != nil {
		return err
	}
	change, err := a.editor.Generate(c.UserContext(), staffEmail(c), prod.ID, ch)
	if err != nil {
		return a.refused(c, prod, err)
	}
	msg := plural(len(change.Created), "variant", "variants") + " generated."
	if change.Moved > 0 {
		msg += fmt.Sprintf(" The %d in stock moved to %s.", change.Moved, shop.Variation(ch.Options, change.Created[0].Values))
	}
	return a.done(c, prod, msg)
}

// posted reports whether the form carries the field at all (an empty
// value counts), to tell the rows the page showed from variants made
// since.
func posted(c *fiber.Ctx, key string) bool {
	if c.Request().PostArgs().Has(key) {
		return true
	}
	if mf, err := c.MultipartForm(); err == nil && mf != nil {
		_, ok := mf.Value[key]
		return ok
	}
	return false
}

func rowKey(n int, field string) string { return fmt.Sprintf("v%d-%s", n, field) }

// adminSaveVariants saves every row the page showed that was changed. A
// row whose stock moved since is refused as a whole, with the stock now
// next to its field and what was typed kept; the other rows are saved.
func (a *variantPages) adminSaveVariants(c *fiber.Ctx) error {
	prod, ch, err := a.load(c)
	if err != nil {
		return err
	}
	ctx := c.UserContext()
	st := newVariantsState()
	rows := parseVariantRows(c, prod.Price, ch, st)
	if len(st.errs) > 0 {
		st.alert = msgCorrectFields + " Nothing was saved."
		return a.render(c, fiber.StatusUnprocessableEntity, prod, ch, st)
	}
	saved, refused, err := a.saveVariantRows(c, prod.ID, ch, rows, st)
	if err != nil {
		return err
	}
	if len(st.errs) == 0 && len(st.refused) == 0 {
		if saved == 0 {
			return a.RedirectWithFlash(c, variantsPath(prod.ID), "Nothing to save: no variant was changed.")
		}
		return a.done(c, prod, plural(saved, "variant", "variants")+" saved.")
	}
	if saved > 0 {
		if err := a.catalog.Reload(ctx); err != nil {
			a.Log.Error("catalogue reload after a variants edit", "err", err)
		}
	}
	// The refused rows keep what was typed, checked next time against the
	// stock found now; every other row shows what is stored now.
	now, err := a.store.EditChoices(ctx, prod.ID)
	if err != nil {
		return err
	}
	keepRefused(st, now, rows, refused)
	st.alert = "Nothing was saved."
	if saved > 0 {
		st.alert = plural(saved, "variant was", "variants were") + " saved."
	}
	if len(st.errs) > 0 {
		st.alert += " The ones marked below were not: their stock changed while you were editing."
	}
	return a.render(c, fiber.StatusUnprocessableEntity, prod, now, st)
}

// postedVariant is a row of the variants editor as posted and checked;
// n is its row number on the page.
type postedVariant struct {
	n      int
	before shop.Variant
	edit   shop.VariantEdit
}

// parseVariantRows reads and checks the rows the page showed, keeping what
// was typed and each problem in st. A variant made after the page was
// shown has no row.
func parseVariantRows(c *fiber.Ctx, productPrice shop.Cents, ch shop.Choices, st *variantsState) []postedVariant {
	var rows []postedVariant
	for i, v := range ch.Variants {
		if !posted(c, "stock_was."+v.ID) {
			continue // made after the page was shown
		}
		in := backoffice.VariantInput{SKU: web.FormValue(c, "sku."+v.ID), Price: web.FormValue(c, "price."+v.ID),
			Original: web.FormValue(c, "original."+v.ID), Stock: web.FormValue(c, "stock."+v.ID), StockWas: web.FormValue(c, "stock_was."+v.ID),
			Image: web.FormValue(c, "image."+v.ID), Enabled: web.FormValue(c, "enabled."+v.ID) != ""}
		st.rows[v.ID] = in
		e, errs := backoffice.ParseVariant(v.ID, in, productPrice)
		for field, msg := range errs {
			st.errs[rowKey(i+1, field)] = msg
		}
		rows = append(rows, postedVariant{n: i + 1, before: v, edit: e})
	}
	return rows
}

// saveVariantRows saves the changed rows one by one. A row the store
// refuses gets its problem in st and is returned in refused with what was
// typed; a variant gone meanwhile is named in st.refused.
func (a *variantPages) saveVariantRows(c *fiber.Ctx, productID string, ch shop.Choices, rows []postedVariant, st *variantsState) (int, map[string]backoffice.VariantInput, error) {
	saved, refused := 0, map[string]backoffice.VariantInput{}
	for _, r := range rows {
		if backoffice.Unchanged(r.before, r.edit) {
			continue
		}
		err := a.editor.SaveVariant(c.UserContext(), staffEmail(c), productID, r.before, r.edit)
		switch code := shop.ErrorCode(err); {
		case err == nil:
			saved++
		case code == shop.ECONFLICT || code == shop.EINVALID:
			field := shop.ErrorField(err)
			if field == "" {
				field = "stock"
			}
			st.errs[rowKey(r.n, field)] = shop.ErrorMessage(err)
			refused[r.edit.ID] = st.rows[r.edit.ID]
		case code == shop.ENOTFOUND:
			st.refused = append(st.refused, variantLabel(ch.Options, r.before)+": "+shop.ErrorMessage(err))
		default:
			return saved, refused, err
		}
	}
	return saved, refused, nil
}

// keepRefused leaves in st only the refused rows, as typed but checked
// against the stock now, with their errors renumbered to the variants'
// rows in now: the errors follow their variants.
func keepRefused(st *variantsState, now shop.Choices, rows []postedVariant, refused map[string]backoffice.VariantInput) {
	st.rows = map[string]backoffice.VariantInput{}
	keep := shop.FieldErrors{}
	for i, v := range now.Variants {
		in, ok := refused[v.ID]
		if !ok {
			continue
		}
		in.StockWas = strconv.Itoa(v.Stock)
		st.rows[v.ID] = in
		for _, r := range rows {
			if r.edit.ID == v.ID {
				for _, field := range []string{"sku", "price", "original", "stock", "image"} {
					if msg := st.errs[rowKey(r.n, field)]; msg != "" {
						keep[rowKey(i+1, field)] = msg
					}
				}
			}
		}
	}
	st.errs = keep
}
