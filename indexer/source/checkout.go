package source

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// checkout applies every commit's changes to the working tree in order,
// updating the index in memory, then writes the index once.
func checkout(r *git.Repository, root string, commits []Commit, changes [][]string) error {
	idx, err := r.Storer.Index()
	if err != nil {
		return fmt.Errorf("read index: %w", err)
	}
	w := &worktree{root: root, dirs: map[string]bool{".": true}, idx: idx}
	for i, c := range commits {
		if err := w.apply(changes[i], c.Files); err != nil {
			return fmt.Errorf("commit %d: %w", i+1, err)
		}
		if err := updateIndex(idx, root, changes[i], c.Files); err != nil {
			return fmt.Errorf("commit %d: %w", i+1, err)
		}
	}
	idx.Cache = nil // the cached trees no longer match the entries
	if err := r.Storer.SetIndex(idx); err != nil {
		return fmt.Errorf("write index: %w", err)
	}
	return nil
}

// worktree writes files under root as git checkout does: a file or
// symlink in the way of a path is replaced, and nothing is ever written
// or removed through a symlink. A directory in the way of a file is
// replaced only when git tracks everything in it (the commit's tree
// drops it, and history keeps it); one holding a user's untracked work
// is refused.
type worktree struct {
	root string
	// dirs caches the slash directories known to be real directories.
	dirs map[string]bool
	// idx is the index as the earlier commits left it: what is tracked.
	idx *index.Index
}

func (w *worktree) full(p string) string { return filepath.Join(w.root, filepath.FromSlash(p)) }

func (w *worktree) apply(paths []string, files map[string][]byte) error {
	for _, p := range paths {
		var err error
		if files[p] == nil {
			err = w.remove(p)
		} else {
			err = w.write(p, files[p])
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (w *worktree) write(p string, data []byte) error {
	if _, err := w.dir(path.Dir(p), true); err != nil {
		return err
	}
	full := w.full(p)
	if info, err := os.Lstat(full); err == nil && !info.Mode().IsRegular() {
		if info.IsDir() {
			if err := w.onlyTracked(p); err != nil {
				return err
			}
		}
		if err := os.RemoveAll(full); err != nil {
			return err
		}
		w.forget(p)
	}
	return os.WriteFile(full, data, 0o644)
}

// onlyTracked refuses the directory p when it holds anything git does not
// track: removing it to put a file there would lose that work.
func (w *worktree) onlyTracked(p string) error {
	tracked := map[string]bool{}
	if w.idx != nil {
		for _, e := range w.idx.Entries {
			if strings.HasPrefix(e.Name, p+"/") {
				tracked[e.Name] = true
			}
		}
	}
	return filepath.WalkDir(w.full(p), func(f string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(w.root, f)
		if err != nil {
			return err
		}
		if rel = filepath.ToSlash(rel); !tracked[rel] {
			return fmt.Errorf("%s is a directory holding %s, which git does not track, where a file must go: move it away and try again", p, rel)
		}
		return nil
	})
}

// forget drops the cached directories at and under p, removed with it.
func (w *worktree) forget(p string) {
	for d := range w.dirs {
		if d == p || strings.HasPrefix(d, p+"/") {
			delete(w.dirs, d)
		}
	}
}

// remove deletes p and then its parents while they are empty.
func (w *worktree) remove(p string) error {
	ok, err := w.dir(path.Dir(p), false)
	if err != nil || !ok {
		return err
	}
	if err := os.Remove(w.full(p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for d := path.Dir(p); d != "."; d = path.Dir(d) {
		if os.Remove(w.full(d)) != nil {
			break
		}
		delete(w.dirs, d)
	}
	return nil
}

// dir reports whether d is a real directory (not a symlink), top down;
// with create it makes it one, replacing whatever is in the way.
func (w *worktree) dir(d string, create bool) (bool, error) {
	if w.dirs[d] {
		return true, nil
	}
	if ok, err := w.dir(path.Dir(d), create); err != nil || !ok {
		return false, err
	}
	full := w.full(d)
	info, err := os.Lstat(full)
	switch {
	case err == nil && info.IsDir():
	case !create:
		return false, nil
	case err == nil:
		if err := os.Remove(full); err != nil {
			return false, err
		}
		fallthrough
	default:
		if err := os.Mkdir(full, 0o755); err != nil {
			return false, err
		}
	}
	w.dirs[d] = true
	return true, nil
}

// updateIndex records the changed files in idx with their new hashes, so
// that git status shows a clean tree for them. Entries of other paths are
// kept, except those a changed path replaces (a file where a directory
// was, or the other way round).
func updateIndex(idx *index.Index, root string, paths []string, files map[string][]byte) error {
	idx.Entries = slices.DeleteFunc(idx.Entries, replacedBy(paths, files))
	for _, p := range paths {
		if files[p] == nil {
			continue
		}
		info, err := os.Stat(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			return err
		}
		idx.Entries = append(idx.Entries, &index.Entry{
			Name:       p,
			Hash:       plumbing.ComputeHash(plumbing.BlobObject, files[p]),
			Mode:       filemode.Regular,
			Size:       uint32(len(files[p])),
			ModifiedAt: info.ModTime(),
		})
	}
	return nil
}

// replacedBy reports the index entries that the changed paths replace.
func replacedBy(paths []string, files map[string][]byte) func(*index.Entry) bool {
	changed := make(map[string]bool, len(paths))
	parents := map[string]bool{}
	for _, p := range paths {
		changed[p] = true
		if files[p] == nil {
			continue
		}
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			parents[d] = true
		}
	}
	return func(e *index.Entry) bool {
		if changed[e.Name] || parents[e.Name] {
			return true
		}
		for d := path.Dir(e.Name); d != "."; d = path.Dir(d) {
			if changed[d] && files[d] != nil {
				return true
			}
		}
		return false
	}
}
