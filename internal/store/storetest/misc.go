package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// testMisc covers the small stores: ping and the heartbeat, contact
// messages, the outbox and the session key-value store.
func testMisc(t *testing.T, b Backend) {
	ctx := context.Background()

	t.Run("Ping", func(t *testing.T) {
		s, _, _ := b.open(t)
		if err := s.Ping(ctx); err != nil {
			t.Fatalf("ping: %v", err)
		}
		v, _ := s.CatalogVersion(ctx)
		for range 3 { // the SQLite pad alternates: both sizes
			if err := s.Heartbeat(ctx, time.Now()); err != nil {
				t.Fatalf("heartbeat: %v", err)
			}
		}
		if after, _ := s.CatalogVersion(ctx); after != v {
			t.Errorf("the heartbeat changed the catalogue version: %d, then %d", v, after)
		}
	})

	t.Run("ContactMessage", func(t *testing.T) {
		s, _, clock := b.open(t)
		m := &shop.ContactMessage{Name: "Ada", Email: "ada@example.com", Subject: "Hi", Message: "Hello ☾"}
		must(t, s.CreateContactMessage(ctx, m))
		if m.ID == 0 || !m.CreatedAt.Equal(clock.Now()) {
			t.Errorf("got id %d created %v, want an id and %v", m.ID, m.CreatedAt, clock.Now())
		}
		got, err := s.ContactMessages(ctx)
		must(t, err)
		if len(got) != 1 || got[0] != *m {
			t.Errorf("got %+v, want [%+v]", got, *m)
		}
	})

	t.Run("Outbox", func(t *testing.T) {
		s, _, _ := b.open(t)
		if got, err := s.Outbox(ctx); err != nil || len(got) != 0 {
			t.Fatalf("empty outbox: %v, %v", got, err)
		}
		first := shop.Email{To: "a@example.com", Subject: "One", Body: "first"}
		second := shop.Email{To: "b@example.com", Subject: "Two", Body: "second"}
		must(t, s.AddToOutbox(ctx, first))
		must(t, s.AddToOutbox(ctx, second))
		got, err := s.Outbox(ctx)
		must(t, err)
		if len(got) != 2 || got[0] != second || got[1] != first {
			t.Errorf("got %+v, want newest first", got)
		}
	})

	t.Run("KV", func(t *testing.T) {
		_, kv, clock := b.open(t)
		if v, err := kv.Get("missing"); err != nil || v != nil {
			t.Fatalf("missing key: got %q, %v", v, err)
		}
		must(t, kv.Set("a", []byte("1"), time.Minute))
		must(t, kv.Set("forever", []byte("2"), 0))
		must(t, kv.Set("a", []byte("3"), time.Minute))
		if v, _ := kv.Get("a"); string(v) != "3" {
			t.Errorf("overwrite: got %q, want 3", v)
		}
		clock.Add(2 * time.Minute)
		if v, _ := kv.Get("a"); v != nil {
			t.Errorf("expired key: got %q, want nil", v)
		}
		if n, err := kv.DeleteExpired(ctx); err != nil || n != 1 {
			t.Errorf("sweep: got %d, %v, want 1", n, err)
		}
		if v, _ := kv.Get("forever"); string(v) != "2" {
			t.Errorf("no-expiry key: got %q, want 2", v)
		}
		must(t, kv.Delete("forever"))
		if v, _ := kv.Get("forever"); v != nil {
			t.Errorf("deleted key: got %q", v)
		}
		must(t, kv.Set("b", []byte("x"), 0))
		must(t, kv.Reset())
		if v, _ := kv.Get("b"); v != nil {
			t.Errorf("after reset: got %q", v)
		}
	})
}

// testThrottle covers the shared throttle counters: a window starts at the
// first hit, hits within it add up, a hit after it starts a new one.
func testThrottle(t *testing.T, b Backend) {
	ctx := context.Background()
	s, _, clock := b.open(t)
	start := clock.Now()
	for want := 1; want <= 3; want++ {
		n, resets, err := s.Hit(ctx, "k", time.Minute)
		must(t, err)
		if n != want || !resets.Equal(start.Add(time.Minute)) {
			t.Errorf("hit %d: got %d resets %v, want %d resets %v", want, n, resets, want, start.Add(time.Minute))
		}
		clock.Add(10 * time.Second)
	}
	if n, _, err := s.Hits(ctx, "k"); err != nil || n != 3 {
		t.Errorf("hits: got %d, %v, want 3", n, err)
	}
	if n, _, err := s.Hits(ctx, "other"); err != nil || n != 0 {
		t.Errorf("unknown key: got %d, %v, want 0", n, err)
	}
	clock.Add(time.Minute)
	if n, _, err := s.Hits(ctx, "k"); err != nil || n != 0 {
		t.Errorf("after the window: got %d, %v, want 0", n, err)
	}
	if n, resets, err := s.Hit(ctx, "k", time.Minute); err != nil || n != 1 || !resets.Equal(clock.Now().Add(time.Minute)) {
		t.Errorf("new window: got %d resets %v, %v", n, resets, err)
	}
	must(t, s.ClearHits(ctx, "k"))
	if n, _, err := s.Hits(ctx, "k"); err != nil || n != 0 {
		t.Errorf("cleared: got %d, %v, want 0", n, err)
	}

	// Hits from many requests at once are all counted.
	errs := parallel(50, func(int) error { _, _, err := s.Hit(ctx, "busy", time.Hour); return err })
	for _, err := range errs {
		must(t, err)
	}
	if n, _, _ := s.Hits(ctx, "busy"); n != 50 {
		t.Errorf("50 parallel hits: got %d", n)
	}
}
