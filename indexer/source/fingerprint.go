package source

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// Fingerprint identifies the state of the repository at dir as Open would
// read it: every file of the working tree (path, size and modification
// time), the commit HEAD names, and the git index and info/exclude (what
// git tracks decides what Open lists). It reads no file and walks no history,
// so a query can tell in milliseconds whether a cache built from an
// earlier state still holds. Files for which skip returns true (engram's
// own output inside the repository) are left out; skip may be nil.
func Fingerprint(dir string, skip func(path string) bool) (string, error) {
	root, err := resolveDir(dir)
	if err != nil {
		return "", err
	}
	entries, err := statTree(root)
	if err != nil {
		return "", fmt.Errorf("open repository %s: %w", dir, err)
	}
	h := sha256.New()
	var num [8]byte
	for _, e := range entries {
		if skip != nil && skip(e.path) {
			continue
		}
		h.Write([]byte(e.path))
		h.Write([]byte{0, e.kind})
		binary.LittleEndian.PutUint64(num[:], uint64(e.size))
		h.Write(num[:])
		binary.LittleEndian.PutUint64(num[:], uint64(e.mtime))
		h.Write(num[:])
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
		// What git tracks decides what is read: staging a file, or a
		// new exclude rule, changes the state too.
		if st, ok := r.Storer.(*filesystem.Storage); ok {
			for _, name := range []string{"index", "info/exclude"} {
				h.Write([]byte("\x00" + name))
				if fi, err := os.Stat(filepath.Join(st.Filesystem().Root(), filepath.FromSlash(name))); err == nil {
					binary.LittleEndian.PutUint64(num[:], uint64(fi.Size()))
					h.Write(num[:])
					binary.LittleEndian.PutUint64(num[:], uint64(fi.ModTime().UnixNano()))
					h.Write(num[:])
				}
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// statEntry is what the fingerprint knows of one path of the tree.
type statEntry struct {
	path        string
	kind        byte // 'f' file, 'l' symlink, 's' submodule, 'p' engram output, 'o' other, 'u' unreadable
	size, mtime int64
}

// statTree lists the tree as walkTree sees it (the same files, the same
// symlinks, submodules and special files), with each file's size and
// modification time. The file system of a working tree is often slow to
// answer (a network or overlay mount) but answers many requests at once,
// so directories are read and files stat'ed concurrently; the result is
// sorted by path.
func statTree(root string) ([]statEntry, error) {
	top, err := os.ReadDir(root)
	if err != nil {
		return nil, unwrapPath(err)
	}
	var (
		mu  sync.Mutex
		out []statEntry
		wg  sync.WaitGroup
		sem = make(chan struct{}, 32)
	)
	add := func(e statEntry) {
		mu.Lock()
		out = append(out, e)
		mu.Unlock()
	}
	var visit func(rel string, entries []fs.DirEntry)
	visit = func(rel string, entries []fs.DirEntry) {
		for _, e := range entries {
			p := path.Join(rel, e.Name())
			switch typ := e.Type(); {
			case rel == "" && e.Name() == ".git":
			case typ&fs.ModeSymlink != 0:
				add(statEntry{path: p, kind: 'l'})
			case typ.IsDir():
				wg.Add(1)
				go func() {
					defer wg.Done()
					sem <- struct{}{}
					entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(p)))
					<-sem
					switch {
					case err != nil:
						add(statEntry{path: p, kind: 'u'})
					case hasGit(entries):
						add(statEntry{path: p, kind: 's'})
					case isOutput(filepath.Join(root, filepath.FromSlash(p)), entries):
						add(statEntry{path: p, kind: 'p'})
					default:
						visit(p, entries)
					}
				}()
			case typ.IsRegular():
				wg.Add(1)
				go func() {
					defer wg.Done()
					sem <- struct{}{}
					info, err := e.Info()
					<-sem
					if err != nil {
						add(statEntry{path: p, kind: 'u'})
						return
					}
					add(statEntry{path: p, kind: 'f', size: info.Size(), mtime: info.ModTime().UnixNano()})
				}()
			default:
				add(statEntry{path: p, kind: 'o'})
			}
		}
	}
	visit("", top)
	wg.Wait()
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out, nil
}
