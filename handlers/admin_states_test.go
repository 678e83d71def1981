package handlers_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// An order whose status this release does not know (written by a newer
// one) is listed and shown as its stored value, on the staff's list, its
// filter and its page and on the shopper's pages, and no page fails on it.
func TestAdmin_UnknownOrderStatus(t *testing.T) {
	t.Parallel()
	b := newBackOffice(t)
	if _, err := b.app.db.SQL().ExecContext(context.Background(),
		`UPDATE orders SET status = 'on_hold' WHERE id = ?`, b.orderID); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, path string
		c          *client
		row        string // the order's row, "" for its page
	}{
		{"AdminList", "/admin/orders", b.admin, `[data-testid="admin-order-row"]`},
		{"AdminListUnknownFilter", "/admin/orders?status=on_hold", b.admin, `[data-testid="admin-order-row"]`},
		{"AdminOrder", "/admin/orders/" + b.orderID, b.admin, ""},
		{"ShopperList", "/orders", b.shopper, `[data-testid="order-row"]`},
		{"ShopperOrder", "/orders/" + b.orderID, b.shopper, ""},
	} {
		res, doc := tt.c.get(tt.path)
		if res.StatusCode != http.StatusOK {
			t.Errorf("%s: status %d, want 200", tt.name, res.StatusCode)
			continue
		}
		scope := doc.Selection
		if tt.row != "" {
			scope = doc.Find(tt.row).FilterFunction(func(_ int, s *goquery.Selection) bool {
				return strings.Contains(s.Text(), b.orderID)
			})
			if scope.Length() != 1 {
				t.Errorf("%s: %d rows of %s, want 1", tt.name, scope.Length(), b.orderID)
				continue
			}
		}
		if got := strings.TrimSpace(scope.Find(`[data-testid="status"]`).First().Text()); got != "on_hold" {
			t.Errorf("%s: status reads %q, want on_hold", tt.name, got)
		}
	}
}
