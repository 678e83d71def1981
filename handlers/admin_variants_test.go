package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/shop"
)

func variantsPath(id string) string { return "/admin/products/" + id + "/variants" }

// postVariants posts one of the variants editor's forms as an admin and
// wants the redirect back to the editor.
func (b *backOffice) postVariants(t *testing.T, id, action string, form url.Values) {
	t.Helper()
	res, doc := b.admin.post(variantsPath(id)+action, form)
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != variantsPath(id) {
		t.Fatalf("POST %s %v: %d to %q: %s", action, form, res.StatusCode, res.Header.Get("Location"),
			doc.Find(".field-error, [role=alert]").Text())
	}
}

// sizes gives a product the option Size with values, and generates its
// variants, through the editor.
func (b *backOffice) sizes(t *testing.T, id string, values ...string) {
	t.Helper()
	b.postVariants(t, id, "/options", url.Values{"name": {"Size"}})
	for _, v := range values {
		b.postVariants(t, id, "/values", url.Values{"option": {"Size"}, "value": {v}})
	}
	b.postVariants(t, id, "/generate", nil)
}

// variantRows reads the editor's rows as "id label stock", in order.
func variantRows(doc *goquery.Document) []string {
	var out []string
	doc.Find(`[data-testid="variant-row"]`).Each(func(_ int, r *goquery.Selection) {
		out = append(out, fmt.Sprintf("%s %s %s", r.AttrOr("data-variant", ""), strings.TrimSpace(r.Find(`[data-testid="variant-label"]`).Text()),
			r.Find(`input[name^="stock."]`).AttrOr("value", "")))
	})
	return out
}

// row is the editor's row of a variant.
func row(doc *goquery.Document, variant string) *goquery.Selection {
	return doc.Find(fmt.Sprintf(`[data-testid="variant-row"][data-variant=%q]`, variant))
}

// sell has a guest claim qty of a variant as an order, as Place Order
// does: the sale takes the stock at once.
func (b *backOffice) sell(t *testing.T, variant string, qty int) {
	t.Helper()
	ctx := context.Background()
	owner := "guest_" + shop.RandomHex(4)
	if err := b.app.db.AddToCart(ctx, owner, variant, qty); err != nil {
		t.Fatal(err)
	}
	_, _, err := b.app.db.ClaimCart(ctx, owner, owner, func(c shop.Cart, _ int) (*shop.Order, error) {
		o := &shop.Order{ID: "NOC-" + strings.ToUpper(shop.RandomHex(4)), UserID: owner, Email: "buyer@example.com", ShipTo: shop.Address{Name: "B"},
			PaymentMethod: "Visa ending 4242", ChargeKey: "chg_" + owner, LeaseUntil: time.Now().Add(time.Minute)}
		for _, l := range c.Lines {
			o.Lines = append(o.Lines, shop.OrderLine{ProductID: l.Product.ID, VariantID: l.VariantID, Variation: l.Variation,
				Name: l.Product.Title, Price: l.Product.Price, Quantity: l.Quantity})
			o.Subtotal += l.Total()
		}
		o.Total = o.Subtotal
		return o, nil
	})
	if err != nil {
		t.Fatalf("sell %d of %s: %v", qty, variant, err)
	}
}

// auditActions lists the audit log's actions on subjects, oldest first.
func (b *backOffice) auditActions(t *testing.T, subjects ...string) []string {
	t.Helper()
	entries, _, err := b.app.db.AuditLog(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i := len(entries) - 1; i >= 0; i-- {
		for _, s := range subjects {
			if entries[i].Subject == s {
				out = append(out, entries[i].Action)
			}
		}
	}
	return out
}

// A staff member adds the option Size and its values; the page says
// beforehand where the product's stock goes; generating makes one variant
// per size, the first with that stock; a size added later gets its own.
func TestAdminVariants_AddSizeGeneratesVariants(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	ctx := context.Background()
	_, doc := b.admin.get("/admin/products/nb-041")
	if got := doc.Find(`[data-testid="variants-link"]`).AttrOr("href", ""); got != variantsPath("nb-041") {
		t.Errorf("the product editor links %q", got)
	}
	res, doc := b.admin.get(variantsPath("nb-041"))
	if res.StatusCode != http.StatusOK {
		t.Fatalf("editor: %d", res.StatusCode)
	}
	if got := variantRows(doc); strings.Join(got, "|") != "nb-041 The product as one item 60" {
		t.Errorf("rows before any option: %q", got)
	}

	b.postVariants(t, "nb-041", "/options", url.Values{"name": {" Size "}})
	b.postVariants(t, "nb-041", "/values", url.Values{"option": {"Size"}, "value": {"M"}})
	b.postVariants(t, "nb-041", "/values", url.Values{"option": {"Size"}, "value": {"L"}})
	_, doc = b.admin.get(variantsPath("nb-041"))
	if got := text(doc, `[data-testid="flash"]`); got != "L added to Size. Generate combinations to sell it." {
		t.Errorf("flash %q", got)
	}
	var values []string
	doc.Find(`[data-option="Size"] [data-testid="option-value"]`).Each(func(_ int, v *goquery.Selection) { values = append(values, v.AttrOr("data-value", "")) })
	if strings.Join(values, ",") != "M,L" {
		t.Errorf("Size's values %q", values)
	}
	if got := text(doc, `[data-testid="default-stock-notice"]`); !strings.Contains(got, "with 60 in stock") || !strings.Contains(got, "move to the first variant, Size: M") {
		t.Errorf("no word beforehand of where the stock goes: %q", got)
	}
	if got := text(doc, `[data-testid="generate-form"] p`); got != "2 combinations have no variant yet. New variants start enabled, with no stock and the product's price." {
		t.Errorf("generate says %q", got)
	}

	b.postVariants(t, "nb-041", "/generate", nil)
	_, doc = b.admin.get(variantsPath("nb-041"))
	if got := text(doc, `[data-testid="flash"]`); got != "2 variants generated. The 60 in stock moved to Size: M." {
		t.Errorf("flash %q", got)
	}
	if got := strings.Join(variantRows(doc), "|"); got != "nb-041-m Size: M 60|nb-041-l Size: L 0" {
		t.Errorf("rows %q", got)
	}
	if doc.Find(`[data-testid="default-stock-notice"]`).Length() != 0 || doc.Find(`[data-testid="generate-form"]`).Length() != 0 {
		t.Error("the notice or the generate button is still there with every combination made")
	}
	if _, err := b.app.db.Stock(ctx, "nb-041"); shop.ErrorCode(err) != shop.ENOTFOUND {
		t.Errorf("the default variant is still sold: %v", err)
	}

	// A size more: the value appears, and generating makes its variant.
	b.postVariants(t, "nb-041", "/values", url.Values{"option": {"Size"}, "value": {"XL"}})
	_, doc = b.admin.get(variantsPath("nb-041"))
	if doc.Find(`[data-option="Size"] [data-value="XL"]`).Length() != 1 {
		t.Fatal("XL is not listed")
	}
	b.postVariants(t, "nb-041", "/generate", nil)
	_, doc = b.admin.get(variantsPath("nb-041"))
	if got := strings.Join(variantRows(doc), "|"); got != "nb-041-m Size: M 60|nb-041-l Size: L 0|nb-041-xl Size: XL 0" {
		t.Errorf("rows %q", got)
	}
	if got := text(doc, `[data-testid="no-generate"]`); got != backoffice.MsgAllGenerated {
		t.Errorf("with every combination made: %q", got)
	}
	// The shop shows it at once: the product's stock is its variants', and
	// shoppers choose a size, of which only M is in stock.
	if p, err := b.app.catalog.Product(ctx, "nb-041"); err != nil || p.OptionCount != 1 || p.Stock != 60 || p.PriceMin != p.Price {
		t.Errorf("catalogue: %+v, %v", p, err)
	}
	_, page := b.app.client(t).get("/product/nb-041")
	if got := optionValues(page); fmt.Sprint(got) != "map[Size=L:crossed out Size=M:available Size=XL:crossed out]" {
		t.Errorf("the product page offers %v", got)
	}
	if res := b.shopper.addToCart("/product/nb-041", "nb-041", "2", "variant", "nb-041-m"); res.StatusCode != http.StatusSeeOther {
		t.Errorf("add Size M to the cart: %d", res.StatusCode)
	}
	if _, cart := b.shopper.get("/cart"); !strings.Contains(cart.Find("main").Text(), "Size: M") {
		t.Error("the cart does not name the size")
	}

	// The product editor now leaves stock to the variants: saving it
	// changes none.
	form := b.editorForm(t, "nb-041")
	if _, doc := b.admin.get("/admin/products/nb-041"); doc.Find(`input#stock`).Length() != 0 || !strings.Contains(text(doc, `[data-testid="stock-in-variants"]`), "60 across its variants") {
		t.Error("the product editor still edits the stock of a product with variants")
	}
	form.Set("title", "Chunky Knit Throw")
	if res, _ := b.admin.post("/admin/products/nb-041", form); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("save the product: %d", res.StatusCode)
	}
	if n, _ := b.app.db.Stock(ctx, "nb-041-m"); n != 60 {
		t.Errorf("a product save moved a variant's stock to %d", n)
	}

	want := []string{"variant.option.add", "variant.value.add", "variant.value.add", "variant.generate", "variant.value.add", "variant.generate", "product.update"}
	if got := b.auditActions(t, "nb-041"); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("audit log %q, want %q", got, want)
	}
	entries, _, _ := b.app.db.AuditLog(ctx, 1)
	for _, e := range entries {
		if e.Action == "variant.generate" && strings.Contains(e.After, `"stock_moved":60`) {
			if e.Actor != "admin@example.com" || !strings.Contains(e.After, `"stock_moved_to":"nb-041-m"`) {
				t.Errorf("generate's entry: %+v", e)
			}
			return
		}
	}
	t.Error("the audit log does not say where the stock went")
}

// A sale while the editor is open: a stock typed over it is refused next
// to the field, with the stock now, keeping what was typed; the next save
// is checked against the stock found then.
func TestAdminVariants_StaleStockKeepsWhatWasTyped(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	ctx := context.Background()
	b.sizes(t, "nb-045", "S", "M")
	if err := b.app.db.ChangeVariantStock(ctx, "nb-045-m", 0, 5); err != nil {
		t.Fatal(err)
	}
	_, doc := b.admin.get(variantsPath("nb-045"))
	stale := formValues(doc.Find(`[data-testid="variants-form"]`))
	b.sell(t, "nb-045-m", 2) // 3 left

	stale.Set("stock.nb-045-m", "12")
	stale.Set("sku.nb-045-m", "NB045-M")
	stale.Set("sku.nb-045-s", "NB045-S")
	res, doc := b.admin.post(variantsPath("nb-045"), stale)
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("a stock typed over a sale: %d, want 422", res.StatusCode)
	}
	m := row(doc, "nb-045-m")
	if got := strings.TrimSpace(m.Find(".field-error").Text()); got != "Stock changed while you were editing: it is now 3." {
		t.Errorf("stock message %q", got)
	}
	if m.Find(`input[name="stock.nb-045-m"]`).AttrOr("aria-invalid", "") != "true" {
		t.Error("the stock field is not marked invalid")
	}
	again := formValues(doc.Find(`[data-testid="variants-form"]`))
	if again.Get("stock.nb-045-m") != "12" || again.Get("sku.nb-045-m") != "NB045-M" || again.Get("stock_was.nb-045-m") != "3" {
		t.Errorf("typed values lost: stock %q, sku %q, stock_was %q", again.Get("stock.nb-045-m"), again.Get("sku.nb-045-m"), again.Get("stock_was.nb-045-m"))
	}
	if !strings.Contains(text(doc, `[data-testid="form-alert"]`), "1 variant was saved") {
		t.Errorf("alert %q", text(doc, `[data-testid="form-alert"]`))
	}
	c, _ := b.app.db.EditChoices(ctx, "nb-045")
	if v, _ := c.Variant("nb-045-m"); v.Stock != 3 || v.SKU != "" {
		t.Errorf("the refused row was saved: %+v", v)
	}
	if v, _ := c.Variant("nb-045-s"); v.SKU != "NB045-S" {
		t.Errorf("the other row was not saved: %+v", v)
	}

	// Saved again as shown: checked against the 3 found then.
	if res, _ := b.admin.post(variantsPath("nb-045"), again); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("save after the refusal: %d", res.StatusCode)
	}
	if n, _ := b.app.db.Stock(ctx, "nb-045-m"); n != 12 {
		t.Errorf("stock %d, want the 12 typed", n)
	}
	// The same post again (a double submit) adds nothing: it is checked
	// against the 3 it showed, and the stock is 12 now.
	res, doc = b.admin.post(variantsPath("nb-045"), again)
	if res.StatusCode != http.StatusUnprocessableEntity ||
		strings.TrimSpace(row(doc, "nb-045-m").Find(".field-error").Text()) != "Stock changed while you were editing: it is now 12." {
		t.Errorf("a double submit: %d %q", res.StatusCode, row(doc, "nb-045-m").Find(".field-error").Text())
	}
	// The page saved as it is changes nothing and says so.
	_, doc = b.admin.get(variantsPath("nb-045"))
	fresh := formValues(doc.Find(`[data-testid="variants-form"]`))
	if res, _ := b.admin.post(variantsPath("nb-045"), fresh); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("an unchanged save: %d", res.StatusCode)
	}
	if _, doc := b.admin.get(variantsPath("nb-045")); text(doc, `[data-testid="flash"]`) != "Nothing to save: no variant was changed." {
		t.Errorf("flash %q", text(doc, `[data-testid="flash"]`))
	}
	if n, _ := b.app.db.Stock(ctx, "nb-045-m"); n != 12 {
		t.Errorf("stock %d after the double submit, want 12", n)
	}
	// A row without the stock it was shown with writes no stock.
	fresh.Set("stock_was.nb-045-m", "")
	fresh.Set("stock.nb-045-m", "1")
	res, doc = b.admin.post(variantsPath("nb-045"), fresh)
	if res.StatusCode != http.StatusUnprocessableEntity || strings.TrimSpace(row(doc, "nb-045-m").Find(".field-error").Text()) != backoffice.MsgPageOutdated {
		t.Errorf("a row without stock_was: %d", res.StatusCode)
	}
	want := []string{"variant.update", "variant.update"}
	if got := b.auditActions(t, "nb-045-m", "nb-045-s"); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("audit log %q, want %q", got, want)
	}
}

// The bulk edit gives the selected variants a price and sets or adds to
// their stock, each change checked against the stock the page showed: a
// variant sold meanwhile is named, keeps its stock and stays selected.
func TestAdminVariants_Bulk(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	ctx := context.Background()
	b.sizes(t, "nb-046", "S", "M", "L")
	bulk := func(doc *goquery.Document, selected []string, fields ...string) url.Values {
		form := formValues(doc.Find(`[data-testid="bulk-form"]`))
		for _, id := range selected {
			form.Set("select."+id, "1")
		}
		for i := 0; i+1 < len(fields); i += 2 {
			form.Set(fields[i], fields[i+1])
		}
		return form
	}
	_, doc := b.admin.get(variantsPath("nb-046"))
	b.postVariants(t, "nb-046", "/bulk", bulk(doc, []string{"nb-046-s", "nb-046-m"}, "price", "199", "stock_mode", "set", "stock", "10"))
	_, doc = b.admin.get(variantsPath("nb-046"))
	if got := text(doc, `[data-testid="flash"]`); got != "2 variants now sold at $199.00; stock set to 10 of 2 variants." {
		t.Errorf("flash %q", got)
	}
	if got := strings.Join(variantRows(doc), "|"); got != "nb-046-s Size: S 10|nb-046-m Size: M 10|nb-046-l Size: L 0" {
		t.Errorf("rows %q", got)
	}
	if got := row(doc, "nb-046-m").Find(`input[name="price.nb-046-m"]`).AttrOr("value", ""); got != "199" {
		t.Errorf("M's price %q", got)
	}
	if got := row(doc, "nb-046-l").Find(`input[name="price.nb-046-l"]`).AttrOr("value", "x"); got != "" {
		t.Errorf("L's price %q, want the product's", got)
	}

	// Add 5 to all three while M sells 4.
	stale := bulk(doc, []string{"nb-046-s", "nb-046-m", "nb-046-l"}, "stock_mode", "add", "stock", "5")
	b.sell(t, "nb-046-m", 4)
	res, doc := b.admin.post(variantsPath("nb-046")+"/bulk", stale)
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("a bulk edit over a sale: %d, want 422", res.StatusCode)
	}
	for id, want := range map[string]int{"nb-046-s": 15, "nb-046-m": 6, "nb-046-l": 5} {
		if n, _ := b.app.db.Stock(ctx, id); n != want {
			t.Errorf("%s: stock %d, want %d", id, n, want)
		}
	}
	if got := text(doc, `[data-testid="bulk-refused"]`); got != "Size: M: Stock changed while you were editing: it is now 6." {
		t.Errorf("refused %q", got)
	}
	if got := strings.TrimSpace(row(doc, "nb-046-m").Find(".field-error").Text()); got != "Stock changed while you were editing: it is now 6." {
		t.Errorf("M's message %q", got)
	}
	again := formValues(doc.Find(`[data-testid="bulk-form"]`))
	var selected []string
	doc.Find(`input[name^="select."][checked]`).Each(func(_ int, in *goquery.Selection) { selected = append(selected, in.AttrOr("name", "")) })
	if strings.Join(selected, ",") != "select.nb-046-m" || again.Get("stock") != "5" || again.Get("stock_mode") != "add" || again.Get("was.nb-046-m") != "6" {
		t.Errorf("after the refusal: selected %q, stock %q %q, was %q", selected, again.Get("stock_mode"), again.Get("stock"), again.Get("was.nb-046-m"))
	}
	// Applied again: only M, against the 6 it has now.
	again.Set("select.nb-046-m", "1")
	b.postVariants(t, "nb-046", "/bulk", again)
	if n, _ := b.app.db.Stock(ctx, "nb-046-m"); n != 11 {
		t.Errorf("M after applying again: %d, want 11", n)
	}
	if n, _ := b.app.db.Stock(ctx, "nb-046-s"); n != 15 {
		t.Errorf("S after applying again: %d, want 15 (not added twice)", n)
	}
	got := b.auditActions(t, "nb-046-s", "nb-046-m", "nb-046-l")
	want := []string{"variant.price", "variant.price", "variant.stock", "variant.stock", "variant.stock", "variant.stock", "variant.stock"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("audit log %q, want %q", got, want)
	}
}

// Whatever is typed, the editor answers with a message next to the field
// (422, what was typed kept) or, for a page out of date, back to the
// editor with why: never a 500, and nothing changes.
func TestAdminVariants_InputErrors(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	b.sizes(t, "nb-047", "S", "M")
	b.postVariants(t, "nb-047", "/options", url.Values{"name": {"Colour"}})
	long := strings.Repeat("x", 41)
	rowForm := func(field, value string) url.Values {
		_, doc := b.admin.get(variantsPath("nb-047"))
		f := formValues(doc.Find(`[data-testid="variants-form"]`))
		f.Set(field, value)
		return f
	}
	for _, tc := range []struct {
		name, action string
		form         url.Values
		field, msg   string // the error's input id and message
		kept         string // the input (by id) that keeps what was typed
	}{
		{"no option name", "/options", url.Values{"name": {"  "}}, "new-option", backoffice.MsgOptionName, ""},
		{"a long option name", "/options", url.Values{"name": {long}}, "new-option", backoffice.MsgOptionName, "new-option"},
		{"an option twice", "/options", url.Values{"name": {"size"}}, "new-option", "This product has an option called Size already.", "new-option"},
		{"a third option", "/options", url.Values{"name": {"Fit"}}, "", "", ""}, // allowed
		{"no value", "/values", url.Values{"option": {"Size"}, "value": {""}}, "opt1-value", backoffice.MsgOptionValue, ""},
		{"a value twice", "/values", url.Values{"option": {"Size"}, "value": {"m"}}, "opt1-value", "Size has the value M already.", "opt1-value"},
		{"a bad swatch", "/values", url.Values{"option": {"Colour"}, "value": {"Red"}, "swatch": {"red"}}, "opt2-swatch", backoffice.MsgSwatch, "opt2-value"},
		{"rename to nothing", "/options/rename", url.Values{"option": {"Size"}, "name": {""}}, "opt1-name", backoffice.MsgOptionName, ""},
		{"rename to another's name", "/options/rename", url.Values{"option": {"Colour"}, "name": {"SIZE"}}, "opt2-name", "This product has an option called Size already.", "opt2-name"},
		{"a price that is not one", "", rowForm("price.nb-047-s", "abc"), "v1-price", "Enter a price in dollars, such as 19.99. Or leave it empty for the product's price.", "v1-price"},
		{"a compare-at below the price", "", rowForm("original.nb-047-s", "1"), "v1-original", backoffice.MsgCompareAt, "v1-original"},
		{"a negative stock", "", rowForm("stock.nb-047-m", "-1"), "v2-stock", backoffice.MsgVariantStock, "v2-stock"},
		{"a photo that is no address", "", rowForm("image.nb-047-m", "ftp://img"), "v2-image", backoffice.MsgPhotoURL, "v2-image"},
		{"bulk: nothing selected", "/bulk", url.Values{"price": {"10"}}, "bulk-selected", backoffice.MsgSelectSome, "bulk-price"},
		{"bulk: nothing to give", "/bulk", url.Values{"select.nb-047-s": {"1"}}, "bulk-price", backoffice.MsgBulkNothing, ""},
		{"bulk: add nothing", "/bulk", url.Values{"select.nb-047-s": {"1"}, "stock_mode": {"add"}, "stock": {"0"}}, "bulk-stock", backoffice.MsgBulkAdd, "bulk-stock"},
		{"bulk: a price that is not one", "/bulk", url.Values{"select.nb-047-s": {"1"}, "price": {"1e3"}}, "bulk-price", "Enter a price in dollars, such as 19.99. Or leave it empty.", "bulk-price"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, doc := b.admin.post(variantsPath("nb-047")+tc.action, tc.form)
			if tc.field == "" {
				if res.StatusCode != http.StatusSeeOther {
					t.Errorf("status %d, want 303", res.StatusCode)
				}
				return
			}
			if res.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("status %d, want 422", res.StatusCode)
			}
			if got := text(doc, `[data-testid="`+tc.field+`-error"]`); got != tc.msg {
				t.Errorf("message %q, want %q", got, tc.msg)
			}
			if tc.kept != "" {
				name := doc.Find("#"+tc.kept).AttrOr("name", "")
				if got := doc.Find("#"+tc.kept).AttrOr("value", ""); got != tc.form.Get(name) {
					t.Errorf("%s shows %q, want what was typed, %q", tc.kept, got, tc.form.Get(name))
				}
			}
		})
	}
	c, _ := b.app.db.EditChoices(context.Background(), "nb-047")
	if len(c.Options) != 3 || len(c.Options[0].Values) != 2 || len(c.Options[1].Values) != 0 || c.Variants[0].Price != 0 || c.Variants[1].Stock != 0 {
		t.Errorf("a refused form changed something: %+v", c)
	}

	// A page out of date, or an edit the options don't allow now: back to
	// the editor with why.
	for _, tc := range []struct {
		name, action string
		form         url.Values
		flash        string
	}{
		{"rename an option that is gone", "/options/rename", url.Values{"option": {"Shape"}, "name": {"Form"}}, shop.MsgOptionsChanged},
		{"a value of an option that is gone", "/values", url.Values{"option": {"Shape"}, "value": {"Round"}}, shop.MsgOptionsChanged},
		{"remove a value that is gone", "/values/remove", url.Values{"option": {"Size"}, "value": {"XL"}}, shop.MsgOptionsChanged},
		{"remove an option with values", "/options/remove", url.Values{"option": {"Size"}}, fmt.Sprintf(shop.MsgOptionHasValues, "Size")},
		{"move nowhere", "/values/move", url.Values{"option": {"Size"}, "value": {"S"}, "dir": {"sideways"}}, backoffice.MsgPageOutdated},
		{"generate with an option without values", "/generate", nil, fmt.Sprintf(backoffice.MsgOptionEmpty, "Colour")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b.postVariants(t, "nb-047", tc.action, tc.form)
			if _, doc := b.admin.get(variantsPath("nb-047")); text(doc, `[data-testid="flash"]`) != tc.flash {
				t.Errorf("flash %q, want %q", text(doc, `[data-testid="flash"]`), tc.flash)
			}
		})
	}
	if res, _ := b.admin.get(variantsPath("nb-999")); res.StatusCode != http.StatusNotFound {
		t.Errorf("the editor of a product that does not exist: %d", res.StatusCode)
	}
	if res, _ := b.admin.post(variantsPath("nb-999")+"/options", url.Values{"name": {"Size"}}); res.StatusCode != http.StatusNotFound {
		t.Errorf("an option for a product that does not exist: %d", res.StatusCode)
	}
}

// Fulfilment staff have no product editor, so no variants editor either:
// every address of it is the shop's ordinary 404, and nothing changes.
func TestAdminVariants_FulfilmentCannotEdit(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	b.sizes(t, "nb-048", "S")
	for _, tc := range []struct {
		method, action string
		form           url.Values
	}{
		{http.MethodGet, "", nil},
		{http.MethodPost, "/options", url.Values{"name": {"Colour"}}},
		{http.MethodPost, "/values", url.Values{"option": {"Size"}, "value": {"M"}}},
		{http.MethodPost, "/values/remove", url.Values{"option": {"Size"}, "value": {"S"}}},
		{http.MethodPost, "/generate", nil},
		{http.MethodPost, "", url.Values{"stock.nb-048-s": {"9"}, "stock_was.nb-048-s": {"0"}}},
		{http.MethodPost, "/bulk", url.Values{"select.nb-048-s": {"1"}, "stock": {"9"}, "was.nb-048-s": {"0"}}},
	} {
		var res *http.Response
		if tc.method == http.MethodGet {
			res, _ = b.fulfi.get(variantsPath("nb-048") + tc.action)
		} else {
			res, _ = b.fulfi.post(variantsPath("nb-048")+tc.action, tc.form)
		}
		if res.StatusCode != http.StatusNotFound {
			t.Errorf("fulfilment %s %s: %d, want 404", tc.method, tc.action, res.StatusCode)
		}
	}
	if got := fmt.Sprint(variantRows(mustGet(t, b.admin, variantsPath("nb-048")))); got != "[nb-048-s Size: S 60]" {
		t.Errorf("after fulfilment's posts: %s", got)
	}
	if got := b.auditActions(t, "nb-048", "nb-048-s"); len(got) != 3 {
		t.Errorf("audit log %q: fulfilment's posts were recorded", got)
	}
}

func mustGet(t *testing.T, c *client, path string) *goquery.Document {
	t.Helper()
	res, doc := c.get(path)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d", path, res.StatusCode)
	}
	return doc
}
