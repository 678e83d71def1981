package sqlite

import (
	"context"
	"errors"
	"testing"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/store/sqlstore"
)

// FormatError classifies by SQLite's result code: each kind of constraint
// becomes its shop code with the caller's message, and one the caller did
// not expect stays internal (no message of it reaches a shopper).
func TestFormatError(t *testing.T) {
	t.Parallel()
	db := openTestDB(t)
	ctx := context.Background()
	if _, err := db.SQL().ExecContext(ctx, `CREATE TABLE fe_parent (id TEXT PRIMARY KEY);
		CREATE TABLE fe (id TEXT PRIMARY KEY, email TEXT UNIQUE, n INTEGER NOT NULL CHECK (n > 0),
			parent TEXT REFERENCES fe_parent(id));
		INSERT INTO fe (id, email, n) VALUES ('a', 'a@example.com', 1)`); err != nil {
		t.Fatal(err)
	}
	msgs := sqlstore.Messages{shop.ECONFLICT: "taken", shop.ENOTFOUND: "gone", shop.EINVALID: "bad"}
	for _, tt := range []struct {
		name, stmt, code, msg string
	}{
		{"Unique", `INSERT INTO fe (id, email, n) VALUES ('b', 'a@example.com', 1)`, shop.ECONFLICT, "taken"},
		{"PrimaryKey", `INSERT INTO fe (id, n) VALUES ('a', 1)`, shop.ECONFLICT, "taken"},
		{"ForeignKey", `INSERT INTO fe (id, n, parent) VALUES ('c', 1, 'nobody')`, shop.ENOTFOUND, "gone"},
		{"Check", `INSERT INTO fe (id, n) VALUES ('d', 0)`, shop.EINVALID, "bad"},
		{"NotNull", `INSERT INTO fe (id) VALUES ('e')`, shop.EINVALID, "bad"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := db.SQL().ExecContext(ctx, tt.stmt)
			got := db.FormatError(err, "test", msgs)
			if shop.ErrorCode(got) != tt.code || shop.ErrorMessage(got) != tt.msg {
				t.Errorf("got %q %q, want %q %q (from %v)", shop.ErrorCode(got), shop.ErrorMessage(got), tt.code, tt.msg, err)
			}
			if got := db.FormatError(err, "test", nil); shop.ErrorCode(got) != shop.EINTERNAL || !errors.Is(got, err) {
				t.Errorf("unexpected violation: got %v, want an internal error wrapping the driver's", got)
			}
		})
	}
	if db.FormatError(nil, "test", msgs) != nil {
		t.Error("nil error: got non-nil")
	}
}
