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
	res, err := a.editor.ApplyBulk(ctx, staffEmail(c), prod.ID, b, stockShown(c, in.Selected), ch)
	if err != nil {
		return err
	}
	summary, changed := bulkSummary(b, res)
	if len(res.Refused) == 0 {
		return a.done(c, prod, summary)
	}
	if changed {
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
	selectRefused(st, ch, now, res.Refused)
	st.alert = strings.TrimSpace(summary + " These variants were not changed; they stay selected, with the stock as it is now:")
	return a.render(c, fiber.StatusUnprocessableEntity, prod, now, st)
}

// stockShown is the stock the page showed of each selected variant, which
// a stock change is checked against; a variant without it is left out.
func stockShown(c *fiber.Ctx, selected []string) map[string]int {
	was := map[string]int{}
	for _, id := range selected {
		if n, err := strconv.Atoi(web.FormValue(c, "was."+id)); err == nil && n >= 0 {
			was[id] = n
		}
	}
	return was
}

// bulkSummary says in a sentence what a bulk edit changed; changed is
// false when it changed nothing.
func bulkSummary(b backoffice.Bulk, res backoffice.BulkResult) (summary string, changed bool) {
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
	if s := strings.Join(done, "; "); s != "" {
		summary = strings.ToUpper(s[:1]) + s[1:] + "."
	}
	return summary, len(done) > 0
}

// selectRefused leaves selected only the variants whose stock change was
// refused, each with why next to its row in now and named in the list
// of refusals (by its options as the page showed them).
func selectRefused(st *variantsState, ch, now shop.Choices, refused map[string]error) {
	st.selected = map[string]bool{}
	for i, v := range now.Variants {
		if rerr, ok := refused[v.ID]; ok {
			st.selected[v.ID] = true
			st.errs[rowKey(i+1, "stock")] = shop.ErrorMessage(rerr)
		}
	}
	for _, id := range sortedKeys(refused) {
		label := id
		if v, ok := ch.Variant(id); ok {
			label = variantLabel(ch.Options, v)
		}
		st.refused = append(st.refused, label+": "+shop.ErrorMessage(refused[id]))
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
