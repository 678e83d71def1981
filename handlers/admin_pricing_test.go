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

	"github.com/nocturne/storefront/handlers/admin"
	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/money"
	"github.com/nocturne/storefront/internal/pricing"
	"github.com/nocturne/storefront/internal/shop"
)

// auditCount counts the audit log's entries of action on subject by the
// admin.
func (b *backOffice) auditCount(t *testing.T, action, subject string) int {
	t.Helper()
	entries, _, err := b.app.db.AuditLog(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if e.Action == action && e.Subject == subject && e.Actor == "admin@example.com" {
			n++
		}
	}
	return n
}

// lastAudit is the newest audit entry of action.
func (b *backOffice) lastAudit(t *testing.T, action string) shop.AuditEntry {
	t.Helper()
	entries, _, err := b.app.db.AuditLog(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Action == action {
			return e
		}
	}
	t.Fatalf("no %s in the audit log", action)
	return shop.AuditEntry{}
}

// The shipping, tax and promo code pages render for an admin, each with
// its area current in the navigation; everyone else, fulfilment staff
// included, gets the ordinary 404, and fulfilment staff are not shown
// the links.
func TestAdminPricing_PagesAndRoles(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	signedOut := b.app.client(t)
	tests := []struct {
		path, current, testid string
	}{
		{"/admin/shipping", "Shipping", "zones"},
		{"/admin/shipping/zones/new", "Shipping", "zone-form"},
		{"/admin/shipping/zones/us", "Shipping", "delete-zone-form"},
		{"/admin/shipping/methods/new", "Shipping", "method-form"},
		{"/admin/shipping/methods/standard", "Shipping", "delete-method-form"},
		{"/admin/tax", "Tax", "tax-settings"},
		{"/admin/tax/rates/new", "Tax", "rate-form"},
		{"/admin/tax/rates/default", "Tax", "delete-rate-form"},
		{"/admin/codes", "Promo codes", "code-form"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			res, doc := b.admin.get(tt.path)
			if res.StatusCode != http.StatusOK {
				t.Fatalf("admin: %d", res.StatusCode)
			}
			if doc.Find(`[data-testid="`+tt.testid+`"]`).Length() != 1 {
				t.Errorf("admin: no %s", tt.testid)
			}
			if got := text(doc, `.admin-nav a[aria-current="page"]`); got != tt.current {
				t.Errorf("current area %q, want %q", got, tt.current)
			}
			if got := res.Header.Get("Cache-Control"); got != "private, no-store" {
				t.Errorf("Cache-Control %q", got)
			}
			for who, c := range map[string]*client{"signed out": signedOut, "shopper": b.shopper, "fulfilment": b.fulfi} {
				if res, _ := c.get(tt.path); res.StatusCode != http.StatusNotFound {
					t.Errorf("%s: %d, want 404", who, res.StatusCode)
				}
			}
		})
	}
	_, doc := b.fulfi.get("/admin")
	doc.Find(".admin-nav a").Each(func(_ int, a *goquery.Selection) {
		switch a.Text() {
		case "Shipping", "Tax", "Promo codes":
			t.Errorf("fulfilment staff are shown %q", a.Text())
		}
	})
	_, doc = b.admin.get("/admin")
	for _, link := range []string{"/admin/shipping", "/admin/tax", "/admin/codes"} {
		if doc.Find(`.admin-nav a[href="`+link+`"]`).Length() != 1 {
			t.Errorf("the admin's navigation has no %s", link)
		}
	}
}

// A method with a bad price is refused next to the price with everything
// typed kept, and nothing saved; corrected, it is saved, listed and
// audited; edited and deleted, each change is audited too.
func TestAdminShipping_Methods(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	ctx := context.Background()
	methods := func() []shop.ShippingMethod {
		t.Helper()
		ms, err := b.app.db.ShippingMethods(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return ms
	}
	before := len(methods())
	form := url.Values{"name": {"Courier"}, "price": {"12,50.5x"}, "free_from": {"100"}, "min_days": {"1"}, "max_days": {"2"},
		"cutoff": {"15"}, "zones": {"us"}, "position": {"7"}, "enabled": {"1"}}

	refusals := []struct {
		name, field, value, want string
	}{
		{"BadPrice", "price", "12,50.5x", money.MsgSyntax()},
		{"NoPrice", "price", "", money.MsgSyntax()},
		{"DaysOrder", "max_days", "0", backoffice.MsgDaysOrder},
		{"DaysRange", "min_days", "61", backoffice.MsgDays},
		{"NoZone", "zones", "", backoffice.MsgZonesChoose},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			f := url.Values{}
			for k, v := range form {
				f[k] = v
			}
			if tt.field != "price" {
				f.Set("price", "12.50")
			}
			if tt.value == "" {
				f.Del(tt.field)
			} else {
				f.Set(tt.field, tt.value)
			}
			res, doc := b.admin.post("/admin/shipping/methods/new", f)
			if res.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("status %d, want 422", res.StatusCode)
			}
			if got := text(doc, "#"+tt.field+"-error"); got != tt.want {
				t.Errorf("message next to %s %q, want %q", tt.field, got, tt.want)
			}
			// What was typed is kept, the bad value too.
			if got := doc.Find("#price").AttrOr("value", ""); got != f.Get("price") {
				t.Errorf("price field %q, want %q", got, f.Get("price"))
			}
			if doc.Find("#name").AttrOr("value", "") != "Courier" || doc.Find("#free_from").AttrOr("value", "") != "100" ||
				doc.Find("#position").AttrOr("value", "") != "7" || doc.Find(`#cutoff option[selected]`).AttrOr("value", "") != "15" ||
				doc.Find(`[data-testid="enabled"]`).AttrOr("checked", "no") == "no" {
				t.Error("what was typed is lost")
			}
			if tt.field != "zones" && doc.Find(`input[name="zones"][value="us"]`).AttrOr("checked", "no") == "no" {
				t.Error("the zone ticked is lost")
			}
		})
	}
	if got := len(methods()); got != before {
		t.Fatalf("%d methods after refused posts, want %d", got, before)
	}

	form.Set("price", "12.50")
	res, _ := b.admin.post("/admin/shipping/methods/new", form)
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/admin/shipping" {
		t.Fatalf("create: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	var courier shop.ShippingMethod
	for _, m := range methods() {
		if m.Name == "Courier" {
			courier = m
		}
	}
	want := shop.ShippingMethod{ID: courier.ID, Name: "Courier", Price: 1250, FreeFrom: 10000, MinDays: 1, MaxDays: 2, CutoffHour: 15,
		ZoneIDs: []string{"us"}, Position: 7, Enabled: true}
	if fmt.Sprint(courier) != fmt.Sprint(want) {
		t.Fatalf("saved %+v, want %+v", courier, want)
	}
	_, doc := b.admin.get("/admin/shipping")
	if got := text(doc, `[data-testid="flash"]`); got != admin.MsgMethodSaved {
		t.Errorf("flash %q", got)
	}
	item := doc.Find(`[data-testid="method"][data-id="` + courier.ID + `"]`)
	if got := strings.Join(strings.Fields(item.Find(`[data-testid="method-price"]`).Text()), " "); got != "$12.50" {
		t.Errorf("listed price %q", got)
	}
	if !strings.Contains(item.Text(), "15:00 (EST)") || !strings.Contains(item.Text(), "1–2 business days") {
		t.Errorf("listed %q", strings.Join(strings.Fields(item.Text()), " "))
	}

	// The editor shows it as saved; switched off, no cut-off.
	path := "/admin/shipping/methods/" + courier.ID
	_, doc = b.admin.get(path)
	if doc.Find("#price").AttrOr("value", "") != "12.50" || doc.Find("#free_from").AttrOr("value", "") != "100" {
		t.Errorf("editor shows price %q, free from %q", doc.Find("#price").AttrOr("value", ""), doc.Find("#free_from").AttrOr("value", ""))
	}
	form.Del("enabled")
	form.Set("cutoff", backoffice.NoCutoff)
	if res, _ := b.admin.post(path, form); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("update: %d", res.StatusCode)
	}
	for _, m := range methods() {
		if m.ID == courier.ID && (m.Enabled || m.CutoffHour != -1) {
			t.Errorf("after update: %+v", m)
		}
	}
	if res, _ := b.admin.post(path+"/delete", nil); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("delete: %d", res.StatusCode)
	}
	if len(methods()) != before {
		t.Error("the method is still there")
	}
	// Deleting it again (a second press) says it is gone.
	res, _ = b.admin.post(path+"/delete", nil)
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("second delete: %d", res.StatusCode)
	}
	if _, doc := b.admin.get("/admin/shipping"); !strings.Contains(text(doc, `[data-testid="flash"]`), "no longer exists") {
		t.Errorf("second delete: flash %q", text(doc, `[data-testid="flash"]`))
	}

	for _, action := range []string{"shipping.method.create", "shipping.method.update", "shipping.method.delete"} {
		if n := b.auditCount(t, action, courier.ID); n != 1 {
			t.Errorf("%d %s entries, want 1", n, action)
		}
	}
	if e := b.lastAudit(t, "shipping.method.update"); !strings.Contains(e.Before, `"enabled":true`) || !strings.Contains(e.After, `"enabled":false`) {
		t.Errorf("update recorded as %s → %s", e.Before, e.After)
	}
}

// A zone is added with countries from the checkout's list and states
// typed, edited and deleted, each change audited; a country the checkout
// does not offer is refused next to the countries.
func TestAdminShipping_Zones(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	ctx := context.Background()
	form := url.Values{"name": {"West coast"}, "countries": {"United States", "Atlantis"}, "states": {"CA, OR , WA"}, "position": {"0"}}
	res, doc := b.admin.post("/admin/shipping/zones/new", form)
	if res.StatusCode != http.StatusUnprocessableEntity || text(doc, "#countries-error") != backoffice.MsgCountryUnknown {
		t.Fatalf("unknown country: %d %q", res.StatusCode, text(doc, "#countries-error"))
	}
	if doc.Find("#states").AttrOr("value", "") != "CA, OR , WA" || doc.Find(`input[name="countries"][value="United States"]`).AttrOr("checked", "no") == "no" {
		t.Error("what was typed is lost")
	}
	form["countries"] = []string{"United States"}
	if res, _ := b.admin.post("/admin/shipping/zones/new", form); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("create: %d", res.StatusCode)
	}
	zones, err := b.app.db.ShippingZones(ctx)
	if err != nil {
		t.Fatal(err)
	}
	west := zones[0] // position 0: tried first
	if west.Name != "West coast" || strings.Join(west.States, "|") != "CA|OR|WA" || strings.Join(west.Countries, "|") != "United States" {
		t.Fatalf("saved %+v", west)
	}
	path := "/admin/shipping/zones/" + west.ID
	form.Set("states", "CA")
	if res, _ := b.admin.post(path, form); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("update: %d", res.StatusCode)
	}
	if res, _ := b.admin.post(path+"/delete", nil); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("delete: %d", res.StatusCode)
	}
	if res, _ := b.admin.get(path); res.StatusCode != http.StatusNotFound {
		t.Errorf("a deleted zone's page: %d", res.StatusCode)
	}
	for _, action := range []string{"shipping.zone.create", "shipping.zone.update", "shipping.zone.delete"} {
		if n := b.auditCount(t, action, west.ID); n != 1 {
			t.Errorf("%d %s entries, want 1", n, action)
		}
	}
}

// A rate typed as "8.25" is saved as 825 basis points and listed as
// 8.25%; a second rate for the same place, or a rate with three decimals,
// is refused next to its field; the tax switches save as ticked; each
// change is audited.
func TestAdminTax_RatesAndSettings(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	ctx := context.Background()
	form := url.Values{"name": {"Sales tax"}, "country": {"United States"}, "state": {"NY"}, "rate": {"8.25"}}
	res, _ := b.admin.post("/admin/tax/rates/new", form)
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/admin/tax" {
		t.Fatalf("create: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	rates, err := b.app.db.TaxRates(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ny shop.TaxRate
	for _, r := range rates {
		if r.State == "NY" {
			ny = r
		}
	}
	if ny.Rate != 825 || ny.Country != "United States" || ny.Name != "Sales tax" {
		t.Fatalf("saved %+v, want 825 basis points", ny)
	}
	_, doc := b.admin.get("/admin/tax")
	if got := text(doc, `[data-testid="rate"][data-id="`+ny.ID+`"] [data-testid="rate-value"]`); got != "8.25%" {
		t.Errorf("listed as %q", got)
	}
	if e := b.lastAudit(t, "tax.rate.create"); e.Subject != ny.ID || !strings.Contains(e.After, `"rate":"8.25%"`) {
		t.Errorf("audited as %s %s", e.Subject, e.After)
	}
	_, doc = b.admin.get("/admin/tax/rates/" + ny.ID)
	if got := doc.Find("#rate").AttrOr("value", ""); got != "8.25" {
		t.Errorf("editor shows %q", got)
	}

	refusals := []struct {
		name, field, value string
		errField, want     string // the message and the field it is next to
	}{
		{"SamePlace", "rate", "4", "country", "That place has a tax rate already."},
		{"FiveDecimals", "rate", "8.25555", "rate", pricing.MsgTaxRateDecimals},
		{"UnknownState", "state", "Atlantis", "state", "Please enter a state or province of United States, e.g. CA or California."},
		{"OverAHundred", "rate", "100.5", "rate", pricing.MsgRateRange},
		{"StateWithoutCountry", "country", "", "state", backoffice.MsgStateNeedsPlace},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			f := url.Values{"name": {"Sales tax"}, "country": {"United States"}, "state": {"NY"}, "rate": {"8.25"}}
			f.Set(tt.field, tt.value)
			res, doc := b.admin.post("/admin/tax/rates/new", f)
			if res.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("status %d, want 422", res.StatusCode)
			}
			if got := text(doc, "#"+tt.errField+"-error"); got != tt.want {
				t.Errorf("message next to %s %q, want %q", tt.errField, got, tt.want)
			}
			if got := doc.Find("#rate").AttrOr("value", ""); got != f.Get("rate") {
				t.Errorf("rate field %q, want %q", got, f.Get("rate"))
			}
		})
	}

	// Edited to 4.5 %, then deleted.
	form.Set("rate", "4.5")
	if res, _ := b.admin.post("/admin/tax/rates/"+ny.ID, form); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("update: %d", res.StatusCode)
	}
	if e := b.lastAudit(t, "tax.rate.update"); !strings.Contains(e.Before, "8.25%") || !strings.Contains(e.After, "4.5%") {
		t.Errorf("update audited as %s → %s", e.Before, e.After)
	}
	if res, _ := b.admin.post("/admin/tax/rates/"+ny.ID+"/delete", nil); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("delete: %d", res.StatusCode)
	}

	if res, _ := b.admin.post("/admin/tax/settings", url.Values{"prices_include_tax": {"1"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("settings: %d", res.StatusCode)
	}
	if s, err := b.app.db.PricingSettings(ctx); err != nil || !s.PricesIncludeTax || s.TaxShipping {
		t.Errorf("settings %+v, %v", s, err)
	}
	_, doc = b.admin.get("/admin/tax")
	if doc.Find(`[data-testid="prices-include-tax"]`).AttrOr("checked", "no") == "no" || doc.Find(`[data-testid="tax-shipping"]`).AttrOr("checked", "no") != "no" {
		t.Error("the settings form does not show what was saved")
	}
	for _, tt := range []struct{ action, subject string }{
		{"tax.rate.create", ny.ID}, {"tax.rate.update", ny.ID}, {"tax.rate.delete", ny.ID}, {"tax.settings", "pricing settings"},
	} {
		if n := b.auditCount(t, tt.action, tt.subject); n != 1 {
			t.Errorf("%d %s entries, want 1", n, tt.action)
		}
	}
}

// A code is created with its times read in the shop's time zone, listed
// with what it gives and needs; the same code in another case is refused
// next to the code field with what was typed kept; pausing and resuming
// it changes whether shoppers can use it, and each change is audited
// once, a second press included.
func TestAdminCodes_CreateThenPause(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	ctx := context.Background()
	form := url.Values{"code": {"Autumn-25"}, "kind": {shop.PromoPercent}, "value": {"12.5"}, "min_subtotal": {"40"},
		"starts_at": {"2026-11-27T00:00"}, "ends_at": {"2026-12-01T23:59"}, "usage_cap": {"100"}, "once_per_customer": {"1"}}
	res, _ := b.admin.post("/admin/codes", form)
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/admin/codes" {
		t.Fatalf("create: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	pc, err := b.app.db.PromoCode(ctx, "AUTUMN-25")
	if err != nil {
		t.Fatal(err)
	}
	// Midnight in New York is five in the morning in UTC.
	if pc.Value != 1250 || pc.MinSubtotal != 4000 || !pc.StartsAt.Equal(time.Date(2026, 11, 27, 5, 0, 0, 0, time.UTC)) ||
		pc.UsageCap != 100 || !pc.OncePerCustomer || pc.Paused {
		t.Fatalf("saved %+v", pc)
	}
	_, doc := b.admin.get("/admin/codes")
	item := doc.Find(`[data-testid="code"][data-code="Autumn-25"]`)
	if got := strings.TrimSpace(item.Find(`[data-testid="code-value"]`).Text()); got != "12.5% off" {
		t.Errorf("listed as giving %q", got)
	}
	if got := strings.TrimSpace(item.Find(`[data-testid="code-used"]`).Text()); got != "0 of 100" {
		t.Errorf("listed as used %q", got)
	}
	// The test clock is Nov 21, before the code starts.
	if got := strings.TrimSpace(item.Find(`[data-testid="code-state"]`).Text()); got != backoffice.PromoScheduled {
		t.Errorf("state %q", got)
	}
	if !strings.Contains(item.Text(), "From Nov 27, 2026 00:00 EST") || !strings.Contains(item.Text(), "A subtotal of at least $40.00") {
		t.Errorf("conditions %q", strings.Join(strings.Fields(item.Text()), " "))
	}

	form.Set("code", "autumn-25")
	res, doc = b.admin.post("/admin/codes", form)
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(text(doc, "#code-error"), "already") {
		t.Errorf("duplicate: %d %q", res.StatusCode, text(doc, "#code-error"))
	}
	if doc.Find("#code").AttrOr("value", "") != "autumn-25" || doc.Find("#value").AttrOr("value", "") != "12.5" ||
		doc.Find("#starts_at").AttrOr("value", "") != "2026-11-27T00:00" ||
		doc.Find(`input[name="kind"][value="percent"]`).AttrOr("checked", "no") == "no" {
		t.Error("what was typed is lost")
	}

	for i, step := range []struct {
		path   string
		paused bool
		button string // shown after
	}{
		{"/admin/codes/pause", true, "resume"},
		{"/admin/codes/pause", true, "resume"}, // pressed twice
		{"/admin/codes/resume", false, "pause"},
	} {
		res, _ := b.admin.post(step.path, url.Values{"code": {"autumn-25"}})
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("step %d %s: %d", i, step.path, res.StatusCode)
		}
		if pc, err := b.app.db.PromoCode(ctx, "Autumn-25"); err != nil || pc.Paused != step.paused {
			t.Errorf("step %d: paused %v, %v; want %v", i, pc.Paused, err, step.paused)
		}
		_, doc := b.admin.get("/admin/codes")
		if doc.Find(`[data-code="Autumn-25"] [data-testid="`+step.button+`"]`).Length() != 1 {
			t.Errorf("step %d: no %s button", i, step.button)
		}
	}
	if res, _ := b.admin.post("/admin/codes/pause", url.Values{"code": {"NOPE"}}); res.StatusCode != http.StatusSeeOther {
		t.Errorf("unknown code: %d", res.StatusCode)
	}
	for _, action := range []string{"promo.create", "promo.pause", "promo.resume"} {
		if n := b.auditCount(t, action, "Autumn-25"); n != 1 {
			t.Errorf("%d %s entries, want 1", n, action)
		}
	}
}
