package source

import (
	"fmt"
	"slices"
	"strings"

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

// Listed is a file of the working tree as ListFiles finds it.
type Listed struct {
	Path string // slash-separated, relative to the directory listed
	Size int64
	// ModTime is the modification time, Unix nanoseconds: with Size, what
	// tells a reader whether the file changed since it last read it.
	ModTime int64
}

// ListFiles lists the regular files of the working tree at dir as Open
// walks it (symbolic links, submodules, .git and engram's own output left
// out), whether git tracks them or not: what a write looks through for a
// note that the one it writes would clash with. Sorted by path.
func ListFiles(dir string) ([]Listed, error) {
	root, err := resolveDir(dir)
	if err != nil {
		return nil, err
	}
	// Open's own walk: one goroutine, which costs a write a third of the
	// CPU the fingerprint's walk (a goroutine a file) does.
	t, err := walkTree(root)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	out := make([]Listed, len(t.files))
	for i, f := range t.files {
		out[i] = Listed{Path: f.Path, Size: f.Size, ModTime: t.mtime[i]}
	}
	slices.SortFunc(out, func(a, b Listed) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

// IsTracked reports whether Open would list the file p of the memory
// repository at dir (slash path relative to dir): in a git repository a
// file in the index or in HEAD's tree, in a plain directory any file.
func IsTracked(dir, p string) (bool, error) {
	root, err := resolveDir(dir)
	if err != nil {
		return false, err
	}
	r, prefix, err := openGit(root)
	if err != nil || r == nil {
		return err == nil, err
	}
	idx, err := r.Storer.Index()
	if err != nil {
		return false, fmt.Errorf("read the git index: %w", err)
	}
	full := joinPrefix(prefix, p)
	if _, err := idx.Entry(full); err == nil {
		return true, nil
	}
	return inHeadTree(r)(full), nil
}
