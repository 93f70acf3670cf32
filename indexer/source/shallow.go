package source

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// ShallowClone makes dst a shallow copy of the repository at src with the
// last depth commits of HEAD, as `git clone --depth` would, for tests.
//
// go-git cannot make one by cloning: its file:// transport runs the git
// binary's upload-pack (and its built-in server refuses shallow requests),
// so the clone would depend on the machine. Instead the shallow state is
// crafted: the commits within depth of HEAD and their trees and blobs are
// copied (as one pack), the commits at the depth limit are written to
// .git/shallow, and the working tree is checked out. Older objects are
// simply absent, as in a real shallow clone.
func ShallowClone(src, dst string, depth int) error {
	if depth < 1 {
		return fmt.Errorf("shallow clone %s: depth %d is less than 1", src, depth)
	}
	if err := shallowClone(src, dst, depth); err != nil {
		return fmt.Errorf("shallow clone %s: %w", src, err)
	}
	return nil
}

func shallowClone(src, dst string, depth int) error {
	from, err := git.PlainOpen(src)
	if err != nil {
		return err
	}
	head, err := from.Head()
	if err != nil {
		return fmt.Errorf("read HEAD: %w", err)
	}
	branch := head.Name()
	if !branch.IsBranch() {
		branch = plumbing.NewBranchReferenceName("main")
	}
	to, err := git.PlainInitWithOptions(dst, &git.PlainInitOptions{InitOptions: git.InitOptions{DefaultBranch: branch}})
	if err != nil {
		return err
	}
	keep, boundary, err := shallowCommits(from.Storer, head.Hash(), depth)
	if err != nil {
		return err
	}
	ov := newOverlay(to.Storer)
	if err := copyCommits(from.Storer, ov, keep); err != nil {
		return err
	}
	if err := ov.flush(); err != nil {
		return err
	}
	if err := to.Storer.SetReference(plumbing.NewHashReference(branch, head.Hash())); err != nil {
		return err
	}
	if err := to.Storer.SetShallow(boundary); err != nil {
		return err
	}
	wt, err := to.Worktree()
	if err != nil {
		return err
	}
	return wt.Reset(&git.ResetOptions{Commit: head.Hash(), Mode: git.HardReset})
}

// shallowCommits returns the commits within depth generations of head,
// breadth first, and those at the limit that have parents (the shallow
// boundary), sorted.
func shallowCommits(s storer.EncodedObjectStorer, head plumbing.Hash, depth int) ([]*object.Commit, []plumbing.Hash, error) {
	level := map[plumbing.Hash]int{head: 1}
	queue := []plumbing.Hash{head}
	var keep []*object.Commit
	var boundary []plumbing.Hash
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		c, err := object.GetCommit(s, h)
		if err != nil {
			return nil, nil, fmt.Errorf("read commit %s: %w", h, err)
		}
		keep = append(keep, c)
		if level[h] == depth {
			if len(c.ParentHashes) > 0 {
				boundary = append(boundary, h)
			}
			continue
		}
		for _, p := range c.ParentHashes {
			if _, ok := level[p]; !ok {
				level[p] = level[h] + 1
				queue = append(queue, p)
			}
		}
	}
	slices.SortFunc(boundary, func(a, b plumbing.Hash) int { return bytes.Compare(a[:], b[:]) })
	return keep, boundary, nil
}

// copyCommits copies the commits and every tree and blob they reach.
func copyCommits(from, to storer.EncodedObjectStorer, commits []*object.Commit) error {
	seen := map[plumbing.Hash]bool{}
	for _, c := range commits {
		if err := copyObject(from, to, c.Hash); err != nil {
			return err
		}
		if err := copyTree(from, to, c.TreeHash, seen); err != nil {
			return err
		}
	}
	return nil
}

func copyTree(from, to storer.EncodedObjectStorer, h plumbing.Hash, seen map[plumbing.Hash]bool) error {
	if seen[h] {
		return nil
	}
	seen[h] = true
	if err := copyObject(from, to, h); err != nil {
		return err
	}
	t, err := object.GetTree(from, h)
	if err != nil {
		return fmt.Errorf("read tree %s: %w", h, err)
	}
	for _, e := range t.Entries {
		switch {
		case e.Mode == filemode.Submodule:
		case e.Mode == filemode.Dir:
			err = copyTree(from, to, e.Hash, seen)
		case !seen[e.Hash]:
			seen[e.Hash] = true
			err = copyObject(from, to, e.Hash)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func copyObject(from, to storer.EncodedObjectStorer, h plumbing.Hash) error {
	obj, err := from.EncodedObject(plumbing.AnyObject, h)
	if err != nil {
		return fmt.Errorf("read object %s: %w", h, err)
	}
	got, err := to.SetEncodedObject(obj)
	if err != nil {
		return fmt.Errorf("write object %s: %w", h, err)
	}
	if got != h {
		return errors.New("copied object changed hash " + h.String())
	}
	return nil
}
