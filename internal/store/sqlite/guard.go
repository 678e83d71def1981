package sqlite

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"

	"modernc.org/sqlite"

	"github.com/nocturne/storefront/internal/shop"
)

// fileRecheck is how long a look at the database path is trusted by the
// commit hook: a stat a second keeps the guard off the write path's cost,
// and the health monitor's probe looks at once whenever it runs.
const fileRecheck = time.Second

// fileGuard knows whether the database path still names the file the shop
// opened. A file deleted or replaced under a running shop would take every
// write into an unlinked inode, acknowledged to the shopper and lost at the
// next start; once the guard has seen that, it refuses every commit until
// the process restarts and opens the path again.
type fileGuard struct {
	path string
	file os.FileInfo
	now  func() time.Time

	mu      sync.Mutex
	checked time.Time
	gone    error // set once the path names another file or none; never cleared
}

// check compares the path's device and inode with the opened file's
// (os.SameFile), trusting the last look for fileRecheck unless force.
func (g *fileGuard) check(force bool) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.gone != nil || g.file == nil {
		return g.gone // nothing to compare with before the file is opened
	}
	now := g.now()
	if since := now.Sub(g.checked); !force && since >= 0 && since < fileRecheck {
		return nil
	}
	g.checked = now
	fi, err := os.Stat(g.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		g.gone = fmt.Errorf("database file %s was deleted since the shop opened it: %w", g.path, shop.ErrUnavailable)
	case err != nil:
		// Perhaps passing (a permission or I/O error): refused now, looked
		// at again next time.
		g.checked = time.Time{}
		return fmt.Errorf("database file %s: %w: %w", g.path, shop.ErrUnavailable, err)
	case !os.SameFile(fi, g.file):
		g.gone = fmt.Errorf("database file %s was replaced since the shop opened it: %w", g.path, shop.ErrUnavailable)
	}
	return g.gone
}

// arm records the file the path names once the database is open; until
// then (migrations creating it) every commit passes.
func (g *fileGuard) arm() error {
	fi, err := os.Stat(g.path)
	if err != nil {
		return fmt.Errorf("open sqlite %s: %w", g.path, err)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.file, g.checked = fi, g.now()
	return nil
}

// commitHook is SQLite's commit hook: a non-zero answer turns the commit
// into a rollback, and the statement fails with
// SQLITE_CONSTRAINT_COMMITHOOK, which Unavailable reads as "cannot serve".
// Every write commits, whether in a transaction or on its own, so no write
// path can pass it.
func (g *fileGuard) commitHook() int32 {
	if g.check(false) != nil {
		return 1
	}
	return 0
}

// commitHooker is what modernc's connections offer to register a commit
// hook on themselves.
type commitHooker interface {
	RegisterCommitHook(sqlite.CommitHookFn)
}

// guardedConnector opens the driver's connections with the guard's commit
// hook on each.
type guardedConnector struct {
	driver.Connector
	guard *fileGuard
}

func (c guardedConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	h, ok := conn.(commitHooker)
	if !ok {
		conn.Close()
		return nil, fmt.Errorf("sqlite connection %T cannot take a commit hook", conn)
	}
	h.RegisterCommitHook(c.guard.commitHook)
	return conn, nil
}
