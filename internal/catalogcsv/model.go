package catalogcsv

import (
	"fmt"

	"github.com/nocturne/storefront/internal/shop"
)

// Product is one product of a catalogue file with its options, variants
// and images.
type Product struct {
	Handle   string
	Title    string
	BodyHTML string // already sanitised (SanitizeBody)
	Vendor   string
	Type     string
	Tags     []string
	// Published is the file's Published column; Status is Shopify's
	// status, "active", "draft" or "archived".
	Published bool
	Status    string
	// Options are the product's 0 to 3 options, in column order.
	Options []Option
	// Variants has at least one variant. A product without options has
	// exactly one, whose Values is empty.
	Variants []Variant
	// Images are in display order; Position is 1, 2, 3...
	Images []Image
	// Line is the line of the product's first row in the file Read read
	// (0 for a product made otherwise), so a caller can point at it.
	Line int
}

// Option is one of a product's options, such as Size.
type Option struct {
	Name string
	// Values are the option's values in the order the variants first use
	// them. Write does not read them: the values come from the variants.
	Values []string
}

// Variant is one purchasable combination of option values.
type Variant struct {
	SKU string
	// Values has one value per option, in the order of Product.Options.
	Values    []string
	Price     shop.Cents
	CompareAt shop.Cents // 0 means none
	Inventory int
	// Image is the Src of the variant's image, or "".
	Image string
	// Exported is the Exported Inventory Qty column: the Inventory this
	// variant had when the file was exported, which the shop's own export
	// writes so that an import can tell what was changed in the file from
	// what was sold meanwhile. nil when the file does not say (a file from
	// another tool, or an empty value).
	Exported *int
	// Line is the line of the row that carried the variant in the file
	// Read read (0 for a variant made otherwise).
	Line int
}

// Image is one product image.
type Image struct {
	Src      string
	Position int
	Alt      string
}

// Problem is a row Read skipped and why.
type Problem struct {
	Line   int    // 1-based line in the file; the header is line 1
	Handle string // the row's Handle, "" when it had none
	Msg    string // a sentence for the merchant
}

func (p Problem) String() string {
	if p.Handle == "" {
		return fmt.Sprintf("line %d: %s", p.Line, p.Msg)
	}
	return fmt.Sprintf("line %d (%s): %s", p.Line, p.Handle, p.Msg)
}
