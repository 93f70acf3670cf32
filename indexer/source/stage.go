package source

import (
	"fmt"

	"github.com/go-git/go-git/v5"
)

// Stage adds paths (slash-separated, relative to the repository's root) to
// the git index of the repository at dir, as `git add` does, without
// committing: Open reads a staged note, never an untracked one.
func Stage(dir string, paths ...string) error {
	r, err := git.PlainOpen(dir)
	if err != nil {
		return fmt.Errorf("stage in %s: %w", dir, err)
	}
	wt, err := r.Worktree()
	if err != nil {
		return fmt.Errorf("stage in %s: %w", dir, err)
	}
	for _, p := range paths {
		if _, err := wt.Add(p); err != nil {
			return fmt.Errorf("stage %s: %w", p, err)
		}
	}
	return nil
}
