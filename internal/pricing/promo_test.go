package pricing_test

import (
	"errors"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/pricing"
	"github.com/nocturne/storefront/internal/shop"
)

func TestCheckCode(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	ok := shop.PromoCode{Code: "AUTUMN", Kind: shop.PromoPercent, Value: 1500, MinSubtotal: 2500,
		StartsAt: now.Add(-time.Hour), EndsAt: now.Add(time.Hour), UsageCap: 10, Used: 9}
	tests := []struct {
		name     string
		edit     func(c *shop.PromoCode)
		subtotal shop.Cents
		want     string // the message; "" for no error
	}{
		{"OK", nil, 2500, ""},
		{"OKWithoutLimits", func(c *shop.PromoCode) { *c = shop.PromoCode{Kind: shop.PromoFixed, Value: 500} }, 1, ""},
		{"ErrPaused", func(c *shop.PromoCode) { c.Paused = true }, 2500, shop.MsgPromoUnknown},
		{"ErrUnknownKind", func(c *shop.PromoCode) { c.Kind = "bogus" }, 2500, shop.MsgPromoUnknown},
		{"ErrNotYet", func(c *shop.PromoCode) { c.StartsAt = now.Add(time.Second) }, 2500, shop.MsgPromoNotYet},
		{"OKFromItsStart", func(c *shop.PromoCode) { c.StartsAt = now }, 2500, ""},
		{"ErrExpiredAtItsEnd", func(c *shop.PromoCode) { c.EndsAt = now }, 2500, shop.MsgPromoExpired},
		{"ErrUsedUp", func(c *shop.PromoCode) { c.Used = 10 }, 2500, shop.MsgPromoUsedUp},
		{"ErrMinimum", nil, 2499, "That code needs a subtotal of at least $25.00."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := ok
			if tt.edit != nil {
				tt.edit(&c)
			}
			err := pricing.CheckCode(c, tt.subtotal, now)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("got %v, want no error", err)
				}
				return
			}
			var e *shop.Error
			if !errors.As(err, &e) || e.Code != shop.EINVALID || e.Message != tt.want {
				t.Errorf("got %v, want an EINVALID with %q", err, tt.want)
			}
		})
	}
}
