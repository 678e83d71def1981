// Package catalogcsv owns Shopify's product CSV: reading a file that
// Shopify, a WooCommerce exporter or a spreadsheet produced into a neutral
// catalogue model, and writing that model back in the layout Shopify
// itself exports. It knows nothing of the shop's store; the caller maps
// Products to and from its own records, and fetches no image itself.
//
// # Layout
//
// A file is a header row, then rows grouped by Handle. The first row of a
// Handle starts the product: it carries the product fields (Title, Body
// (HTML), Vendor, Type, Tags, Published, Status), the option names, the
// first variant and, optionally, the first image. Every later row with that
// Handle is a continuation row that carries the Handle and
//
//   - variant columns (option values, Variant SKU, Variant Price, Variant
//     Compare At Price, Variant Inventory Qty, Variant Image, Exported
//     Inventory Qty): one more variant, and/or
//   - image columns (Image Src, Image Position, Image Alt Text): one more
//     image of the product.
//
// Product fields and option names on a continuation row are ignored, as
// Shopify ignores them, and a continuation row with neither variant nor
// image columns adds nothing. Rows of one Handle need not be next to each
// other, though Write always keeps them together.
//
// Reading accepts the known columns in any order, ignores every other
// column (Shopify exports many more), and matches a header name exactly
// once spaces, and a byte order mark before the first name, are trimmed.
// The header must have Handle, Title and Variant Price; a missing optional
// column reads as empty.
//
// # Values
//
//   - A product without options is written as Shopify writes it: Option1
//     Name "Title" with Option1 Value "Default Title". On reading, that pair
//     on a first row (with no Option2 Name) and an empty Option1 Name both
//     mean "no options"; the product then has no Options and exactly one
//     Variant whose Values is empty. Write refuses a real option named
//     "Title" whose first variant's value is "Default Title", since it would
//     read back as no options.
//   - Prices are decimal text in the shop's currency, read with the money
//     package, so "12.50", "$12.50" (in a dollar shop) and "1,299.00" are
//     accepted and floats are never used. Decimals follow a point whatever
//     the shop's locale, and a price with more decimals than the currency
//     has ("109.95" in yen) is refused, never rounded. A comma is only
//     taken as a thousands separator where it separates groups of three
//     digits: "12,5" is refused rather than read as 125.00. A Variant
//     Price is required and must be more than zero; an empty or zero
//     Variant Compare At Price means none.
//   - Variant Inventory Qty is a whole number (negative allowed, as Shopify
//     allows overselling); empty reads as 0.
//   - Exported Inventory Qty is not Shopify's: Write puts it last, after
//     Status, and Shopify and other tools ignore it. It is the Variant
//     Inventory Qty the variant had when the file was exported, so whoever
//     imports the file can tell a quantity edited in the file from stock
//     sold since (Variant.Exported). A whole number like Variant Inventory
//     Qty; empty, or no such column, reads as nil (not known).
//   - Tags are split on commas, trimmed, and empty or repeated tags dropped.
//   - Published is TRUE or FALSE in any case; empty reads as false, so a
//     file never makes a product visible by accident. Status is active,
//     draft or archived in any case (stored in lower case); empty reads as
//     active. The two are kept apart: whether a product shows in the shop is
//     the caller's rule.
//   - Body (HTML) is cleaned with SanitizeBody on reading and on writing.
//   - Image Src and Variant Image must be absolute http or https addresses.
//     Images are ordered by Image Position (rows without one come after the
//     highest position so far) and renumbered 1, 2, 3..., so positions in
//     the model are always the order with no gaps. An image row repeating a
//     Src already seen with the same Alt Text is ignored.
//   - Every value is trimmed of surrounding spaces, and line breaks are
//     stored as "\n", because that is what a CSV reader gives back.
//
// # Problems
//
// Products and variants read from a file carry the line of the row they
// came from (Product.Line, Variant.Line), for messages about them that
// only the caller can write, such as a stock change it refused.
//
// Read never stops at a bad row. It reports each one as a Problem with the
// row's line number in the file (the header is line 1, and a quoted value
// spanning lines counts every line), the row's Handle and a sentence a
// merchant can act on, then skips the row whole: a row is imported entirely
// or not at all. When the first row of a Handle is refused, the whole
// product is skipped and each of its continuation rows is reported too.
// Read returns an error only when the file itself cannot be read: no or a
// bad header, or an I/O failure.
package catalogcsv
