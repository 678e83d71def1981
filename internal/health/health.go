// Package health owns the shop's readiness check: whether its database
// answers reads and accepts writes. A write is proved by a periodic probe
// (a write inside a transaction that is rolled back), never by a write per
// request, so /healthz itself changes nothing.
package health

import (
	"context"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"
)

// Backend is what the monitor checks.
type Backend interface {
	// Ping checks that the backend answers a read.
	Ping(ctx context.Context) error
	// ProbeWrite checks that the backend accepts a write, leaving no row
	// changed.
	ProbeWrite(ctx context.Context) error
}

// Monitor keeps the outcome of the last write probe; Check adds a live read.
type Monitor struct {
	backend Backend
	log     *slog.Logger
	// lastWrite holds the last probe's error, or nil when it succeeded.
	lastWrite atomic.Pointer[error]
}

// NewMonitor returns a monitor of backend that has probed once.
func NewMonitor(ctx context.Context, backend Backend, log *slog.Logger) *Monitor {
	m := &Monitor{backend: backend, log: log}
	m.Probe(ctx)
	return m
}

// Probe runs one write probe and records its outcome, logging a change.
func (m *Monitor) Probe(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	err := m.backend.ProbeWrite(ctx)
	prev := m.lastWrite.Swap(&err)
	switch {
	case err != nil && (prev == nil || *prev == nil):
		m.log.Error("database does not accept writes", "err", err)
	case err == nil && prev != nil && *prev != nil:
		m.log.Info("database accepts writes again")
	}
}

// Run probes every interval until ctx ends.
func (m *Monitor) Run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			m.Probe(ctx)
		}
	}
}

// Check reports whether the shop can serve: the database answers a read now
// and accepted a write at the last probe.
func (m *Monitor) Check(ctx context.Context) error {
	if err := m.backend.Ping(ctx); err != nil {
		return err
	}
	if p := m.lastWrite.Load(); p != nil && *p != nil {
		return fmt.Errorf("last write probe: %w", *p)
	}
	return nil
}
