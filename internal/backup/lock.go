package backup

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// ErrHeld says another process holds a database's lock: a shop serving
// from it, or a restore into it.
var ErrHeld = errors.New("held by another process")

// LockPath is the lock file of the SQLite database at dbPath, beside it
// (in DATA_DIR for the default database).
func LockPath(dbPath string) string { return dbPath + ".lock" }

// Lock takes the exclusive lock of the SQLite database at dbPath, or fails
// with ErrHeld at once when another process has it. A shop holds it for as
// long as it serves from the file, and a restore while it replaces the
// file, so neither runs under the other. It is a flock(2) on LockPath: the
// kernel drops it when its holder exits, even by kill -9, so a crash never
// leaves a stale lock behind, and the file itself is never deleted (a
// process could otherwise lock a name another has just recreated).
func Lock(dbPath string) (release func(), err error) {
	path := LockPath(dbPath)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("lock %s: %w", path, ErrHeld)
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() { f.Close() }, nil // closing the file releases the lock
}
