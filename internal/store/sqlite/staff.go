package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

var (
	_ shop.StaffStore = (*DB)(nil)
	_ shop.AuditStore = (*DB)(nil)
)

// GrantStaff gives an account a back-office role.
func (db *DB) GrantStaff(ctx context.Context, email, role string) (*shop.Staff, error) {
	st := &shop.Staff{Email: shop.NormalizeEmail(email), Role: role, CreatedAt: db.Now().UTC().Truncate(time.Second)}
	var verified bool
	err := db.QueryRow(ctx, `SELECT id, email_verified FROM users WHERE email = ? AND is_guest = 0`, st.Email).Scan(&st.UserID, &verified)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, shop.Errorf(shop.ENOTFOUND, shop.MsgNoStaffAccount, st.Email)
	} else if err != nil {
		return nil, fmt.Errorf("grant staff: %w", err)
	}
	// An address is never unverified again once verified, so reading it
	// before the write cannot let an unverified account through.
	if !verified {
		return nil, shop.Errorf(shop.EINVALID, shop.MsgStaffUnverified, st.Email)
	}
	if _, err := db.Exec(ctx, `INSERT INTO staff (user_id, role, created_at) VALUES (?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET role = excluded.role`, st.UserID, role, st.CreatedAt.Unix()); err != nil {
		return nil, fmt.Errorf("grant staff: %w", err)
	}
	return st, nil
}

// RevokeStaff removes an account's role.
func (db *DB) RevokeStaff(ctx context.Context, email string) (bool, error) {
	res, err := db.Exec(ctx, `DELETE FROM staff WHERE user_id IN (SELECT id FROM users WHERE email = ?)`, shop.NormalizeEmail(email))
	if err != nil {
		return false, fmt.Errorf("revoke staff: %w", err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// StaffRole returns the user's role, "" when not staff.
func (db *DB) StaffRole(ctx context.Context, userID string) (string, error) {
	var role string
	err := db.QueryRow(ctx, `SELECT role FROM staff WHERE user_id = ?`, userID).Scan(&role)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	} else if err != nil {
		return "", fmt.Errorf("staff role: %w", err)
	}
	return role, nil
}

// ListStaff lists staff members by e-mail.
func (db *DB) ListStaff(ctx context.Context) ([]shop.Staff, error) {
	rows, err := db.Query(ctx, `SELECT s.user_id, u.email, s.role, s.created_at FROM staff s JOIN users u ON u.id = s.user_id ORDER BY u.email`)
	if err != nil {
		return nil, fmt.Errorf("list staff: %w", err)
	}
	defer rows.Close()
	var out []shop.Staff
	for rows.Next() {
		var s shop.Staff
		var created int64
		if err := rows.Scan(&s.UserID, &s.Email, &s.Role, &created); err != nil {
			return nil, fmt.Errorf("scan staff: %w", err)
		}
		s.CreatedAt = time.Unix(created, 0).UTC()
		out = append(out, s)
	}
	return out, rows.Err()
}

// RecordAudit appends an entry to the audit log.
func (db *DB) RecordAudit(ctx context.Context, e shop.AuditEntry) error {
	if e.CreatedAt.IsZero() {
		e.CreatedAt = db.Now()
	}
	if _, err := db.Exec(ctx, `INSERT INTO audit_log (actor, action, subject, before, after, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
		e.Actor, e.Action, e.Subject, e.Before, e.After, e.CreatedAt.Unix()); err != nil {
		return fmt.Errorf("record audit: %w", err)
	}
	return nil
}

// AuditLog returns a page of the audit log, newest first.
func (db *DB) AuditLog(ctx context.Context, page int) ([]shop.AuditEntry, int, error) {
	var total int
	if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM audit_log`).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count audit log: %w", err)
	}
	rows, err := db.Query(ctx, `SELECT id, actor, action, subject, before, after, created_at FROM audit_log ORDER BY id DESC LIMIT ? OFFSET ?`,
		shop.AuditPageSize, (max(page, 1)-1)*shop.AuditPageSize)
	if err != nil {
		return nil, 0, fmt.Errorf("audit log: %w", err)
	}
	defer rows.Close()
	var out []shop.AuditEntry
	for rows.Next() {
		var e shop.AuditEntry
		var created int64
		if err := rows.Scan(&e.ID, &e.Actor, &e.Action, &e.Subject, &e.Before, &e.After, &created); err != nil {
			return nil, 0, fmt.Errorf("scan audit entry: %w", err)
		}
		e.CreatedAt = time.Unix(created, 0).UTC()
		out = append(out, e)
	}
	return out, total, rows.Err()
}
