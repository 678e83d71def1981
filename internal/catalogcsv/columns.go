package catalogcsv

// The columns this package reads and writes, by their header names.
const (
	colHandle    = "Handle"
	colTitle     = "Title"
	colBody      = "Body (HTML)"
	colVendor    = "Vendor"
	colType      = "Type"
	colTags      = "Tags"
	colPublished = "Published"
	colOpt1Name  = "Option1 Name"
	colOpt1Value = "Option1 Value"
	colOpt2Name  = "Option2 Name"
	colOpt2Value = "Option2 Value"
	colOpt3Name  = "Option3 Name"
	colOpt3Value = "Option3 Value"
	colSKU       = "Variant SKU"
	colPrice     = "Variant Price"
	colCompareAt = "Variant Compare At Price"
	colInventory = "Variant Inventory Qty"
	colImageSrc  = "Image Src"
	colImagePos  = "Image Position"
	colImageAlt  = "Image Alt Text"
	colVarImage  = "Variant Image"
	colStatus    = "Status"
	// colExported is not Shopify's: the shop's export writes it after
	// Status, and tools that do not know it ignore it (see Variant.Exported).
	colExported = "Exported Inventory Qty"
)

// header is the column order Write uses.
var header = []string{
	colHandle, colTitle, colBody, colVendor, colType, colTags, colPublished,
	colOpt1Name, colOpt1Value, colOpt2Name, colOpt2Value, colOpt3Name, colOpt3Value,
	colSKU, colPrice, colCompareAt, colInventory,
	colImageSrc, colImagePos, colImageAlt, colVarImage, colStatus, colExported,
}

// required are the columns without which no product can be read.
var required = []string{colHandle, colTitle, colPrice}

var (
	optNameCols  = [3]string{colOpt1Name, colOpt2Name, colOpt3Name}
	optValueCols = [3]string{colOpt1Value, colOpt2Value, colOpt3Value}
)

// maxOptions is Shopify's limit of options per product.
const maxOptions = 3

// The "no options" convention: Shopify writes a product without options
// as one option called Title whose only value is Default Title.
const (
	noOptionName  = "Title"
	noOptionValue = "Default Title"
)

// Product statuses Shopify knows.
const (
	StatusActive   = "active"
	StatusDraft    = "draft"
	StatusArchived = "archived"
)
