package source

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
)

// Fingerprint identifies the state of the repository at dir as Open would
// read it: every file of the working tree (path, size and modification
// time) and the commit HEAD names. It reads no file and walks no history,
// so a query can tell in milliseconds whether a cache built from an
// earlier state still holds. Files for which skip returns true (engram's
// own output inside the repository) are left out; skip may be nil.
func Fingerprint(dir string, skip func(path string) bool) (string, error) {
	root, err := resolveDir(dir)
	if err != nil {
		return "", err
	}
	t, err := walkTree(root)
	if err != nil {
		return "", fmt.Errorf("open repository %s: %w", dir, err)
	}
	h := sha256.New()
	var num [8]byte
	for i, f := range t.files {
		if skip != nil && skip(f.Path) {
			continue
		}
		h.Write([]byte(f.Path))
		h.Write([]byte{0})
		binary.LittleEndian.PutUint64(num[:], uint64(f.Size))
		h.Write(num[:])
		binary.LittleEndian.PutUint64(num[:], uint64(t.mtime[i]))
		h.Write(num[:])
	}
	for _, d := range t.diags { // a new symlink or submodule changes the report
		h.Write([]byte(d.Rule + " " + d.Path + "\x00"))
	}
	r, prefix, err := openGit(root)
	if err != nil {
		return "", fmt.Errorf("open repository %s: %w", dir, err)
	}
	h.Write([]byte("head:" + prefix + "\x00"))
	if r != nil {
		ref, err := r.Head()
		switch {
		case errors.Is(err, plumbing.ErrReferenceNotFound):
			// No commits yet.
		case err != nil:
			return "", fmt.Errorf("open repository %s: %w", dir, err)
		default:
			h.Write([]byte(ref.Hash().String()))
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
