package sqlstore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/nocturne/storefront/internal/shop"
)

// Carriers lists the carriers in the ship form's order.
func (s *Store) Carriers(ctx context.Context) ([]shop.Carrier, error) {
	rows, err := s.Query(ctx, `SELECT id, name, url_template, position FROM carriers ORDER BY position, id`)
	return Collect(s, rows, err, "carriers", func(rows *sql.Rows) (c shop.Carrier, err error) {
		err = rows.Scan(&c.ID, &c.Name, &c.URLTemplate, &c.Position)
		return c, err
	})
}

// AddCarrier adds a carrier after the others. The name's uniqueness is
// the table's, so two staff members adding the same name at once get one
// carrier and one ECONFLICT.
func (s *Store) AddCarrier(ctx context.Context, c shop.Carrier) (shop.Carrier, error) {
	c.ID = "carrier_" + shop.RandomHex(6)
	err := s.QueryRow(ctx, `INSERT INTO carriers (id, name, url_template, position)
		VALUES (?, ?, ?, (SELECT COALESCE(MAX(position), 0) + 1 FROM carriers)) RETURNING position`,
		c.ID, c.Name, c.URLTemplate).Scan(&c.Position)
	if err != nil {
		return shop.Carrier{}, s.FormatError(err, "add carrier", Messages{shop.ECONFLICT: fmt.Sprintf(shop.MsgCarrierExists, c.Name)})
	}
	return c, nil
}

// SetCarrierTemplate changes a carrier's tracking page.
func (s *Store) SetCarrierTemplate(ctx context.Context, id, template string) error {
	res, err := s.Exec(ctx, `UPDATE carriers SET url_template = ? WHERE id = ?`, template, id)
	return s.affected(res, err, "set carrier template "+id, shop.MsgCarrierNotFound)
}
