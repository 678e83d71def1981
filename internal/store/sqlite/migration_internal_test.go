package sqlite

import (
	"context"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/pressly/goose/v3"
)

// Migration 00012 on a shop that has accounts already: password accounts
// start unverified, accounts linked to Google are verified, and staff keep
// their role.
func TestMigration_EmailVerified(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "shop.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sub, _ := fs.Sub(migrations, "migrations")
	p, err := goose.NewProvider(goose.DialectSQLite3, db.SQL(), sub)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.DownTo(ctx, 11); err != nil {
		t.Fatalf("down to 11: %v", err)
	}
	for _, q := range []string{
		`INSERT INTO users (id, email, password_hash, created_at) VALUES ('usr_pw', 'pw@example.com', 'hash', 1)`,
		`INSERT INTO users (id, email, google_subject, created_at) VALUES ('usr_g', 'g@example.com', 'sub-g', 1)`,
		`INSERT INTO staff (user_id, role, created_at) VALUES ('usr_pw', 'admin', 1)`,
	} {
		if _, err := db.SQL().ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if _, err := p.Up(ctx); err != nil {
		t.Fatalf("up: %v", err)
	}
	for id, want := range map[string]bool{"usr_pw": false, "usr_g": true} {
		if u, err := db.UserByID(ctx, id); err != nil || u.EmailVerified != want {
			t.Errorf("%s: verified %v, want %v (%v)", id, u.EmailVerified, want, err)
		}
	}
	if role, err := db.StaffRole(ctx, "usr_pw"); err != nil || role != "admin" {
		t.Errorf("staff role after the migration: %q %v", role, err)
	}
}
