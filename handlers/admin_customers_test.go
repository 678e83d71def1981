package handlers_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/csvexport"
	"github.com/nocturne/storefront/internal/money"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// insertOrder stores an order as placed (paid, processing, now, one line
// unless it says otherwise).
func (b *backOffice) insertOrder(t *testing.T, o shop.Order) {
	t.Helper()
	if o.Status == "" {
		o.Status = shop.StatusProcessing
	}
	if o.PaymentStatus == "" {
		o.PaymentStatus = shop.PaymentPaid
	}
	if o.CreatedAt.IsZero() {
		o.CreatedAt = b.app.clock.Now()
	}
	if o.Lines == nil {
		o.Lines = []shop.OrderLine{{ProductID: "nb-001", Name: "Lamp", Price: o.Total, Quantity: 1}}
	}
	if o.Subtotal == 0 {
		o.Subtotal = o.Total
	}
	o.IdempotencyKey, o.PaymentMethod = "key-"+o.ID, "Visa ending 4242"
	if err := b.app.db.InsertOrder(context.Background(), &o); err != nil {
		t.Fatal(err)
	}
}

// userID is the account id of email.
func (b *backOffice) userID(t *testing.T, email string) string {
	t.Helper()
	u, _, err := b.app.db.UserByEmail(context.Background(), email)
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

// cards maps each customer card of a list page by its key.
func cards(doc *goquery.Document) map[string]*goquery.Selection {
	out := map[string]*goquery.Selection{}
	doc.Find(`[data-testid="customer"]`).Each(func(_ int, s *goquery.Selection) {
		out[s.AttrOr("data-key", "")] = s
	})
	return out
}

func field(s *goquery.Selection, id string) string {
	return strings.Join(strings.Fields(s.Find(`[data-testid="`+id+`"]`).First().Text()), " ")
}

// The customer list: accounts and guests, an account's guest checkout
// counted under it, what each spent (paid, less refunds) and their last
// order; a search by name or e-mail; a customer's page with their orders
// (the guest checkout marked) and messages; an account's address leads
// to its account; anything else is the ordinary 404.
func TestAdminCustomers_ListSearchAndPage(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	ctx := context.Background()
	sam := b.userID(t, "sam@example.com")
	placed, err := b.app.db.Order(ctx, b.orderID)
	if err != nil {
		t.Fatal(err)
	}
	now := b.app.clock.Now()
	// Sam once checked out as a guest, and got part of it back.
	b.insertOrder(t, shop.Order{ID: "NOC-SAMGUEST", UserID: "guest_sam", Email: "sam@example.com", Total: 3000, Refunded: 500,
		PaymentStatus: shop.PaymentPartiallyRefunded, CreatedAt: now.Add(-48 * time.Hour), ShipTo: shop.Address{Name: "Sam at work"}})
	// Glen only ever checks out as a guest; his second order is unpaid.
	b.insertOrder(t, shop.Order{ID: "NOC-GLEN1", UserID: "guest_glen", Email: "o/glen@example.com", Total: 2000,
		CreatedAt: now.Add(-72 * time.Hour), ShipTo: shop.Address{Name: "Glen Guest"}})
	b.insertOrder(t, shop.Order{ID: "NOC-GLEN2", UserID: "guest_glen", Email: "o/glen@example.com", Total: 1500, PaymentStatus: shop.PaymentAwaiting,
		CreatedAt: now.Add(time.Minute), ShipTo: shop.Address{Name: "Glen Guest"}})

	res, doc := b.admin.get("/admin/customers")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("list: %d", res.StatusCode)
	}
	if got := text(doc, `nav[aria-label="Back office"] [aria-current="page"]`); got != "Customers" {
		t.Errorf("current area %q", got)
	}
	list := cards(doc)
	// Sam, Glen, and the two staff accounts.
	if len(list) != 4 || text(doc, `[data-testid="customers-count"]`) != "4 customers" {
		t.Fatalf("customers %v, count %q", len(list), text(doc, `[data-testid="customers-count"]`))
	}
	if keys := doc.Find(`[data-testid="customer"]`).Map(func(_ int, s *goquery.Selection) string { return s.AttrOr("data-key", "") }); keys[0] != "o/glen@example.com" || keys[1] != sam {
		t.Errorf("order: %v, want Glen (newest order), then Sam", keys)
	}
	samCard := list[sam]
	if samCard == nil || field(samCard, "customer-orders") != "2" || field(samCard, "customer-spent") != (placed.Total+2500).String() ||
		field(samCard, "customer-email") != "sam@example.com" || field(samCard, "customer-last") != now.Format("Jan 2, 2006") ||
		samCard.Find(`[data-testid="guest"]`).Length() != 0 {
		t.Errorf("Sam's card: %q", samCard.Text())
	}
	glen := list["o/glen@example.com"]
	if glen == nil || field(glen, "customer-orders") != "2" || field(glen, "customer-spent") != shop.Cents(2000).String() ||
		glen.Find(`[data-testid="guest"]`).Length() != 1 || !strings.Contains(glen.Find("h3 a").Text(), "Glen Guest") {
		t.Errorf("Glen's card: %v", glen)
	}
	if href := glen.Find("h3 a").AttrOr("href", ""); href != "/admin/customers/o%2Fglen@example.com" {
		t.Errorf("Glen's link %q", href)
	}

	for _, tc := range []struct {
		q    string
		want []string
	}{
		{"glen", []string{"o/glen@example.com"}},
		{"SAM SHOPPER", []string{sam}},
		{"at work", []string{sam}},
		{"nobody", nil},
	} {
		_, doc := b.admin.get("/admin/customers?q=" + url.QueryEscape(tc.q))
		var keys []string
		doc.Find(`[data-testid="customer"]`).Each(func(_ int, s *goquery.Selection) { keys = append(keys, s.AttrOr("data-key", "")) })
		if !reflect.DeepEqual(keys, tc.want) {
			t.Errorf("search %q: %v, want %v", tc.q, keys, tc.want)
		}
		if doc.Find("#c-q").AttrOr("value", "") != tc.q {
			t.Errorf("search %q not kept in its field", tc.q)
		}
	}

	// Sam's page: both orders, the guest one marked, and his message.
	res, doc = b.admin.get(pages.CustomerURL(sam))
	if res.StatusCode != http.StatusOK || text(doc, `[data-testid="customer-name"]`) != "Sam Shopper" {
		t.Fatalf("Sam's page: %d %q", res.StatusCode, text(doc, `[data-testid="customer-name"]`))
	}
	orders := doc.Find(`[data-testid="customer-order"]`)
	if ids := orders.Map(func(_ int, s *goquery.Selection) string { return s.AttrOr("data-id", "") }); !reflect.DeepEqual(ids, []string{b.orderID, "NOC-SAMGUEST"}) {
		t.Errorf("Sam's orders %v", ids)
	}
	if orders.Eq(0).Find(`[data-testid="guest-order"]`).Length() != 0 || orders.Eq(1).Find(`[data-testid="guest-order"]`).Length() != 1 {
		t.Error("the guest checkout is not marked as such (or the account's own order is)")
	}
	if orders.Eq(1).Find(`a[href="/admin/orders/NOC-SAMGUEST"]`).Length() != 1 || field(orders.Eq(1), "customer-order-total") != shop.Cents(3000).String() {
		t.Errorf("the guest order's card: %q", orders.Eq(1).Text())
	}
	msg := doc.Find(`[data-testid="customer-message"]`)
	if msg.Length() != 1 || msg.Find(fmt.Sprintf(`a[href="/admin/messages/%d"]`, b.messageID)).Text() != "Where is my parcel?" {
		t.Errorf("Sam's messages: %q", msg.Text())
	}

	// An address leads to its account; a guest's is the guest's page.
	for _, path := range []string{"/admin/customers/sam@example.com", "/admin/customers/SAM%40example.com"} {
		if res, _ := b.admin.get(path); res.StatusCode != http.StatusFound || res.Header.Get("Location") != pages.CustomerURL(sam) {
			t.Errorf("%s: %d to %q", path, res.StatusCode, res.Header.Get("Location"))
		}
	}
	res, doc = b.admin.get(pages.CustomerURL("o/glen@example.com"))
	if res.StatusCode != http.StatusOK || doc.Find(`[data-testid="customer-order"]`).Length() != 2 ||
		doc.Find(`[data-testid="guest-order"]`).Length() != 0 || text(doc, `[data-testid="customer-name"]`) != "Glen Guest" {
		t.Errorf("Glen's page: %d %q", res.StatusCode, text(doc, "main"))
	}
	for _, path := range []string{"/admin/customers/nobody@example.com", "/admin/customers/usr_nobody", "/admin/customers/guest_glen"} {
		if res, _ := b.admin.get(path); res.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", path, res.StatusCode)
		}
	}
	// Fulfilment staff are not shown the area.
	if _, doc := b.fulfi.get("/admin"); doc.Find(`a[href="/admin/customers"], a[href="/admin/exports"]`).Length() != 0 {
		t.Error("fulfilment staff are shown customers or exports")
	}
}

// More customers than a page holds are paged, the search kept in the
// page links.
func TestAdminCustomers_Pages(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	for i := range shop.CustomersPageSize + 2 {
		b.insertOrder(t, shop.Order{ID: fmt.Sprintf("NOC-P%02d", i), UserID: "guest_p", Email: fmt.Sprintf("pager%02d@example.com", i),
			Total: 1000, CreatedAt: b.app.clock.Now().Add(-time.Duration(i) * time.Hour)})
	}
	_, doc := b.admin.get("/admin/customers?q=pager")
	if n := doc.Find(`[data-testid="customer"]`).Length(); n != shop.CustomersPageSize {
		t.Fatalf("page 1: %d customers", n)
	}
	next, ok := doc.Find(`a[rel="next"]`).Attr("href")
	if !ok || next != "/admin/customers?page=2&q=pager" {
		t.Fatalf("next page link %q", next)
	}
	_, doc = b.admin.get(next)
	if keys := doc.Find(`[data-testid="customer"]`).Map(func(_ int, s *goquery.Selection) string { return s.AttrOr("data-key", "") }); !reflect.DeepEqual(keys, []string{"pager25@example.com", "pager26@example.com"}) {
		t.Errorf("page 2: %v", keys)
	}
}

// The staff note: saved with a 303 and an audit entry, shown with who
// saved it; too long is refused next to the field with the text kept;
// the same text again changes nothing; an empty one deletes it. A guest's
// note lives at the guest's escaped address.
func TestAdminCustomers_Note(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	sam := b.userID(t, "sam@example.com")
	here := pages.CustomerURL(sam)

	res, _ := b.admin.post(here+"/note", url.Values{"note": {"Prefers a call.\r\nAfter 5 pm."}})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != here {
		t.Fatalf("save: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	_, doc := b.admin.get(here)
	if got := doc.Find("textarea#note").Text(); got != "Prefers a call.\nAfter 5 pm." {
		t.Errorf("the note reads %q", got)
	}
	if text(doc, `[data-testid="flash"]`) != "Note saved." || !strings.Contains(text(doc, `[data-testid="note-saved"]`), "admin@example.com") {
		t.Errorf("after saving: %q, %q", text(doc, `[data-testid="flash"]`), text(doc, `[data-testid="note-saved"]`))
	}
	e := b.lastAudit(t, "customer.note")
	if e.Subject != sam || e.Before != "" || e.After != "Prefers a call.\nAfter 5 pm." || e.Actor != "admin@example.com" {
		t.Errorf("audit entry %+v", e)
	}

	long := strings.Repeat("x", shop.MaxCustomerNote+1)
	res, doc = b.admin.post(here+"/note", url.Values{"note": {long}})
	if res.StatusCode != http.StatusUnprocessableEntity || text(doc, "#note-error") != backoffice.MsgCustomerNoteTooLong || doc.Find("textarea#note").Text() != long {
		t.Errorf("too long: %d %q", res.StatusCode, text(doc, "#note-error"))
	}
	if n, _ := b.app.db.CustomerNote(context.Background(), sam, "sam@example.com"); n.Text != "Prefers a call.\nAfter 5 pm." {
		t.Errorf("a refused note was saved: %q", n.Text)
	}

	res, _ = b.admin.post(here+"/note", url.Values{"note": {"Prefers a call.\nAfter 5 pm.  "}})
	if res.StatusCode != http.StatusSeeOther || b.auditCount(t, "customer.note", sam) != 1 {
		t.Errorf("the same note again: %d, %d audit entries", res.StatusCode, b.auditCount(t, "customer.note", sam))
	}
	if res, _ = b.admin.post(here+"/note", url.Values{"note": {" "}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("delete: %d", res.StatusCode)
	}
	_, doc = b.admin.get(here)
	if text(doc, `[data-testid="flash"]`) != "Note deleted." || doc.Find("textarea#note").Text() != "" || b.auditCount(t, "customer.note", sam) != 2 {
		t.Errorf("after deleting: %q %q", text(doc, `[data-testid="flash"]`), doc.Find("textarea#note").Text())
	}

	// A guest with a slash in the address.
	b.insertOrder(t, shop.Order{ID: "NOC-GLEN1", UserID: "guest_glen", Email: "o/glen@example.com", Total: 2000})
	guest := pages.CustomerURL("o/glen@example.com")
	if res, _ := b.admin.post(guest+"/note", url.Values{"note": {"Ask for the door code."}}); res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != guest {
		t.Fatalf("guest note: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	if _, doc := b.admin.get(guest); doc.Find("textarea#note").Text() != "Ask for the door code." {
		t.Error("the guest's note is not shown")
	}
	// Fulfilment staff cannot write one.
	if res, _ := b.fulfi.post(here+"/note", url.Values{"note": {"x"}}); res.StatusCode != http.StatusNotFound {
		t.Errorf("fulfilment note: %d", res.StatusCode)
	}
}

// download fetches an export, gzipped when asked, and reads it back as
// a spreadsheet would: the byte order mark first, then the rows.
func (b *backOffice) download(t *testing.T, path string, gz bool) (*http.Response, [][]string) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	if gz {
		req.Header.Set("Accept-Encoding", "gzip")
	}
	res := b.admin.do(req)
	defer res.Body.Close()
	var body io.Reader = res.Body
	if gz {
		zr, err := gzip.NewReader(res.Body)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		body = zr
	}
	raw, err := io.ReadAll(body)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	rest, ok := bytes.CutPrefix(raw, []byte("\uFEFF"))
	if !ok {
		t.Fatalf("%s: %d, no byte order mark: %.80q", path, res.StatusCode, raw)
	}
	rows, err := csv.NewReader(bytes.NewReader(rest)).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return res, rows
}

// The exports of a month: a row per order placed in the shop's November
// (New York time) and none outside it, pending orders never; text that a
// spreadsheet would run comes back with a leading apostrophe, amounts as
// plain numbers; a dated attachment, streamed, gzipped when the client
// accepts it, and in the audit log. Days that do not read are refused
// next to their fields.
func TestAdminExports_Download(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	ny, _ := time.LoadLocation("America/New_York")
	sam := b.userID(t, "sam@example.com")
	placed, err := b.app.db.Order(context.Background(), b.orderID)
	if err != nil {
		t.Fatal(err)
	}
	b.insertOrder(t, shop.Order{ID: "NOC-EVIL", UserID: "guest_evil", Email: "-dash@example.com", Total: 1250, Discount: 300, Tax: 50, Shipping: 0,
		Subtotal: 1500, Refunded: 250, PaymentStatus: shop.PaymentPartiallyRefunded,
		CreatedAt: time.Date(2026, 11, 5, 10, 0, 0, 0, ny), ShipTo: shop.Address{Name: `=HYPERLINK("http://evil.example","Click")`, Country: "+Canada"},
		Lines: []shop.OrderLine{{ProductID: "nb-001", VariantID: "nb-001", Name: "@Lamp", Variation: "-Size: M", Price: 750, Quantity: 2}}})
	b.insertOrder(t, shop.Order{ID: "NOC-FIRSTMINUTE", UserID: "guest_early", Email: "@early@example.com", Total: 999,
		CreatedAt: time.Date(2026, 11, 1, 0, 0, 0, 0, ny), ShipTo: shop.Address{Name: "Early Bird"}})
	// Outside: November in UTC but October 31 in New York; December;
	// a payment still under way.
	b.insertOrder(t, shop.Order{ID: "NOC-OCTOBER", UserID: "guest_o", Email: "oct@example.com", Total: 100, CreatedAt: time.Date(2026, 10, 31, 23, 30, 0, 0, ny)})
	b.insertOrder(t, shop.Order{ID: "NOC-DECEMBER", UserID: "guest_d", Email: "dec@example.com", Total: 100, CreatedAt: time.Date(2026, 12, 1, 0, 0, 0, 0, ny)})
	b.insertOrder(t, shop.Order{ID: "NOC-PENDING", UserID: "guest_p", Email: "pend@example.com", Total: 100, Status: shop.StatusPending,
		PaymentStatus: shop.PaymentAwaiting, CreatedAt: time.Date(2026, 11, 10, 0, 0, 0, 0, ny)})

	const month = "?from=2026-11-01&to=2026-11-30"
	for _, gz := range []bool{false, true} {
		res, rows := b.download(t, "/admin/exports/orders.csv"+month, gz)
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/csv; charset=utf-8" ||
			res.Header.Get("Content-Disposition") != `attachment; filename="orders-2026-11-01-to-2026-11-30.csv"` ||
			res.Header.Get("Cache-Control") != "private, no-store" {
			t.Errorf("gzip %v: %d %q %q %q", gz, res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Content-Disposition"), res.Header.Get("Cache-Control"))
		}
		// Streamed: sent in chunks, its size never known ahead (a
		// middleware that read it whole would have given it a length).
		if res.ContentLength != -1 || !reflect.DeepEqual(res.TransferEncoding, []string{"chunked"}) {
			t.Errorf("gzip %v: not streamed: length %d, transfer encoding %v", gz, res.ContentLength, res.TransferEncoding)
		}
		if (res.Header.Get("Content-Encoding") == "gzip") != gz {
			t.Errorf("gzip %v: Content-Encoding %q", gz, res.Header.Get("Content-Encoding"))
		}
		want := [][]string{
			csvexport.Orders.Header,
			{"NOC-FIRSTMINUTE", "2026-11-01 00:00:00", "processing", "paid", "USD", "9.99", "0.00", "0.00", "0.00", "9.99", "0.00", "'@early@example.com", ""},
			{"NOC-EVIL", "2026-11-05 10:00:00", "processing", "partially_refunded", "USD", "15.00", "3.00", "0.00", "0.50", "12.50", "2.50", "'-dash@example.com", "'+Canada"},
			{b.orderID, placed.CreatedAt.In(ny).Format(csvexport.TimeLayout), "processing", "paid", "USD", money.Decimal(placed.Subtotal, ""),
				"0.00", money.Decimal(placed.Shipping, ""), money.Decimal(placed.Tax, ""),
				money.Decimal(placed.Total, ""), "0.00", placed.Email, placed.ShipTo.Country},
		}
		if !reflect.DeepEqual(rows, want) {
			t.Errorf("gzip %v: orders:\n got %q\nwant %q", gz, rows, want)
		}
	}

	_, rows := b.download(t, "/admin/exports/order-lines.csv"+month, false)
	if !reflect.DeepEqual(rows[0], csvexport.OrderLines.Header) || len(rows) != 2+1+len(placed.Lines) ||
		!reflect.DeepEqual(rows[2], []string{"NOC-EVIL", "2026-11-05 10:00:00", "nb-001", "nb-001", "'@Lamp", "'-Size: M", "2", "7.50", "15.00"}) {
		t.Errorf("order lines: %q", rows)
	}

	res, rows := b.download(t, "/admin/exports/customers.csv"+month, false)
	if res.Header.Get("Content-Disposition") != `attachment; filename="customers-2026-11-01-to-2026-11-30.csv"` {
		t.Errorf("customers file name %q", res.Header.Get("Content-Disposition"))
	}
	want := [][]string{
		csvexport.Customers.Header,
		{"'-dash@example.com", `'=HYPERLINK("http://evil.example","Click")`, "'-dash@example.com", "yes", "1", "10.00", "2026-11-05 10:00:00"},
		{"'@early@example.com", "Early Bird", "'@early@example.com", "yes", "1", "9.99", "2026-11-01 00:00:00"},
		{sam, "Sam Shopper", "sam@example.com", "no", "1", money.Decimal(placed.Total, ""), placed.CreatedAt.In(ny).Format(csvexport.TimeLayout)},
	}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("customers:\n got %q\nwant %q", rows, want)
	}

	// The page: three forms, last month's days until typed otherwise.
	res, doc := b.admin.get("/admin/exports")
	if res.StatusCode != http.StatusOK || doc.Find(`form[action^="/admin/exports/"][method="get"]`).Length() != 3 ||
		doc.Find("#orders-from").AttrOr("value", "") != "2026-10-01" || doc.Find("#orders-to").AttrOr("value", "") != "2026-10-31" {
		t.Errorf("exports page: %d", res.StatusCode)
	}
	for _, tc := range []struct {
		query     string
		from, to  string
		fromError string
		toError   string
	}{
		{"?from=2026-11-30&to=2026-11-01", "2026-11-30", "2026-11-01", "", backoffice.MsgRangeBackwards},
		{"?from=30%2F11%2F2026&to=", "30/11/2026", "", backoffice.MsgDateInvalid, backoffice.MsgToRequired},
	} {
		res, doc := b.admin.get("/admin/exports/order-lines.csv" + tc.query)
		if res.StatusCode != http.StatusUnprocessableEntity || text(doc, "#order-lines-from-error") != tc.fromError || text(doc, "#order-lines-to-error") != tc.toError ||
			doc.Find("#order-lines-from").AttrOr("value", "") != tc.from || doc.Find("#order-lines-to").AttrOr("value", "") != tc.to {
			t.Errorf("%s: %d, %q %q", tc.query, res.StatusCode, text(doc, "#order-lines-from-error"), text(doc, "#order-lines-to-error"))
		}
		if doc.Find("#orders-from-error, #customers-to-error").Length() != 0 {
			t.Errorf("%s: another form shows the errors", tc.query)
		}
	}
	if res, _ := b.admin.get("/admin/exports/customers.csv"); res.StatusCode != http.StatusFound || res.Header.Get("Location") != "/admin/exports" {
		t.Errorf("a bare download address: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
}

// A download only reads: like every GET, it writes no row (it is logged).
func TestAdminExports_WritesNothing(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "shop.db")
	b := newBackOffice(t, withDBFile(path))
	before := tableSums(t, path)
	b.download(t, "/admin/exports/customers.csv?from=2026-11-01&to=2026-11-30", false)
	for table, sum := range tableSums(t, path) {
		if sum != before[table] {
			t.Errorf("table %s changed", table)
		}
	}
}
