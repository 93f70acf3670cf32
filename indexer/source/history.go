package source

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// commitNode is the part of a commit the history walk needs.
type commitNode struct {
	hash plumbing.Hash
	tree plumbing.Hash
	when time.Time
	// parents are the parents present in the object store, in order.
	parents []*commitNode
	// boundary is set for a shallow commit or one whose first parent is
	// missing: it is diffed against the empty tree, so what it "adds" may
	// be older.
	boundary bool
	// order is the commit's index in a post-order walk (parents before
	// children); it breaks ties between equal committer times.
	order int
	// sub is the tree at the walk's prefix (zero if absent), set by the walk.
	sub plumbing.Hash
	// unreadable is set when sub could not be resolved (missing objects).
	unreadable bool
}

// before orders commits by committer time, then ancestors first.
func (a *commitNode) before(b *commitNode) bool {
	if !a.when.Equal(b.when) {
		return a.when.Before(b.when)
	}
	return a.order < b.order
}

// graph is every commit reachable from HEAD, parents before children.
type graph struct {
	nodes []*commitNode
	// missing holds parents absent from the store that the shallow file
	// does not list.
	missing map[plumbing.Hash]bool
}

// frame is one commit on the explicit stack of collectCommits. It keeps
// the parent hashes, not the commit: the stack is as deep as the history.
type frame struct {
	node    *commitNode
	parents []plumbing.Hash
	next    int
}

// collectCommits walks every commit reachable from head once, depth first
// with an explicit stack (histories are deep), and returns them in post
// order. Parents of a shallow commit are never read.
func collectCommits(s storer.EncodedObjectStorer, head plumbing.Hash, shallow map[plumbing.Hash]bool) (*graph, error) {
	g := &graph{missing: map[plumbing.Hash]bool{}}
	seen := map[plumbing.Hash]*commitNode{}
	var stack []frame
	push := func(h plumbing.Hash) error {
		c, err := object.GetCommit(s, h)
		if err != nil {
			return fmt.Errorf("read commit %s: %w", h, err)
		}
		n := &commitNode{hash: h, tree: c.TreeHash, when: c.Committer.When.UTC(), boundary: shallow[h]}
		seen[h] = n
		stack = append(stack, frame{node: n, parents: c.ParentHashes})
		return nil
	}
	if err := push(head); err != nil {
		return nil, err
	}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.node.boundary || top.next >= len(top.parents) {
			top.node.order = len(g.nodes)
			g.nodes = append(g.nodes, top.node)
			stack = stack[:len(stack)-1]
			continue
		}
		i := top.next
		top.next++
		if err := g.visitParent(s, top, i, seen, push); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// visitParent links the i-th parent of the commit on top of the stack,
// pushing it when it is new. A missing parent makes the child a boundary
// when it is the first parent, and is dropped otherwise.
func (g *graph) visitParent(s storer.EncodedObjectStorer, top *frame, i int, seen map[plumbing.Hash]*commitNode, push func(plumbing.Hash) error) error {
	h := top.parents[i]
	n := top.node
	if p, ok := seen[h]; ok {
		n.parents = append(n.parents, p)
		return nil
	}
	err := s.HasEncodedObject(h)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		g.missing[h] = true
		if i == 0 {
			n.boundary = true
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("read commit %s: %w", h, err)
	}
	// push may grow the stack and move top: link before pushing.
	n.parents = append(n.parents, nil)
	idx := len(n.parents) - 1
	if err := push(h); err != nil {
		return err
	}
	n.parents[idx] = seen[h]
	return nil
}

// span is what the walk learns about one file.
type span struct {
	first, last *commitNode
	incomplete  bool
}

// merge folds o into s; the order of folding does not change the result.
func (s *span) merge(o span) {
	if o.first != nil && (s.first == nil || o.first.before(s.first)) {
		s.first = o.first
	}
	if o.last != nil && (s.last == nil || s.last.before(o.last)) {
		s.last = o.last
	}
	s.incomplete = s.incomplete || o.incomplete
}

// histWalk diffs commits against their parents and records, for each file
// of the working tree, the oldest and newest commit that added or changed
// it. Each worker of walkHistory has its own, with its own object store.
type histWalk struct {
	want  map[string]int  // path -> index into spans
	dirs  map[string]bool // directories that hold a wanted file
	spans []span
	trees *treeCache
	// path and got are scratch space for diffPaths.
	path []byte
	got  []int
	// unreadable lists commits whose trees could not be read.
	unreadable []*commitNode
}

// run diffs the given commits, whose sub trees are already resolved.
func (w *histWalk) run(nodes []*commitNode) error {
	for _, n := range nodes {
		if n.unreadable {
			continue
		}
		if err := w.commit(n); err != nil {
			if !errors.Is(err, plumbing.ErrObjectNotFound) {
				return fmt.Errorf("read history at %s: %w", n.hash, err)
			}
			w.unreadable = append(w.unreadable, n)
		}
	}
	return nil
}

func (w *histWalk) commit(n *commitNode) error {
	touched, err := w.touched(n)
	if err != nil {
		return err
	}
	for _, i := range touched {
		w.spans[i].merge(span{first: n, last: n, incomplete: n.cut()})
	}
	return nil
}

// cut reports a commit whose history is cut short: a shallow boundary, or
// a child of a commit that could not be read. What it adds may be older.
func (n *commitNode) cut() bool {
	return n.boundary || slices.ContainsFunc(n.parents, func(p *commitNode) bool { return p.unreadable })
}

// isRoot reports a commit diffed against the empty tree.
func (n *commitNode) isRoot() bool { return len(n.parents) == 0 || n.cut() }

// touched lists the wanted files a commit added or changed. A root or
// boundary commit is diffed against the empty tree. A merge touches only
// what differs from every parent (git's combined diff): changes brought in
// from a side branch are dated by the side branch's own commits.
func (w *histWalk) touched(n *commitNode) ([]int, error) {
	if n.isRoot() {
		return w.diffPaths(plumbing.ZeroHash, n.sub)
	}
	got, err := w.diffPaths(n.parents[0].sub, n.sub)
	for _, p := range n.parents[1:] {
		if len(got) == 0 || err != nil {
			break
		}
		var other []int
		other, err = w.diffPaths(p.sub, n.sub)
		got = intersect(got, other)
	}
	return got, err
}

// subtree returns the hash of the tree at prefix under root, or the zero
// hash when there is nothing there.
func subtree(trees *treeCache, root plumbing.Hash, prefix []string) (plumbing.Hash, error) {
	h := root
	for _, name := range prefix {
		entries, err := trees.get(h)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		h = plumbing.ZeroHash
		for _, e := range entries {
			if e.isDir() && string(e.name) == name {
				h = e.hash
				break
			}
		}
		if h.IsZero() {
			break
		}
	}
	return h, nil
}

// diffPaths lists the wanted files that tree "to" adds or changes relative
// to tree "from"; deletions are not reported.
func (w *histWalk) diffPaths(from, to plumbing.Hash) ([]int, error) {
	w.got = w.got[:0]
	w.path = w.path[:0]
	err := w.diff(from, to)
	return slices.Clone(w.got), err
}

// diff compares two trees whose entries are both in git's order, skipping
// equal subtrees and directories with no wanted file. w.path holds the
// trees' directory; building paths in one buffer keeps the walk from
// allocating a string per entry.
func (w *histWalk) diff(from, to plumbing.Hash) error {
	if from == to || to.IsZero() {
		return nil
	}
	a, err := w.trees.get(from)
	if err != nil {
		return err
	}
	b, err := w.trees.get(to)
	if err != nil {
		return err
	}
	i := 0
	for k := range b {
		e := &b[k]
		for i < len(a) && compareEntries(&a[i], e) < 0 {
			i++
		}
		var old *entry
		if i < len(a) && compareEntries(&a[i], e) == 0 {
			old = &a[i]
		}
		if err := w.diffEntry(old, e); err != nil {
			return err
		}
	}
	return nil
}

func (w *histWalk) diffEntry(old, e *entry) error {
	if old != nil && old.hash == e.hash && old.mode == e.mode {
		return nil
	}
	n := len(w.path)
	if n > 0 {
		w.path = append(w.path, '/')
	}
	w.path = append(w.path, e.name...)
	defer func() { w.path = w.path[:n] }()
	switch {
	case e.isDir():
		if !w.dirs[string(w.path)] {
			return nil
		}
		var from plumbing.Hash
		if old != nil {
			from = old.hash
		}
		return w.diff(from, e.hash)
	case e.mode == filemode.Submodule:
		return nil
	}
	if i, ok := w.want[string(w.path)]; ok {
		w.got = append(w.got, i)
	}
	return nil
}

// compareEntries orders tree entries as git does: a directory sorts as if
// its name ended in a slash.
func compareEntries(a, b *entry) int {
	n := min(len(a.name), len(b.name))
	if c := bytes.Compare(a.name[:n], b.name[:n]); c != 0 {
		return c
	}
	for i := n; ; i++ {
		ca, cb := sortByte(a, i), sortByte(b, i)
		if ca != cb || ca < 0 {
			return cmp.Compare(ca, cb)
		}
	}
}

// sortByte is the byte of the entry's sort name at position i: a directory
// has a virtual trailing slash, and -1 marks the end of the name.
func sortByte(e *entry, i int) int {
	if i < len(e.name) {
		return int(e.name[i])
	}
	if i == len(e.name) && e.isDir() {
		return '/'
	}
	return -1
}

// intersect keeps the elements of a that are in b; both come from a tree
// walk in the same order, but a set keeps it simple and order-free.
func intersect(a, b []int) []int {
	in := make(map[int]bool, len(b))
	for _, x := range b {
		in[x] = true
	}
	out := a[:0]
	for _, x := range a {
		if in[x] {
			out = append(out, x)
		}
	}
	return out
}

// splitPrefix turns a slash path into its components; "" has none.
func splitPrefix(p string) []string {
	if p == "" || p == "." {
		return nil
	}
	return strings.Split(path.Clean(p), "/")
}
