package source

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// maxTreeSize refuses absurd tree sizes before allocating: a directory of a
// million entries is about 50 MB.
const maxTreeSize = 1 << 30

// entry is one tree entry. Its name points into the tree's raw bytes: the
// history walk parses trees itself because go-git's Tree.Decode allocates
// a string per entry and hashes the object again, which was a third of a
// walk's time.
type entry struct {
	name []byte
	mode filemode.FileMode
	hash plumbing.Hash
}

func (e *entry) isDir() bool { return e.mode == filemode.Dir }

// readTree reads and parses the tree object h.
func readTree(s storer.EncodedObjectStorer, h plumbing.Hash) ([]entry, error) {
	obj, err := s.EncodedObject(plumbing.TreeObject, h)
	if err != nil {
		return nil, err
	}
	r, err := obj.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	b, err := readAll(r, obj.Size())
	if err != nil {
		return nil, fmt.Errorf("read tree %s: %w", h, err)
	}
	es, err := parseTree(b)
	if err != nil {
		return nil, fmt.Errorf("read tree %s: %w", h, err)
	}
	return es, nil
}

// readAll reads an object of the given size in one allocation; a size
// that lies gives an error, not a short or long read.
func readAll(r io.Reader, size int64) ([]byte, error) {
	if size < 0 || size > maxTreeSize {
		return nil, fmt.Errorf("malformed tree: size %d", size)
	}
	b := make([]byte, size)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, err
	}
	if n, _ := r.Read(make([]byte, 1)); n > 0 {
		return nil, errors.New("malformed tree: longer than its size")
	}
	return b, nil
}

// parseTree splits a tree's content, "<octal mode> <name>\0<20-byte id>"
// repeated, into entries.
func parseTree(b []byte) ([]entry, error) {
	malformed := errors.New("malformed tree")
	es := make([]entry, 0, len(b)/40)
	for len(b) > 0 {
		sp := bytes.IndexByte(b, ' ')
		if sp <= 0 {
			return nil, malformed
		}
		mode, ok := parseMode(b[:sp])
		b = b[sp+1:]
		nul := bytes.IndexByte(b, 0)
		if !ok || nul <= 0 || len(b) < nul+1+len(plumbing.ZeroHash) {
			return nil, malformed
		}
		e := entry{name: b[:nul:nul], mode: mode}
		b = b[nul+1:]
		b = b[copy(e.hash[:], b):]
		es = append(es, e)
	}
	return es, nil
}

// parseMode reads an octal mode and makes it canonical as git and go-git
// do: any directory mode is Dir, any regular file Regular or Executable,
// and an unknown type counts as a gitlink (which the walk skips). Like
// git, it takes any number of digits (a zero-padded "00100644" is the
// mode git's fsck warns about, and reads); like go-git, a mode that does
// not fit in 32 bits is malformed.
func parseMode(b []byte) (filemode.FileMode, bool) {
	var m uint64
	for _, c := range b {
		if c < '0' || c > '7' {
			return 0, false
		}
		m = m*8 + uint64(c-'0')
		if m > math.MaxUint32 {
			return 0, false
		}
	}
	switch filemode.FileMode(m) & 0o170000 {
	case 0o040000:
		return filemode.Dir, true
	case 0o100000:
		if m&0o111 != 0 {
			return filemode.Executable, true
		}
		return filemode.Regular, true
	case 0o120000:
		return filemode.Symlink, true
	}
	return filemode.Submodule, true
}
