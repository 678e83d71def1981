package handlers_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// personalFile reads a personal data download: its headers checked (a
// JSON attachment nothing may store), its body parsed.
func personalFile(t *testing.T, res *http.Response, wantName string) (shop.PersonalFile, string) {
	t.Helper()
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		t.Fatalf("download: %d %s", res.StatusCode, body)
	}
	if got := res.Header.Get("Cache-Control"); !strings.Contains(got, "no-store") {
		t.Errorf("Cache-Control %q, want no-store", got)
	}
	if got, want := res.Header.Get("Content-Disposition"), `attachment; filename="`+wantName+`"`; got != want {
		t.Errorf("Content-Disposition %q, want %q", got, want)
	}
	if got := res.Header.Get("Content-Type"); !strings.HasPrefix(got, "application/json") {
		t.Errorf("Content-Type %q", got)
	}
	var f shop.PersonalFile
	if err := json.Unmarshal(body, &f); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, body)
	}
	return f, string(body)
}

// fileContents lists what a file holds, each kind sorted: orders, lines (order and
// product), returns' orders, wishlist products and messages' subjects.
func fileContents(f shop.PersonalFile) map[string][]string {
	out := map[string][]string{}
	for _, o := range f.Orders {
		out["orders"] = append(out["orders"], o.ID)
		for _, l := range o.Lines {
			out["lines"] = append(out["lines"], o.ID+":"+l.ProductID)
		}
	}
	for _, r := range f.Returns {
		out["returns"] = append(out["returns"], r.OrderID)
	}
	for _, w := range f.Wishlist {
		out["wishlist"] = append(out["wishlist"], w.ProductID)
	}
	for _, m := range f.Messages {
		out["messages"] = append(out["messages"], m.Subject)
	}
	for _, v := range out {
		sort.Strings(v)
	}
	return out
}

// seedBusySam gives Sam (who placed an order and wrote a message in
// newBackOffice) a delivered order with a return, a guest checkout with
// his address in capitals, a wishlist and a second message in another
// case; Ada, an account, and a guest with a similar address get the
// same kinds of rows.
func seedBusySam(t *testing.T, b *backOffice) {
	t.Helper()
	ctx := context.Background()
	sam, ada := b.userID(t, "sam@example.com"), b.userID(t, "admin@example.com")
	b.insertOrder(t, shop.Order{ID: "NOC-SAMDELIVERED", UserID: sam, Email: "sam@example.com", Total: 4000, Status: shop.StatusDelivered,
		ShipTo: shop.Address{Name: "Sam Shopper", Street: "1 High St", City: "Leeds", ZipCode: "LS1 1AA", Country: "United Kingdom"}})
	b.insertOrder(t, shop.Order{ID: "NOC-SAMGUEST", UserID: "guest_sam", Email: "SAM@Example.com", Total: 1500})
	b.insertOrder(t, shop.Order{ID: "NOC-ADA", UserID: ada, Email: "admin@example.com", Total: 2500, Status: shop.StatusDelivered})
	b.insertOrder(t, shop.Order{ID: "NOC-SIMILAR", UserID: "guest_s", Email: "sam.s@example.com", Total: 700})
	for _, id := range []string{"NOC-SAMDELIVERED", "NOC-ADA"} {
		if err := b.app.db.CreateReturn(ctx, &shop.ReturnRequest{OrderID: id, Reason: "other", Lines: []shop.ReturnLine{{Line: 0, Quantity: 1}}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, w := range [][2]string{{sam, "nb-002"}, {ada, "nb-003"}} {
		if err := b.app.db.AddToWishlist(ctx, w[0], w[1]); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range []shop.ContactMessage{
		{Name: "Sam", Email: "Sam@EXAMPLE.com", Subject: "Thanks", Message: "It came."},
		{Name: "Ada", Email: "admin@example.com", Subject: "Ada's", Message: "Hello"},
		{Name: "Sam S", Email: "sam.s@example.com", Subject: "Someone else's", Message: "Hello"},
	} {
		if err := b.app.db.CreateContactMessage(ctx, &m); err != nil {
			t.Fatal(err)
		}
	}
}

// A busy shopper's download holds every row of theirs (their guest
// checkout in another case too) and nothing of anyone else's, says how
// they sign in without any secret, is a no-store attachment, and
// writes nothing: no audit row, no session saved.
func TestPersonalData_ShopperDownload(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "shop.db")
	b := newBackOffice(t, withDBFile(path))
	seedBusySam(t, b)

	_, doc := b.shopper.get("/settings")
	form := doc.Find(`form[data-testid="data-form"]`)
	if form.AttrOr("method", "") != "get" || form.AttrOr("action", "") != "/settings/data" || form.Find("button").Text() != "Download my data" {
		t.Fatalf("settings' download form: %v %q", form.Nodes, form.Text())
	}
	before := tableSums(t, path)
	f, body := personalFile(t, b.shopper.do(httptest.NewRequest(http.MethodGet, "/settings/data", nil)), "personal-data-sam-example.com-2026-11-21.json")
	for table, sum := range tableSums(t, path) {
		if sum != before[table] {
			t.Errorf("the download changed table %s", table)
		}
	}

	want := map[string][]string{
		"orders":   {b.orderID, "NOC-SAMDELIVERED", "NOC-SAMGUEST"},
		"lines":    {b.orderID + ":nb-026", "NOC-SAMDELIVERED:nb-001", "NOC-SAMGUEST:nb-001"},
		"returns":  {"NOC-SAMDELIVERED"},
		"wishlist": {"nb-002"},
		"messages": {"Thanks", "Where is my parcel?"},
	}
	if got := fileContents(f); !reflect.DeepEqual(got, want) {
		t.Errorf("Sam's file: got %v, want %v", got, want)
	}
	if f.Format != shop.PersonalDataFormat || f.Profile.Email != "sam@example.com" || f.Profile.Name != "Sam Shopper" || f.Profile.Guest {
		t.Errorf("profile: %+v (%s)", f.Profile, f.Format)
	}
	if f.SignIn == nil || !f.SignIn.Password || f.SignIn.GoogleLinked {
		t.Errorf("sign-in methods: %+v", f.SignIn)
	}
	if strings.Contains(body, "$2a$") || strings.Contains(strings.ToLower(body), "hash") {
		t.Error("the file holds a password hash")
	}
	var shipped bool
	for _, a := range f.Addresses {
		shipped = shipped || (a.Use == "order NOC-SAMDELIVERED" && a.Street == "1 High St")
	}
	if !shipped {
		t.Errorf("addresses: %+v", f.Addresses)
	}
	for _, o := range f.Orders {
		if o.ID == "NOC-SAMDELIVERED" && (o.Total != 4000 || len(o.Lines) != 1 || o.Lines[0].Quantity != 1) {
			t.Errorf("order: %+v", o)
		}
	}

	// Signed out (or as a guest), the download is sign-in.
	if res, _ := b.app.client(t).get("/settings/data"); res.StatusCode != http.StatusSeeOther && res.StatusCode != http.StatusFound {
		t.Errorf("signed out: %d", res.StatusCode)
	}
}

// Staff download a guest's data from the guest's page, reached from the
// list although the guest's address was stored in mixed case: a POST,
// audited, holding the guest's orders and messages only. A GET of the
// same address is no download and writes nothing; fulfilment staff get
// the back office's 404.
func TestAdminCustomers_DataDownload(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "shop.db")
	b := newBackOffice(t, withDBFile(path))
	seedBusySam(t, b)
	b.insertOrder(t, shop.Order{ID: "NOC-GLEN", UserID: "guest_glen", Email: "Glen+Night@Example.com", Total: 2000})
	if err := b.app.db.CreateContactMessage(context.Background(), &shop.ContactMessage{Name: "Glen", Email: "glen+night@example.com",
		Subject: "Glen's", Message: "Hi"}); err != nil {
		t.Fatal(err)
	}

	_, doc := b.admin.get("/admin/customers?q=glen")
	link := doc.Find(`h3 a`).AttrOr("href", "")
	if link != pages.CustomerURL("glen+night@example.com") {
		t.Fatalf("Glen's link: %q", link)
	}
	res, doc := b.admin.get(link)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("Glen's page: %d", res.StatusCode)
	}
	form := doc.Find(`form[data-testid="data-form"]`)
	if form.AttrOr("method", "") != "post" || form.AttrOr("action", "") != link+"/data" {
		t.Fatalf("download form: %q %q", form.AttrOr("method", ""), form.AttrOr("action", ""))
	}

	before := tableSums(t, path)
	if res, _ := b.admin.get(link + "/data"); res.StatusCode == http.StatusOK {
		t.Error("a GET downloads the file")
	}
	if res, _ := b.fulfi.post(link+"/data", url.Values{}); res.StatusCode != http.StatusNotFound {
		t.Errorf("fulfilment staff: %d", res.StatusCode)
	}
	for table, sum := range tableSums(t, path) {
		if sum != before[table] {
			t.Errorf("a refused download changed table %s", table)
		}
	}

	res = b.admin.do(formRequest(link+"/data", url.Values{}))
	f, _ := personalFile(t, res, "personal-data-glen-night-example.com-2026-11-21.json")
	want := map[string][]string{"orders": {"NOC-GLEN"}, "lines": {"NOC-GLEN:nb-001"}, "messages": {"Glen's"}}
	if got := fileContents(f); !reflect.DeepEqual(got, want) || !f.Profile.Guest || f.SignIn != nil || f.Profile.Email != "glen+night@example.com" {
		t.Errorf("Glen's file: got %v (%+v, %+v), want %v", got, f.Profile, f.SignIn, want)
	}
	if n := countAudit(t, b, "customer.data.export", "glen+night@example.com"); n != 1 {
		t.Errorf("audit entries: %d, want 1", n)
	}

	// An account's file from its page is the shopper's own.
	res = b.admin.do(formRequest(pages.CustomerURL(b.userID(t, "sam@example.com"))+"/data", url.Values{}))
	if f, _ := personalFile(t, res, "personal-data-sam-example.com-2026-11-21.json"); len(f.Orders) != 3 || len(f.Wishlist) != 1 {
		t.Errorf("Sam's file from the back office: %v", fileContents(f))
	}
}
