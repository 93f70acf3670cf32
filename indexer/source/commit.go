package source

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"
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

// GitDir returns the git directory of the repository holding the memory
// repository at dir (its .git, or a linked worktree's own directory), or
// "" when dir is in no git repository. Writers lock there: the lock must
// be shared by everything that writes this repository's index.
func GitDir(dir string) (string, error) {
	_, _, gitDir, err := openWriter(dir)
	return gitDir, err
}

// openWriter opens the repository holding dir for a writer: the
// repository (nil for a plain directory), dir's slash prefix in its
// worktree, and its git directory.
func openWriter(dir string) (*git.Repository, string, string, error) {
	root, err := resolveDir(dir)
	if err != nil {
		return nil, "", "", err
	}
	r, prefix, err := openGit(root)
	if err != nil || r == nil {
		return nil, "", "", err
	}
	fsys, ok := r.Storer.(*filesystem.Storage)
	if !ok {
		return nil, "", "", fmt.Errorf("open repository %s: not on disk", dir)
	}
	return r, prefix, fsys.Filesystem().Root(), nil
}

// AddFiles stages files of the memory repository at dir (slash paths
// relative to dir) as `git add` does: their blobs are stored and their
// index entries set, and nothing else in the index changes. Unlike
// [Stage] it never scans the working tree, so it costs the same in a
// repository of ten notes or ten thousand. The index is replaced
// atomically through index.lock, as git does; the caller serialises
// writers of one repository (git's lock refuses, it does not wait).
func AddFiles(dir string, paths ...string) error {
	r, prefix, gitDir, err := openWriter(dir)
	if err != nil {
		return fmt.Errorf("stage in %s: %w", dir, err)
	}
	if r == nil {
		return fmt.Errorf("stage in %s: %w", dir, ErrNotGit)
	}
	files, full, err := readFiles(dir, prefix, paths)
	if err != nil {
		return err
	}
	for _, p := range full {
		if err := storeBlob(r, files[p]); err != nil {
			return fmt.Errorf("stage %s: %w", p, err)
		}
	}
	return setIndex(r, gitDir, full, files)
}

// CommitFiles commits files of the memory repository at dir (slash paths
// relative to dir, as they are now in the working tree) on top of HEAD,
// and sets their index entries: the commit holds HEAD's tree with exactly
// these files changed, never other staged or unstaged work. The first
// commit of a repository without one is allowed. It returns the commit's
// hash.
func CommitFiles(dir string, paths []string, message, author string, when time.Time) (string, error) {
	r, prefix, gitDir, err := openWriter(dir)
	if err != nil {
		return "", fmt.Errorf("commit to %s: %w", dir, err)
	}
	if r == nil {
		return "", fmt.Errorf("commit to %s: %w", dir, ErrNotGit)
	}
	files, full, err := readFiles(dir, prefix, paths)
	if err != nil {
		return "", err
	}
	c := Commit{Files: files, Message: message, Author: author, When: when}
	changes, err := commitPaths(c)
	if err != nil {
		return "", fmt.Errorf("commit to %s: %w", dir, err)
	}
	head, err := storeCommits(r, []Commit{c}, [][]string{changes}, overlayFlushBytes)
	if err == nil {
		err = updateHead(r, head)
	}
	if err == nil {
		err = setIndex(r, gitDir, full, files)
	}
	if err != nil {
		return "", fmt.Errorf("commit to %s: %w", dir, err)
	}
	return head.String(), nil
}

// readFiles reads paths under dir, keyed by their path in the worktree.
func readFiles(dir, prefix string, paths []string) (map[string][]byte, []string, error) {
	files := make(map[string][]byte, len(paths))
	full := make([]string, 0, len(paths))
	for _, p := range paths {
		if err := checkPath(p); err != nil {
			return nil, nil, err
		}
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			return nil, nil, fmt.Errorf("read %s: %w", p, unwrapPath(err))
		}
		fp := joinPrefix(prefix, p)
		files[fp] = data
		full = append(full, fp)
	}
	return files, full, nil
}

func storeBlob(r *git.Repository, data []byte) error {
	obj := r.Storer.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	obj.SetSize(int64(len(data)))
	w, err := obj.Writer()
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	_, err = r.Storer.SetEncodedObject(obj)
	return err
}

// setIndex sets the index entries of files (worktree paths) and writes
// the index as git does: into index.lock, created exclusively, then
// renamed over index, so that no reader sees half an index and a git
// command running meanwhile is not overwritten.
func setIndex(r *git.Repository, gitDir string, paths []string, files map[string][]byte) error {
	idx, err := r.Storer.Index()
	if err != nil {
		return fmt.Errorf("read index: %w", err)
	}
	wt, err := r.Worktree()
	if err != nil {
		return err
	}
	if err := updateIndex(idx, wt.Filesystem.Root(), paths, files); err != nil {
		return fmt.Errorf("update index: %w", err)
	}
	slices.SortFunc(idx.Entries, func(a, b *index.Entry) int { return strings.Compare(a.Name, b.Name) })
	idx.Cache = nil
	return writeIndex(gitDir, idx)
}

func writeIndex(gitDir string, idx *index.Index) error {
	lock := filepath.Join(gitDir, "index.lock")
	f, err := os.OpenFile(lock, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s exists: another git command is writing the index; if none is running, remove it", lock)
	}
	if err != nil {
		return fmt.Errorf("write index: %w", err)
	}
	bw := bufio.NewWriter(f)
	err = index.NewEncoder(bw).Encode(idx)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(lock, filepath.Join(gitDir, "index"))
	}
	if err != nil {
		os.Remove(lock)
		return fmt.Errorf("write index: %w", err)
	}
	return nil
}
