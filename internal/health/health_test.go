package health_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/nocturne/storefront/internal/health"
)

type fakeBackend struct {
	ping, write error
	writes      int
}

func (f *fakeBackend) Ping(context.Context) error { return f.ping }
func (f *fakeBackend) ProbeWrite(context.Context) error {
	f.writes++
	return f.write
}

var _ health.Backend = (*fakeBackend)(nil)

func TestMonitor(t *testing.T) {
	ctx := context.Background()
	readOnly := errors.New("attempt to write a readonly database")
	for _, tt := range []struct {
		name        string
		ping, write error
		wantErr     bool
	}{
		{"OK", nil, nil, false},
		{"ErrReadOnly", nil, readOnly, true},
		{"ErrDown", errors.New("database is closed"), nil, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var logs bytes.Buffer
			b := &fakeBackend{ping: tt.ping, write: tt.write}
			m := health.NewMonitor(ctx, b, slog.New(slog.NewTextHandler(&logs, nil)))
			if err := m.Check(ctx); (err != nil) != tt.wantErr {
				t.Fatalf("Check: got %v, want error %v", err, tt.wantErr)
			}
			if tt.write != nil && !strings.Contains(logs.String(), "readonly") {
				t.Errorf("the probe's cause is not logged: %q", logs.String())
			}
		})
	}

	t.Run("ChecksDoNotWrite", func(t *testing.T) {
		b := &fakeBackend{}
		m := health.NewMonitor(ctx, b, slog.New(slog.DiscardHandler))
		for range 100 {
			_ = m.Check(ctx)
		}
		if b.writes != 1 {
			t.Errorf("100 checks made %d write probes, want only the first probe", b.writes)
		}
	})

	t.Run("Recovers", func(t *testing.T) {
		b := &fakeBackend{write: readOnly}
		m := health.NewMonitor(ctx, b, slog.New(slog.DiscardHandler))
		if m.Check(ctx) == nil {
			t.Fatal("healthy while read-only")
		}
		b.write = nil
		m.Probe(ctx)
		if err := m.Check(ctx); err != nil {
			t.Errorf("still unhealthy after a good probe: %v", err)
		}
	})
}
