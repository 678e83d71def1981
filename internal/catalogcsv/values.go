package catalogcsv

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/nocturne/storefront/internal/money"
	"github.com/nocturne/storefront/internal/shop"
)

// grouped is an amount whose commas separate thousands: "1,299.00".
var grouped = regexp.MustCompile(`^-?[0-9]{1,3}(,[0-9]{3})+(\.[0-9]*)?$`)

// parsePrice reads a price column with the money package, in the shop's
// currency. msg is "" when the amount is good, else a sentence naming the
// column and the value.
func parsePrice(col, s string) (shop.Cents, string) {
	like := money.Example(1250)
	// money.Parse drops every comma, which would read a decimal comma
	// ("12,5") as 125.00; in a file only thousands separators may stay.
	// A file's decimals follow a point whatever the shop's locale, so
	// once checked the commas go.
	bare := strings.TrimSpace(strings.TrimPrefix(s, "$"))
	if strings.Contains(bare, ",") && !grouped.MatchString(bare) {
		return 0, fmt.Sprintf("%s %s is not an amount like %s", col, quote(s), like)
	}
	c, err := money.Parse(strings.ReplaceAll(s, ",", ""))
	if err == nil {
		return c, ""
	}
	switch shop.ErrorMessage(err) {
	case money.MsgSyntax():
		return 0, fmt.Sprintf("%s %s is not an amount like %s", col, quote(s), like)
	case money.MsgDecimals():
		if money.Digits() == 0 {
			return 0, fmt.Sprintf("%s %s has decimal places, which %s amounts do not have", col, quote(s), shop.CurrentCurrency().Code())
		}
		return 0, fmt.Sprintf("%s %s has more than %d decimal places", col, quote(s), money.Digits())
	case money.MsgPositive():
		return 0, fmt.Sprintf("%s %s must be more than 0", col, quote(s))
	case money.MsgTooLarge():
		return 0, fmt.Sprintf("%s %s is more than the largest price the shop takes, %s",
			col, quote(s), money.Text(money.MaxAmount))
	default:
		return 0, fmt.Sprintf("%s %s is not accepted: %s", col, quote(s), shop.ErrorMessage(err))
	}
}

// zero is an amount of nothing, "0", "0.00" or "$0", which exporters
// write for an empty Compare At Price.
var zero = regexp.MustCompile(`^\$?\s*0+(\.0*)?$`)

func isZero(s string) bool { return zero.MatchString(s) }

// maxInventory bounds Variant Inventory Qty so any store column can hold it.
const maxInventory = 1_000_000_000

func parseInventory(col, s string) (int, string) {
	n, err := strconv.Atoi(s)
	if err != nil || n > maxInventory || n < -maxInventory {
		return 0, fmt.Sprintf("%s %s is not a whole number like 5", col, quote(s))
	}
	return n, ""
}

// maxPosition bounds Image Position, far above any real product's images.
const maxPosition = 1_000_000

func parsePosition(s string) (int, string) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > maxPosition {
		return 0, fmt.Sprintf("%s %s is not a whole number of 1 or more", colImagePos, quote(s))
	}
	return n, ""
}

// checkURL accepts only absolute web addresses: an image from a file must
// be fetchable by the caller, and nothing else (javascript:, data:, a
// local path) belongs in a catalogue.
func checkURL(col, s string) string {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Sprintf("%s %s is not a web address starting with http:// or https://", col, quote(s))
	}
	return ""
}

// normalTags splits a Tags value the way Shopify does: on commas, trimmed,
// without empty or repeated tags.
func normalTags(s string) []string {
	var tags []string
	seen := map[string]bool{}
	for _, t := range strings.Split(s, ",") {
		t = strings.TrimSpace(t)
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		tags = append(tags, t)
	}
	return tags
}
