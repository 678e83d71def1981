// Package health owns the shop's readiness check, which /healthz reports:
// the database answers a read now, from the file it opened (SQLite), and
// took the monitor's last heartbeat; and what else the shop needs to serve
// (a catalogue) is there.
//
// The heartbeat is a real committed write of one row, made by the monitor
// every probe interval and never by a request (reads never write), so a
// full disk or a read-only database fails /healthz within one interval.
// /healthz itself only reads: a live ping plus the monitor's last result.
// The log says why once, when the state changes, not on every request.
package health

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// Backend is what the monitor checks.
type Backend interface {
	// Ping checks that the backend answers a read.
	Ping(ctx context.Context) error
	// Heartbeat commits a write of at, so a full disk or a read-only
	// database fails it.
	Heartbeat(ctx context.Context, at time.Time) error
}

// Degraded is the failure of a condition the shop needs besides its
// database: its text ("degraded: no catalogue") is what /healthz answers.
type Degraded struct{ What string }

func (d *Degraded) Error() string { return "degraded: " + d.What }

// Monitor keeps the outcome of the last heartbeat; Check adds a live read
// and the shop's other conditions.
type Monitor struct {
	backend Backend
	now     func() time.Time
	log     *slog.Logger
	// lastBeat holds the last heartbeat's error, or nil when it succeeded.
	lastBeat atomic.Pointer[error]
	needs    []need

	mu       sync.Mutex
	reported string // the state last logged ("" healthy)
}

// need is a condition the shop needs to serve.
type need struct {
	what string
	ok   func() bool
}

// NewMonitor returns a monitor of backend that has beaten once; now is the
// clock the heartbeat records.
func NewMonitor(ctx context.Context, backend Backend, now func() time.Time, log *slog.Logger) *Monitor {
	m := &Monitor{backend: backend, now: now, log: log}
	m.Probe(ctx)
	return m
}

// Require adds a condition the shop needs to serve: while ok reports false,
// Check fails with Degraded{what}. Call it before the monitor is shared.
func (m *Monitor) Require(what string, ok func() bool) {
	m.needs = append(m.needs, need{what, ok})
}

// Probe commits one heartbeat and records its outcome, logging a change of
// the shop's state.
func (m *Monitor) Probe(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	err := m.backend.Heartbeat(ctx, m.now())
	m.lastBeat.Store(&err)
	_ = m.Check(ctx)
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

// Check reports whether the shop can serve: the database answers a read
// now and took the last heartbeat, and every required condition holds (a
// *Degraded error names the first that does not). It writes nothing.
func (m *Monitor) Check(ctx context.Context) error {
	err := m.backend.Ping(ctx)
	if err == nil {
		if p := m.lastBeat.Load(); p != nil && *p != nil {
			err = *p
		}
	}
	if err == nil {
		for _, n := range m.needs {
			if !n.ok() {
				err = &Degraded{What: n.what}
				break
			}
		}
	}
	m.report(err)
	return err
}

// report logs the state when it changes: why the shop cannot serve, once,
// and when it can again.
func (m *Monitor) report(err error) {
	state := ""
	var d *Degraded
	switch {
	case errors.As(err, &d):
		state = d.Error()
	case err != nil:
		state = "database"
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if state == m.reported {
		return
	}
	m.reported = state
	switch {
	case d != nil:
		m.log.Warn("health: the shop is degraded", "why", state)
	case err != nil:
		m.log.Error("health: the database cannot serve (it does not answer, is not the file opened, or refused the heartbeat)", "err", err)
	default:
		m.log.Info("health: the shop can serve again")
	}
}
