package source

import (
	"fmt"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// treeBuilder applies file changes to a base tree and writes the new trees.
// Only the directories on changed paths are read and rewritten; every other
// subtree keeps its hash, which is what makes a commit of a few files into
// a large repository cheap.
type treeBuilder struct {
	s    storer.EncodedObjectStorer
	root *dirNode
}

// dirNode is one directory being rebuilt: entries as in the base tree, and
// subs for the subdirectories opened for change (they win over entries).
type dirNode struct {
	entries map[string]object.TreeEntry
	subs    map[string]*dirNode
}

func newTreeBuilder(s storer.EncodedObjectStorer, base plumbing.Hash) (*treeBuilder, error) {
	root, err := loadDir(s, base)
	if err != nil {
		return nil, err
	}
	return &treeBuilder{s: s, root: root}, nil
}

func loadDir(s storer.EncodedObjectStorer, h plumbing.Hash) (*dirNode, error) {
	n := &dirNode{entries: map[string]object.TreeEntry{}, subs: map[string]*dirNode{}}
	if h.IsZero() {
		return n, nil
	}
	t, err := object.GetTree(s, h)
	if err != nil {
		return nil, fmt.Errorf("read tree %s: %w", h, err)
	}
	for _, e := range t.Entries {
		n.entries[e.Name] = e
	}
	return n, nil
}

// dir returns the subdirectory name of n, opening it from the base tree,
// or creating it when create is set (replacing a file of that name).
func (b *treeBuilder) dir(n *dirNode, name string, create bool) (*dirNode, error) {
	if d, ok := n.subs[name]; ok {
		return d, nil
	}
	e, ok := n.entries[name]
	var base plumbing.Hash
	switch {
	case ok && e.Mode == filemode.Dir:
		base = e.Hash
	case !create:
		return nil, nil
	}
	d, err := loadDir(b.s, base)
	if err != nil {
		return nil, err
	}
	n.subs[name] = d
	return d, nil
}

// parent returns the directory holding p and p's base name.
func (b *treeBuilder) parent(p string, create bool) (*dirNode, string, error) {
	parts := strings.Split(p, "/")
	n := b.root
	for _, name := range parts[:len(parts)-1] {
		d, err := b.dir(n, name, create)
		if err != nil || d == nil {
			return nil, "", err
		}
		n = d
	}
	return n, parts[len(parts)-1], nil
}

// set puts a regular file with blob h at p, replacing a directory there.
func (b *treeBuilder) set(p string, h plumbing.Hash) error {
	n, name, err := b.parent(p, true)
	if err != nil {
		return err
	}
	delete(n.subs, name)
	n.entries[name] = object.TreeEntry{Name: name, Mode: filemode.Regular, Hash: h}
	return nil
}

// remove deletes the file at p; a path that does not exist is not an error.
func (b *treeBuilder) remove(p string) error {
	n, name, err := b.parent(p, false)
	if err != nil || n == nil {
		return err
	}
	if _, ok := n.subs[name]; ok {
		return fmt.Errorf("delete %s: is a directory", p)
	}
	if e, ok := n.entries[name]; ok && e.Mode == filemode.Dir {
		return fmt.Errorf("delete %s: is a directory", p)
	}
	delete(n.entries, name)
	return nil
}

// write stores the rebuilt trees and returns the root's hash.
func (b *treeBuilder) write() (plumbing.Hash, error) {
	h, _, err := b.writeDir(b.root)
	return h, err
}

// writeDir writes n's changed subdirectories, then n. An empty directory
// is dropped from its parent (git has no empty directories) except at the
// root, which is the empty tree.
func (b *treeBuilder) writeDir(n *dirNode) (plumbing.Hash, bool, error) {
	for name, d := range n.subs {
		h, empty, err := b.writeDir(d)
		if err != nil {
			return plumbing.ZeroHash, false, err
		}
		if empty {
			delete(n.entries, name)
			continue
		}
		n.entries[name] = object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: h}
	}
	t := &object.Tree{Entries: make([]object.TreeEntry, 0, len(n.entries))}
	for _, e := range n.entries {
		t.Entries = append(t.Entries, e)
	}
	sort.Sort(object.TreeEntrySorter(t.Entries))
	obj := b.s.NewEncodedObject()
	if err := t.Encode(obj); err != nil {
		return plumbing.ZeroHash, false, fmt.Errorf("encode tree: %w", err)
	}
	h, err := b.s.SetEncodedObject(obj)
	if err != nil {
		return plumbing.ZeroHash, false, fmt.Errorf("write tree: %w", err)
	}
	return h, len(t.Entries) == 0, nil
}
