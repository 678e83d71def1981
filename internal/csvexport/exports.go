package csvexport

import (
	"io"
	"strings"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// The accountant's exports, each a file of one row per order, per order
// line or per customer, its times written in the shop's time zone.
// Each reads its rows through a function that hands them over one at a
// time (a store's Export method), and writes each row as it comes.

// Export names one of the exports.
type Export struct {
	// Name is the file's and the audit log's name for it: "orders".
	Name string
	// Title is what the back office calls it.
	Title  string
	Header []string
}

// The three exports.
var (
	Orders = Export{Name: "orders", Title: "Orders", Header: []string{
		"Order", "Date", "Status", "Payment status", "Currency", "Subtotal", "Discount", "Shipping", "Tax", "Total", "Refunded", "E-mail", "Country"}}
	OrderLines = Export{Name: "order-lines", Title: "Order lines", Header: []string{
		"Order", "Date", "Product ID", "Variant ID", "Name", "Variation", "Quantity", "Unit price", "Line total"}}
	Customers = Export{Name: "customers", Title: "Customers", Header: []string{
		"Customer", "Name", "E-mail", "Guest", "Orders", "Total spent", "Last order"}}
)

// WriteOrders writes the orders export: one row per order read, its
// amounts in the order's currency (upper case in its own column).
func WriteOrders(w io.Writer, loc *time.Location, read func(each func(*shop.Order) error) error) error {
	return write(w, Orders, func(out *Writer) error {
		return read(func(o *shop.Order) error {
			cur := o.Currency
			return out.Write(Text(o.ID), Time(o.CreatedAt, loc), Text(string(o.Status)), Text(string(o.PaymentStatus)), Text(strings.ToUpper(cur)),
				Money(o.Subtotal, cur), Money(o.Discount, cur), Money(o.Shipping, cur), Money(o.Tax, cur), Money(o.Total, cur),
				Money(o.Refunded, cur), Text(o.Email), Text(o.ShipTo.Country))
		})
	})
}

// WriteOrderLines writes the order lines export: one row per line read.
func WriteOrderLines(w io.Writer, loc *time.Location, read func(each func(shop.ExportLine) error) error) error {
	return write(w, OrderLines, func(out *Writer) error {
		return read(func(l shop.ExportLine) error {
			return out.Write(Text(l.OrderID), Time(l.CreatedAt, loc), Text(l.ProductID), Text(l.VariantID), Text(l.Name), Text(l.Variation),
				Int(l.Quantity), Money(l.Price, l.Currency), Money(l.Total(), l.Currency))
		})
	})
}

// WriteCustomers writes the customers export: one row per customer read,
// what they spent in the shop's currency.
func WriteCustomers(w io.Writer, loc *time.Location, read func(each func(shop.Customer) error) error) error {
	return write(w, Customers, func(out *Writer) error {
		return read(func(c shop.Customer) error {
			return out.Write(Text(c.Key), Text(c.Name), Text(c.Email), Bool(c.Guest), Int(c.Orders), Money(c.Spent, ""), Time(c.LastOrder, loc))
		})
	})
}

// write starts the file of e, has rows write its rows, and flushes.
func write(w io.Writer, e Export, rows func(*Writer) error) error {
	out, err := NewWriter(w, e.Header...)
	if err != nil {
		return err
	}
	if err := rows(out); err != nil {
		return err
	}
	return out.Flush()
}

// Shipments is the orders ticked in the back office's list, for whoever
// packs and ships them: the money columns of the orders export, and where
// each goes and how.
var Shipments = Export{Name: "orders", Title: "Selected orders", Header: []string{
	"Order", "Placed (UTC)", "Email", "Status", "Payment", "Items",
	"Subtotal", "Discount", "Shipping", "Tax", "Total", "Refunded", "Currency",
	"Ship to", "Street", "City", "State", "ZIP", "Country", "Phone",
	"Shipping method", "Carrier", "Tracking number",
}}

// WriteShipments writes orders as Shipments, one row an order, times in UTC.
func WriteShipments(w io.Writer, orders []shop.Order) error {
	return write(w, Shipments, func(out *Writer) error {
		for _, o := range orders {
			cur := o.Currency
			cells := []Cell{Text(o.ID), Cell{o.CreatedAt.UTC().Format("2006-01-02 15:04")}, Text(o.Email),
				Text(string(o.Status)), Text(string(o.PaymentStatus)), Int(o.ItemCount()),
				Money(o.Subtotal, cur), Money(o.Discount, cur), Money(o.Shipping, cur), Money(o.Tax, cur),
				Money(o.Total, cur), Money(o.Refunded, cur), Text(strings.ToUpper(cur))}
			for _, s := range []string{o.ShipTo.Name, o.ShipTo.Street, o.ShipTo.City, o.ShipTo.State, o.ShipTo.ZipCode,
				o.ShipTo.Country, o.ShipTo.Phone, o.ShippingMethod, o.Carrier, o.TrackingNumber} {
				cells = append(cells, Text(s))
			}
			if err := out.Write(cells...); err != nil {
				return err
			}
		}
		return nil
	})
}
