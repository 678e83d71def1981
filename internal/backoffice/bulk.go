package backoffice

import (
	"context"
	"fmt"
	"strings"

	"github.com/nocturne/storefront/internal/shop"
)

// MaxSelection bounds how many orders one bulk action takes: four pages
// of the orders list, so a crafted address can't make one request load
// the whole shop.
const MaxSelection = 4 * shop.AdminOrdersPageSize

// MsgSelectOrders asks for a selection where none was ticked.
const MsgSelectOrders = "Select the orders first: tick the box of each."

// Selection reads the order numbers ticked on the orders list: trimmed,
// each once, in the order sent, at most MaxSelection.
func Selection(ids []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if id == "" || seen[id] || len(id) > 64 {
			continue
		}
		seen[id] = true
		out = append(out, id)
		if len(out) == MaxSelection {
			break
		}
	}
	return out
}

// WhyNotShippable says why o cannot be shipped now, in words for staff,
// or "" when it can: a processing order whose money was taken. The store
// holds the same rule when the order moves; this one lets a bulk ship
// leave such orders out before anyone types a tracking number for them.
func WhyNotShippable(o *shop.Order) string {
	switch {
	case shop.OrderMoves.CanMove(o.Status, shop.StatusShipped):
	case o.Status == shop.StatusShipped, o.Status == shop.StatusDelivered:
		return "It has been " + string(o.Status) + " already."
	case o.Status == shop.StatusCancelled:
		return "It was cancelled."
	default:
		return shop.MsgOrderNotFound
	}
	if !o.Paid() {
		return shop.MsgShipUnpaid
	}
	return ""
}

// Shipment is one order of a bulk ship, with the carrier and tracking
// number typed for it.
type Shipment struct {
	OrderID string
	In      ShipInput
}

// NotShipped is an order a bulk ship left as it was, and why.
type NotShipped struct{ OrderID, Reason string }

// BulkShip is how a bulk ship went. Errors holds each refused row's
// field errors by order number; when it has any, no order was shipped.
type BulkShip struct {
	Errors     map[string]shop.FieldErrors
	Shipped    []string
	NotShipped []NotShipped
}

// ShipAll ships each order of list as Ship does (its e-mail, its audit
// entry). Every row is checked before any order moves: one mistyped
// tracking number refuses the lot, so staff correct that row and send the
// same form again instead of working out which orders went. An order that
// someone shipped or cancelled meanwhile is left out and said why; the
// others ship.
func (s *Service) ShipAll(ctx context.Context, actor string, list []Shipment) (BulkShip, error) {
	var r BulkShip
	var carriers []shop.Carrier
	if s.Carriers != nil {
		var err error
		if carriers, err = s.Carriers.Carriers(ctx); err != nil {
			return r, err
		}
	}
	for _, sh := range list {
		in := sh.In
		if errs := in.Validate(carriers); errs != nil {
			if r.Errors == nil {
				r.Errors = map[string]shop.FieldErrors{}
			}
			r.Errors[sh.OrderID] = errs
		}
	}
	if r.Errors != nil {
		return r, nil
	}
	for _, sh := range list {
		_, err := s.Ship(ctx, actor, sh.OrderID, sh.In)
		switch shop.ErrorCode(err) {
		case "":
			r.Shipped = append(r.Shipped, sh.OrderID)
			continue
		case shop.ECONFLICT, shop.EINVALID, shop.ENOTFOUND:
			r.NotShipped = append(r.NotShipped, NotShipped{OrderID: sh.OrderID, Reason: shop.ErrorMessage(err)})
			continue
		}
		return r, fmt.Errorf("bulk ship %s: %w", sh.OrderID, err)
	}
	return r, nil
}

// Text says what a bulk ship did, for the flash message after it.
func (r BulkShip) Text() string {
	var b strings.Builder
	switch n := len(r.Shipped); n {
	case 0:
		b.WriteString("No order was marked as shipped.")
	case 1:
		b.WriteString("1 order marked as shipped; the shopper was e-mailed.")
	default:
		fmt.Fprintf(&b, "%d orders marked as shipped; the shoppers were e-mailed.", n)
	}
	for _, x := range r.NotShipped {
		fmt.Fprintf(&b, " Not shipped: %s (%s)", x.OrderID, x.Reason)
	}
	return b.String()
}
