package shop

import "context"

// VariantEdit is what staff change of one variant: its own fields (a Price
// or Original of 0 sells at the product's) and its stock, which, as for a
// product (ProductEdit), is saved as the change from StockWas, and only
// while the stored stock still is StockWas.
type VariantEdit struct {
	Variant
	StockWas int
}

// VariantChange is what an edit of a product's options did to its
// variants, for the audit log: the variants it created and deleted, and
// where the stock of a variant that went was moved.
type VariantChange struct {
	Created []Variant
	Deleted []Variant
	// Moved units of stock went from the deleted variants to MovedTo.
	MovedTo string
	Moved   int
}

// VariantAdminStore is the back office's editor of options and variants.
// Every method that changes something marks the product as edited by
// staff (imports leave it alone from then on), except a stock change
// alone, and bumps the catalogue version, so every instance shows it.
// Options are named by their names, values by their text: a name that is
// no longer there (someone else changed the options) is an ECONFLICT with
// MsgOptionsChanged, and nothing changes.
type VariantAdminStore interface {
	VariantStore
	// EditChoices is Choices as staff edit them: a variant's Price and
	// Original are its own, 0 when it sells at the product's.
	EditChoices(ctx context.Context, productID string) (Choices, error)
	// AddOption adds an option without values after the others: at most
	// MaxOptions (EINVALID), a name used already is an ECONFLICT with
	// MsgOptionExists and the field "name".
	AddOption(ctx context.Context, productID, name string) error
	// RenameOption renames option name to to.
	RenameOption(ctx context.Context, productID, name, to string) error
	// RemoveOption removes an option that has one value at most (EINVALID
	// with MsgOptionHasValues otherwise), so no two variants become one.
	// When it was the last option the product is sold as its default
	// variant again, which takes the stock of the variant that is left.
	RemoveOption(ctx context.Context, productID, name string) (VariantChange, error)
	// AddOptionValue adds a value after the option's others (a value used
	// already is an ECONFLICT with MsgValueExists and the field "value").
	// An option's first value is also given to the variants that have
	// none for it (made before the option was added), as theirs.
	AddOptionValue(ctx context.Context, productID, option string, v OptionValue) error
	// RemoveOptionValue removes a value and deletes the variants that
	// have it.
	RemoveOptionValue(ctx context.Context, productID, option, value string) (VariantChange, error)
	// MoveOptionValue moves a value by places (-1: up, 1: down) among its
	// option's values, and the variants into the values' order; a move
	// past either end changes nothing.
	MoveOptionValue(ctx context.Context, productID, option, value string, by int) error
	// AddVariants creates the variants of vs whose combination of values
	// the product does not sell yet, in order; every value must be one of
	// its option's now. An id taken already gets a suffix (-2, -3, …).
	// When the product has options and still its default variant, the
	// default variant goes and its stock moves to the first created.
	AddVariants(ctx context.Context, productID string, vs []Variant) (VariantChange, error)
	// UpdateVariant saves a variant's own fields and, when e.Stock is not
	// e.StockWas, its stock as a change checked against StockWas, all or
	// nothing: an ECONFLICT with MsgStockMoved and the field "stock" when
	// the stored stock is no longer StockWas, an ENOTFOUND with
	// MsgVariantGone when the variant is gone.
	UpdateVariant(ctx context.Context, productID string, e VariantEdit) error
	// SetVariantPrices gives the listed variants of the product price as
	// their own (0: the product's) and returns how many it changed.
	SetVariantPrices(ctx context.Context, productID string, ids []string, price Cents) (int, error)
	// ChangeVariantStock sets a variant's stock from was to to, only while
	// its stock is was: an ECONFLICT with MsgStockMoved and the field
	// "stock" otherwise (nothing changes), an ENOTFOUND with MsgVariantGone
	// when the variant is gone. It never reads stock and writes it back.
	ChangeVariantStock(ctx context.Context, variantID string, was, to int) error
}

// Messages of the options and variants editor's stores.
const (
	// MsgOptionsChanged: a name or value the page showed is gone.
	MsgOptionsChanged = "Someone changed this product's options meanwhile, so nothing was changed. Here they are as they are now."
	MsgVariantGone    = "This variant is gone: someone changed the product's options meanwhile."
	// MsgTooManyOptions: %d is MaxOptions.
	MsgTooManyOptions = "A product can have at most %d options."
	// MsgOptionExists: %s is the name.
	MsgOptionExists = "This product has an option called %s already."
	// MsgValueExists: %s is the option's name, %s the value.
	MsgValueExists = "%s has the value %s already."
	// MsgOptionHasValues: %s is the option's name. Removing an option
	// with several values would make variants that differ only in it one.
	MsgOptionHasValues = "%s has several values: remove all but one of them first (removing a value deletes its variants)."
	// MsgIDTakenByVariant: %s is the id a new product asked for, which a
	// variant of another product has.
	MsgIDTakenByVariant = "Another product's variant has the id %s: choose another."
	// MsgTooManyValues: %d is MaxOptionValues.
	MsgTooManyValues = "An option can have at most %d values."
)

// MaxOptionValues is how many values one option may have.
const MaxOptionValues = 50

// MaxVariants is how many variants a product may have: combinations grow
// fast (three options of ten values are a thousand), and a page of more
// would not be read by anyone.
const MaxVariants = 100
