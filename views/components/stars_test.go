package components_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/nocturne/storefront/views/components"
)

// TestStars checks what a shopper sees of a rating: how many of the five
// stars are lit, half lit and dark, and the label a screen reader reads.
func TestStars(t *testing.T) {
	tests := []struct {
		rating            float64
		full, half, empty int
	}{
		{0, 0, 0, 5},
		{0.2, 0, 0, 5},
		{0.3, 0, 1, 4},
		{3.7, 3, 1, 1},
		{3.75, 4, 0, 1},
		{4.2, 4, 0, 1},
		{4.5, 4, 1, 0},
		{4.8, 5, 0, 0},
		{5, 5, 0, 0},
	}
	for _, tt := range tests {
		var b strings.Builder
		if err := components.Stars(tt.rating).Render(context.Background(), &b); err != nil {
			t.Fatal(err)
		}
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		stars := doc.Find(".stars")
		count := func(s *goquery.Selection) int { return strings.Count(s.Text(), "★") }
		full, half := count(stars.Find(".star-on")), count(stars.Find(".star-half"))
		if got := [3]int{full, half, count(stars) - full - half}; got != [3]int{tt.full, tt.half, tt.empty} {
			t.Errorf("rating %v: full, half, empty stars = %v, want %v", tt.rating, got, [3]int{tt.full, tt.half, tt.empty})
		}
		if got := stars.Text(); got != "★★★★★" {
			t.Errorf("rating %v: stars read %q, want five stars with nothing between them", tt.rating, got)
		}
		if n := stars.Find("span:not([aria-hidden=true])").Length(); n != 0 {
			t.Errorf("rating %v: %d star runs are not hidden from screen readers", tt.rating, n)
		}
		if label, want := stars.AttrOr("aria-label", ""), "Rated "+strconv.FormatFloat(tt.rating, 'f', 1, 64)+" out of 5"; label != want {
			t.Errorf("rating %v: label %q, want %q", tt.rating, label, want)
		}
	}
}
