package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// userColumns are a user's columns in scanUser's order.
const userColumns = `id, COALESCE(email, ''), display_name, COALESCE(google_subject, ''), phone_number, address, city, state,
	zip_code, country, is_guest, password_hash IS NOT NULL, email_verified, session_gen, created_at`

// scanUser scans userColumns, then into extra any columns after them; no
// row is the shopper-facing ENOTFOUND.
func scanUser(row interface{ Scan(...any) error }, extra ...any) (*shop.User, error) {
	var u shop.User
	var created int64
	dest := append([]any{&u.ID, &u.Email, &u.DisplayName, &u.GoogleSubject, &u.PhoneNumber, &u.Address, &u.City,
		&u.State, &u.ZipCode, &u.Country, &u.IsGuest, &u.HasPassword, &u.EmailVerified, &u.SessionGen, &created}, extra...)
	if err := row.Scan(dest...); err != nil {
		return nil, rowError(err, "scan user", shop.MsgUserNotFound)
	}
	u.CreatedAt = time.Unix(created, 0).UTC()
	return &u, nil
}

// nullIfEmpty stores "" as NULL, for the unique columns (e-mail, Google
// subject) that many rows leave empty.
func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// CreateUser stores a new account or guest.
func (s *Store) CreateUser(ctx context.Context, u *shop.User, passwordHash []byte) error {
	if u.Country == "" {
		u.Country = shop.DefaultCountry
	}
	u.CreatedAt = s.Now().UTC().Truncate(time.Second)
	var hash any
	if passwordHash != nil {
		hash = string(passwordHash)
	}
	_, err := s.Exec(ctx, `INSERT INTO users (id, email, display_name, password_hash, google_subject,
		phone_number, address, city, state, zip_code, country, is_guest, email_verified, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		u.ID, nullIfEmpty(u.Email), u.DisplayName, hash, nullIfEmpty(u.GoogleSubject), u.PhoneNumber, u.Address, u.City,
		u.State, u.ZipCode, u.Country, u.IsGuest, u.EmailVerified, u.CreatedAt.Unix())
	if err != nil {
		return s.FormatError(err, "insert user", Messages{shop.ECONFLICT: shop.MsgEmailTaken})
	}
	u.HasPassword = passwordHash != nil
	return nil
}

// UserByID returns a user or an ENOTFOUND.
func (s *Store) UserByID(ctx context.Context, id string) (*shop.User, error) {
	return scanUser(s.QueryRow(ctx, `SELECT `+userColumns+` FROM users WHERE id = ?`, id))
}

// UserByEmail returns the account with the normalised email and its hash.
func (s *Store) UserByEmail(ctx context.Context, email string) (*shop.User, []byte, error) {
	var hash sql.NullString
	u, err := scanUser(s.QueryRow(ctx, `SELECT `+userColumns+`, password_hash FROM users WHERE email = ?`,
		shop.NormalizeEmail(email)), &hash)
	if err != nil {
		return nil, nil, err
	}
	if !hash.Valid {
		return u, nil, nil
	}
	return u, []byte(hash.String), nil
}

// UserByGoogleSubject returns the account linked to a Google subject.
func (s *Store) UserByGoogleSubject(ctx context.Context, sub string) (*shop.User, error) {
	return scanUser(s.QueryRow(ctx, `SELECT `+userColumns+` FROM users WHERE google_subject = ?`, sub))
}

// LinkGoogle records that an account signs in with a Google subject.
func (s *Store) LinkGoogle(ctx context.Context, userID, sub string) error {
	return s.updateUser(ctx, "link google", Messages{shop.ECONFLICT: shop.MsgGoogleInUse},
		`UPDATE users SET google_subject = ? WHERE id = ?`, sub, userID)
}

// MarkEmailVerified records that the account's address is its owner's.
func (s *Store) MarkEmailVerified(ctx context.Context, userID string) error {
	return s.updateUser(ctx, "mark e-mail verified", nil,
		`UPDATE users SET email_verified = TRUE WHERE id = ? AND NOT is_guest`, userID)
}

// UpdateProfile saves the editable profile fields.
func (s *Store) UpdateProfile(ctx context.Context, userID string, p shop.Profile) error {
	return s.updateUser(ctx, "update profile", nil, `UPDATE users SET display_name = ?, phone_number = ?, address = ?, city = ?,
		state = ?, zip_code = ?, country = ? WHERE id = ?`,
		p.DisplayName, p.PhoneNumber, p.Address, p.City, p.State, p.ZipCode, p.Country, userID)
}

// updateUser runs an UPDATE of one user; no row changed is the
// shopper-facing ENOTFOUND.
func (s *Store) updateUser(ctx context.Context, what string, msgs Messages, query string, args ...any) error {
	res, err := s.Exec(ctx, query, args...)
	if err != nil {
		return s.FormatError(err, what, msgs)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	} else if n == 0 {
		return shop.Errorf(shop.ENOTFOUND, shop.MsgUserNotFound)
	}
	return nil
}

// TakeOverUnverified gives a never-verified account to a Google identity,
// only while it is still unverified: the condition sits in the UPDATE, so
// an owner who verifies meanwhile keeps the account.
func (s *Store) TakeOverUnverified(ctx context.Context, userID, sub string) (int64, error) {
	var gen int64
	err := s.QueryRow(ctx, `UPDATE users SET password_hash = NULL, google_subject = ?, email_verified = TRUE,
		session_gen = session_gen + 1 WHERE id = ? AND NOT email_verified AND NOT is_guest RETURNING session_gen`,
		sub, userID).Scan(&gen)
	if errors.Is(err, sql.ErrNoRows) {
		if _, err := s.UserByID(ctx, userID); err != nil {
			return 0, err
		}
		return 0, shop.Errorf(shop.ECONFLICT, "The account's e-mail address is verified.")
	} else if err != nil {
		return 0, s.FormatError(err, "take over account", Messages{shop.ECONFLICT: shop.MsgGoogleInUse})
	}
	return gen, nil
}

// SetPassword replaces the password hash and bumps the session generation.
func (s *Store) SetPassword(ctx context.Context, userID string, hash []byte) (int64, error) {
	return s.bumpGen(ctx, "set password", `UPDATE users SET password_hash = ?, session_gen = session_gen + 1
		WHERE id = ? RETURNING session_gen`, string(hash), userID)
}

// BumpSessionGen signs out every session of the user that does not re-save
// itself with the returned generation.
func (s *Store) BumpSessionGen(ctx context.Context, userID string) (int64, error) {
	return s.bumpGen(ctx, "bump session generation",
		`UPDATE users SET session_gen = session_gen + 1 WHERE id = ? RETURNING session_gen`, userID)
}

// bumpGen runs an UPDATE … RETURNING session_gen of one user.
func (s *Store) bumpGen(ctx context.Context, what, query string, args ...any) (int64, error) {
	var gen int64
	err := s.QueryRow(ctx, query, args...).Scan(&gen)
	if err != nil {
		return 0, rowError(err, what, shop.MsgUserNotFound)
	}
	return gen, nil
}

// DeleteUser removes the user and their personal data: the account, reset
// tokens, wishlist and saved card (ON DELETE CASCADE), the cart, the mails
// kept for the address in the outbox (any case), and the names, addresses
// and e-mail on the orders that are theirs by ownedOrders' rule, their
// guest checkouts included. The orders themselves stay, with their
// amounts and tax, for the shop's books (see decision 0023).
func (s *Store) DeleteUser(ctx context.Context, userID string) error {
	return s.InTx(ctx, func(tx Tx) error {
		var email sql.NullString
		err := tx.QueryRow(ctx, `SELECT email FROM users WHERE id = ?`, userID).Scan(&email)
		if errors.Is(err, sql.ErrNoRows) {
			return shop.Errorf(shop.ENOTFOUND, shop.MsgUserNotFound)
		} else if err != nil {
			return fmt.Errorf("delete user: read address: %w", err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM cart_items WHERE owner = ?`, userID); err != nil {
			return fmt.Errorf("delete user cart: %w", err)
		}
		// Before the account goes: the rule finds guest checkouts through it.
		if _, err := tx.Exec(ctx, `UPDATE orders SET email = '', ship_name = '', ship_street = '', ship_city = '',
			ship_state = '', ship_zip = '', ship_phone = '' WHERE user_id = ? OR id IN (
				SELECT o.id FROM `+ownedOrders+` WHERE `+orderOwner+` = ?)`, userID, userID); err != nil {
			return fmt.Errorf("anonymise orders: %w", err)
		}
		if address := shop.NormalizeEmail(email.String); address != "" {
			if _, err := tx.Exec(ctx, `DELETE FROM outbox WHERE LOWER(recipient) = ?`, address); err != nil {
				return fmt.Errorf("delete user outbox: %w", err)
			}
		}
		if _, err := tx.Exec(ctx, `DELETE FROM users WHERE id = ?`, userID); err != nil {
			return fmt.Errorf("delete user: %w", err)
		}
		return nil
	})
}

// HandOver moves what a guest owns to an account and deletes the guest.
func (s *Store) HandOver(ctx context.Context, guestID, userID string) error {
	return s.InTx(ctx, func(tx Tx) error {
		if err := tx.MergeCart(ctx, guestID, userID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE orders SET user_id = ? WHERE user_id = ?`, userID, guestID); err != nil {
			return fmt.Errorf("hand over orders: %w", err)
		}
		// A payment under way for the guest's cart completes on the merged
		// cart: its lines come out of the account's cart. Unless the account
		// has a pending order of its own: a cart has one pending order at a
		// time (a unique index), and that one stays the guest's.
		if _, err := tx.Exec(ctx, `UPDATE orders SET cart_owner = ? WHERE cart_owner = ?
			AND NOT (status = 'pending' AND EXISTS (SELECT 1 FROM orders o WHERE o.cart_owner = ? AND o.status = 'pending'))`,
			userID, guestID, userID); err != nil {
			return fmt.Errorf("hand over orders: %w", err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM users WHERE id = ? AND is_guest`, guestID); err != nil {
			return fmt.Errorf("delete guest: %w", err)
		}
		return nil
	})
}

// CountGuests reports how many guest users exist (tests and housekeeping).
func (s *Store) CountGuests(ctx context.Context) int {
	var n int
	_ = s.QueryRow(ctx, `SELECT COUNT(*) FROM users WHERE is_guest`).Scan(&n)
	return n
}

// CountCharges reports how many charges the simulated gateway recorded
// (tests).
func (s *Store) CountCharges(ctx context.Context) int {
	var n int
	_ = s.QueryRow(ctx, `SELECT COUNT(*) FROM gateway_charges`).Scan(&n)
	return n
}
