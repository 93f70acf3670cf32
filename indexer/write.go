package indexer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/engramhq/engram/indexer/export"
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

// writeFiles writes files under dir, until ctx ends. It lets go of each
// file's bytes once written (its Data is nil after): a build does not
// hold the API's bytes while Hugo renders.
func writeFiles(ctx context.Context, dir string, files []export.File) error {
	made := map[string]bool{}
	for i, f := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		files[i].Data = nil
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if d := filepath.Dir(p); !made[d] {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return fmt.Errorf("write %s: %w", f.Path, err)
			}
			made[d] = true
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return fmt.Errorf("write %s: %w", f.Path, err)
		}
	}
	return nil
}

// previousNoteCount reads how many notes the current output publishes.
func previousNoteCount(out string) (int, bool) {
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
