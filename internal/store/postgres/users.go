package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nocturne/storefront/internal/shop"
)

var (
	_ shop.UserStore          = (*DB)(nil)
	_ shop.PasswordResetStore = (*DB)(nil)
	_ shop.SignInLinkStore    = (*DB)(nil)
	_ shop.OutboxStore        = (*DB)(nil)

	_ shop.EmailConfirmationStore = (*DB)(nil)
)

const userColumns = `id, COALESCE(email, ''), display_name, COALESCE(google_subject, ''), phone_number, address, city, state,
	zip_code, country, is_guest, password_hash IS NOT NULL, email_verified, session_gen, created_at`

func scanUser(row pgx.Row, extra ...any) (*shop.User, error) {
	var u shop.User
	var created int64
	dest := append([]any{&u.ID, &u.Email, &u.DisplayName, &u.GoogleSubject, &u.PhoneNumber, &u.Address, &u.City,
		&u.State, &u.ZipCode, &u.Country, &u.IsGuest, &u.HasPassword, &u.EmailVerified, &u.SessionGen, &created}, extra...)
	if err := row.Scan(dest...); errors.Is(err, pgx.ErrNoRows) {
		return nil, shop.Errorf(shop.ENOTFOUND, shop.MsgUserNotFound)
	} else if err != nil {
		return nil, fmt.Errorf("scan user: %w", err)
	}
	u.CreatedAt = time.Unix(created, 0).UTC()
	return &u, nil
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// CreateUser stores a new account or guest.
func (db *DB) CreateUser(ctx context.Context, u *shop.User, passwordHash []byte) error {
	if u.Country == "" {
		u.Country = shop.DefaultCountry
	}
	u.CreatedAt = db.Now().UTC().Truncate(time.Second)
	var hash *string
	if passwordHash != nil {
		h := string(passwordHash)
		hash = &h
	}
	_, err := db.pool.Exec(ctx, `INSERT INTO users (id, email, display_name, password_hash, google_subject,
		phone_number, address, city, state, zip_code, country, is_guest, email_verified, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
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
	return scanUser(db.pool.QueryRow(ctx, `SELECT `+userColumns+` FROM users WHERE id = $1`, id))
}

// UserByEmail returns the account with the normalised email and its hash.
func (db *DB) UserByEmail(ctx context.Context, email string) (*shop.User, []byte, error) {
	var hash *string
	u, err := scanUser(db.pool.QueryRow(ctx, `SELECT `+userColumns+`, password_hash FROM users WHERE email = $1`,
		shop.NormalizeEmail(email)), &hash)
	if err != nil {
		return nil, nil, err
	}
	if hash == nil {
		return u, nil, nil
	}
	return u, []byte(*hash), nil
}

// UserByGoogleSubject returns the account linked to a Google subject.
func (db *DB) UserByGoogleSubject(ctx context.Context, sub string) (*shop.User, error) {
	return scanUser(db.pool.QueryRow(ctx, `SELECT `+userColumns+` FROM users WHERE google_subject = $1`, sub))
}

// LinkGoogle records that an account signs in with a Google subject.
func (db *DB) LinkGoogle(ctx context.Context, userID, sub string) error {
	tag, err := db.pool.Exec(ctx, `UPDATE users SET google_subject = $1 WHERE id = $2`, sub, userID)
	if err != nil {
		return FormatError(err, "link google", Messages{shop.ECONFLICT: shop.MsgGoogleInUse})
	}
	if tag.RowsAffected() == 0 {
		return shop.Errorf(shop.ENOTFOUND, shop.MsgUserNotFound)
	}
	return nil
}

// MarkEmailVerified records that the account's address is its owner's.
func (db *DB) MarkEmailVerified(ctx context.Context, userID string) error {
	return db.execOne(ctx, "mark e-mail verified", `UPDATE users SET email_verified = true WHERE id = $1 AND NOT is_guest`, userID)
}

// TakeOverUnverified gives a never-verified account to a Google identity,
// only while it is still unverified.
func (db *DB) TakeOverUnverified(ctx context.Context, userID, sub string) (int64, error) {
	var gen int64
	err := db.pool.QueryRow(ctx, `UPDATE users SET password_hash = NULL, google_subject = $2, email_verified = true,
		session_gen = session_gen + 1 WHERE id = $1 AND NOT email_verified AND NOT is_guest RETURNING session_gen`,
		userID, sub).Scan(&gen)
	if errors.Is(err, pgx.ErrNoRows) {
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
	return db.execOne(ctx, "update profile", `UPDATE users SET display_name = $1, phone_number = $2, address = $3, city = $4,
		state = $5, zip_code = $6, country = $7 WHERE id = $8`,
		p.DisplayName, p.PhoneNumber, p.Address, p.City, p.State, p.ZipCode, p.Country, userID)
}

// SetPassword replaces the password hash and bumps the session generation.
func (db *DB) SetPassword(ctx context.Context, userID string, hash []byte) (int64, error) {
	return db.bumpGen(ctx, "set password", `UPDATE users SET password_hash = $2, session_gen = session_gen + 1
		WHERE id = $1 RETURNING session_gen`, userID, string(hash))
}

// BumpSessionGen signs out every session of the user that does not re-save
// itself with the returned generation.
func (db *DB) BumpSessionGen(ctx context.Context, userID string) (int64, error) {
	return db.bumpGen(ctx, "bump session generation", `UPDATE users SET session_gen = session_gen + 1 WHERE id = $1 RETURNING session_gen`, userID)
}

func (db *DB) bumpGen(ctx context.Context, what, q string, args ...any) (int64, error) {
	var gen int64
	err := db.pool.QueryRow(ctx, q, args...).Scan(&gen)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, shop.Errorf(shop.ENOTFOUND, shop.MsgUserNotFound)
	} else if err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	return gen, nil
}

// DeleteUser removes the user and their personal data (see the SQLite
// store: the same rows go, the same orders stay anonymised).
func (db *DB) DeleteUser(ctx context.Context, userID string) error {
	return db.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM cart_items WHERE owner = $1`, userID); err != nil {
			return fmt.Errorf("delete user cart: %w", err)
		}
		if _, err := tx.Exec(ctx, `UPDATE orders SET email = '', ship_name = '', ship_street = '', ship_city = '',
			ship_state = '', ship_zip = '', ship_phone = '' WHERE user_id = $1`, userID); err != nil {
			return fmt.Errorf("anonymise orders: %w", err)
		}
		tag, err := tx.Exec(ctx, `DELETE FROM users WHERE id = $1`, userID)
		if err != nil {
			return fmt.Errorf("delete user: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return shop.Errorf(shop.ENOTFOUND, shop.MsgUserNotFound)
		}
		return nil
	})
}

// HandOver moves what a guest owns to an account and deletes the guest.
func (db *DB) HandOver(ctx context.Context, guestID, userID string) error {
	return db.inTx(ctx, func(tx pgx.Tx) error {
		if err := mergeCart(ctx, tx, guestID, userID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE orders SET user_id = $1 WHERE user_id = $2`, userID, guestID); err != nil {
			return fmt.Errorf("hand over orders: %w", err)
		}
		// A payment under way for the guest's cart completes on the merged
		// cart, unless the account has a pending order of its own (one
		// pending order per cart): SQLite's UPDATE OR IGNORE.
		if _, err := tx.Exec(ctx, `UPDATE orders SET cart_owner = $1 WHERE cart_owner = $2
			AND NOT (status = 'pending' AND EXISTS (SELECT 1 FROM orders o WHERE o.cart_owner = $1 AND o.status = 'pending'))`,
			userID, guestID); err != nil {
			return fmt.Errorf("hand over orders: %w", err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM users WHERE id = $1 AND is_guest`, guestID); err != nil {
			return fmt.Errorf("delete guest: %w", err)
		}
		return nil
	})
}

// CreatePasswordReset stores a reset token's hash.
func (db *DB) CreatePasswordReset(ctx context.Context, userID, tokenHash string, expires time.Time) error {
	if _, err := db.pool.Exec(ctx, `INSERT INTO password_resets (token_hash, user_id, expires_at) VALUES ($1, $2, $3)`,
		tokenHash, userID, expires.Unix()); err != nil {
		return FormatError(err, "insert password reset", Messages{shop.ENOTFOUND: shop.MsgUserNotFound})
	}
	return nil
}

// ConsumePasswordReset uses a token once.
func (db *DB) ConsumePasswordReset(ctx context.Context, tokenHash string) (string, error) {
	return db.consume(ctx, "password_resets", tokenHash, shop.MsgResetLinkInvalid)
}

// ConsumeSignInLink uses a link once.
func (db *DB) ConsumeSignInLink(ctx context.Context, tokenHash string) (string, error) {
	return db.consume(ctx, "sign_in_links", tokenHash, shop.MsgSignInLinkInvalid)
}

// consume marks an unused, unexpired token of table used, in one
// statement: two instances consuming the same token at once cannot both
// succeed.
func (db *DB) consume(ctx context.Context, table, tokenHash, msg string) (string, error) {
	var userID string
	now := db.Now().Unix()
	err := db.pool.QueryRow(ctx, `UPDATE `+table+` SET used_at = $1
		WHERE token_hash = $2 AND used_at IS NULL AND expires_at > $1 RETURNING user_id`, now, tokenHash).Scan(&userID)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", shop.Errorf(shop.ENOTFOUND, "%s", msg)
	} else if err != nil {
		return "", fmt.Errorf("consume %s: %w", table, err)
	}
	return userID, nil
}

// RevokePasswordResets marks every unused token of the user used.
func (db *DB) RevokePasswordResets(ctx context.Context, userID string) error {
	if _, err := db.pool.Exec(ctx, `UPDATE password_resets SET used_at = $1 WHERE user_id = $2 AND used_at IS NULL`,
		db.Now().Unix(), userID); err != nil {
		return fmt.Errorf("revoke password resets: %w", err)
	}
	return nil
}

// CreateSignInLink stores a sign-in link's hash.
func (db *DB) CreateSignInLink(ctx context.Context, userID, tokenHash string, expires time.Time) error {
	if _, err := db.pool.Exec(ctx, `INSERT INTO sign_in_links (token_hash, user_id, expires_at) VALUES ($1, $2, $3)`,
		tokenHash, userID, expires.Unix()); err != nil {
		return FormatError(err, "insert sign-in link", Messages{shop.ENOTFOUND: shop.MsgUserNotFound})
	}
	return nil
}

// RevokeSignInLinks marks every unused link of the user used.
func (db *DB) RevokeSignInLinks(ctx context.Context, userID string) error {
	if _, err := db.pool.Exec(ctx, `UPDATE sign_in_links SET used_at = $1 WHERE user_id = $2 AND used_at IS NULL`,
		db.Now().Unix(), userID); err != nil {
		return fmt.Errorf("revoke sign-in links: %w", err)
	}
	return nil
}

// CreateEmailConfirmation stores a confirmation link's hash, with the
// Google subject it links ("" for none).
func (db *DB) CreateEmailConfirmation(ctx context.Context, userID, tokenHash, googleSubject string, expires time.Time) error {
	if _, err := db.pool.Exec(ctx, `INSERT INTO email_confirmations (token_hash, user_id, google_subject, expires_at) VALUES ($1, $2, $3, $4)`,
		tokenHash, userID, nullable(googleSubject), expires.Unix()); err != nil {
		return FormatError(err, "insert email confirmation", Messages{shop.ENOTFOUND: shop.MsgUserNotFound})
	}
	return nil
}

// ConsumeEmailConfirmation uses a confirmation link once, in one
// statement (see consume).
func (db *DB) ConsumeEmailConfirmation(ctx context.Context, tokenHash string) (string, string, error) {
	var userID, sub string
	err := db.pool.QueryRow(ctx, `UPDATE email_confirmations SET used_at = $1
		WHERE token_hash = $2 AND used_at IS NULL AND expires_at > $1 RETURNING user_id, COALESCE(google_subject, '')`,
		db.Now().Unix(), tokenHash).Scan(&userID, &sub)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", "", shop.Errorf(shop.ENOTFOUND, "%s", shop.MsgConfirmLinkInvalid)
	} else if err != nil {
		return "", "", fmt.Errorf("consume email confirmation: %w", err)
	}
	return userID, sub, nil
}

// RevokeEmailConfirmations marks every unused confirmation link of the
// user used.
func (db *DB) RevokeEmailConfirmations(ctx context.Context, userID string) error {
	if _, err := db.pool.Exec(ctx, `UPDATE email_confirmations SET used_at = $1 WHERE user_id = $2 AND used_at IS NULL`,
		db.Now().Unix(), userID); err != nil {
		return fmt.Errorf("revoke email confirmations: %w", err)
	}
	return nil
}

// PasswordResetUsable reports whether a token could be used now; it
// changes nothing.
func (db *DB) PasswordResetUsable(ctx context.Context, tokenHash string) (bool, error) {
	var ok bool
	err := db.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM password_resets
		WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2)`, tokenHash, db.Now().Unix()).Scan(&ok)
	if err != nil {
		return false, fmt.Errorf("check password reset: %w", err)
	}
	return ok, nil
}

// AddToOutbox keeps an e-mail that was not sent over SMTP.
func (db *DB) AddToOutbox(ctx context.Context, m shop.Email) error {
	if _, err := db.pool.Exec(ctx, `INSERT INTO outbox (recipient, subject, body, created_at) VALUES ($1, $2, $3, $4)`,
		m.To, m.Subject, m.Body, db.Now().Unix()); err != nil {
		return fmt.Errorf("insert outbox: %w", err)
	}
	return nil
}

// Outbox lists kept e-mails, newest first.
func (db *DB) Outbox(ctx context.Context) ([]shop.Email, error) {
	rows, err := db.pool.Query(ctx, `SELECT recipient, subject, body FROM outbox ORDER BY id DESC`)
	if err != nil {
		return nil, fmt.Errorf("list outbox: %w", err)
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (shop.Email, error) {
		var m shop.Email
		err := row.Scan(&m.To, &m.Subject, &m.Body)
		return m, err
	})
}

func (db *DB) execOne(ctx context.Context, what, query string, args ...any) error {
	tag, err := db.pool.Exec(ctx, query, args...)
	if err != nil {
		return FormatError(err, what, nil)
	}
	if tag.RowsAffected() == 0 {
		return shop.Errorf(shop.ENOTFOUND, shop.MsgUserNotFound)
	}
	return nil
}

// CountGuests reports how many guest users exist (tests and housekeeping).
func (db *DB) CountGuests(ctx context.Context) int {
	var n int
	_ = db.pool.QueryRow(ctx, `SELECT COUNT(*) FROM users WHERE is_guest`).Scan(&n)
	return n
}

// CountCharges reports how many charges the simulated gateway recorded.
func (db *DB) CountCharges(ctx context.Context) int {
	var n int
	_ = db.pool.QueryRow(ctx, `SELECT COUNT(*) FROM gateway_charges`).Scan(&n)
	return n
}
