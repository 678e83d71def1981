package handlers_test

import (
	"context"
	"encoding/csv"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/money"
	"github.com/nocturne/storefront/internal/shop"
)

// placeVariantOrder has the shopper buy one of a variant and returns the
// order id.
func (b *backOffice) placeVariantOrder(t *testing.T, product, variant string) string {
	t.Helper()
	if res := b.shopper.addToCart("/product/"+product, product, "1", "variant", variant); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("add %s to cart: %d", variant, res.StatusCode)
	}
	checkoutToReview(t, b.shopper, testCard)
	loc := orderPath(placeOrder(t, b.shopper))
	if !strings.HasPrefix(loc, "/orders/NOC-") {
		t.Fatalf("place order of %s: %q", variant, loc)
	}
	return strings.TrimPrefix(loc, "/orders/")
}

// Three orders are shipped from one form, each with its own carrier and
// tracking number. A missing tracking number refuses the lot, next to its
// row's field, with every row as typed; a cancelled order in the
// selection is left out and says why; then all three ship, each with its
// audit entry and e-mail, and the list says so.
func TestAdmin_BulkShip(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	ctx := context.Background()
	first := b.orderID
	second := b.placeOrder(t, "nb-002", "1")
	third := b.placeOrder(t, "nb-003", "1")
	gone := b.placeOrder(t, "nb-004", "1")
	if _, res := confirmThrough(t, b.admin, "/admin/orders/"+gone+"/cancel", url.Values{"reason": {"Asked by phone"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("cancel: %d", res.StatusCode)
	}

	_, doc := b.fulfi.get("/admin/orders?status=")
	form := doc.Find(`form[data-testid="bulk-form"]`)
	if got := form.Find(`input[type="checkbox"][name="id"]`).Length(); got != 4 {
		t.Fatalf("the list has %d boxes, want one an order", got)
	}
	if got := form.Find(`input[name="back"]`).AttrOr("value", ""); got != "/admin/orders?status=" {
		t.Errorf("the list sends back %q", got)
	}

	back := "/admin/orders?status=processing"
	res, doc := b.fulfi.post("/admin/orders/bulk/ship-form", url.Values{"id": {first, second, gone, third}, "back": {back}})
	if res.StatusCode != http.StatusOK {
		t.Fatalf("ship form: %d", res.StatusCode)
	}
	if got := rowOrders(doc); !slices.Equal(got, []string{first, second, third}) {
		t.Errorf("rows %v, want the three that can ship", got)
	}
	if got := text(doc, `[data-testid="bulk-skipped-order"]`); got != gone+": It was cancelled." {
		t.Errorf("left out: %q", got)
	}

	typed := url.Values{"order": {first, second, third}, "back": {back},
		"carrier-" + first: {"UPS"}, "tracking-" + first: {"1z999aa10123456784"},
		"carrier-" + second: {"DHL"}, "tracking-" + second: {" "},
		"carrier-" + third: {"FedEx"}, "tracking-" + third: {"ab-1234"}}
	res, doc = b.fulfi.post("/admin/orders/bulk/mark-shipped", typed)
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("a row without tracking: %d, want 422", res.StatusCode)
	}
	if got := text(doc, `[data-testid="tracking-`+second+`-error"]`); got != backoffice.MsgTrackingRequired {
		t.Errorf("tracking error of %s: %q", second, got)
	}
	if got := doc.Find(`.field-error`).Length(); got != 1 {
		t.Errorf("%d field errors, want only the missing tracking number's", got)
	}
	again := formFields(doc.Find(`form[data-testid="bulk-ship-form"]`))
	for _, k := range []string{"carrier-" + first, "tracking-" + first, "carrier-" + second, "carrier-" + third, "tracking-" + third, "back"} {
		if again.Get(k) != typed.Get(k) {
			t.Errorf("%s: the form shows %q, typed %q", k, again.Get(k), typed.Get(k))
		}
	}
	for _, id := range []string{first, second, third} {
		if o, _ := b.app.db.Order(ctx, id); o.Status != shop.StatusProcessing {
			t.Errorf("%s is %s after a refused bulk ship", id, o.Status)
		}
	}

	again.Set("tracking-"+second, "JD0002")
	res, _ = b.fulfi.post("/admin/orders/bulk/mark-shipped", again)
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != back {
		t.Fatalf("bulk ship: %d to %q, want 303 to %q", res.StatusCode, res.Header.Get("Location"), back)
	}
	_, doc = b.fulfi.get(back)
	if got := text(doc, `[data-testid="flash"]`); got != "3 orders marked as shipped; the shoppers were e-mailed." {
		t.Errorf("flash %q", got)
	}
	want := map[string][2]string{first: {"UPS", "1Z999AA10123456784"}, second: {"DHL", "JD0002"}, third: {"FedEx", "AB-1234"}}
	for id, w := range want {
		o, _ := b.app.db.Order(ctx, id)
		if o.Status != shop.StatusShipped || o.Carrier != w[0] || o.TrackingNumber != w[1] {
			t.Errorf("%s: %s with %s %s, want shipped with %s %s", id, o.Status, o.Carrier, o.TrackingNumber, w[0], w[1])
		}
	}
	entries, _, err := b.app.db.AuditLog(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	shipped := map[string]bool{}
	for _, e := range entries {
		if e.Action == "order.shipped" && e.Actor == "fay@example.com" && strings.Contains(e.After, `"status":"shipped"`) {
			shipped[e.Subject] = true
		}
	}
	if len(shipped) != 3 || !shipped[first] || !shipped[second] || !shipped[third] {
		t.Errorf("audit log has order.shipped for %v, want the three", shipped)
	}
	mails, _ := b.app.db.Outbox(ctx)
	n := 0
	for _, m := range mails {
		if strings.Contains(m.Subject, "has shipped") {
			n++
		}
	}
	if n != 3 {
		t.Errorf("%d shipping e-mails, want 3", n)
	}

	// Sent again (a reload), nothing ships twice: each says why.
	res, _ = b.fulfi.post("/admin/orders/bulk/mark-shipped", again)
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("bulk ship again: %d", res.StatusCode)
	}
	_, doc = b.fulfi.get(back)
	if got := text(doc, `[data-testid="flash"]`); !strings.HasPrefix(got, "No order was marked as shipped. Not shipped: "+first) {
		t.Errorf("flash after a second post %q", got)
	}
}

// A bulk action without a selection goes back to the list and asks for
// one; it never goes anywhere but the orders list.
func TestAdmin_BulkShip_NoSelection(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	for _, tt := range []struct {
		name, path, back, want string
	}{
		{"ship form", "/admin/orders/bulk/ship-form", "/admin/orders?q=sam", "/admin/orders?q=sam"},
		{"mark shipped", "/admin/orders/bulk/mark-shipped", "/admin/orders", "/admin/orders"},
		{"another site", "/admin/orders/bulk/ship-form", "https://evil.example/admin/orders", "/admin/orders"},
		{"another page", "/admin/orders/bulk/ship-form", "/admin/staff", "/admin/orders"},
		{"protocol-relative", "/admin/orders/bulk/ship-form", "//evil.example/admin/orders", "/admin/orders"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, _ := b.fulfi.post(tt.path, url.Values{"back": {tt.back}, "id": {" "}})
			if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != tt.want {
				t.Fatalf("got %d to %q, want 303 to %q", res.StatusCode, res.Header.Get("Location"), tt.want)
			}
			_, doc := b.fulfi.get(tt.want)
			if got := text(doc, `[data-testid="flash"]`); got != backoffice.MsgSelectOrders {
				t.Errorf("flash %q", got)
			}
		})
	}
}

// The packing slips page prints the selected orders, each with its
// address and lines (variants named), and nothing else; it only reads.
func TestAdmin_PackingSlips(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "shop.db")
	b := newBackOffice(t, withDBFile(path))
	jacket := b.placeVariantOrder(t, "nb-014", "nb-014-m-black")
	other := b.placeOrder(t, "nb-002", "1")
	before := tableSums(t, path)

	res, doc := b.fulfi.get("/admin/orders/bulk/packing-slips?id=" + jacket + "&id=NOC-000000-NONE&id=" + b.orderID + "&back=%2Fadmin%2Forders%3Fq%3Dsam")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("packing slips: %d", res.StatusCode)
	}
	slips := doc.Find(`[data-testid="packing-slip"]`)
	var ids []string
	slips.Each(func(_ int, s *goquery.Selection) { ids = append(ids, s.AttrOr("data-order", "")) })
	if !slices.Equal(ids, []string{jacket, b.orderID}) {
		t.Fatalf("slips of %v, want %v (not %s)", ids, []string{jacket, b.orderID}, other)
	}
	for _, tt := range []struct {
		order string
		lines []string // name | variant | quantity
	}{
		{jacket, []string{"Midnight Waxed Cotton Field Jacket | Size: M / Colour: Black | 1"}},
		{b.orderID, []string{"Braided Leather Dress Belt |  | 2"}},
	} {
		slip := doc.Find(`[data-testid="packing-slip"][data-order="` + tt.order + `"]`)
		var lines []string
		slip.Find(`[data-testid="slip-line"]`).Each(func(_ int, l *goquery.Selection) {
			var cells []string
			l.Children().Each(func(_ int, c *goquery.Selection) { cells = append(cells, strings.Join(strings.Fields(c.Text()), " ")) })
			lines = append(lines, strings.Join(cells, " | "))
		})
		if !slices.Equal(lines, tt.lines) {
			t.Errorf("%s lines %q, want %q", tt.order, lines, tt.lines)
		}
		address := slip.Find(`[data-testid="slip-address"]`)
		address.Find("br").ReplaceWithHtml(" / ")
		addr := strings.Join(strings.Fields(address.Text()), " ")
		if addr != "Ada Lovelace / 12 St James's Square / London, LDN SW1Y 4LE / United Kingdom / 555 0100" {
			t.Errorf("%s address %q", tt.order, addr)
		}
		if strings.Contains(slip.Text(), "$") {
			t.Errorf("%s slip shows prices: %q", tt.order, slip.Text())
		}
	}
	if got := text(doc, `[data-testid="slips-missing"]`); !strings.Contains(got, "NOC-000000-NONE") {
		t.Errorf("missing order not named: %q", got)
	}
	if doc.Find(`.topbar, .admin-nav, footer`).Length() != 0 {
		t.Error("the printable page carries the shop's or the back office's navigation")
	}
	if got := doc.Find(`a[href="/admin/orders?q=sam"]`).Length(); got != 1 {
		t.Errorf("%d links back to the list it came from, want 1", got)
	}
	if _, doc := b.fulfi.get("/admin/orders/bulk/packing-slips"); doc.Find(`[data-testid="slips-empty"]`).Length() != 1 {
		t.Error("no selection: the page does not say so")
	}
	after := tableSums(t, path)
	for table, sum := range before {
		if after[table] != sum {
			t.Errorf("table %s changed while printing packing slips", table)
		}
	}
}

// The selection's CSV has a byte order mark, a header and a row per
// selected order in the order ticked; what a shopper typed can't run as
// a spreadsheet formula.
func TestAdmin_SelectionCSV(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	b.shopper.addToCart("/products", "nb-002", "1")
	crafted := url.Values{}
	for k, v := range shippingValues {
		crafted[k] = v
	}
	crafted.Set("firstName", `=HYPERLINK("http://evil.example")`)
	crafted.Set("address", "+1 Harbour Lane")
	crafted.Set("city", "@SUM(A1)")
	if res, _ := b.shopper.postFrom("/checkout/shipping", "/checkout/shipping", crafted); res.Header.Get("Location") != "/checkout/payment" {
		t.Fatalf("shipping: %d", res.StatusCode)
	}
	if res, _ := b.shopper.postFrom("/checkout/payment", "/checkout/payment", paymentValues(testCard)); res.Header.Get("Location") != "/checkout/review" {
		t.Fatalf("payment: %d", res.StatusCode)
	}
	odd := strings.TrimPrefix(orderPath(placeOrder(t, b.shopper)), "/orders/")
	unticked := b.placeOrder(t, "nb-003", "1")

	res := b.fulfi.do(httptest.NewRequest(http.MethodGet, "/admin/orders/bulk/export.csv?id="+odd+"&id="+b.orderID, nil))
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/csv; charset=utf-8" ||
		!strings.HasPrefix(res.Header.Get("Content-Disposition"), `attachment; filename="orders-`) {
		t.Fatalf("export: %d %q %q", res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Content-Disposition"))
	}
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(raw), "\uFEFFOrder,Placed (UTC),Email,") {
		t.Fatalf("the file starts %q, want the byte order mark and the header", raw[:min(40, len(raw))])
	}
	rows, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(string(raw), "\uFEFF"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || rows[1][0] != odd || rows[2][0] != b.orderID {
		t.Fatalf("rows %q, want the header, %s and %s (not %s)", rows, odd, b.orderID, unticked)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	o, _ := b.app.db.Order(context.Background(), odd)
	for _, tt := range []struct{ column, want string }{
		{"Ship to", `'=HYPERLINK("http://evil.example") Lovelace`},
		{"Street", "'+1 Harbour Lane"},
		{"City", "'@SUM(A1)"},
		{"Email", "ada@example.com"},
		{"Total", money.Decimal(o.Total, "")},
		{"Status", string(shop.StatusProcessing)},
	} {
		if got := rows[1][col[tt.column]]; got != tt.want {
			t.Errorf("%s: %q, want %q", tt.column, got, tt.want)
		}
	}
	if strings.ContainsAny(rows[1][col["Total"]], "$, ") {
		t.Errorf("money is not a plain number: %q", rows[1][col["Total"]])
	}
}

// rowOrders lists the order of each row of the bulk ship form.
func rowOrders(doc *goquery.Document) []string {
	var ids []string
	doc.Find(`[data-testid="bulk-ship-row"]`).Each(func(_ int, s *goquery.Selection) { ids = append(ids, s.AttrOr("data-order", "")) })
	return ids
}

// formFields is what a browser would submit of a form: formValues, and
// the option chosen in each select.
func formFields(f *goquery.Selection) url.Values {
	v := formValues(f)
	f.Find("select[name]").Each(func(_ int, s *goquery.Selection) {
		v.Set(s.AttrOr("name", ""), s.Find("option[selected]").AttrOr("value", ""))
	})
	return v
}
