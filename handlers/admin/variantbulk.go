package admin

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// postedKeys lists the ids of the posted fields named prefix+id, in order.
func postedKeys(c *fiber.Ctx, prefix string) []string {
	var ids []string
	c.Request().PostArgs().VisitAll(func(k, _ []byte) {
		if id, ok := strings.CutPrefix(string(k), prefix); ok && id != "" {
			ids = append(ids, id)
		}
	})
	if mf, err := c.MultipartForm(); err == nil && mf != nil {
		for k := range mf.Value {
			if id, ok := strings.CutPrefix(k, prefix); ok && id != "" {
				ids = append(ids, id)
			}
		}
	}
	sort.Strings(ids)
	return ids
}

// adminBulkVariants gives the selected variants one price and sets or
// adds to their stock; each stock change is checked against the stock the
// page showed, and the variants whose stock moved are named and stay
// selected, with the stock now.
func (a *variantPages) adminBulkVariants(c *fiber.Ctx) error {
	prod, ch, err := a.load(c)
	if err != nil {
		return err
	}
	ctx := c.UserContext()
	in := backoffice.BulkInput{Selected: postedKeys(c, "select."), Price: web.FormValue(c, "price"),
		StockMode: web.FormValue(c, "stock_mode"), Stock: web.FormValue(c, "stock")}
	st := newVariantsState()
	st.bulk = pages.BulkForm{Price: in.Price, StockMode: in.StockMode, Stock: in.Stock}
	for _, id := range in.Selected {
		st.selected[id] = true
	}
	b, errs := backoffice.ParseBulk(in)
	if errs != nil {
		for field, msg := range errs {
			st.errs["bulk-"+field] = msg
		}
		st.alert = msgCorrectFields + " Nothing was changed."
		return a.render(c, fiber.StatusUnprocessableEntity, prod, ch, st)
	}
	was := map[string]int{}
	for _, id := range in.Selected {
		if n, err := strconv.Atoi(web.FormValue(c, "was."+id)); err == nil && n >= 0 {
			was[id] = n
		}
	}
	res, err := a.editor.ApplyBulk(ctx, staffEmail(c), prod.ID, b, was, ch)
	if err != nil {
		return err
	}
	var done []string
	if res.Priced > 0 {
		done = append(done, fmt.Sprintf("%s now sold at %s", plural(res.Priced, "variant", "variants"), b.Price))
	}
	if b.StockMode != "" && res.Stocked > 0 {
		verb := fmt.Sprintf("stock set to %d", b.Stock)
		if b.StockMode == backoffice.BulkStockAdd {
			verb = fmt.Sprintf("%d added to the stock", b.Stock)
		}
		done = append(done, fmt.Sprintf("%s of %s", verb, plural(res.Stocked, "variant", "variants")))
	}
	summary := ""
	if s := strings.Join(done, "; "); s != "" {
		summary = strings.ToUpper(s[:1]) + s[1:] + "."
	}
	if len(res.Refused) == 0 {
		return a.done(c, prod, summary)
	}
	if len(done) > 0 {
		if err := a.catalog.Reload(ctx); err != nil {
			a.Log.Error("catalogue reload after a variants edit", "err", err)
		}
	}
	// What was refused stays selected, to apply again against the stock
	// shown now; what went through is not selected any more, so applying
	// again cannot add twice.
	now, err := a.store.EditChoices(ctx, prod.ID)
	if err != nil {
		return err
	}
	st.selected = map[string]bool{}
	for i, v := range now.Variants {
		if rerr, ok := res.Refused[v.ID]; ok {
			st.selected[v.ID] = true
			st.errs[rowKey(i+1, "stock")] = shop.ErrorMessage(rerr)
		}
	}
	for _, id := range sortedKeys(res.Refused) {
		label := id
		if v, ok := ch.Variant(id); ok {
			label = variantLabel(ch.Options, v)
		}
		st.refused = append(st.refused, label+": "+shop.ErrorMessage(res.Refused[id]))
	}
	st.alert = strings.TrimSpace(summary + " These variants were not changed; they stay selected, with the stock as it is now:")
	return a.render(c, fiber.StatusUnprocessableEntity, prod, now, st)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
