// Package storetest is the conformance suite every store backend passes, so
// SQLite and (later) PostgreSQL behave the same behind package shop's
// interfaces.
package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// KV is the fiber.Storage shape plus expiry sweeping.
type KV interface {
	Get(key string) ([]byte, error)
	Set(key string, val []byte, exp time.Duration) error
	Delete(key string) error
	Reset() error
	DeleteExpired(ctx context.Context) (int64, error)
}

// Store is what a backend offers the suite.
type Store interface {
	shop.ContactStore
	shop.Pinger
	ContactMessages(ctx context.Context) ([]shop.ContactMessage, error)
}

// Backend opens a fresh, empty store whose clock the suite controls.
type Backend struct {
	Open func(tb testing.TB, now func() time.Time) (Store, KV)
}

// Run runs every conformance test against b.
func Run(t *testing.T, b Backend) {
	clock := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	now := func() time.Time { return clock }

	t.Run("Ping", func(t *testing.T) {
		s, _ := b.Open(t, now)
		if err := s.Ping(context.Background()); err != nil {
			t.Fatalf("ping: %v", err)
		}
	})

	t.Run("ContactMessage", func(t *testing.T) {
		s, _ := b.Open(t, now)
		ctx := context.Background()
		m := &shop.ContactMessage{Name: "Ada", Email: "ada@example.com", Subject: "Hi", Message: "Hello ☾"}
		if err := s.CreateContactMessage(ctx, m); err != nil {
			t.Fatal(err)
		}
		if m.ID == 0 || !m.CreatedAt.Equal(clock) {
			t.Errorf("got id %d created %v, want an id and %v", m.ID, m.CreatedAt, clock)
		}
		got, err := s.ContactMessages(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0] != *m {
			t.Errorf("got %+v, want [%+v]", got, *m)
		}
	})

	t.Run("KV", func(t *testing.T) {
		_, kv := b.Open(t, now)
		if v, err := kv.Get("missing"); err != nil || v != nil {
			t.Fatalf("missing key: got %q, %v", v, err)
		}
		if err := kv.Set("a", []byte("1"), time.Minute); err != nil {
			t.Fatal(err)
		}
		if err := kv.Set("forever", []byte("2"), 0); err != nil {
			t.Fatal(err)
		}
		if err := kv.Set("a", []byte("3"), time.Minute); err != nil {
			t.Fatal(err)
		}
		if v, _ := kv.Get("a"); string(v) != "3" {
			t.Errorf("overwrite: got %q, want 3", v)
		}

		clock = clock.Add(2 * time.Minute)
		if v, _ := kv.Get("a"); v != nil {
			t.Errorf("expired key: got %q, want nil", v)
		}
		if n, err := kv.DeleteExpired(context.Background()); err != nil || n != 1 {
			t.Errorf("sweep: got %d, %v, want 1", n, err)
		}
		if v, _ := kv.Get("forever"); string(v) != "2" {
			t.Errorf("no-expiry key: got %q, want 2", v)
		}
		if err := kv.Delete("forever"); err != nil {
			t.Fatal(err)
		}
		if v, _ := kv.Get("forever"); v != nil {
			t.Errorf("deleted key: got %q", v)
		}
		kv.Set("b", []byte("x"), 0)
		if err := kv.Reset(); err != nil {
			t.Fatal(err)
		}
		if v, _ := kv.Get("b"); v != nil {
			t.Errorf("after reset: got %q", v)
		}
	})
}
