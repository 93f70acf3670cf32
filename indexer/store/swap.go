package store

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/secrets"
)

// swap moves tmp to out, keeping the previous output at old until the new
// one is in place.
func swap(out, tmp, old string) error {
	if _, err := os.Stat(out); err == nil {
		if err := os.RemoveAll(old); err != nil {
			return fmt.Errorf("publish %s: %w", out, err)
		}
		if err := os.Rename(out, old); err != nil {
			return fmt.Errorf("publish %s: %w", out, err)
		}
	}
	if err := os.Rename(tmp, out); err != nil {
		_ = os.Rename(old, out)
		return fmt.Errorf("publish %s: %w", out, err)
	}
	return os.RemoveAll(old)
}

// recoverOld puts back the previous output if a build was killed between
// the two renames of swap.
func recoverOld(out, old string) {
	if _, err := os.Stat(out); errors.Is(err, os.ErrNotExist) {
		if _, err := os.Stat(old); err == nil {
			_ = os.Rename(old, out)
		}
	}
}

// removeStale deletes what killed builds left behind; the caller holds the
// output's lock, so no running build owns them.
func removeStale(parent, prefix string) {
	stale, _ := filepath.Glob(filepath.Join(parent, prefix+"*"))
	for _, dir := range stale {
		_ = os.RemoveAll(dir)
	}
}

// WriteOutput writes files under dir, until ctx ends, from several
// goroutines at once (creating a file costs more than its bytes). It lets
// go of each file's bytes once written (its Data is nil after): a build
// does not hold the API's bytes while Hugo renders. It returns the
// SHA-256 of each file's bytes by its path, hashed as it was written, so
// that the scan of the output need not read an unchanged file back.
func WriteOutput(ctx context.Context, dir string, files []export.File) (map[string]secrets.Sum, error) {
	sums := make([]secrets.Sum, len(files))
	var (
		mu   sync.Mutex
		made = map[string]bool{}
	)
	mkdir := func(d string) error {
		mu.Lock()
		defer mu.Unlock()
		if made[d] {
			return nil
		}
		made[d] = true
		return os.MkdirAll(d, 0o755)
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(4, 2*runtime.GOMAXPROCS(0)))
	for i := range files {
		if gctx.Err() != nil {
			break // a write failed, or the build was interrupted
		}
		f := files[i]
		files[i].Data = nil
		g.Go(func() error {
			p := filepath.Join(dir, filepath.FromSlash(f.Path))
			if err := mkdir(filepath.Dir(p)); err != nil {
				return fmt.Errorf("write %s: %w", f.Path, err)
			}
			sums[i] = sha256.Sum256(f.Data)
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				return fmt.Errorf("write %s: %w", f.Path, err)
			}
			return nil
		})
	}
	if err := cmp.Or(g.Wait(), ctx.Err()); err != nil {
		return nil, err
	}
	byPath := make(map[string]secrets.Sum, len(files))
	for i, f := range files {
		byPath[f.Path] = sums[i]
	}
	return byPath, nil
}

// PreviousNoteCount reads how many notes the current output publishes.
func PreviousNoteCount(out string) (int, bool) {
	data, err := os.ReadFile(filepath.Join(out, "api", "v1", "index.json"))
	if err != nil {
		return 0, false
	}
	var m export.Manifest
	if json.Unmarshal(data, &m) != nil {
		return 0, false
	}
	return m.Counts["episodes"] + m.Counts["patterns"] + m.Counts["notes"], true
}
