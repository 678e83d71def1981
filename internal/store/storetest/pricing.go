package storetest

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// PricingStore is a payment store that also keeps the pricing settings and
// promo codes.
type PricingStore interface {
	PaymentStore
	shop.PricingStore
	shop.PromoStore
}

// testPricing checks the pricing settings (the migration's defaults, each
// save and delete, what is refused) and promo codes: saving and reading
// them, an order's price breakdown, and each code's use counted when an
// order is placed and given back, once, when it is cancelled or released,
// also with shoppers racing for a code's last uses.
func testPricing(t *testing.T, b Backend) {
	open := func(t *testing.T) (PricingStore, *Clock) {
		s, _, clock := b.open(t)
		ps, ok := s.(PricingStore)
		if !ok {
			t.Skipf("%T does not implement the pricing stores", s)
		}
		return ps, clock
	}
	t.Run("Defaults", func(t *testing.T) { s, _ := open(t); pricingDefaults(t, s) })
	t.Run("SaveAndDelete", func(t *testing.T) { s, _ := open(t); pricingSaveAndDelete(t, s) })
	t.Run("Refused", func(t *testing.T) { s, _ := open(t); pricingRefused(t, s) })
	t.Run("ExactTaxRates", func(t *testing.T) { s, _ := open(t); exactTaxRates(t, s) })
	t.Run("PromoCodes", func(t *testing.T) { s, clock := open(t); promoCodes(t, s, clock) })
	t.Run("FreeMethods", func(t *testing.T) { s, _ := open(t); promoFreeMethods(t, s) })
	t.Run("OrderBreakdown", func(t *testing.T) { s, _ := open(t); orderBreakdown(t, s) })
	t.Run("UseCounted", func(t *testing.T) { s, _ := open(t); promoUseCounted(t, s) })
	t.Run("OncePerCustomer", func(t *testing.T) { s, _ := open(t); promoOncePerCustomer(t, s) })
	t.Run("UseRace", func(t *testing.T) { s, _ := open(t); promoUseRace(t, s) })
}

// The spec's policy, as the migrations seed it.
var (
	defaultZones = []shop.ShippingZone{
		{ID: "us", Name: "United States", Countries: []string{"United States"}, Position: 1},
		{ID: "intl", Name: "International", Countries: []string{"Canada", "United Kingdom"}, Position: 2},
	}
	defaultMethods = []shop.ShippingMethod{
		{ID: "standard", Name: "Standard", Price: 1000, FreeFrom: 5000, MinDays: 3, MaxDays: 5, CutoffHour: -1, ZoneIDs: []string{"us"}, Position: 1, Enabled: true},
		{ID: "express", Name: "Express", Price: 1499, MinDays: 2, MaxDays: 3, CutoffHour: -1, ZoneIDs: []string{"us"}, Position: 2, Enabled: true},
		{ID: "next-day", Name: "Next Day", Price: 1999, MinDays: 1, MaxDays: 1, CutoffHour: 14, ZoneIDs: []string{"us"}, Position: 3, Enabled: true},
		{ID: "international", Name: "International", Price: 2499, MinDays: 7, MaxDays: 14, CutoffHour: -1, ZoneIDs: []string{"intl"}, Position: 4, Enabled: true},
	}
	defaultRates = []shop.TaxRate{{ID: "default", Name: "Tax", Rate: 1000}}
)

// wantPricing fails the test unless the store's zones, methods and rates
// are the ones given.
func wantPricing(t *testing.T, s PricingStore, what string, zones []shop.ShippingZone, methods []shop.ShippingMethod, rates []shop.TaxRate) {
	t.Helper()
	ctx := context.Background()
	gotZones, err := s.ShippingZones(ctx)
	must(t, err)
	if !reflect.DeepEqual(gotZones, zones) {
		t.Errorf("%s: zones %+v, want %+v", what, gotZones, zones)
	}
	gotMethods, err := s.ShippingMethods(ctx)
	must(t, err)
	if !reflect.DeepEqual(gotMethods, methods) {
		t.Errorf("%s: methods %+v, want %+v", what, gotMethods, methods)
	}
	gotRates, err := s.TaxRates(ctx)
	must(t, err)
	if !reflect.DeepEqual(gotRates, rates) {
		t.Errorf("%s: tax rates %+v, want %+v", what, gotRates, rates)
	}
}

func pricingDefaults(t *testing.T, s PricingStore) {
	wantPricing(t, s, "a new shop", defaultZones, defaultMethods, defaultRates)
	got, err := s.PricingSettings(context.Background())
	must(t, err)
	if got != (shop.PricingSettings{}) {
		t.Errorf("settings of a new shop: %+v, want prices without tax and shipping untaxed", got)
	}
}

func pricingSaveAndDelete(t *testing.T, s PricingStore) {
	ctx := context.Background()
	west, err := s.SaveShippingZone(ctx, shop.ShippingZone{Name: "US West", Countries: []string{"United States"}, States: []string{"CA", "OR"}})
	must(t, err)
	if west.ID == "" {
		t.Fatal("a new zone has no id")
	}
	west.Name, west.States = "West Coast", []string{"CA", "OR", "WA"}
	again, err := s.SaveShippingZone(ctx, west)
	must(t, err)
	if !reflect.DeepEqual(again, west) {
		t.Errorf("saved zone %+v, want %+v", again, west)
	}
	pickup, err := s.SaveShippingMethod(ctx, shop.ShippingMethod{Name: "Pickup", MinDays: 0, MaxDays: 0, CutoffHour: 12,
		ZoneIDs: []string{"us", west.ID, "us"}, Position: 5})
	must(t, err)
	if pickup.ID == "" {
		t.Fatal("a new method has no id")
	}
	pickup.ZoneIDs = []string{west.ID, "us"} // once each, in the zones' order
	ca, err := s.SaveTaxRate(ctx, shop.TaxRate{Name: "Sales tax", Country: "United States", State: "CA", Rate: 725})
	must(t, err)
	ca.Rate = 750
	_, err = s.SaveTaxRate(ctx, ca)
	must(t, err)
	wantPricing(t, s, "after saving",
		append([]shop.ShippingZone{west}, defaultZones...),
		append(append([]shop.ShippingMethod(nil), defaultMethods...), pickup),
		append(append([]shop.TaxRate(nil), defaultRates...), ca))

	// A deleted zone leaves the methods that shipped there.
	must(t, s.DeleteShippingZone(ctx, west.ID))
	pickup.ZoneIDs = []string{"us"}
	wantPricing(t, s, "after deleting the zone", defaultZones, append(append([]shop.ShippingMethod(nil), defaultMethods...), pickup),
		append(append([]shop.TaxRate(nil), defaultRates...), ca))
	must(t, s.DeleteShippingMethod(ctx, pickup.ID))
	must(t, s.DeleteTaxRate(ctx, ca.ID))
	wantPricing(t, s, "after deleting everything saved", defaultZones, defaultMethods, defaultRates)

	for _, want := range []shop.PricingSettings{{PricesIncludeTax: true, TaxShipping: true}, {TaxShipping: true}, {}} {
		must(t, s.SavePricingSettings(ctx, want))
		if got, err := s.PricingSettings(ctx); err != nil || got != want {
			t.Errorf("settings: %+v (%v), want %+v", got, err, want)
		}
	}
}

func pricingRefused(t *testing.T, s PricingStore) {
	ctx := context.Background()
	method := func(edit func(m *shop.ShippingMethod)) func() error {
		return func() error {
			m := shop.ShippingMethod{Name: "Freight", Price: 5000, MinDays: 5, MaxDays: 10, CutoffHour: -1, ZoneIDs: []string{"us"}}
			edit(&m)
			_, err := s.SaveShippingMethod(ctx, m)
			return err
		}
	}
	zone := func(z shop.ShippingZone) func() error {
		return func() error { _, err := s.SaveShippingZone(ctx, z); return err }
	}
	rate := func(r shop.TaxRate) func() error {
		return func() error { _, err := s.SaveTaxRate(ctx, r); return err }
	}
	for _, tt := range []struct {
		name string
		save func() error
		code string
	}{
		{"a method to a zone that does not exist", method(func(m *shop.ShippingMethod) { m.ZoneIDs = []string{"mars"} }), shop.ENOTFOUND},
		{"a method with no name", method(func(m *shop.ShippingMethod) { m.Name = "" }), shop.EINVALID},
		{"a negative price", method(func(m *shop.ShippingMethod) { m.Price = -1 }), shop.EINVALID},
		{"more days at least than at most", method(func(m *shop.ShippingMethod) { m.MinDays = 11 }), shop.EINVALID},
		{"a cut-off past the day", method(func(m *shop.ShippingMethod) { m.CutoffHour = 24 }), shop.EINVALID},
		{"a zone with no name", zone(shop.ShippingZone{Countries: []string{"Canada"}}), shop.EINVALID},
		{"a zone listing a country twice", zone(shop.ShippingZone{ID: "twice", Name: "Twice", Countries: []string{"Canada", "Canada"}}), shop.EINVALID},
		{"a second rate for a place", rate(shop.TaxRate{Name: "VAT", Rate: 2000}), shop.EINVALID},
		{"a rate over 100%", rate(shop.TaxRate{Name: "VAT", Country: "Canada", Rate: 10001}), shop.EINVALID},
		{"a state without its country", rate(shop.TaxRate{Name: "VAT", State: "CA", Rate: 500}), shop.EINVALID},
		{"a rate with no name", rate(shop.TaxRate{Country: "Canada", Rate: 500}), shop.EINVALID},
		{"deleting a zone that is not there", func() error { return s.DeleteShippingZone(ctx, "mars") }, shop.ENOTFOUND},
		{"deleting a method that is not there", func() error { return s.DeleteShippingMethod(ctx, "teleport") }, shop.ENOTFOUND},
		{"deleting a rate that is not there", func() error { return s.DeleteTaxRate(ctx, "nope") }, shop.ENOTFOUND},
	} {
		wantCode(t, tt.name, tt.save(), tt.code, "")
	}
	// Nothing refused was kept, not even part of it.
	wantPricing(t, s, "after the refusals", defaultZones, defaultMethods, defaultRates)
}

func promoCodes(t *testing.T, s PricingStore, clock *Clock) {
	ctx := context.Background()
	starts := clock.Now().Add(-time.Hour)
	save10 := shop.PromoCode{Code: "SAVE10", Kind: shop.PromoPercent, Value: 1000, MinSubtotal: 2000,
		StartsAt: starts, EndsAt: starts.Add(72 * time.Hour), UsageCap: 100, OncePerCustomer: true, Used: 7}
	created, err := s.SavePromoCode(ctx, save10)
	must(t, err)
	save10.CreatedAt, save10.Used = clock.Now(), 0
	if !reflect.DeepEqual(created, save10) {
		t.Errorf("created %+v, want %+v", created, save10)
	}
	for _, typed := range []string{"SAVE10", "save10", "Save10"} {
		if got, err := s.PromoCode(ctx, typed); err != nil || !reflect.DeepEqual(got, save10) {
			t.Errorf("code typed %q: %+v (%v), want %+v", typed, got, err, save10)
		}
	}
	clock.Add(time.Minute)
	free, err := s.SavePromoCode(ctx, shop.PromoCode{Code: "FreeShip", Kind: shop.PromoFreeShipping})
	must(t, err)

	for _, tt := range []struct {
		name string
		c    shop.PromoCode
		code string
		msg  string
	}{
		{"the same code in another case", shop.PromoCode{Code: "save10", Kind: shop.PromoFixed, Value: 500}, shop.EINVALID, ""},
		{"the same code", shop.PromoCode{Code: "SAVE10", Kind: shop.PromoFixed, Value: 500}, shop.EINVALID, ""},
		{"no code", shop.PromoCode{Kind: shop.PromoFixed, Value: 500}, shop.EINVALID, ""},
		{"an unknown kind", shop.PromoCode{Code: "X", Kind: "bogo", Value: 500}, shop.EINVALID, ""},
		{"more than 100% off", shop.PromoCode{Code: "X", Kind: shop.PromoPercent, Value: 10001}, shop.EINVALID, ""},
		{"a negative amount", shop.PromoCode{Code: "X", Kind: shop.PromoFixed, Value: -1}, shop.EINVALID, ""},
		{"a change to a code that is not there", shop.PromoCode{Code: "NOPE", Kind: shop.PromoFixed, CreatedAt: clock.Now()}, shop.ENOTFOUND, shop.MsgPromoUnknown},
	} {
		_, err := s.SavePromoCode(ctx, tt.c)
		wantCode(t, tt.name, err, tt.code, tt.msg)
	}

	// A change, named in any case, keeps the code's spelling, use count
	// and creation time.
	edit := save10
	edit.Code, edit.Value, edit.OncePerCustomer, edit.Used, edit.CreatedAt = "save10", 1500, false, 99, clock.Now()
	changed, err := s.SavePromoCode(ctx, edit)
	must(t, err)
	save10.Value, save10.OncePerCustomer = 1500, false
	if !reflect.DeepEqual(changed, save10) {
		t.Errorf("changed %+v, want %+v", changed, save10)
	}
	must(t, s.SetPromoPaused(ctx, "FREESHIP", true))
	free.Paused = true
	all, err := s.PromoCodes(ctx)
	must(t, err)
	if want := []shop.PromoCode{free, save10}; !reflect.DeepEqual(all, want) {
		t.Errorf("codes %+v, want newest first %+v", all, want)
	}
	must(t, s.SetPromoPaused(ctx, "freeship", false))
	if got, _ := s.PromoCode(ctx, "FreeShip"); got.Paused {
		t.Error("a code let go again is still paused")
	}
	wantCode(t, "pause a code that is not there", s.SetPromoPaused(ctx, "NOPE", true), shop.ENOTFOUND, shop.MsgPromoUnknown)
	_, err = s.PromoCode(ctx, "NOPE")
	wantCode(t, "a code that is not there", err, shop.ENOTFOUND, shop.MsgPromoUnknown)
	if used, err := s.PromoUsedBy(ctx, "SAVE10", "u1"); err != nil || used {
		t.Errorf("used by before any order: %v (%v)", used, err)
	}
}

// placeWithCode has owner's cart claimed as an order by email with the
// promo code, as checkout does: a tenth off, Standard shipping, 10% tax.
func placeWithCode(ctx context.Context, s PricingStore, owner, key, email, code string) (*shop.Order, error) {
	o, _, err := s.ClaimCart(ctx, owner, key, func(c shop.Cart, placed int) (*shop.Order, error) {
		o := &shop.Order{ID: "NOC-" + key, UserID: owner, Email: email, ShipTo: shop.Address{Name: "A", Country: "United States"},
			PaymentMethod: "Visa ending 4242", ChargeKey: "chg_" + key, LeaseUntil: time.Now().Add(time.Minute),
			PromoCode: code, ShippingMethod: "Standard", Shipping: 1000}
		for _, l := range c.Lines {
			o.Lines = append(o.Lines, shop.OrderLine{ProductID: l.Product.ID, VariantID: l.VariantID,
				Name: l.Product.Title, Price: l.Product.Price, Quantity: l.Quantity})
			o.Subtotal += l.Total()
		}
		o.Discount = o.Subtotal / 10
		base := o.Subtotal - o.Discount
		o.TaxLines = []shop.TaxLine{{Name: "Tax", Rate: 1000, Base: base, Amount: base / 10}}
		o.Tax = base / 10
		o.Total = base + o.Shipping + o.Tax
		return o, nil
	})
	return o, err
}

// newCode stores a promo code of a tenth off.
func newCode(t *testing.T, s PricingStore, c shop.PromoCode) {
	t.Helper()
	c.Kind, c.Value = shop.PromoPercent, 1000
	_, err := s.SavePromoCode(context.Background(), c)
	must(t, err)
}

// wantUsed fails the test unless code has been used n times.
func wantUsed(t *testing.T, s PricingStore, what, code string, n int) {
	t.Helper()
	c, err := s.PromoCode(context.Background(), code)
	must(t, err)
	if c.Used != n {
		t.Errorf("%s: %s used %d times, want %d", what, code, c.Used, n)
	}
}

func orderBreakdown(t *testing.T, s PricingStore) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"p1": 5})
	newCode(t, s, shop.PromoCode{Code: "Night10"})
	must(t, s.AddToCart(ctx, "guest_1", "p1", 2))
	placed, err := placeWithCode(ctx, s, "guest_1", "k1", "ada@example.com", "Night10")
	must(t, err)
	got, err := s.Order(ctx, placed.ID)
	must(t, err)
	if got.PromoCode != "Night10" || got.Discount != 200 || got.ShippingMethod != "Standard" || got.TaxIncluded ||
		got.Tax != 180 || got.Total != 1800+1000+180 {
		t.Errorf("placed order: code %q, discount %v, method %q, tax included %v, tax %v, total %v",
			got.PromoCode, got.Discount, got.ShippingMethod, got.TaxIncluded, got.Tax, got.Total)
	}
	if !reflect.DeepEqual(got.TaxLines, placed.TaxLines) {
		t.Errorf("tax lines %+v, want %+v", got.TaxLines, placed.TaxLines)
	}

	// An order stored as it is (demo data) keeps its breakdown too, and
	// counts no code's use.
	vat := order("NOC-vat", "u1", shop.StatusDelivered, 12000, time.Now())
	vat.PromoCode, vat.Discount, vat.ShippingMethod, vat.TaxIncluded = "Night10", 500, "International", true
	vat.TaxLines = []shop.TaxLine{{Name: "VAT", Rate: 2000, Base: 10000, Amount: 2000}, {Name: "Shipping VAT", Rate: 2000, Base: 2499, Amount: 500}}
	must(t, s.InsertOrder(ctx, vat))
	got, err = s.Order(ctx, vat.ID)
	must(t, err)
	if got.PromoCode != vat.PromoCode || got.Discount != vat.Discount || got.ShippingMethod != vat.ShippingMethod ||
		!got.TaxIncluded || !reflect.DeepEqual(got.TaxLines, vat.TaxLines) {
		t.Errorf("inserted order: %+v, want the breakdown of %+v", got, vat)
	}
	list, _, err := s.Orders(ctx, shop.OrderQuery{UserID: "u1", Page: 1})
	must(t, err)
	if len(list) != 1 || list[0].Discount != 500 || !list[0].TaxIncluded {
		t.Errorf("listed: %+v", list)
	}
	wantUsed(t, s, "after one placed and one inserted order", "NIGHT10", 1)
	if used, err := s.PromoUsedBy(ctx, "night10", shop.PromoCustomer("guest_1", "ada@example.com")); err != nil || !used {
		t.Errorf("used by the shopper who placed it: %v (%v)", used, err)
	}
}

// A code's use is counted when an order is placed with it and given back,
// once, when the order is released (its payment failed or expired) or
// cancelled (by staff, or as an unpaid bank transfer), never on a refund.
// A code refused fails the whole placement.
func promoUseCounted(t *testing.T, s PricingStore) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"p1": 20})
	newCode(t, s, shop.PromoCode{Code: "OWL"})
	newCode(t, s, shop.PromoCode{Code: "PAUSED", Paused: true})
	newCode(t, s, shop.PromoCode{Code: "ONE", UsageCap: 1})
	place := func(owner, code string) (*shop.Order, error) {
		t.Helper()
		must(t, s.AddToCart(ctx, owner, "p1", 1))
		return placeWithCode(ctx, s, owner, "k-"+owner, owner+"@example.com", code)
	}

	released, err := place("guest_1", "owl")
	must(t, err)
	wantUsed(t, s, "placed", "OWL", 1)
	must(t, s.ReleaseOrder(ctx, released.ID))
	must(t, s.ReleaseOrder(ctx, released.ID))
	wantUsed(t, s, "released twice", "OWL", 0)

	cancelled, err := place("guest_2", "OWL")
	must(t, err)
	must(t, s.CompleteOrder(ctx, cancelled.ID, true))
	must(t, s.ClaimRefund(ctx, shop.RefundClaim{OrderID: cancelled.ID, Was: 0, Amount: 100, Note: "scratched", Actor: "ada@example.com", At: time.Now()}))
	_, err = s.RecordRefund(ctx, cancelled.ID, 100, "", time.Now())
	must(t, err)
	wantUsed(t, s, "placed and refunded in part", "OWL", 1)
	cancel := shop.Transition{OrderID: cancelled.ID, From: shop.StatusProcessing, To: shop.StatusCancelled, Reason: "r"}
	_, err = s.TransitionOrder(ctx, cancel)
	must(t, err)
	_, err = s.TransitionOrder(ctx, cancel)
	wantCode(t, "cancel twice", err, shop.ECONFLICT, "")
	wantUsed(t, s, "cancelled", "OWL", 0)

	// An unpaid bank transfer cancelled when its hold ends.
	transfer, err := place("guest_3", "OWL")
	must(t, err)
	must(t, s.CompleteOrder(ctx, transfer.ID, false))
	_, err = s.TransitionOrder(ctx, shop.Transition{OrderID: transfer.ID, From: shop.StatusProcessing, To: shop.StatusCancelled, Reason: "r", Unpaid: true})
	must(t, err)
	wantUsed(t, s, "an unpaid transfer cancelled", "OWL", 0)

	kept, err := place("guest_4", "OWL")
	must(t, err)
	must(t, s.CompleteOrder(ctx, kept.ID, true))
	wantUsed(t, s, "placed and paid", "OWL", 1)

	_, err = place("guest_5", "ONE")
	must(t, err)
	for _, tt := range []struct{ code, msg string }{
		{"NOPE", shop.MsgPromoUnknown},
		{"paused", shop.MsgPromoUnknown},
		{"one", shop.MsgPromoUsedUp},
	} {
		owner := "guest_refused_" + tt.code
		stock, err := s.Stock(ctx, "p1")
		must(t, err)
		_, err = place(owner, tt.code)
		wantCode(t, "an order with "+tt.code, err, shop.EINVALID, tt.msg)
		if _, err := s.OrderByKey(ctx, "k-"+owner); shop.ErrorCode(err) != shop.ENOTFOUND {
			t.Errorf("an order refused for its code %s was kept: %v", tt.code, err)
		}
		if after, _ := s.Stock(ctx, "p1"); after != stock {
			t.Errorf("an order refused for its code %s took stock: %d, was %d", tt.code, after, stock)
		}
		if c := cartOf(t, s, owner); c != "p1×1" {
			t.Errorf("cart after an order refused for its code %s: %s, want it as it was", tt.code, c)
		}
	}
	wantUsed(t, s, "after the refusals", "PAUSED", 0)
	wantUsed(t, s, "after the refusals", "ONE", 1)
}

// A code once per customer is refused a second time to the same account,
// and to the same guest e-mail in any case, from another guest session; a
// cancelled order gives the use back. (The first order is placed before
// the second is tried: a pending one would make the cart busy.)
func promoOncePerCustomer(t *testing.T, s PricingStore) {
	ctx := context.Background()
	seedStock(t, s, map[string]int{"p1": 20})
	newCode(t, s, shop.PromoCode{Code: "WELCOME", OncePerCustomer: true})
	newCode(t, s, shop.PromoCode{Code: "ALWAYS"})
	n := 0
	place := func(owner, email, code string) (*shop.Order, error) {
		t.Helper()
		n++
		must(t, s.AddToCart(ctx, owner, "p1", 1))
		return placeWithCode(ctx, s, owner, fmt.Sprintf("k%d", n), email, code)
	}
	for _, tt := range []struct {
		name          string
		first, second [2]string // owner, e-mail
	}{
		{"the same account", [2]string{"u1", "ada@example.com"}, [2]string{"u1", "ada.lovelace@example.com"}},
		{"the same guest e-mail", [2]string{"guest_1", "Ada@Example.com"}, [2]string{"guest_2", "ada@example.COM"}},
	} {
		first, err := place(tt.first[0], tt.first[1], "welcome")
		must(t, err)
		must(t, s.CompleteOrder(ctx, first.ID, true))
		_, err = place(tt.second[0], tt.second[1], "WELCOME")
		wantCode(t, tt.name+": a second order", err, shop.EINVALID, shop.MsgPromoAlreadyUsed)
		if used, err := s.PromoUsedBy(ctx, "Welcome", shop.PromoCustomer(tt.second[0], tt.second[1])); err != nil || !used {
			t.Errorf("%s: used by %v (%v), want true", tt.name, used, err)
		}
		_, err = s.OrderByKey(ctx, fmt.Sprintf("k%d", n))
		wantCode(t, tt.name+": the refused order", err, shop.ENOTFOUND, "")
		_, err = s.TransitionOrder(ctx, shop.Transition{OrderID: first.ID, From: shop.StatusProcessing, To: shop.StatusCancelled, Reason: "r"})
		must(t, err)
		again, err := place(tt.second[0], tt.second[1], "WELCOME")
		must(t, err)
		must(t, s.CompleteOrder(ctx, again.ID, true))
	}
	wantUsed(t, s, "placed twice, cancelled once, by each customer", "WELCOME", 2)
	// Another account, a guest address with a +tag or a dot (other
	// mailboxes at most providers: decision 0022), and a code any
	// customer may use again, go through.
	_, err := place("u2", "ada@example.com", "WELCOME")
	must(t, err)
	for _, email := range []string{"ada+1@example.com", "a.da@example.com"} {
		o, err := place("guest_"+email, email, "WELCOME")
		must(t, err)
		must(t, s.CompleteOrder(ctx, o.ID, true))
	}
	for range 2 {
		o, err := place("u1", "ada@example.com", "ALWAYS")
		must(t, err)
		must(t, s.CompleteOrder(ctx, o.ID, true))
	}
	wantUsed(t, s, "placed twice by one customer", "ALWAYS", 2)
}

// Twenty shoppers race for a code's last five uses, each for a product of
// its own so only the code is contended: exactly five orders go through,
// the rest are refused as used up and take nothing.
func promoUseRace(t *testing.T, s PricingStore) {
	ctx := context.Background()
	const racers, left = 20, 5
	stock := map[string]int{"p0": 10}
	for i := range racers {
		stock[fmt.Sprintf("r%d", i)] = 1
	}
	seedStock(t, s, stock)
	newCode(t, s, shop.PromoCode{Code: "LAST", UsageCap: 3 + left})
	for i := range 3 {
		owner := fmt.Sprintf("guest_early_%d", i)
		must(t, s.AddToCart(ctx, owner, "p0", 1))
		_, err := placeWithCode(ctx, s, owner, "early"+owner, owner+"@example.com", "LAST")
		must(t, err)
	}
	for i := range racers {
		must(t, s.AddToCart(ctx, fmt.Sprintf("guest_%d", i), fmt.Sprintf("r%d", i), 1))
	}
	errs := parallel(racers, func(i int) error {
		owner := fmt.Sprintf("guest_%d", i)
		_, err := placeWithCode(ctx, s, owner, fmt.Sprintf("race-%d", i), owner+"@example.com", "last")
		return err
	})
	won := 0
	for i, err := range errs {
		if err == nil {
			won++
			continue
		}
		wantCode(t, fmt.Sprintf("racer %d", i), err, shop.EINVALID, shop.MsgPromoUsedUp)
		if n, _ := s.Stock(ctx, fmt.Sprintf("r%d", i)); n != 1 {
			t.Errorf("racer %d was refused but took stock: %d left, want 1", i, n)
		}
	}
	if won != left {
		t.Errorf("%d racers for %d uses left: %d orders went through", racers, left, won)
	}
	wantUsed(t, s, "after the race", "LAST", 3+left)
}
