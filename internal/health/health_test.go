package health_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/health"
)

type fakeBackend struct {
	ping, beat error
	beats      []time.Time
}

func (f *fakeBackend) Ping(context.Context) error { return f.ping }
func (f *fakeBackend) Heartbeat(_ context.Context, at time.Time) error {
	f.beats = append(f.beats, at)
	return f.beat
}

var _ health.Backend = (*fakeBackend)(nil)

var start = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func clock() func() time.Time { return func() time.Time { return start } }

func TestMonitor(t *testing.T) {
	ctx := context.Background()
	readOnly := errors.New("attempt to write a readonly database")
	for _, tt := range []struct {
		name       string
		ping, beat error
		wantErr    bool
	}{
		{"OK", nil, nil, false},
		{"ErrReadOnly", nil, readOnly, true},
		{"ErrDown", errors.New("database is closed"), nil, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var logs bytes.Buffer
			b := &fakeBackend{ping: tt.ping, beat: tt.beat}
			m := health.NewMonitor(ctx, b, clock(), slog.New(slog.NewTextHandler(&logs, nil)))
			if err := m.Check(ctx); (err != nil) != tt.wantErr {
				t.Fatalf("Check: got %v, want error %v", err, tt.wantErr)
			}
			if tt.beat != nil && !strings.Contains(logs.String(), "readonly") {
				t.Errorf("the heartbeat's cause is not logged: %q", logs.String())
			}
		})
	}

	t.Run("HeartbeatAtTheClocksTime", func(t *testing.T) {
		b := &fakeBackend{}
		health.NewMonitor(ctx, b, clock(), slog.New(slog.DiscardHandler))
		if len(b.beats) != 1 || !b.beats[0].Equal(start) {
			t.Errorf("beats %v, want one at %v", b.beats, start)
		}
	})

	t.Run("ChecksDoNotWrite", func(t *testing.T) {
		b := &fakeBackend{}
		m := health.NewMonitor(ctx, b, clock(), slog.New(slog.DiscardHandler))
		for range 100 {
			_ = m.Check(ctx)
		}
		if len(b.beats) != 1 {
			t.Errorf("100 checks made %d heartbeats, want only the first", len(b.beats))
		}
	})

	// The log says why once, when the state changes: not on each of a
	// load balancer's checks.
	t.Run("LogsOncePerChange", func(t *testing.T) {
		var logs bytes.Buffer
		b := &fakeBackend{beat: readOnly}
		m := health.NewMonitor(ctx, b, clock(), slog.New(slog.NewTextHandler(&logs, nil)))
		for range 50 {
			_ = m.Check(ctx)
		}
		m.Probe(ctx)
		if n := strings.Count(logs.String(), "readonly"); n != 1 {
			t.Errorf("the cause was logged %d times, want once:\n%s", n, logs.String())
		}
		b.beat = nil
		m.Probe(ctx)
		for range 50 {
			_ = m.Check(ctx)
		}
		if n := strings.Count(logs.String(), "can serve again"); n != 1 {
			t.Errorf("the recovery was logged %d times, want once:\n%s", n, logs.String())
		}
	})

	t.Run("Recovers", func(t *testing.T) {
		b := &fakeBackend{beat: readOnly}
		m := health.NewMonitor(ctx, b, clock(), slog.New(slog.DiscardHandler))
		if m.Check(ctx) == nil {
			t.Fatal("healthy while read-only")
		}
		b.beat = nil
		m.Probe(ctx)
		if err := m.Check(ctx); err != nil {
			t.Errorf("still unhealthy after a good heartbeat: %v", err)
		}
	})

	t.Run("Degraded", func(t *testing.T) {
		m := health.NewMonitor(ctx, &fakeBackend{}, clock(), slog.New(slog.DiscardHandler))
		loaded := false
		m.Require("no catalogue", func() bool { return loaded })
		err := m.Check(ctx)
		var d *health.Degraded
		if !errors.As(err, &d) || err.Error() != "degraded: no catalogue" {
			t.Fatalf("Check: got %v, want degraded: no catalogue", err)
		}
		loaded = true
		if err := m.Check(ctx); err != nil {
			t.Errorf("Check after the load: %v", err)
		}
	})
}
