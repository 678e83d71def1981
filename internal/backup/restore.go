package backup

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// RestoreOptions say how Restore treats its target.
type RestoreOptions struct {
	// Force replaces a target that already holds a database.
	Force bool
}

// Restore puts the backup from in place of the SQLite database at to,
// after checking it (Inspect: a damaged file, or one that is not a
// Nocturne database, is refused). The target's directory may be new. It
// refuses a target a shop is serving from (its lock is held) and, without
// opts.Force, one that already holds a database. The copy is written
// beside the target and renamed over it, after the target's WAL and
// shared-memory files are removed: a WAL left from the old database would
// otherwise be replayed into the restored one.
func Restore(ctx context.Context, from, to string, opts RestoreOptions) (Report, error) {
	rep, err := Inspect(ctx, from)
	if err != nil {
		return Report{}, fmt.Errorf("restore refused: %w", err)
	}
	dir := filepath.Dir(to)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Report{}, fmt.Errorf("restore: create %s: %w", dir, err)
	}
	release, err := Lock(to)
	if errors.Is(err, ErrHeld) {
		return Report{}, fmt.Errorf("restore refused: a running shop (or another restore) holds %s; stop it first", LockPath(to))
	} else if err != nil {
		return Report{}, fmt.Errorf("restore: %w", err)
	}
	defer release()
	if !opts.Force {
		if full, err := holdsData(to); err != nil {
			return Report{}, fmt.Errorf("restore: %w", err)
		} else if full {
			return Report{}, fmt.Errorf("restore refused: %s already holds a database; add --force to replace it", to)
		}
	}
	tmp := tempName(to)
	defer os.Remove(tmp) // left only when the restore failed
	if err := copyFile(from, tmp); err != nil {
		return Report{}, fmt.Errorf("restore: %w", err)
	}
	if rep, err = Inspect(ctx, tmp); err != nil {
		return Report{}, fmt.Errorf("restore: the copy failed its check: %w", err)
	}
	for _, side := range []string{to + "-wal", to + "-shm", to + "-journal"} {
		if err := os.Remove(side); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return Report{}, fmt.Errorf("restore: %w", err)
		}
	}
	if err := os.Rename(tmp, to); err != nil {
		return Report{}, fmt.Errorf("restore: %w", err)
	}
	if err := syncDir(dir); err != nil {
		return Report{}, fmt.Errorf("restore: %w", err)
	}
	rep.Path = to
	return rep, nil
}

// holdsData reports whether a database is at path: a file with any bytes,
// or a WAL with any (a shop stopped before its last checkpoint).
func holdsData(path string) (bool, error) {
	for _, p := range []string{path, path + "-wal"} {
		fi, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return false, err
		}
		if fi.Size() > 0 {
			return true, nil
		}
	}
	return false, nil
}

// copyFile copies from into a new file to (mode 600) and syncs it.
func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copy %s: %w", from, err)
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return fmt.Errorf("sync %s: %w", to, err)
	}
	return out.Close()
}
