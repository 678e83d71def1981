package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/nocturne/storefront/internal/shop"
)

// staffStore is what the staff command changes.
type staffStore interface {
	shop.StaffStore
	shop.AuditStore
}

// staffCommand runs "staff add EMAIL --role ROLE" and "staff remove EMAIL".
// Each change is written to the audit log, as done by "cli".
func staffCommand(ctx context.Context, db staffStore, args []string, out io.Writer) error {
	usage := fmt.Errorf("usage: staff add EMAIL --role %s | staff remove EMAIL", strings.Join(shop.StaffRoles, "|"))
	switch {
	case len(args) == 4 && args[0] == "add" && (args[2] == "--role" || args[2] == "-role"):
		email, role := args[1], args[3]
		if !slices.Contains(shop.StaffRoles, role) {
			return fmt.Errorf("unknown role %q: %w", role, usage)
		}
		before, err := roleOf(ctx, db, email)
		if err != nil {
			return err
		}
		st, err := db.GrantStaff(ctx, email, role)
		if err != nil {
			return fmt.Errorf("staff add: %s", shop.ErrorMessage(err))
		}
		if err := db.RecordAudit(ctx, shop.AuditEntry{Actor: "cli", Action: "staff.add", Subject: st.Email, Before: before, After: role}); err != nil {
			return err
		}
		fmt.Fprintf(out, "%s is now %s staff\n", st.Email, role)
		return nil
	case len(args) == 2 && args[0] == "remove":
		email := shop.NormalizeEmail(args[1])
		before, err := roleOf(ctx, db, email)
		if err != nil {
			return err
		}
		ok, err := db.RevokeStaff(ctx, email)
		if err != nil {
			return err
		}
		if !ok {
			fmt.Fprintf(out, "%s was not staff\n", email)
			return nil
		}
		if err := db.RecordAudit(ctx, shop.AuditEntry{Actor: "cli", Action: "staff.remove", Subject: email, Before: before}); err != nil {
			return err
		}
		fmt.Fprintf(out, "%s is no longer staff\n", email)
		return nil
	}
	return usage
}

func roleOf(ctx context.Context, db staffStore, email string) (string, error) {
	staff, err := db.ListStaff(ctx)
	if err != nil {
		return "", err
	}
	for _, s := range staff {
		if s.Email == shop.NormalizeEmail(email) {
			return s.Role, nil
		}
	}
	return "", nil
}
