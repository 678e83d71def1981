package backup

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Name layout of scheduled backups: the time they were taken, in UTC, so
// sorting the names sorts them by time.
const (
	namePrefix = "nocturne-"
	nameSuffix = ".db"
	nameTime   = "20060102T150405Z"
)

// Name is the file name of a scheduled backup taken at t.
func Name(t time.Time) string {
	return namePrefix + t.UTC().Format(nameTime) + nameSuffix
}

// takenAt parses a scheduled backup's name; false for any other file.
func takenAt(name string) (time.Time, bool) {
	stamp, ok := strings.CutPrefix(name, namePrefix)
	if !ok {
		return time.Time{}, false
	}
	stamp, ok = strings.CutSuffix(stamp, nameSuffix)
	if !ok {
		return time.Time{}, false
	}
	t, err := time.Parse(nameTime, stamp)
	return t, err == nil
}

// Schedule takes a backup of the running shop's database into Dir every
// Interval and keeps the newest Keep of them.
type Schedule struct {
	DB       *sql.DB
	Dir      string
	Interval time.Duration
	Keep     int
	// Now is the clock that names backups and says when one is due.
	Now func() time.Time
	// Tick triggers a look; nil: every eighth of Interval.
	Tick <-chan time.Time
	Log  *slog.Logger
}

// Run looks at once, then at every tick until ctx ends, whether a backup
// is due (RunIfDue). The newest backup's name, not this process's memory,
// says when the last was taken, so a shop restarted more often than
// Interval still takes one per Interval.
func (s *Schedule) Run(ctx context.Context) {
	tick := s.Tick
	if tick == nil {
		t := time.NewTicker(s.Interval / 8)
		defer t.Stop()
		tick = t.C
	}
	for {
		if _, err := s.RunIfDue(ctx); err != nil && ctx.Err() == nil {
			s.Log.Error("scheduled backup failed", "dir", s.Dir, "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick:
		}
	}
}

// RunIfDue takes a backup when the newest in Dir is about Interval old (a
// sixteenth early counts, so a look just before the mark does not wait a
// whole extra round) or there is none, then deletes all but the newest
// Keep. It reports the backup taken (nil when none was due).
func (s *Schedule) RunIfDue(ctx context.Context) (*Report, error) {
	now := s.Now()
	names, err := s.List()
	if err != nil {
		return nil, err
	}
	if len(names) > 0 {
		last, _ := takenAt(names[len(names)-1])
		if now.Sub(last) < s.Interval-s.Interval/16 {
			return nil, nil
		}
	}
	rep, err := Take(ctx, s.DB, filepath.Join(s.Dir, Name(now)))
	if err != nil {
		return nil, err
	}
	s.Log.Info("backup taken", "path", rep.Path, "bytes", rep.Size, "orders", rep.Rows("orders"))
	if err := s.prune(); err != nil {
		return &rep, err
	}
	return &rep, nil
}

// List returns the names of the scheduled backups in Dir, oldest first.
func (s *Schedule) List() ([]string, error) {
	entries, err := os.ReadDir(s.Dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list backups: %w", err)
	}
	var names []string
	for _, e := range entries {
		if _, ok := takenAt(e.Name()); ok && e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names, nil
}

// prune deletes all but the newest Keep backups, and what a backup that
// died half-way left under its temporary name (the schedule is the only
// writer of Dir's backups, and it has finished its own). Files of any
// other name are left alone.
func (s *Schedule) prune() error {
	names, err := s.List()
	if err != nil {
		return err
	}
	var old []string
	if len(names) > s.Keep {
		old = names[:len(names)-s.Keep]
	}
	entries, err := os.ReadDir(s.Dir)
	if err != nil {
		return fmt.Errorf("list backups: %w", err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), namePrefix) && strings.Contains(e.Name(), nameSuffix+".tmp-") {
			old = append(old, e.Name())
		}
	}
	for _, name := range old {
		if err := os.Remove(filepath.Join(s.Dir, name)); err != nil {
			return fmt.Errorf("delete an old backup: %w", err)
		}
		s.Log.Info("old backup deleted", "path", filepath.Join(s.Dir, name))
	}
	return nil
}
