package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/store/sqlstore"
)

var (
	_ shop.UserStore          = (*DB)(nil)
	_ shop.PasswordResetStore = (*DB)(nil)
	_ shop.OutboxStore        = (*DB)(nil)

	_ shop.EmailConfirmationStore = (*DB)(nil)
)

const userColumns = `id, COALESCE(email, ''), display_name, COALESCE(google_subject, ''), phone_number, address, city, state,
	zip_code, country, is_guest, password_hash IS NOT NULL, email_verified, session_gen, created_at`

func scanUser(row interface{ Scan(...any) error }, extra ...any) (*shop.User, error) {
	var u shop.User
	var created int64
	dest := append([]any{&u.ID, &u.Email, &u.DisplayName, &u.GoogleSubject, &u.PhoneNumber, &u.Address, &u.City,
		&u.State, &u.ZipCode, &u.Country, &u.IsGuest, &u.HasPassword, &u.EmailVerified, &u.SessionGen, &created}, extra...)
	if err := row.Scan(dest...); errors.Is(err, sql.ErrNoRows) {
		return nil, shop.Errorf(shop.ENOTFOUND, shop.MsgUserNotFound)
	} else if err != nil {
		return nil, fmt.Errorf("scan user: %w", err)
	}
	u.CreatedAt = time.Unix(created, 0).UTC()
	return &u, nil
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// CreateUser stores a new account or guest.
func (db *DB) CreateUser(ctx context.Context, u *shop.User, passwordHash []byte) error {
	if u.Country == "" {
		u.Country = shop.DefaultCountry
	}
	u.CreatedAt = db.Now().UTC().Truncate(time.Second)
	var hash any
	if passwordHash != nil {
		hash = string(passwordHash)
	}
	_, err := db.Exec(ctx, `INSERT INTO users (id, email, display_name, password_hash, google_subject,
		phone_number, address, city, state, zip_code, country, is_guest, email_verified, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		u.ID, nullable(u.Email), u.DisplayName, hash, nullable(u.GoogleSubject), u.PhoneNumber, u.Address, u.City,
		u.State, u.ZipCode, u.Country, u.IsGuest, u.EmailVerified, u.CreatedAt.Unix())
	if err != nil {
		return FormatError(err, "insert user", Messages{shop.ECONFLICT: shop.MsgEmailTaken})
	}
	u.HasPassword = passwordHash != nil
	return nil
}

// UserByID returns a user or an ENOTFOUND.
func (db *DB) UserByID(ctx context.Context, id string) (*shop.User, error) {
	return scanUser(db.QueryRow(ctx, `SELECT `+userColumns+` FROM users WHERE id = ?`, id))
}

// UserByEmail returns the account with the normalised email and its hash.
func (db *DB) UserByEmail(ctx context.Context, email string) (*shop.User, []byte, error) {
	var hash sql.NullString
	u, err := scanUser(db.QueryRow(ctx, `SELECT `+userColumns+`, password_hash FROM users WHERE email = ?`,
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
func (db *DB) UserByGoogleSubject(ctx context.Context, sub string) (*shop.User, error) {
	return scanUser(db.QueryRow(ctx, `SELECT `+userColumns+` FROM users WHERE google_subject = ?`, sub))
}

// LinkGoogle records that an account signs in with a Google subject.
func (db *DB) LinkGoogle(ctx context.Context, userID, sub string) error {
	res, err := db.Exec(ctx, `UPDATE users SET google_subject = ? WHERE id = ?`, sub, userID)
	if err != nil {
		return FormatError(err, "link google", Messages{shop.ECONFLICT: shop.MsgGoogleInUse})
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return shop.Errorf(shop.ENOTFOUND, shop.MsgUserNotFound)
	}
	return nil
}

// MarkEmailVerified records that the account's address is its owner's.
func (db *DB) MarkEmailVerified(ctx context.Context, userID string) error {
	return db.execOne(ctx, "mark e-mail verified", `UPDATE users SET email_verified = 1 WHERE id = ? AND is_guest = 0`, userID)
}

// TakeOverUnverified gives a never-verified account to a Google identity,
// only while it is still unverified.
func (db *DB) TakeOverUnverified(ctx context.Context, userID, sub string) (int64, error) {
	var gen int64
	err := db.QueryRow(ctx, `UPDATE users SET password_hash = NULL, google_subject = ?, email_verified = 1,
		session_gen = session_gen + 1 WHERE id = ? AND email_verified = 0 AND is_guest = 0 RETURNING session_gen`,
		sub, userID).Scan(&gen)
	if errors.Is(err, sql.ErrNoRows) {
		if _, err := db.UserByID(ctx, userID); err != nil {
			return 0, err
		}
		return 0, shop.Errorf(shop.ECONFLICT, "The account's e-mail address is verified.")
	} else if err != nil {
		return 0, FormatError(err, "take over account", Messages{shop.ECONFLICT: shop.MsgGoogleInUse})
	}
	return gen, nil
}

// UpdateProfile saves the editable profile fields.
func (db *DB) UpdateProfile(ctx context.Context, userID string, p shop.Profile) error {
	return db.execOne(ctx, "update profile", `UPDATE users SET display_name = ?, phone_number = ?, address = ?, city = ?,
		state = ?, zip_code = ?, country = ? WHERE id = ?`,
		p.DisplayName, p.PhoneNumber, p.Address, p.City, p.State, p.ZipCode, p.Country, userID)
}

// SetPassword replaces the password hash and bumps the session generation.
func (db *DB) SetPassword(ctx context.Context, userID string, hash []byte) (int64, error) {
	var gen int64
	err := db.QueryRow(ctx, `UPDATE users SET password_hash = ?, session_gen = session_gen + 1
		WHERE id = ? RETURNING session_gen`, string(hash), userID).Scan(&gen)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, shop.Errorf(shop.ENOTFOUND, shop.MsgUserNotFound)
	} else if err != nil {
		return 0, fmt.Errorf("set password: %w", err)
	}
	return gen, nil
}

// BumpSessionGen signs out every session of the user that does not re-save
// itself with the returned generation.
func (db *DB) BumpSessionGen(ctx context.Context, userID string) (int64, error) {
	var gen int64
	err := db.QueryRow(ctx, `UPDATE users SET session_gen = session_gen + 1 WHERE id = ? RETURNING session_gen`,
		userID).Scan(&gen)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, shop.Errorf(shop.ENOTFOUND, shop.MsgUserNotFound)
	} else if err != nil {
		return 0, fmt.Errorf("bump session generation: %w", err)
	}
	return gen, nil
}

// DeleteUser removes the user and their personal data: the account, reset
// tokens, wishlist and saved card (ON DELETE CASCADE), the cart, and the
// names and addresses on their orders (the orders themselves stay, without
// anyone's details, for the shop's accounts).
func (db *DB) DeleteUser(ctx context.Context, userID string) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM cart_items WHERE owner = ?`, userID); err != nil {
			return fmt.Errorf("delete user cart: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE orders SET email = '', ship_name = '', ship_street = '', ship_city = '',
			ship_state = '', ship_zip = '', ship_phone = '' WHERE user_id = ?`, userID); err != nil {
			return fmt.Errorf("anonymise orders: %w", err)
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM users WHERE id = ?`, userID)
		if err != nil {
			return fmt.Errorf("delete user: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return shop.Errorf(shop.ENOTFOUND, shop.MsgUserNotFound)
		}
		return nil
	})
}

// HandOver moves what a guest owns to an account and deletes the guest.
func (db *DB) HandOver(ctx context.Context, guestID, userID string) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		if err := mergeCart(ctx, tx, guestID, userID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE orders SET user_id = ? WHERE user_id = ?`, userID, guestID); err != nil {
			return fmt.Errorf("hand over orders: %w", err)
		}
		// A payment under way for the guest's cart completes on the merged
		// cart: its lines come out of the account's cart.
		if _, err := tx.ExecContext(ctx, `UPDATE OR IGNORE orders SET cart_owner = ? WHERE cart_owner = ?`, userID, guestID); err != nil {
			return fmt.Errorf("hand over orders: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM users WHERE id = ? AND is_guest = 1`, guestID); err != nil {
			return fmt.Errorf("delete guest: %w", err)
		}
		return nil
	})
}

// Reset tokens and sign-in links are both single-use tokens of a user,
// kept by hash in a table of their own (password_resets, sign_in_links).
const (
	resetTokens  = "password_resets"
	signInTokens = "sign_in_links"
)

// CreatePasswordReset stores a reset token's hash.
func (db *DB) CreatePasswordReset(ctx context.Context, userID, tokenHash string, expires time.Time) error {
	return db.createToken(ctx, resetTokens, userID, tokenHash, expires)
}

// ConsumePasswordReset uses a token once.
func (db *DB) ConsumePasswordReset(ctx context.Context, tokenHash string) (string, error) {
	return db.consumeToken(ctx, resetTokens, tokenHash, shop.MsgResetLinkInvalid)
}

// RevokePasswordResets marks every unused token of the user used.
func (db *DB) RevokePasswordResets(ctx context.Context, userID string) error {
	return db.revokeTokens(ctx, resetTokens, userID)
}

// CreateSignInLink stores a sign-in link's hash.
func (db *DB) CreateSignInLink(ctx context.Context, userID, tokenHash string, expires time.Time) error {
	return db.createToken(ctx, signInTokens, userID, tokenHash, expires)
}

// ConsumeSignInLink uses a link once.
func (db *DB) ConsumeSignInLink(ctx context.Context, tokenHash string) (string, error) {
	return db.consumeToken(ctx, signInTokens, tokenHash, shop.MsgSignInLinkInvalid)
}

// RevokeSignInLinks marks every unused link of the user used.
func (db *DB) RevokeSignInLinks(ctx context.Context, userID string) error {
	return db.revokeTokens(ctx, signInTokens, userID)
}

func (db *DB) createToken(ctx context.Context, table, userID, tokenHash string, expires time.Time) error {
	_, err := db.Exec(ctx, `INSERT INTO `+table+` (token_hash, user_id, expires_at) VALUES (?, ?, ?)`,
		tokenHash, userID, expires.Unix())
	return FormatError(err, "insert "+table, Messages{shop.ENOTFOUND: shop.MsgUserNotFound})
}

// consumeToken marks an unused, unexpired token used and returns its user;
// any other token is an ENOTFOUND with msg.
func (db *DB) consumeToken(ctx context.Context, table, tokenHash, msg string) (string, error) {
	var userID string
	now := db.Now().Unix()
	err := db.QueryRow(ctx, `UPDATE `+table+` SET used_at = ?
		WHERE token_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING user_id`, now, tokenHash, now).Scan(&userID)
	if errors.Is(err, sql.ErrNoRows) {
		return "", shop.Errorf(shop.ENOTFOUND, "%s", msg)
	} else if err != nil {
		return "", fmt.Errorf("consume %s: %w", table, err)
	}
	return userID, nil
}

func (db *DB) revokeTokens(ctx context.Context, table, userID string) error {
	if _, err := db.Exec(ctx, `UPDATE `+table+` SET used_at = ? WHERE user_id = ? AND used_at IS NULL`,
		db.Now().Unix(), userID); err != nil {
		return fmt.Errorf("revoke %s: %w", table, err)
	}
	return nil
}

// CreateEmailConfirmation stores a confirmation link's hash, with the
// Google subject it links ("" for none).
func (db *DB) CreateEmailConfirmation(ctx context.Context, userID, tokenHash, googleSubject string, expires time.Time) error {
	_, err := db.Exec(ctx, `INSERT INTO email_confirmations (token_hash, user_id, google_subject, expires_at) VALUES (?, ?, ?, ?)`,
		tokenHash, userID, nullable(googleSubject), expires.Unix())
	return FormatError(err, "insert email_confirmations", Messages{shop.ENOTFOUND: shop.MsgUserNotFound})
}

// ConsumeEmailConfirmation uses a confirmation link once.
func (db *DB) ConsumeEmailConfirmation(ctx context.Context, tokenHash string) (string, string, error) {
	var userID, sub string
	now := db.Now().Unix()
	err := db.QueryRow(ctx, `UPDATE email_confirmations SET used_at = ?
		WHERE token_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING user_id, COALESCE(google_subject, '')`,
		now, tokenHash, now).Scan(&userID, &sub)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", shop.Errorf(shop.ENOTFOUND, "%s", shop.MsgConfirmLinkInvalid)
	} else if err != nil {
		return "", "", fmt.Errorf("consume email_confirmations: %w", err)
	}
	return userID, sub, nil
}

// RevokeEmailConfirmations marks every unused confirmation link of the
// user used.
func (db *DB) RevokeEmailConfirmations(ctx context.Context, userID string) error {
	return db.revokeTokens(ctx, "email_confirmations", userID)
}

// PasswordResetUsable reports whether a token could be used now; it changes
// nothing (reads never write).
func (db *DB) PasswordResetUsable(ctx context.Context, tokenHash string) (bool, error) {
	var n int
	err := db.QueryRow(ctx, `SELECT count(*) FROM password_resets
		WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?`, tokenHash, db.Now().Unix()).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("check password reset: %w", err)
	}
	return n > 0, nil
}

// AddToOutbox keeps an e-mail that was not sent over SMTP.
func (db *DB) AddToOutbox(ctx context.Context, m shop.Email) error {
	_, err := db.Exec(ctx, `INSERT INTO outbox (recipient, subject, body, created_at) VALUES (?, ?, ?, ?)`,
		m.To, m.Subject, m.Body, db.Now().Unix())
	if err != nil {
		return fmt.Errorf("insert outbox: %w", err)
	}
	return nil
}

// Outbox lists kept e-mails, newest first.
func (db *DB) Outbox(ctx context.Context) ([]shop.Email, error) {
	rows, err := db.Query(ctx, `SELECT recipient, subject, body FROM outbox ORDER BY id DESC`)
	if err != nil {
		return nil, fmt.Errorf("list outbox: %w", err)
	}
	defer rows.Close()
	var out []shop.Email
	for rows.Next() {
		var m shop.Email
		if err := rows.Scan(&m.To, &m.Subject, &m.Body); err != nil {
			return nil, fmt.Errorf("scan outbox: %w", err)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

func (db *DB) execOne(ctx context.Context, what, query string, args ...any) error {
	res, err := db.Exec(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return shop.Errorf(shop.ENOTFOUND, shop.MsgUserNotFound)
	}
	return nil
}

func (db *DB) inTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	return db.InTx(ctx, func(tx sqlstore.Tx) error { return fn(tx.Tx) })
}

// CountGuests reports how many guest users exist (tests and housekeeping).
func (db *DB) CountGuests(ctx context.Context) int {
	var n int
	_ = db.QueryRow(ctx, `SELECT COUNT(*) FROM users WHERE is_guest = 1`).Scan(&n)
	return n
}

// CountCharges reports how many charges the simulated gateway recorded
// (tests).
func (db *DB) CountCharges(ctx context.Context) int {
	var n int
	_ = db.QueryRow(ctx, `SELECT COUNT(*) FROM gateway_charges`).Scan(&n)
	return n
}
