package source

import (
	"errors"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// DefaultAuthor signs commits whose Author is empty.
const DefaultAuthor = "engram <engram@example.invalid>"

// WriteRepo commits each of commits, in order, to the git repository whose
// root is dir, creating the directory and the repository (branch main) when
// there is none. Like git init, it never looks for a repository in dir's
// parents: a dir inside another worktree gets its own repository.
//
// Each commit's Files are written to (or, when nil, removed from) the
// working tree, the index and a new commit whose parent is HEAD; nothing
// else in the working tree or index changes. Author and committer are the
// commit's Author ("Name <email>", default [DefaultAuthor]) at When, which
// is required, so fixed inputs give the same commit hashes every time.
//
// go-git's worktree.Add re-scans the working tree on every call and writes
// one loose object per file. Instead the trees are built with the object
// API, rewriting only the directories on changed paths, and all new
// objects go to disk as one packfile before the branch moves; then the
// working tree and the index are updated.
func WriteRepo(dir string, commits []Commit) error {
	if err := writeRepo(dir, commits); err != nil {
		return fmt.Errorf("write repository %s: %w", dir, err)
	}
	return nil
}

func writeRepo(dir string, commits []Commit) error {
	changes := make([][]string, len(commits))
	for i, c := range commits {
		var err error
		if changes[i], err = commitPaths(c); err != nil {
			return fmt.Errorf("commit %d: %w", i+1, err)
		}
		if c.When.IsZero() {
			return fmt.Errorf("commit %d: no commit time", i+1)
		}
	}
	r, err := openOrInit(dir)
	if err != nil {
		return err
	}
	wt, err := r.Worktree()
	if err != nil || len(commits) == 0 {
		return err
	}
	if err := checkDirsInWay(r, wt.Filesystem.Root(), commits); err != nil {
		return err
	}
	head, err := storeCommits(r, commits, changes, overlayFlushBytes)
	if err != nil {
		return err
	}
	if err := updateHead(r, head); err != nil {
		return err
	}
	return checkout(r, wt.Filesystem.Root(), commits, changes)
}

// checkDirsInWay refuses, before anything is committed, a file of a
// commit where the working tree has a directory holding untracked work
// (checkout would refuse it after HEAD moved).
func checkDirsInWay(r *git.Repository, root string, commits []Commit) error {
	idx, err := r.Storer.Index()
	if err != nil {
		return fmt.Errorf("read index: %w", err)
	}
	w := &worktree{root: root, idx: idx}
	for _, c := range commits {
		for p, data := range c.Files {
			if info, err := os.Lstat(w.full(p)); data != nil && err == nil && info.IsDir() {
				if err := w.onlyTracked(p); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func openOrInit(dir string) (*git.Repository, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	r, err := git.PlainOpen(dir)
	if !errors.Is(err, git.ErrRepositoryNotExists) {
		return r, err
	}
	return git.PlainInitWithOptions(dir, &git.PlainInitOptions{
		InitOptions: git.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName("main")},
	})
}

// commitPaths returns the commit's paths, deletions first (so that a file
// may replace a directory it empties, and the other way round), each group
// sorted, after checking that each is a clean relative slash path outside
// .git.
func commitPaths(c Commit) ([]string, error) {
	paths := make([]string, 0, len(c.Files))
	for p := range c.Files {
		if err := checkPath(p); err != nil {
			return nil, err
		}
		paths = append(paths, p)
	}
	slices.SortFunc(paths, func(a, b string) int {
		if da, db := c.Files[a] == nil, c.Files[b] == nil; da != db {
			if da {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	return paths, nil
}

func checkPath(p string) error {
	if p == "" || path.Clean(p) != p || path.IsAbs(p) || strings.ContainsRune(p, 0) || strings.Contains(p, `\`) {
		return fmt.Errorf("invalid path %q", p)
	}
	for _, part := range strings.Split(p, "/") {
		if part == ".." || strings.EqualFold(part, ".git") {
			return fmt.Errorf("invalid path %q", p)
		}
	}
	return nil
}

// storeCommits writes the objects of every commit, chained on HEAD, as one
// pack per flushBytes of objects, and returns the last commit's hash.
func storeCommits(r *git.Repository, commits []Commit, changes [][]string, flushBytes int64) (plumbing.Hash, error) {
	parent, base, err := headTree(r)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	ov := newOverlay(r.Storer)
	for i, c := range commits {
		if base, err = buildTree(ov, base, changes[i], c.Files); err != nil {
			return plumbing.ZeroHash, fmt.Errorf("commit %d: %w", i+1, err)
		}
		if parent, err = storeCommit(ov, c, base, parent); err != nil {
			return plumbing.ZeroHash, fmt.Errorf("commit %d: %w", i+1, err)
		}
		if ov.size > flushBytes {
			if err := ov.flush(); err != nil {
				return plumbing.ZeroHash, err
			}
		}
	}
	return parent, ov.flush()
}

// headTree returns HEAD's commit and tree, or zero hashes before the first
// commit.
func headTree(r *git.Repository) (plumbing.Hash, plumbing.Hash, error) {
	ref, err := r.Head()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return plumbing.ZeroHash, plumbing.ZeroHash, nil
	}
	if err != nil {
		return plumbing.ZeroHash, plumbing.ZeroHash, fmt.Errorf("read HEAD: %w", err)
	}
	c, err := object.GetCommit(r.Storer, ref.Hash())
	if err != nil {
		return plumbing.ZeroHash, plumbing.ZeroHash, fmt.Errorf("read HEAD: %w", err)
	}
	return c.Hash, c.TreeHash, nil
}

func buildTree(s storer.EncodedObjectStorer, base plumbing.Hash, paths []string, files map[string][]byte) (plumbing.Hash, error) {
	b, err := newTreeBuilder(s, base)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	for _, p := range paths {
		if files[p] == nil {
			err = b.remove(p)
		} else {
			err = setBlob(s, b, p, files[p])
		}
		if err != nil {
			return plumbing.ZeroHash, err
		}
	}
	return b.write()
}

func setBlob(s storer.EncodedObjectStorer, b *treeBuilder, p string, data []byte) error {
	obj := s.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	obj.SetSize(int64(len(data)))
	w, err := obj.Writer()
	if err == nil {
		_, err = w.Write(data)
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	h, err := s.SetEncodedObject(obj)
	if err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	return b.set(p, h)
}

func storeCommit(s storer.EncodedObjectStorer, c Commit, tree, parent plumbing.Hash) (plumbing.Hash, error) {
	sig := signature(c.Author)
	sig.When = c.When
	obj := &object.Commit{Author: sig, Committer: sig, Message: c.Message, TreeHash: tree}
	if !parent.IsZero() {
		obj.ParentHashes = []plumbing.Hash{parent}
	}
	enc := s.NewEncodedObject()
	if err := obj.Encode(enc); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("encode commit: %w", err)
	}
	h, err := s.SetEncodedObject(enc)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("write commit: %w", err)
	}
	return h, nil
}

// signature parses "Name <email>"; text without an email is all name.
func signature(author string) object.Signature {
	if author == "" {
		author = DefaultAuthor
	}
	name, email, ok := strings.Cut(author, "<")
	if !ok || !strings.HasSuffix(email, ">") {
		return object.Signature{Name: strings.TrimSpace(author)}
	}
	return object.Signature{Name: strings.TrimSpace(name), Email: strings.TrimSuffix(email, ">")}
}

// updateHead moves the branch HEAD points to (or HEAD itself when
// detached) to h.
func updateHead(r *git.Repository, h plumbing.Hash) error {
	head, err := r.Storer.Reference(plumbing.HEAD)
	if err != nil {
		return fmt.Errorf("read HEAD: %w", err)
	}
	name := plumbing.HEAD
	if head.Type() == plumbing.SymbolicReference {
		name = head.Target()
	}
	if err := r.Storer.SetReference(plumbing.NewHashReference(name, h)); err != nil {
		return fmt.Errorf("update %s: %w", name, err)
	}
	return nil
}
