package backoffice

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/nocturne/storefront/internal/money"
	"github.com/nocturne/storefront/internal/shop"
)

// orderCSVHeader names the columns of the orders CSV, one row an order.
var orderCSVHeader = []string{
	"Order", "Placed (UTC)", "Email", "Status", "Payment", "Items",
	"Subtotal", "Discount", "Shipping", "Tax", "Total", "Refunded", "Currency",
	"Ship to", "Street", "City", "State", "ZIP", "Country", "Phone",
	"Shipping method", "Carrier", "Tracking number",
}

// WriteOrdersCSV writes orders as a spreadsheet opens it: a UTF-8 byte
// order mark (without it Excel reads the file as Windows-1252 and garbles
// every accented name), a header, then one row an order. Money is a plain
// number in the order's currency ("12.50", no sign), so a spreadsheet can
// add it up. Text typed by shoppers goes through spreadsheetText.
func WriteOrdersCSV(w io.Writer, orders []shop.Order) error {
	if _, err := io.WriteString(w, "\uFEFF"); err != nil {
		return fmt.Errorf("orders csv: %w", err)
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(orderCSVHeader); err != nil {
		return fmt.Errorf("orders csv: %w", err)
	}
	for _, o := range orders {
		row := []string{
			spreadsheetText(o.ID), o.CreatedAt.UTC().Format("2006-01-02 15:04"), spreadsheetText(o.Email),
			o.Status, o.PaymentStatus, strconv.Itoa(o.ItemCount()),
			money.Text(o.Subtotal), money.Text(o.Discount), money.Text(o.Shipping), money.Text(o.Tax),
			money.Text(o.Total), money.Text(o.Refunded), strings.ToUpper(o.Currency),
		}
		for _, s := range []string{o.ShipTo.Name, o.ShipTo.Street, o.ShipTo.City, o.ShipTo.State, o.ShipTo.ZipCode,
			o.ShipTo.Country, o.ShipTo.Phone, o.ShippingMethod, o.Carrier, o.TrackingNumber} {
			row = append(row, spreadsheetText(s))
		}
		if err := cw.Write(row); err != nil {
			return fmt.Errorf("orders csv: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("orders csv: %w", err)
	}
	return nil
}

// spreadsheetText makes a text cell safe to open in a spreadsheet: one
// that starts with =, +, -, @, a tab or a carriage return would be read
// as a formula (a shopper's name "=HYPERLINK(…)" run on a staff member's
// machine), so it gets a leading apostrophe, which spreadsheets show as
// text. Only text goes through it: money and counts are numbers.
func spreadsheetText(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
