package postgres

import "github.com/nocturne/storefront/internal/shop"

// Accounts, their tokens, the outbox, throttle counters and contact
// messages are written once, in package sqlstore.
var (
	_ shop.UserStore              = (*DB)(nil)
	_ shop.PasswordResetStore     = (*DB)(nil)
	_ shop.SignInLinkStore        = (*DB)(nil)
	_ shop.EmailConfirmationStore = (*DB)(nil)
	_ shop.OutboxStore            = (*DB)(nil)
	_ shop.ThrottleStore          = (*DB)(nil)
	_ shop.ContactStore           = (*DB)(nil)
)

// nullable stores "" as NULL.
func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
