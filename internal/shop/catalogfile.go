package shop

import "context"

// CatalogEntry is one product as a catalogue file (Shopify's product CSV)
// states it: the product with its options, variants, gallery and tags.
type CatalogEntry struct {
	// Product holds the file's ID, Title, Description (the text of
	// DescriptionHTML, for search), DescriptionHTML, Category, Price and
	// Original (the first variant's) and Hidden. Read back, the rest of
	// the product is filled in too.
	Product Product
	// Tags are the file's tags, which the shop keeps only to give back.
	Tags []string
	// Options are the product's options and their values, in order.
	Options []Option
	// Variants are the variants in order; a product without options has
	// one, with no Values.
	Variants []EntryVariant
	// Photos is the gallery in order: photo 1 is the cover.
	Photos []GalleryPhoto
}

// EntryVariant is a variant as a catalogue file states it. Its Stock is the
// file's quantity; ID names a variant new to the shop (one the shop has
// already is found by its Values and keeps its id).
type EntryVariant struct {
	Variant
	// Exported is the stock the variant had when the file was exported
	// (the file's Exported Inventory Qty), or nil when the file does not
	// say. Stock is applied to a variant the shop has already as a change
	// from Exported, checked against what it holds now; without Exported
	// its stock is left as it is.
	Exported *int
}

// StockConflict is a stock change an import did not make: the variant's
// stock moved (a sale, an edit) since the file was exported, so the
// file's quantity is out of date and the shop's stock was left as it is.
type StockConflict struct {
	Index     int    // the variant's index in the entry's Variants
	VariantID string // the shop's id of the variant
	Exported  int    // the stock the file was exported with
	Now       int    // the stock the shop holds, left as it is
}

// EntryResult is what importing one entry did.
type EntryResult struct {
	// Created is true when the product was new to the shop.
	Created bool
	// Conflicts are stock changes refused because stock moved since the
	// export.
	Conflicts []StockConflict
	// StockKept counts variants the shop had already whose stock was left
	// as it is because the file does not say what it exported.
	StockKept int
}

// CatalogFileStore imports and exports products whole, as catalogue files
// carry them.
type CatalogFileStore interface {
	// ImportEntry creates or replaces one product in one transaction: its
	// fields, options, variants (a variant the entry no longer lists goes,
	// with its lines in carts) and gallery (photos that are not web
	// addresses, which no file can carry, stay in front of the entry's).
	// A product new to the shop, or a new variant, starts with the entry's
	// stock; an existing variant's stock changes only as EntryVariant.Exported
	// says, and a change that finds the stock moved is a StockConflict, not
	// an error. A variant id another product or variant holds is an
	// ECONFLICT, and nothing of the entry is written. source names, for a
	// new product, where it came from.
	ImportEntry(ctx context.Context, source string, e CatalogEntry) (EntryResult, error)
	// CatalogEntries returns every product, hidden ones too, in id order
	// (by bytes), with what a catalogue file carries.
	CatalogEntries(ctx context.Context) ([]CatalogEntry, error)
}
