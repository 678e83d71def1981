package sqlstore

import (
	"context"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// AddOrderNote adds a staff note to a placed order's timeline. The row is
// written only while the order exists and is placed, in one statement.
func (s *Store) AddOrderNote(ctx context.Context, orderID, note, actor string, at time.Time) error {
	res, err := s.Exec(ctx, `INSERT INTO order_events (order_id, status, note, actor, created_at)
		SELECT id, ?, ?, ?, ? FROM orders WHERE id = ? AND status <> ?`,
		shop.EventNote, note, actor, at.Unix(), orderID, shop.StatusPending)
	return s.affected(res, err, "add order note", shop.MsgOrderNotFound)
}

// DeleteProduct removes a product; its variants, options, photos, cart
// lines and wishlist entries go with it (their foreign keys cascade). It
// takes the catalogue's lock, as a save and an import do.
func (s *Store) DeleteProduct(ctx context.Context, id string) error {
	return s.InTx(ctx, func(tx Tx) error {
		if err := tx.Lock(ctx, "catalog"); err != nil {
			return err
		}
		res, err := tx.Exec(ctx, `DELETE FROM products WHERE id = ?`, id)
		if err := s.affected(res, err, "delete product "+id, shop.MsgProductNotFound); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM categories WHERE NOT EXISTS (SELECT 1 FROM products p WHERE p.category = categories.name)`); err != nil {
			return s.FormatError(err, "delete product: prune categories", nil)
		}
		return pricingChanged(ctx, s, tx) // bumps the catalogue version
	})
}
