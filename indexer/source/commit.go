package source

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Why CommitEdits refuses; callers branch on them to explain.
var (
	// ErrNotGit: the memory repository is in no git repository, or the
	// repository has no commit yet.
	ErrNotGit = errors.New("not a git repository with commits")
	// ErrUncommitted: a file to edit differs from HEAD in the working
	// tree or the index, or HEAD does not have it.
	ErrUncommitted = errors.New("uncommitted changes")
)

// CommitEdits commits new contents of files of the memory repository at
// dir (the root of a git repository, or a directory inside one: paths are
// relative to dir) on top of HEAD, and updates those files in the working
// tree and the index; nothing else changes. A nil content deletes the
// file. It returns the new commit's hash.
//
// The edits were made from the files as committed, so it refuses,
// changing nothing, when any of them has uncommitted changes (in the
// working tree or the index) or is not in HEAD: a user's own work is
// never swept into the commit, nor overwritten.
func CommitEdits(dir string, c Commit) (string, error) {
	h, err := commitEdits(dir, c)
	if err != nil {
		return "", fmt.Errorf("commit to %s: %w", dir, err)
	}
	return h.String(), nil
}

func commitEdits(dir string, c Commit) (plumbing.Hash, error) {
	if c.When.IsZero() {
		return plumbing.ZeroHash, fmt.Errorf("no commit time")
	}
	root, err := resolveDir(dir)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	r, prefix, err := openGit(root)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if r == nil {
		return plumbing.ZeroHash, ErrNotGit
	}
	_, tree, err := headTree(r)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if tree.IsZero() {
		return plumbing.ZeroHash, ErrNotGit
	}
	wt, err := r.Worktree()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	full := Commit{Files: map[string][]byte{}, Message: c.Message, Author: c.Author, When: c.When}
	for p, data := range c.Files {
		if err := checkPath(p); err != nil {
			return plumbing.ZeroHash, err
		}
		full.Files[joinPrefix(prefix, p)] = data
	}
	paths, err := commitPaths(full)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if err := checkCommitted(r, tree, wt.Filesystem.Root(), paths); err != nil {
		return plumbing.ZeroHash, err
	}
	head, err := storeCommits(r, []Commit{full}, [][]string{paths}, overlayFlushBytes)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if err := updateHead(r, head); err != nil {
		return plumbing.ZeroHash, err
	}
	return head, checkout(r, wt.Filesystem.Root(), []Commit{full}, [][]string{paths})
}

// checkCommitted refuses paths (relative to the worktree root) whose
// working tree file or index entry differs from HEAD's tree, or that HEAD
// does not have.
func checkCommitted(r *git.Repository, treeHash plumbing.Hash, root string, paths []string) error {
	tree, err := object.GetTree(r.Storer, treeHash)
	if err != nil {
		return fmt.Errorf("read HEAD: %w", err)
	}
	idx, err := r.Storer.Index()
	if err != nil {
		return fmt.Errorf("read index: %w", err)
	}
	var dirty []string
	for _, p := range paths {
		e, err := tree.FindEntry(p)
		if err != nil || !e.Mode.IsFile() {
			dirty = append(dirty, p+" (not committed)")
			continue
		}
		if ie, err := idx.Entry(p); err != nil || ie.Hash != e.Hash {
			dirty = append(dirty, p+" (staged changes)")
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil || plumbing.ComputeHash(plumbing.BlobObject, data) != e.Hash {
			dirty = append(dirty, p+" (changed in the working tree)")
		}
	}
	if len(dirty) > 0 {
		return fmt.Errorf("%w: %s; commit or stash them first", ErrUncommitted, strings.Join(dirty, ", "))
	}
	return nil
}
