package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// What staff are told when a pricing setting cannot be saved as given.
const (
	msgZoneNotFound    = "That shipping zone no longer exists."
	msgMethodNotFound  = "That shipping method no longer exists."
	msgTaxRateNotFound = "That tax rate no longer exists."
	msgZoneInvalid     = "A shipping zone needs a name, and lists each country and state once."
	msgMethodInvalid   = "A shipping method needs a name, prices of 0 or more, delivery days of 0 or more (the most no fewer than the fewest) and a cut-off hour from 0 to 23, or none."
	msgTaxRateInvalid  = "A tax rate needs a name and a rate from 0% to 100%; a state needs its country."
	msgTaxRateExists   = "That place has a tax rate already."
	msgPromoExists     = "There is a code with that name already (codes are the same in any case)."
	msgPromoInvalid    = "A promo code needs a name, a kind, and amounts of 0 or more (a percentage of at most 100%)."
)

// refused is FormatError for what staff save from a form: a constraint
// the row breaks, a duplicate as much as a bad value, is input to correct,
// an EINVALID with msgs' message for the constraint's code.
func (s *Store) refused(err error, what string, msgs Messages) error {
	err = s.FormatError(err, what, msgs)
	if shop.ErrorCode(err) == shop.ECONFLICT {
		return shop.Errorf(shop.EINVALID, "%s", shop.ErrorMessage(err))
	}
	return err
}

// affected answers a statement on one row by its key: no row is an
// ENOTFOUND with msg.
func (s *Store) affected(res sql.Result, err error, what, msg string) error {
	if err != nil {
		return s.FormatError(err, what, nil)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return shop.Errorf(shop.ENOTFOUND, "%s", msg)
	}
	return nil
}

// ShippingZones lists the zones in order, each with its countries and
// states in the order they were saved.
func (s *Store) ShippingZones(ctx context.Context) ([]shop.ShippingZone, error) {
	rows, err := s.Query(ctx, `SELECT id, name, position FROM shipping_zones ORDER BY position, id`)
	zones, err := Collect(s, rows, err, "shipping zones", func(rows *sql.Rows) (z shop.ShippingZone, err error) {
		err = rows.Scan(&z.ID, &z.Name, &z.Position)
		return z, err
	})
	if err != nil {
		return nil, err
	}
	type place struct{ zone, kind, name string }
	rows, err = s.Query(ctx, `SELECT zone_id, 'country', position, country FROM shipping_zone_countries
		UNION ALL SELECT zone_id, 'state', position, state FROM shipping_zone_states ORDER BY 1, 2, 3`)
	places, err := Collect(s, rows, err, "shipping zone places", func(rows *sql.Rows) (p place, err error) {
		var position int
		err = rows.Scan(&p.zone, &p.kind, &position, &p.name)
		return p, err
	})
	if err != nil {
		return nil, err
	}
	at := make(map[string]*shop.ShippingZone, len(zones))
	for i := range zones {
		at[zones[i].ID] = &zones[i]
	}
	for _, p := range places {
		z := at[p.zone]
		if z == nil {
			continue // a zone saved between the two reads
		}
		if p.kind == "country" {
			z.Countries = append(z.Countries, p.name)
		} else {
			z.States = append(z.States, p.name)
		}
	}
	return zones, nil
}

// SaveShippingZone stores a zone, new (an id is made when it has none) or
// changed, with its countries and states as given.
func (s *Store) SaveShippingZone(ctx context.Context, z shop.ShippingZone) (shop.ShippingZone, error) {
	if z.ID == "" {
		z.ID = "zone_" + shop.RandomHex(6)
	}
	err := s.InTx(ctx, func(tx Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO shipping_zones (id, name, position) VALUES (?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET name = excluded.name, position = excluded.position`, z.ID, z.Name, z.Position); err != nil {
			return s.refused(err, "save shipping zone "+z.ID, Messages{shop.EINVALID: msgZoneInvalid})
		}
		for _, table := range []string{"shipping_zone_countries", "shipping_zone_states"} {
			if _, err := tx.Exec(ctx, `DELETE FROM `+table+` WHERE zone_id = ?`, z.ID); err != nil {
				return s.FormatError(err, "save shipping zone "+z.ID, nil)
			}
		}
		for i, c := range z.Countries {
			if _, err := tx.Exec(ctx, `INSERT INTO shipping_zone_countries (zone_id, position, country) VALUES (?, ?, ?)`, z.ID, i+1, c); err != nil {
				return s.refused(err, "save shipping zone "+z.ID, Messages{shop.EINVALID: msgZoneInvalid, shop.ECONFLICT: msgZoneInvalid})
			}
		}
		for i, st := range z.States {
			if _, err := tx.Exec(ctx, `INSERT INTO shipping_zone_states (zone_id, position, state) VALUES (?, ?, ?)`, z.ID, i+1, st); err != nil {
				return s.refused(err, "save shipping zone "+z.ID, Messages{shop.EINVALID: msgZoneInvalid, shop.ECONFLICT: msgZoneInvalid})
			}
		}
		return pricingChanged(ctx, s, tx)
	})
	if err != nil {
		return shop.ShippingZone{}, err
	}
	return z, nil
}

// DeleteShippingZone removes a zone; the methods that shipped there no
// longer do.
func (s *Store) DeleteShippingZone(ctx context.Context, id string) error {
	return s.InTx(ctx, func(tx Tx) error {
		res, err := tx.Exec(ctx, `DELETE FROM shipping_zones WHERE id = ?`, id)
		if err := s.affected(res, err, "delete shipping zone "+id, msgZoneNotFound); err != nil {
			return err
		}
		return pricingChanged(ctx, s, tx)
	})
}

// ShippingMethods lists every method, enabled or not, in order, each with
// its zones in the zones' order.
func (s *Store) ShippingMethods(ctx context.Context) ([]shop.ShippingMethod, error) {
	rows, err := s.Query(ctx, `SELECT id, name, price_cents, free_from_cents, min_days, max_days, cutoff_hour, position, enabled
		FROM shipping_methods ORDER BY position, id`)
	methods, err := Collect(s, rows, err, "shipping methods", func(rows *sql.Rows) (m shop.ShippingMethod, err error) {
		err = rows.Scan(&m.ID, &m.Name, &m.Price, &m.FreeFrom, &m.MinDays, &m.MaxDays, &m.CutoffHour, &m.Position, &m.Enabled)
		return m, err
	})
	if err != nil {
		return nil, err
	}
	type link struct{ method, zone string }
	rows, err = s.Query(ctx, `SELECT mz.method_id, mz.zone_id FROM shipping_method_zones mz
		JOIN shipping_zones z ON z.id = mz.zone_id ORDER BY mz.method_id, z.position, z.id`)
	links, err := Collect(s, rows, err, "shipping method zones", func(rows *sql.Rows) (l link, err error) {
		err = rows.Scan(&l.method, &l.zone)
		return l, err
	})
	if err != nil {
		return nil, err
	}
	at := make(map[string]*shop.ShippingMethod, len(methods))
	for i := range methods {
		at[methods[i].ID] = &methods[i]
	}
	for _, l := range links {
		m := at[l.method]
		if m == nil {
			continue // a method saved between the two reads
		}
		m.ZoneIDs = append(m.ZoneIDs, l.zone)
	}
	return methods, nil
}

// SaveShippingMethod stores a method, new (an id is made when it has
// none) or changed, with the zones it ships to; a zone that does not exist
// is an ENOTFOUND.
func (s *Store) SaveShippingMethod(ctx context.Context, m shop.ShippingMethod) (shop.ShippingMethod, error) {
	if m.ID == "" {
		m.ID = "method_" + shop.RandomHex(6)
	}
	err := s.InTx(ctx, func(tx Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO shipping_methods (id, name, price_cents, free_from_cents, min_days, max_days, cutoff_hour, position, enabled)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET name = excluded.name, price_cents = excluded.price_cents,
				free_from_cents = excluded.free_from_cents, min_days = excluded.min_days, max_days = excluded.max_days,
				cutoff_hour = excluded.cutoff_hour, position = excluded.position, enabled = excluded.enabled`,
			m.ID, m.Name, m.Price, m.FreeFrom, m.MinDays, m.MaxDays, m.CutoffHour, m.Position, m.Enabled); err != nil {
			return s.refused(err, "save shipping method "+m.ID, Messages{shop.EINVALID: msgMethodInvalid})
		}
		if _, err := tx.Exec(ctx, `DELETE FROM shipping_method_zones WHERE method_id = ?`, m.ID); err != nil {
			return s.FormatError(err, "save shipping method "+m.ID, nil)
		}
		for _, zone := range m.ZoneIDs {
			if _, err := tx.Exec(ctx, `INSERT INTO shipping_method_zones (method_id, zone_id) VALUES (?, ?) ON CONFLICT DO NOTHING`,
				m.ID, zone); err != nil {
				return s.FormatError(err, "save shipping method "+m.ID, Messages{shop.ENOTFOUND: msgZoneNotFound})
			}
		}
		return pricingChanged(ctx, s, tx)
	})
	if err != nil {
		return shop.ShippingMethod{}, err
	}
	return m, nil
}

// DeleteShippingMethod removes a method. Orders placed with it keep its
// name.
func (s *Store) DeleteShippingMethod(ctx context.Context, id string) error {
	return s.InTx(ctx, func(tx Tx) error {
		res, err := tx.Exec(ctx, `DELETE FROM shipping_methods WHERE id = ?`, id)
		if err := s.affected(res, err, "delete shipping method "+id, msgMethodNotFound); err != nil {
			return err
		}
		return pricingChanged(ctx, s, tx)
	})
}

// TaxRates lists the rates: the default ("" country) first, then by
// country and state.
func (s *Store) TaxRates(ctx context.Context) ([]shop.TaxRate, error) {
	rows, err := s.Query(ctx, `SELECT id, name, country, state, rate, rate_ppm FROM tax_rates
		ORDER BY country`+s.d.Bytewise+`, state`+s.d.Bytewise+`, id`+s.d.Bytewise)
	return Collect(s, rows, err, "tax rates", func(rows *sql.Rows) (r shop.TaxRate, err error) {
		err = rows.Scan(&r.ID, &r.Name, &r.Country, &r.State, &r.Rate, &r.PPM)
		return r, err
	})
}

// SaveTaxRate stores a rate, new (an id is made when it has none) or
// changed. A place has one rate: a second is an EINVALID.
func (s *Store) SaveTaxRate(ctx context.Context, r shop.TaxRate) (shop.TaxRate, error) {
	if r.ID == "" {
		r.ID = "tax_" + shop.RandomHex(6)
	}
	if r.PPM > 0 {
		// The basis points are what the release before PPM reads: the
		// exact rate rounded, never a figure of their own.
		r.Rate = shop.BasisPoints(r.PPM)
	}
	err := s.InTx(ctx, func(tx Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO tax_rates (id, name, country, state, rate, rate_ppm) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET name = excluded.name, country = excluded.country, state = excluded.state,
				rate = excluded.rate, rate_ppm = excluded.rate_ppm`,
			r.ID, r.Name, r.Country, r.State, r.Rate, r.PPM); err != nil {
			return s.refused(err, "save tax rate "+r.ID, Messages{shop.EINVALID: msgTaxRateInvalid, shop.ECONFLICT: msgTaxRateExists})
		}
		return pricingChanged(ctx, s, tx)
	})
	if err != nil {
		return shop.TaxRate{}, err
	}
	return r, nil
}

// DeleteTaxRate removes a rate. Orders keep the tax lines they were
// placed with.
func (s *Store) DeleteTaxRate(ctx context.Context, id string) error {
	return s.InTx(ctx, func(tx Tx) error {
		res, err := tx.Exec(ctx, `DELETE FROM tax_rates WHERE id = ?`, id)
		if err := s.affected(res, err, "delete tax rate "+id, msgTaxRateNotFound); err != nil {
			return err
		}
		return pricingChanged(ctx, s, tx)
	})
}

// PricingSettings reads the shop-wide switches (the migration's row).
func (s *Store) PricingSettings(ctx context.Context) (shop.PricingSettings, error) {
	var p shop.PricingSettings
	if err := s.QueryRow(ctx, `SELECT prices_include_tax, tax_shipping FROM pricing_settings WHERE id = 1`).
		Scan(&p.PricesIncludeTax, &p.TaxShipping); err != nil {
		return shop.PricingSettings{}, s.FormatError(err, "pricing settings", nil)
	}
	return p, nil
}

// SavePricingSettings replaces the shop-wide switches.
func (s *Store) SavePricingSettings(ctx context.Context, p shop.PricingSettings) error {
	return s.InTx(ctx, func(tx Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE pricing_settings SET prices_include_tax = ?, tax_shipping = ? WHERE id = 1`,
			p.PricesIncludeTax, p.TaxShipping); err != nil {
			return s.FormatError(err, "save pricing settings", nil)
		}
		return pricingChanged(ctx, s, tx)
	})
}

// pricingChanged bumps the catalogue version in the transaction of a
// change to the shipping or tax settings: every instance reloads, so
// each one's copy of the settings (and each page cached with a shipping
// promise) is renewed with the catalogue.
func pricingChanged(ctx context.Context, s *Store, tx Tx) error {
	if _, err := tx.Exec(ctx, `UPDATE catalog_version SET version = version + 1 WHERE id = 1`); err != nil {
		return s.FormatError(err, "bump catalogue version", nil)
	}
	return nil
}

// promoColumns are read in scanPromo's order.
const promoColumns = `code, kind, value, min_subtotal_cents, starts_at, ends_at, usage_cap, once_per_customer, paused, used, created_at, free_methods`

// scanPromo scans promoColumns; its error is the driver's, for the caller
// to map.
func scanPromo(row interface{ Scan(...any) error }) (shop.PromoCode, error) {
	var c shop.PromoCode
	var starts, ends, created int64
	var free string
	err := row.Scan(&c.Code, &c.Kind, &c.Value, &c.MinSubtotal, &starts, &ends, &c.UsageCap, &c.OncePerCustomer, &c.Paused, &c.Used, &created, &free)
	c.StartsAt, c.EndsAt, c.CreatedAt = fromUnix(starts), fromUnix(ends), fromUnix(created)
	if free != "" {
		c.FreeMethods = strings.Split(free, ",")
	}
	return c, err
}

// unixOrZero is t in Unix seconds, 0 for the zero time (none).
func unixOrZero(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.Unix()
}

// fromUnix reads what unixOrZero wrote.
func fromUnix(sec int64) time.Time {
	if sec == 0 {
		return time.Time{}
	}
	return time.Unix(sec, 0).UTC()
}

// PromoCode returns the code matching code in any case, or an ENOTFOUND
// with MsgPromoUnknown.
func (s *Store) PromoCode(ctx context.Context, code string) (shop.PromoCode, error) {
	c, err := scanPromo(s.QueryRow(ctx, `SELECT `+promoColumns+` FROM promo_codes WHERE lower(code) = lower(?)`, code))
	if err != nil {
		return shop.PromoCode{}, rowError(err, "promo code "+code, shop.MsgPromoUnknown)
	}
	return c, nil
}

// PromoCodes lists every code, newest first.
func (s *Store) PromoCodes(ctx context.Context) ([]shop.PromoCode, error) {
	rows, err := s.Query(ctx, `SELECT `+promoColumns+` FROM promo_codes ORDER BY created_at DESC, code`+s.d.Bytewise)
	return Collect(s, rows, err, "promo codes", func(rows *sql.Rows) (shop.PromoCode, error) { return scanPromo(rows) })
}

// SavePromoCode creates a code when c has no CreatedAt (one that differs
// from an existing code only by case is an EINVALID), or else changes the
// code c names, in any case, keeping its spelling. Its use count and
// creation time are the store's: what c says of them is ignored.
func (s *Store) SavePromoCode(ctx context.Context, c shop.PromoCode) (shop.PromoCode, error) {
	msgs := Messages{shop.EINVALID: msgPromoInvalid, shop.ECONFLICT: msgPromoExists}
	if c.CreatedAt.IsZero() {
		c.CreatedAt, c.Used = s.Now().UTC().Truncate(time.Second), 0
		if _, err := s.Exec(ctx, `INSERT INTO promo_codes (`+promoColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			c.Code, c.Kind, c.Value, c.MinSubtotal, unixOrZero(c.StartsAt), unixOrZero(c.EndsAt), c.UsageCap,
			c.OncePerCustomer, c.Paused, c.Used, c.CreatedAt.Unix(), strings.Join(c.FreeMethods, ",")); err != nil {
			return shop.PromoCode{}, s.refused(err, "create promo code "+c.Code, msgs)
		}
		return c, nil
	}
	saved, err := scanPromo(s.QueryRow(ctx, `UPDATE promo_codes SET kind = ?, value = ?, min_subtotal_cents = ?, starts_at = ?, ends_at = ?,
		usage_cap = ?, once_per_customer = ?, paused = ?, free_methods = ? WHERE lower(code) = lower(?) RETURNING `+promoColumns,
		c.Kind, c.Value, c.MinSubtotal, unixOrZero(c.StartsAt), unixOrZero(c.EndsAt), c.UsageCap, c.OncePerCustomer, c.Paused,
		strings.Join(c.FreeMethods, ","), c.Code))
	if errors.Is(err, sql.ErrNoRows) {
		return shop.PromoCode{}, shop.Errorf(shop.ENOTFOUND, shop.MsgPromoUnknown)
	} else if err != nil {
		return shop.PromoCode{}, s.refused(err, "save promo code "+c.Code, msgs)
	}
	return saved, nil
}

// SetPromoPaused pauses a code, or lets it be used again.
func (s *Store) SetPromoPaused(ctx context.Context, code string, paused bool) error {
	res, err := s.Exec(ctx, `UPDATE promo_codes SET paused = ? WHERE lower(code) = lower(?)`, paused, code)
	return s.affected(res, err, "pause promo code "+code, shop.MsgPromoUnknown)
}

// PromoUsedBy reports whether customer (shop.PromoCustomer) has an order,
// not cancelled or expired, placed with the code.
func (s *Store) PromoUsedBy(ctx context.Context, code, customer string) (bool, error) {
	var used bool
	if err := s.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM promo_redemptions r JOIN promo_codes p ON p.code = r.code
		WHERE lower(p.code) = lower(?) AND r.customer = ?)`, code, customer).Scan(&used); err != nil {
		return false, s.FormatError(err, "promo code "+code+" used by", nil)
	}
	return used, nil
}

// redeemPromo counts the use of the order's promo code inside the claim's
// transaction, which has just inserted the order. The count goes up by a
// conditional update (… WHERE used < usage_cap): of claims racing for a
// code's last uses, the later ones find the condition false (PostgreSQL
// re-checks it once the first's row lock is released, SQLite runs writers
// one at a time) and fail whole, stock and order with them. The order's
// redemption row is recorded for every code; for a once-per-customer code
// a unique index refuses a second row of the same customer, racing or not.
func (s *Store) redeemPromo(ctx context.Context, tx Tx, o *shop.Order) error {
	var code string
	var once bool
	err := tx.QueryRow(ctx, `UPDATE promo_codes SET used = used + 1
		WHERE lower(code) = lower(?) AND NOT paused AND (usage_cap = 0 OR used < usage_cap)
		RETURNING code, once_per_customer`, o.PromoCode).Scan(&code, &once)
	if errors.Is(err, sql.ErrNoRows) {
		var paused bool
		err := tx.QueryRow(ctx, `SELECT paused FROM promo_codes WHERE lower(code) = lower(?)`, o.PromoCode).Scan(&paused)
		switch {
		case errors.Is(err, sql.ErrNoRows) || err == nil && paused:
			return shop.Errorf(shop.EINVALID, shop.MsgPromoUnknown)
		case err != nil:
			return s.FormatError(err, "promo code "+o.PromoCode, nil)
		}
		return shop.Errorf(shop.EINVALID, shop.MsgPromoUsedUp)
	} else if err != nil {
		return s.FormatError(err, "count promo code "+o.PromoCode, nil)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO promo_redemptions (order_id, code, customer, once, created_at) VALUES (?, ?, ?, ?, ?)`,
		o.ID, code, shop.PromoCustomer(o.UserID, o.Email), once, o.CreatedAt.Unix()); err != nil {
		return s.refused(err, "redeem promo code "+code, Messages{shop.ECONFLICT: shop.MsgPromoAlreadyUsed})
	}
	return nil
}

// releasePromo gives back the use of the promo code an order held, inside
// the transaction that cancels or releases it. Only the transaction that
// deletes the order's redemption lowers the count, so the use comes back
// once, however many instances release the order at once. A refund gives
// nothing back: the order still stands.
func releasePromo(ctx context.Context, tx Tx, orderID string) error {
	var code string
	err := tx.QueryRow(ctx, `DELETE FROM promo_redemptions WHERE order_id = ? RETURNING code`, orderID).Scan(&code)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	} else if err != nil {
		return fmt.Errorf("release promo code of %s: %w", orderID, err)
	}
	if _, err := tx.Exec(ctx, `UPDATE promo_codes SET used = used - 1 WHERE code = ? AND used > 0`, code); err != nil {
		return fmt.Errorf("release promo code %s of %s: %w", code, orderID, err)
	}
	return nil
}
