package sqlite_test

import (
	"context"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// A reset token is usable until it is used or expires; asking changes
// nothing (the reset page asks on every GET).
func TestPasswordResetUsable(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	db.SetClock(func() time.Time { return now })
	if err := db.CreateUser(ctx, &shop.User{ID: "u1", Email: "ada@example.com", DisplayName: "Ada"}, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := db.CreatePasswordReset(ctx, "u1", "hash-1", now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	usable := func(hash string) bool {
		t.Helper()
		ok, err := db.PasswordResetUsable(ctx, hash)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	// Asking must not use the token up, so it is asked twice.
	first, second := usable("hash-1"), usable("hash-1")
	if !first || !second {
		t.Fatal("a fresh token, asked twice, should be usable")
	}
	if usable("no-such-hash") {
		t.Error("an unknown token is usable")
	}
	if _, err := db.ConsumePasswordReset(ctx, "hash-1"); err != nil {
		t.Fatalf("asking used the token up: %v", err)
	}
	if usable("hash-1") {
		t.Error("a used token is still usable")
	}
	if err := db.CreatePasswordReset(ctx, "u1", "hash-2", now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	now = now.Add(61 * time.Minute)
	if usable("hash-2") {
		t.Error("an expired token is still usable")
	}
}
