package postgres

import "github.com/nocturne/storefront/internal/shop"

// Every store of package shop is written once, in package sqlstore, and
// promoted to DB through its embedded *sqlstore.Store; this backend adds
// what its database does its own way (opening and migrations, search,
// the catalogue's bulk import, locks, the session KV, the heartbeat).
var (
	_ shop.CatalogStore           = (*DB)(nil)
	_ shop.CartStore              = (*DB)(nil)
	_ shop.WishlistStore          = (*DB)(nil)
	_ shop.ImageStore             = (*DB)(nil)
	_ shop.UserStore              = (*DB)(nil)
	_ shop.PasswordResetStore     = (*DB)(nil)
	_ shop.SignInLinkStore        = (*DB)(nil)
	_ shop.EmailConfirmationStore = (*DB)(nil)
	_ shop.OutboxStore            = (*DB)(nil)
	_ shop.ThrottleStore          = (*DB)(nil)
	_ shop.ContactStore           = (*DB)(nil)
	_ shop.OrderStore             = (*DB)(nil)
	_ shop.ChargeStore            = (*DB)(nil)
	_ shop.StockStore             = (*DB)(nil)
	_ shop.StaffStore             = (*DB)(nil)
	_ shop.AuditStore             = (*DB)(nil)
	_ shop.FulfilmentStore        = (*DB)(nil)
	_ shop.InboxStore             = (*DB)(nil)
	_ shop.ProductAdminStore      = (*DB)(nil)
	_ shop.DashboardStore         = (*DB)(nil)
)
