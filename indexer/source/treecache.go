package source

import (
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// treeCache keeps decoded trees: consecutive commits share most of the
// trees on their changed paths, and go-git only caches the encoded bytes.
// It holds two generations of at most limit entries in all; when the young
// one fills up it becomes the old one, so memory stays bounded without the
// bookkeeping of an LRU list.
type treeCache struct {
	s          storer.EncodedObjectStorer
	limit      int
	size       int
	young, old map[plumbing.Hash][]entry
}

func newTreeCache(s storer.EncodedObjectStorer, limit int) *treeCache {
	return &treeCache{s: s, limit: limit, young: map[plumbing.Hash][]entry{}}
}

// get returns the entries of a tree in git's order; the zero hash is the
// empty tree.
func (c *treeCache) get(h plumbing.Hash) ([]entry, error) {
	if h.IsZero() {
		return nil, nil
	}
	if e, ok := c.young[h]; ok {
		return e, nil
	}
	e, ok := c.old[h]
	if !ok {
		var err error
		if e, err = readTree(c.s, h); err != nil {
			return nil, err
		}
	}
	c.put(h, e)
	return e, nil
}

func (c *treeCache) put(h plumbing.Hash, e []entry) {
	n := len(e) + 1
	if c.size+n > c.limit && c.size > 0 {
		c.old, c.young, c.size = c.young, map[plumbing.Hash][]entry{}, 0
	}
	c.young[h] = e
	c.size += n
}
