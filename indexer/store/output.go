package store

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/routes"
)

// ErrOutput means --out names something a build must not replace: the
// repository, a folder holding files engram did not make, or a file
// (SPEC §6). Nothing was touched.
var errOutput = errors.New("refusing to write the output")

// manifestPath is engram's manifest inside an output: a directory that
// holds it was made by a build, and a build may replace it.
const manifestPath = routes.Manifest

// Output is the directory one build publishes into, claimed by a lock so
// that a second build into it waits instead of deleting this one's work.
type Output struct {
	abs  string
	lock *os.File
}

// ClaimOutput checks that out is a directory a build may replace (missing,
// empty, or a previous engram output, and not the repository or a folder
// around it) before anything is touched, then takes the output's lock,
// waiting for another build that holds it.
func ClaimOutput(ctx context.Context, out, repo string, log io.Writer) (*Output, error) {
	abs, err := filepath.Abs(out)
	if err != nil {
		return nil, fmt.Errorf("%w %s: %v", errOutput, out, err)
	}
	if err := checkOutput(abs, repo); err != nil {
		return nil, err
	}
	parent := filepath.Dir(abs)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("output %s: %w", out, err)
	}
	lock, err := LockFile(ctx, filepath.Join(parent, "."+filepath.Base(abs)+".engram-lock"), func() {
		if log != nil {
			fmt.Fprintf(log, "engram: another build is writing %s; waiting for it to finish\n", out)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("output %s: %w", out, err)
	}
	// Checked again under the lock: the build that held it may have
	// changed what is there.
	if err := checkOutput(abs, repo); err != nil {
		UnlockFile(lock)
		return nil, err
	}
	return &Output{abs: abs, lock: lock}, nil
}

// Release lets the next build into the output.
func (o *Output) Release() { UnlockFile(o.lock) }

// checkOutput refuses an output that is not missing, empty or a previous
// engram output, and one that is, or holds, the repository.
func checkOutput(abs, repo string) error {
	refuse := func(why string) error {
		return fmt.Errorf("%w into %s: %s; a build replaces its output as a whole, so --out must be a missing or empty directory, or one an earlier engram build made (it holds %s)", errOutput, abs, why, manifestPath)
	}
	if r, err := filepath.Abs(repo); err == nil && within(r, abs) {
		return refuse("it is the repository, or holds it")
	}
	fi, err := os.Lstat(abs)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("%w into %s: %v", errOutput, abs, err)
	case fi.Mode()&os.ModeSymlink != 0:
		return refuse("it is a symbolic link")
	case !fi.IsDir():
		return refuse("it is a file")
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return fmt.Errorf("%w into %s: %v", errOutput, abs, err)
	}
	if len(entries) == 0 {
		return nil
	}
	if _, err := os.Stat(filepath.Join(abs, ".git")); err == nil {
		return refuse("it is a git repository")
	}
	if !isEngramOutput(abs) {
		return refuse(fmt.Sprintf("it holds %d entries (%s, …) and no engram manifest", len(entries), entries[0].Name()))
	}
	return nil
}

// within reports whether path is dir or inside it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// isEngramOutput reports whether dir holds a manifest an engram build wrote.
func isEngramOutput(dir string) bool {
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(manifestPath)))
	if err != nil {
		return false
	}
	var m export.Manifest
	return json.Unmarshal(data, &m) == nil && strings.HasPrefix(m.Generator, "engram ")
}

// Publish builds the output aside, in a fresh directory next to it, and
// swaps it in only when fill succeeded and the build was not interrupted:
// a failed, interrupted or killed build leaves the previous output intact
// and no staging folder (SPEC §4, §6).
func (o *Output) Publish(ctx context.Context, fill func(dir string) error) error {
	if err := Interrupted(ctx); err != nil {
		return err
	}
	parent := filepath.Dir(o.abs)
	old := filepath.Join(parent, "."+filepath.Base(o.abs)+".engram-old")
	// Under the lock, whatever staging is there is a killed build's.
	recoverOld(o.abs, old)
	removeStale(parent, "."+filepath.Base(o.abs)+".engram-build-")
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(o.abs)+".engram-build-")
	if err != nil {
		return fmt.Errorf("publish %s: %w", o.abs, err)
	}
	defer os.RemoveAll(tmp)
	if err := os.Chmod(tmp, 0o755); err != nil {
		return fmt.Errorf("publish %s: %w", o.abs, err)
	}
	if err := fill(tmp); err != nil {
		// A stage that stopped for ctx says so its own way: the
		// interruption is what the user should read.
		return cmp.Or(Interrupted(ctx), err)
	}
	if err := Interrupted(ctx); err != nil {
		return err
	}
	return swap(o.abs, tmp, old)
}

// Interrupted is the error of a build that ctx stopped before its output
// was swapped in, or nil while ctx goes on. Build checks it between its
// stages, and the long loops (the pages, Hugo, the files written) check
// ctx themselves, so that Ctrl-C stops a build within a stage's step.
func Interrupted(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("build interrupted; the previous output is intact: %w", err)
	}
	return nil
}

// pollLock is how often a waiting build tries the lock again.
const pollLock = 100 * time.Millisecond
