package backup_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/backup"
)

// The schedule takes a backup when none is there or the newest is an
// interval old, names it by the time so names sort by time, keeps the
// newest Keep and leaves other files alone.
func TestSchedule_RunIfDue(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	db := MustOpenDB(t, filepath.Join(dir, "shop.db"))
	backups := filepath.Join(dir, "backups")
	must(t, os.MkdirAll(backups, 0o700))
	mine := filepath.Join(backups, "README")
	must(t, os.WriteFile(mine, []byte("kept"), 0o600))
	stale := filepath.Join(backups, "nocturne-20261127T000000Z.db.tmp-dead")
	must(t, os.WriteFile(stale, []byte("half"), 0o600))

	now := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	s := &backup.Schedule{DB: db.SQL(), Dir: backups, Interval: 24 * time.Hour, Keep: 2, Now: func() time.Time { return now }, Log: quiet}
	step := func(after time.Duration, wantTaken bool) {
		t.Helper()
		now = now.Add(after)
		rep, err := s.RunIfDue(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if (rep != nil) != wantTaken {
			t.Errorf("at %s: taken %v, want %v", now.Format(time.RFC3339), rep != nil, wantTaken)
		}
	}
	step(0, true)                           // none yet
	step(time.Hour, false)                  // one hour old
	step(22*time.Hour, true)                // 23h: within a sixteenth of the interval
	step(24*time.Hour, true)                // the third: the first is deleted
	step(24*time.Hour+30*time.Minute, true) // the fourth

	names, err := s.List()
	must(t, err)
	want := []string{"nocturne-20261130T080000Z.db", "nocturne-20261201T083000Z.db"}
	if !slices.Equal(names, want) {
		t.Errorf("backups kept: got %v, want %v", names, want)
	}
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("a file not a backup was touched: %v", err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("a half-written backup was left: %v", err)
	}
}

// Run looks at once and after every tick, on the clock the test moves.
func TestSchedule_RunOnTicks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := MustOpenDB(t, filepath.Join(dir, "shop.db"))
	tick := make(chan time.Time)
	var mu sync.Mutex
	now := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	s := &backup.Schedule{DB: db.SQL(), Dir: filepath.Join(dir, "b"), Interval: time.Hour, Keep: 7, Tick: tick, Log: quiet,
		Now: func() time.Time { mu.Lock(); defer mu.Unlock(); return now }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx); close(done) }()
	// A tick is received only once the look before it has ended.
	tick <- time.Time{} // the look at start took one; the next finds it fresh
	mu.Lock()
	now = now.Add(time.Hour)
	mu.Unlock()
	tick <- time.Time{} // an hour later: due
	tick <- time.Time{}
	cancel()
	<-done
	names, err := s.List()
	must(t, err)
	want := []string{"nocturne-20261128T090000Z.db", "nocturne-20261128T100000Z.db"}
	if !slices.Equal(names, want) {
		t.Errorf("backups: got %v, want %v", names, want)
	}
}
