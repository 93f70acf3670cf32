package source

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

const (
	// treeCacheEntries bounds the decoded tree entries the history walk
	// keeps (about 60 bytes each), shared among its workers.
	treeCacheEntries = 1 << 18
	// objectCacheBytes bounds go-git's cache of decoded objects (delta
	// bases, mostly), shared among the workers.
	objectCacheBytes = 96 * cache.MiByte
	// maxWorkers caps the parallel tree diffs; commitsPerWorker keeps a
	// small history from paying for a worker's set-up (its own pack index).
	maxWorkers       = 8
	commitsPerWorker = 8
)

// walkHistory diffs every commit of g once and returns the span of every
// file of t, and the commits that could not be read, oldest first.
//
// Commits are diffed in parallel: go-git's object store is not safe for
// concurrent use, so each worker opens its own over the same repository
// and takes a contiguous run of commits in post order, where consecutive
// commits share most trees and the worker's tree cache keeps hitting.
// Spans merge by commit time and order, so the result does not depend on
// how the commits were split.
func walkHistory(r *git.Repository, s storer.EncodedObjectStorer, g *graph, prefix string, t *tree, workers int) ([]span, []*commitNode, error) {
	if err := resolveSubs(s, g.nodes, splitPrefix(prefix)); err != nil {
		return nil, nil, err
	}
	chunks := chunk(g.nodes, workers)
	walks := make([]*histWalk, len(chunks))
	errs := make([]error, len(chunks))
	var wg sync.WaitGroup
	for i, nodes := range chunks {
		wg.Go(func() { walks[i], errs[i] = walkChunk(r, nodes, t, len(chunks)) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, nil, err
	}
	spans := make([]span, len(t.files))
	var bad []*commitNode
	for _, w := range walks {
		for i, s := range w.spans {
			spans[i].merge(s)
		}
		bad = append(bad, w.unreadable...)
	}
	for _, n := range g.nodes {
		if n.unreadable {
			bad = append(bad, n)
		}
	}
	slices.SortFunc(bad, func(a, b *commitNode) int { return a.order - b.order })
	return spans, bad, nil
}

// resolveSubs sets each commit's tree at prefix. It runs before the
// workers, which read the parents' trees too.
func resolveSubs(s storer.EncodedObjectStorer, nodes []*commitNode, prefix []string) error {
	trees := newTreeCache(s, 1<<14)
	for _, n := range nodes {
		sub, err := subtree(trees, n.tree, prefix)
		switch {
		case errors.Is(err, plumbing.ErrObjectNotFound):
			n.unreadable = true
		case err != nil:
			return fmt.Errorf("read history at %s: %w", n.hash, err)
		}
		n.sub = sub
	}
	return nil
}

func walkChunk(r *git.Repository, nodes []*commitNode, t *tree, workers int) (*histWalk, error) {
	s, done := readStorer(r, workers)
	defer done()
	w := &histWalk{
		want: t.want, dirs: t.dirs,
		spans: make([]span, len(t.files)), trees: newTreeCache(s, treeCacheEntries/workers),
	}
	return w, w.run(nodes)
}

// workerCount is how many workers a history of n commits gets.
func workerCount(r *git.Repository, n int) int {
	if _, ok := r.Storer.(*filesystem.Storage); !ok {
		return 1 // only a store of our own per worker is safe
	}
	return max(1, min(runtime.GOMAXPROCS(0), maxWorkers, n/commitsPerWorker))
}

// chunk splits nodes into k contiguous runs of nearly equal length.
func chunk(nodes []*commitNode, k int) [][]*commitNode {
	out := make([][]*commitNode, 0, k)
	for i := range k {
		out = append(out, nodes[i*len(nodes)/k:(i+1)*len(nodes)/k])
	}
	return out
}

// readStorer returns an object store for reading history that keeps pack
// files open: go-git's default store opens and closes the pack for every
// object it reads. Each of workers gets its share of the object cache.
// done closes it.
func readStorer(r *git.Repository, workers int) (storer.EncodedObjectStorer, func()) {
	fsStore, ok := r.Storer.(*filesystem.Storage)
	if !ok {
		return r.Storer, func() {}
	}
	objects := cache.NewObjectLRU(max(objectCacheBytes/cache.FileSize(workers), 16*cache.MiByte))
	s := filesystem.NewStorageWithOptions(fsStore.Filesystem(), objects, filesystem.Options{KeepDescriptors: true})
	return s, func() { _ = s.Close() } // read only: nothing to lose
}
