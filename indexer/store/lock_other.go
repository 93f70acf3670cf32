//go:build !unix

package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"
)

// LockFile creates path exclusively, polling until it can or ctx ends;
// waiting is called once if it has to wait. Without flock a killed build
// leaves the file behind: the error after a minute says so.
func LockFile(ctx context.Context, path string, waiting func()) (*os.File, error) {
	deadline := time.Now().Add(time.Minute)
	told := false
	for {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_RDWR, 0o644)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, err
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s is held by another build; if none is running, a killed build left it: remove it", path)
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

// UnlockFile releases the lock.
func UnlockFile(f *os.File) {
	_ = f.Close()
	_ = os.Remove(f.Name())
}
