package sqlstore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/nocturne/storefront/internal/shop"
)

// PersonalData gathers what the shop keeps of a customer: the account,
// the orders that are theirs by ownedOrders' rule (pending ones too:
// they hold a name and an address as well) with their lines and returns,
// the wishlist and every contact message from the address. It only
// reads.
func (s *Store) PersonalData(ctx context.Context, key string) (*shop.PersonalData, error) {
	cu, err := s.Customer(ctx, key)
	if err != nil {
		return nil, err
	}
	d := &shop.PersonalData{Key: cu.Key, Email: cu.Email}
	if !cu.Guest {
		if d.Account, err = s.UserByID(ctx, cu.Key); err != nil {
			return nil, fmt.Errorf("personal data: %w", err)
		}
		if d.Wishlist, err = s.Wishlist(ctx, cu.Key); err != nil {
			return nil, fmt.Errorf("personal data: %w", err)
		}
	}
	if err := s.personalOrders(ctx, d); err != nil {
		return nil, err
	}
	if email := shop.NormalizeEmail(cu.Email); email != "" {
		rows, err := s.Query(ctx, `SELECT `+inboxColumns+` FROM contact_messages WHERE LOWER(email) = ?
			ORDER BY created_at, id`, email)
		d.Messages, err = Collect(s, rows, err, "personal data: messages", func(rows *sql.Rows) (shop.ContactMessage, error) {
			m, err := scanInboxMessage(rows)
			if err != nil {
				return shop.ContactMessage{}, err
			}
			return *m, nil
		})
		if err != nil {
			return nil, err
		}
	}
	return d, nil
}

// personalOrders reads d's orders, oldest first, each whole, and their
// returns.
func (s *Store) personalOrders(ctx context.Context, d *shop.PersonalData) error {
	rows, err := s.Query(ctx, `SELECT o.id FROM `+ownedOrders+` WHERE `+orderOwner+` = ?
		ORDER BY o.created_at, o.id`, d.Key)
	ids, err := Collect(s, rows, err, "personal data: orders", func(rows *sql.Rows) (id string, err error) {
		err = rows.Scan(&id)
		return id, err
	})
	if err != nil {
		return err
	}
	for _, id := range ids {
		o, err := s.Order(ctx, id)
		if err != nil {
			return fmt.Errorf("personal data: order %s: %w", id, err)
		}
		d.Orders = append(d.Orders, *o)
		rs, err := s.OrderReturns(ctx, id)
		if err != nil {
			return fmt.Errorf("personal data: returns of %s: %w", id, err)
		}
		d.Returns = append(d.Returns, rs...)
	}
	return nil
}
