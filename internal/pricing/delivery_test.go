package pricing_test

import (
	"testing"
	"time"
	_ "time/tzdata" // America/New_York without the system's zone files

	"github.com/nocturne/storefront/internal/pricing"
	"github.com/nocturne/storefront/internal/shop"
)

func TestDelivery(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	standard := shop.ShippingMethod{MinDays: 3, MaxDays: 5, CutoffHour: 14}
	nextDay := shop.ShippingMethod{MinDays: 1, MaxDays: 1, CutoffHour: 14}
	noCutoff := shop.ShippingMethod{MinDays: 1, MaxDays: 2, CutoffHour: -1}
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, ny) }
	tests := []struct {
		name     string
		method   shop.ShippingMethod
		now      time.Time
		from, to time.Time
	}{
		// 2026-11-26 is a Thursday.
		{"before the cut-off it leaves the same day", standard, time.Date(2026, 11, 26, 13, 59, 0, 0, ny), day(2026, 12, 1), day(2026, 12, 3)},
		{"at the cut-off it leaves the next day", standard, time.Date(2026, 11, 26, 14, 0, 0, 0, ny), day(2026, 12, 2), day(2026, 12, 4)},
		{"Friday after the cut-off it leaves Monday", standard, time.Date(2026, 11, 27, 15, 0, 0, 0, ny), day(2026, 12, 3), day(2026, 12, 7)},
		{"Saturday it leaves Monday", standard, time.Date(2026, 11, 28, 9, 0, 0, 0, ny), day(2026, 12, 3), day(2026, 12, 7)},
		{"Next Day on Friday before the cut-off arrives Monday", nextDay, time.Date(2026, 11, 27, 13, 0, 0, 0, ny), day(2026, 11, 30), day(2026, 11, 30)},
		{"Next Day on Friday after the cut-off arrives Tuesday", nextDay, time.Date(2026, 11, 27, 14, 30, 0, 0, ny), day(2026, 12, 1), day(2026, 12, 1)},
		// 18:59 UTC is 13:59 in New York (EST): still before its cut-off.
		{"Next Day reads the hour in the shop's zone", nextDay, time.Date(2026, 11, 25, 18, 59, 0, 0, time.UTC), day(2026, 11, 26), day(2026, 11, 26)},
		{"Next Day at the cut-off in the shop's zone", nextDay, time.Date(2026, 11, 25, 19, 0, 0, 0, time.UTC), day(2026, 11, 27), day(2026, 11, 27)},
		// Clocks go forward on Sunday 2026-03-08; days stay at midnight.
		{"across daylight saving time", nextDay, time.Date(2026, 3, 6, 10, 0, 0, 0, ny), day(2026, 3, 9), day(2026, 3, 9)},
		{"no cut-off leaves the next business day", noCutoff, time.Date(2026, 11, 26, 1, 0, 0, 0, ny), day(2026, 11, 30), day(2026, 12, 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			from, to := pricing.Delivery(tt.method, tt.now, ny)
			if !from.Equal(tt.from) || !to.Equal(tt.to) {
				t.Errorf("got %v – %v, want %v – %v", from, to, tt.from, tt.to)
			}
		})
	}
}

func TestEstimate(t *testing.T) {
	tests := []struct {
		min, max int
		want     string
	}{
		{3, 5, "3–5 business days"},
		{1, 1, "1 business day"},
		{2, 2, "2 business days"},
		{0, 1, "0–1 business days"},
	}
	for _, tt := range tests {
		if got := pricing.Estimate(shop.ShippingMethod{MinDays: tt.min, MaxDays: tt.max}); got != tt.want {
			t.Errorf("%d–%d: got %q, want %q", tt.min, tt.max, got, tt.want)
		}
	}
}
