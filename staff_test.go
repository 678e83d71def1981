package main

import (
	"context"
	"strings"
	"testing"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/store/sqlite"
)

// `storefront staff add/remove` grants and takes back a role, refuses an
// unknown role or account and an account whose e-mail is not verified, and
// records each change in the audit log.
func TestStaffCommand(t *testing.T) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	u := &shop.User{ID: "usr_1", Email: "ada@example.com"}
	if err := db.CreateUser(ctx, u, []byte("x")); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, bad := range [][]string{{"add", "ada@example.com", "--role", "owner"}, {"add", "ada@example.com"}, {"promote", "ada@example.com"}} {
		if err := staffCommand(ctx, db, bad, &out); err == nil || !strings.Contains(err.Error(), "usage: staff add EMAIL --role admin|fulfilment") {
			t.Errorf("%v: %v", bad, err)
		}
	}
	if err := staffCommand(ctx, db, []string{"add", "nobody@example.com", "--role", "admin"}, &out); err == nil || !strings.Contains(err.Error(), "signs up first") {
		t.Errorf("unknown account: %v", err)
	}
	// Registered but never verified: whoever registered the address may not
	// own it, so no role, and the message says how to verify.
	err = staffCommand(ctx, db, []string{"add", "ada@example.com", "--role", "admin"}, &out)
	if err == nil || !strings.Contains(err.Error(), "has not confirmed its e-mail address") ||
		!strings.Contains(err.Error(), "Forgot password") || !strings.Contains(err.Error(), "sign-in link") {
		t.Errorf("unverified account: %v", err)
	}
	if role, _ := db.StaffRole(ctx, "usr_1"); role != "" {
		t.Errorf("role of an unverified account %q", role)
	}
	if err := db.MarkEmailVerified(ctx, "usr_1"); err != nil {
		t.Fatal(err)
	}
	if err := staffCommand(ctx, db, []string{"add", "Ada@Example.com", "--role", "fulfilment"}, &out); err != nil {
		t.Fatal(err)
	}
	if role, _ := db.StaffRole(ctx, "usr_1"); role != shop.RoleFulfilment {
		t.Errorf("role %q", role)
	}
	if err := staffCommand(ctx, db, []string{"remove", "ada@example.com"}, &out); err != nil {
		t.Fatal(err)
	}
	if role, _ := db.StaffRole(ctx, "usr_1"); role != "" {
		t.Errorf("role after remove %q", role)
	}
	if got := out.String(); got != "ada@example.com is now fulfilment staff\nada@example.com is no longer staff\n" {
		t.Errorf("output %q", got)
	}
	log, _, err := db.AuditLog(ctx, 1)
	if err != nil || len(log) != 2 || log[0].Action != "staff.remove" || log[0].Before != "fulfilment" || log[1].Action != "staff.add" || log[1].After != "fulfilment" {
		t.Errorf("audit log %+v %v", log, err)
	}
}
