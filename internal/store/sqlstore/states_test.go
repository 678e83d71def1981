package sqlstore_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nocturne/storefront/internal/shop"
)

// stateLiteral finds a state written into the SQL as a literal rather
// than bound from package shop: a list filter ("status <> 'pending'")
// rather than a move, whose from-states are bound from the tables.
var stateLiteral = regexp.MustCompile(`\b(payment_status|status|state)\s*(?:=|<>|!=|IN\s*\()\s*'([a-z_]+)'`)

// Every state the SQL spells out is one the transition tables know, so a
// renamed state cannot leave a query filtering on a spelling nothing
// writes any more.
func TestSQL_StateLiteralsAreKnown(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range stateLiteral.FindAllStringSubmatch(string(src), -1) {
			found++
			column, value := m[1], m[2]
			var known bool
			switch column {
			case "payment_status":
				known = shop.PaymentState(value).Known()
			case "status":
				known = shop.OrderStatus(value).Known()
			case "state":
				known = shop.ReturnState(value).Known()
			}
			if !known {
				t.Errorf("%s: %s = '%s' is no state of its table", f, column, value)
			}
		}
	}
	if found == 0 {
		t.Error("no state literal found: the pattern no longer matches the SQL")
	}
}
