//go:build unix

package store

import (
	"context"
	"errors"
	"os"
	"syscall"
	"time"
)

// LockFile takes an exclusive lock on path, creating it, and polls until
// it is free or ctx ends; waiting is called once if it has to wait. The
// lock dies with the process, so a killed build never blocks the next.
// The file is removed on unlock; a build that locked a file removed
// meanwhile tries again on the new one.
func LockFile(ctx context.Context, path string, waiting func()) (*os.File, error) {
	told := false
	for {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			return nil, err
		}
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			if same(f, path) {
				return f, nil
			}
			f.Close()
			continue
		}
		f.Close()
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, err
		}
		if !told {
			waiting()
			told = true
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(pollLock):
		}
	}
}

// same reports whether the open file is still the one at path.
func same(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(path)
	return err == nil && os.SameFile(a, b)
}

// UnlockFile removes the lock file and releases the lock.
func UnlockFile(f *os.File) {
	_ = os.Remove(f.Name())
	_ = f.Close()
}
