package storetest

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/nocturne/storefront/internal/health"
	"github.com/nocturne/storefront/internal/shop"
)

// testHealth covers what /healthz and the error handler rely on: the
// monitor's heartbeat reaches storage, so a database that refuses writes
// (a full disk, a read-only database) fails the check after one probe and
// passes again after one once it recovers; and the errors of a database
// that cannot serve are told apart (503, not 500).
func testHealth(t *testing.T, b Backend) {
	ctx := context.Background()

	t.Run("RefusedWrites", func(t *testing.T) {
		s, kv, clock := b.open(t)
		var logs bytes.Buffer
		m := health.NewMonitor(ctx, s, clock.Now, slog.New(slog.NewTextHandler(&logs, nil)))
		if err := m.Check(ctx); err != nil {
			t.Fatalf("healthy store: %v", err)
		}
		restore := b.RefuseWrites(t, s)
		if err := m.Check(ctx); err != nil {
			t.Fatalf("the check itself must not write: before a probe it still reads fine, got %v", err)
		}
		m.Probe(ctx)
		err := m.Check(ctx)
		var d *health.Degraded
		if err == nil || errors.As(err, &d) {
			t.Fatalf("after a probe on a database that refuses writes: got %v, want a database failure", err)
		}
		if !strings.Contains(logs.String(), "heartbeat") {
			t.Errorf("the log does not say why:\n%s", logs.String())
		}
		werr := kv.Set("sess_big", bytes.Repeat([]byte("x"), 16<<10), 0)
		if werr == nil || !b.Unavailable(werr) {
			t.Errorf("a session write on a database that refuses writes: got %v, want an unavailable error", werr)
		}

		restore()
		m.Probe(ctx)
		if err := m.Check(ctx); err != nil {
			t.Errorf("after a probe on the recovered database: %v", err)
		}
		must(t, kv.Set("sess_big", bytes.Repeat([]byte("x"), 16<<10), 0))
	})

	t.Run("Closed", func(t *testing.T) {
		s, kv, clock := b.open(t)
		m := health.NewMonitor(ctx, s, clock.Now, slog.New(slog.DiscardHandler))
		b.Close(s)
		if err := m.Check(ctx); err == nil {
			t.Error("healthy with the database closed")
		}
		if err := s.Ping(ctx); !b.Unavailable(err) {
			t.Errorf("ping: %v is not classed unavailable", err)
		}
		if _, err := kv.Get("sess_x"); !b.Unavailable(err) {
			t.Errorf("session read: %v is not classed unavailable", err)
		}
		if _, err := s.UserByID(ctx, "usr_x"); !b.Unavailable(err) {
			t.Errorf("user read: %v is not classed unavailable", err)
		}
		err := s.AddToCart(ctx, "cart_x", "p1", 1)
		if shop.ErrorCode(err) != shop.EUNAVAILABLE || shop.ErrorMessage(err) != shop.MsgUnavailable {
			t.Errorf("add to cart: got %q %q (%v), want %q", shop.ErrorCode(err), shop.ErrorMessage(err), err, shop.EUNAVAILABLE)
		}
	})

	t.Run("NotUnavailable", func(t *testing.T) {
		for _, err := range []error{nil, errors.New("boom"), shop.Errorf(shop.ECONFLICT, "taken"), context.Canceled} {
			if b.Unavailable(err) {
				t.Errorf("%v is classed unavailable", err)
			}
		}
	})
}
