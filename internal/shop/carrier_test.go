package shop_test

import (
	"testing"

	"github.com/nocturne/storefront/internal/shop"
)

// The number is escaped whole into the template: wherever the template
// puts it (path, query, fragment), it stays one value and cannot add a
// path segment, a parameter or a fragment.
func TestCarrier_TrackingURL(t *testing.T) {
	tests := []struct {
		name, template, tracking, want string
	}{
		{"Query", "https://www.ups.com/track?tracknum={tracking}", "1Z999AA10123456784", "https://www.ups.com/track?tracknum=1Z999AA10123456784"},
		{"Path", "https://t.example/p/{tracking}/details", "A B/C", "https://t.example/p/A%20B%2FC/details"},
		{"Fragment", "https://www.royalmail.com/track-your-item#/tracking-results/{tracking}", "AB?x=1&y#z", "https://www.royalmail.com/track-your-item#/tracking-results/AB%3Fx%3D1%26y%23z"},
		{"PlusAndPercent", "https://t.example/?n={tracking}", "a+b%", "https://t.example/?n=a%2Bb%25"},
		{"Unicode", "https://t.example/?n={tracking}", "Ä1", "https://t.example/?n=%C3%841"},
		{"Twice", "https://t.example/{tracking}?again={tracking}", "X-1", "https://t.example/X-1?again=X-1"},
		{"NoTemplate", "", "X-1", ""},
		{"NoNumber", "https://t.example/{tracking}", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := (shop.Carrier{URLTemplate: tt.template}).TrackingURL(tt.tracking); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCarrier_Validate(t *testing.T) {
	tests := []struct {
		name, carrier, template string
		want                    shop.FieldErrors
	}{
		{"OK", " Night Post ", " https://nightpost.example/track?n={tracking} ", nil},
		{"ErrNameRequired", " ", "https://t.example/{tracking}", shop.FieldErrors{"name": shop.MsgCarrierName}},
		{"ErrNameTooLong", "N23456789012345678901234567890123456789012", "https://t.example/{tracking}", shop.FieldErrors{"name": shop.MsgCarrierName}},
		{"ErrHTTP", "N", "http://t.example/{tracking}", shop.FieldErrors{"url_template": shop.MsgCarrierTemplate}},
		{"ErrUpperCaseScheme", "N", "HTTPS://t.example/{tracking}", shop.FieldErrors{"url_template": shop.MsgCarrierTemplate}},
		{"ErrNoPlaceholder", "N", "https://t.example/track", shop.FieldErrors{"url_template": shop.MsgCarrierTemplate}},
		{"ErrScript", "N", "javascript:alert(1)//{tracking}", shop.FieldErrors{"url_template": shop.MsgCarrierTemplate}},
		{"ErrNoHost", "N", "https:///{tracking}", shop.FieldErrors{"url_template": shop.MsgCarrierTemplate}},
		{"ErrUserInfo", "N", "https://user:pw@t.example/{tracking}", shop.FieldErrors{"url_template": shop.MsgCarrierTemplate}},
		{"ErrQuote", "N", `https://t.example/{tracking}"onclick`, shop.FieldErrors{"url_template": shop.MsgCarrierTemplate}},
		{"ErrBoth", "", "", shop.FieldErrors{"name": shop.MsgCarrierName, "url_template": shop.MsgCarrierTemplate}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := shop.Carrier{Name: tt.carrier, URLTemplate: tt.template}
			got := c.Validate()
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("field %s: got %q, want %q", k, got[k], v)
				}
			}
		})
	}
}

// Shoppers are shown every event but staff notes.
func TestShopperTimeline(t *testing.T) {
	events := []shop.OrderEvent{{Status: string(shop.PaymentPaid)}, {Status: shop.EventNote, Note: "fragile"}, {Status: string(shop.StatusShipped)}}
	got := shop.ShopperTimeline(events)
	if len(got) != 2 || got[0].Status != string(shop.PaymentPaid) || got[1].Status != string(shop.StatusShipped) {
		t.Errorf("got %+v, want the paid and shipped events", got)
	}
	if len(events) != 3 {
		t.Error("the events given were changed")
	}
}
