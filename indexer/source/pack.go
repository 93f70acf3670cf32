package source

import (
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// overlay is an object store that keeps new objects in memory over the
// repository's, so that WriteRepo can write all of them as one packfile:
// on disk, one loose object file per blob costs more than everything else.
type overlay struct {
	storer.EncodedObjectStorer
	objs  map[plumbing.Hash]plumbing.EncodedObject
	order []plumbing.Hash
	size  int64 // bytes held
}

// overlayFlushBytes is how much an overlay holds before WriteRepo writes
// a pack and starts afresh, so a long generated history stays in bounds.
const overlayFlushBytes = 256 << 20

func newOverlay(s storer.EncodedObjectStorer) *overlay {
	return &overlay{EncodedObjectStorer: s, objs: map[plumbing.Hash]plumbing.EncodedObject{}}
}

func (o *overlay) SetEncodedObject(obj plumbing.EncodedObject) (plumbing.Hash, error) {
	h := obj.Hash()
	if _, ok := o.objs[h]; !ok {
		o.objs[h] = obj
		o.order = append(o.order, h)
		o.size += obj.Size()
	}
	return h, nil
}

func (o *overlay) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	if obj, ok := o.objs[h]; ok && (t == plumbing.AnyObject || t == obj.Type()) {
		return obj, nil
	}
	return o.EncodedObjectStorer.EncodedObject(t, h)
}

func (o *overlay) HasEncodedObject(h plumbing.Hash) error {
	if _, ok := o.objs[h]; ok {
		return nil
	}
	return o.EncodedObjectStorer.HasEncodedObject(h)
}

func (o *overlay) EncodedObjectSize(h plumbing.Hash) (int64, error) {
	if obj, ok := o.objs[h]; ok {
		return obj.Size(), nil
	}
	return o.EncodedObjectStorer.EncodedObjectSize(h)
}

// flush writes the new objects to the underlying store, as one packfile
// when it takes packs, and empties the overlay. Deltas are not computed
// (window 0): fixtures and generated corpora favour write speed, and git
// repacks when it likes.
func (o *overlay) flush() error {
	if len(o.order) == 0 {
		return nil
	}
	defer func() { o.objs, o.order, o.size = map[plumbing.Hash]plumbing.EncodedObject{}, nil, 0 }()
	pw, ok := o.EncodedObjectStorer.(storer.PackfileWriter)
	if !ok {
		return o.flushLoose()
	}
	w, err := pw.PackfileWriter()
	if err != nil {
		return fmt.Errorf("write pack: %w", err)
	}
	_, err = packfile.NewEncoder(w, o, false).Encode(o.order, 0)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write pack: %w", err)
	}
	return nil
}

func (o *overlay) flushLoose() error {
	for _, h := range o.order {
		if _, err := o.EncodedObjectStorer.SetEncodedObject(o.objs[h]); err != nil {
			return fmt.Errorf("write object %s: %w", h, err)
		}
	}
	return nil
}
