package postgres

import "github.com/nocturne/storefront/internal/shop"

// Orders, charges, stock and the back office are written once, in
// package sqlstore; these say the promoted methods still make the stores.
var (
	_ shop.OrderStore        = (*DB)(nil)
	_ shop.ChargeStore       = (*DB)(nil)
	_ shop.StockStore        = (*DB)(nil)
	_ shop.StaffStore        = (*DB)(nil)
	_ shop.AuditStore        = (*DB)(nil)
	_ shop.FulfilmentStore   = (*DB)(nil)
	_ shop.InboxStore        = (*DB)(nil)
	_ shop.ProductAdminStore = (*DB)(nil)
	_ shop.DashboardStore    = (*DB)(nil)
)
