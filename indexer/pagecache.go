package indexer

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/engramhq/engram/site"
)

// The page store is the site's PageCache on disk, beside a repository's
// query cache: <cache>/<repo key>.pages/. It is what makes a build
// incremental: a page whose key (its content, the templates, the binary;
// site/pagecache.go) an earlier build kept is written from here, not
// rendered again.
//
//	pages-<n>.pack  the pages' bytes, one after another; a build appends
//	index           which pack, then each page's key, offset, length
//	                and SHA-256 of its bytes; replaced whole (renamed)
//	lock            held by the build using the store
//
// A build appends the pages it renders to the pack as Hugo writes them,
// and replaces the index only once its output is published. A build
// killed on the way leaves the old index, which names only bytes written
// before it: the next build reads what the old one kept, and the bytes
// appended after are garbage, which compaction drops. Every page read is
// checked against its SHA-256; one that fails is rendered again.

const (
	pagesIndex  = "index"
	pagesMagic  = "engram pages 1\n"
	pagesLock   = "lock"
	entryLength = sha256.Size + 8 + 8 + sha256.Size
	// A pack is rewritten with only the pages the last build used once
	// more than half of it is garbage (and it is worth the write).
	compactAbove = 64 << 20
)

// PageReuse is what a build took from the page store and gave to it.
type PageReuse struct {
	// Reused pages were written from the store; Rendered ones were
	// rendered by Hugo and kept in it (a list page is neither).
	Reused, Rendered int
	// Err is why the store could not be used or updated; the build
	// itself is good.
	Err error
}

type pageEntry struct {
	off, n int64
	sum    [sha256.Size]byte
}

// pageStore is a page store open for one build.
type pageStore struct {
	dir  string
	lock *os.File
	pack *os.File
	name string // the pack's file name

	mu     sync.Mutex
	old    map[site.PageKey]pageEntry // the index the build started from
	used   map[site.PageKey]pageEntry // the next index
	size   int64                      // the pack's size when opened
	end    int64                      // where the next page is appended
	broken error                      // a failed append: nothing more is kept
	reused int
	kept   int
}

// pagesDir is the page store of the repository opt.Repo.
func pagesDir(opt Options) (string, error) {
	dir, err := cacheDir(opt.Repo, opt.CacheDir)
	if err != nil {
		return "", err
	}
	return dir + ".pages", nil
}

// openPages opens the page store of opt.Repo for one build. A store that
// another build is using, or that cannot be read, is not used: the build
// renders every page (and says why in PageReuse.Err).
func openPages(opt Options) (*pageStore, error) {
	dir, err := pagesDir(opt)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	// Try once: a build that waits here would wait for a whole other build.
	done, cancel := context.WithCancel(context.Background())
	cancel()
	lock, err := lockFile(done, filepath.Join(dir, pagesLock), func() {})
	if err != nil {
		return nil, fmt.Errorf("the page store %s is in use by another build: every page is rendered", dir)
	}
	s := &pageStore{dir: dir, lock: lock, used: map[site.PageKey]pageEntry{}}
	s.name, s.old, err = readPagesIndex(filepath.Join(dir, pagesIndex))
	if err != nil {
		// An index engram cannot read (another version's, damaged) is
		// started afresh: the store only ever saves time.
		s.name, s.old = "", nil
	}
	if s.name == "" {
		s.name = "pages-1.pack"
	}
	s.pack, err = os.OpenFile(filepath.Join(dir, s.name), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		s.close()
		return nil, err
	}
	st, err := s.pack.Stat()
	if err != nil {
		s.close()
		return nil, err
	}
	s.size, s.end = st.Size(), st.Size()
	return s, nil
}

// Get returns the page kept under k, checked against its SHA-256.
func (s *pageStore) Get(k site.PageKey) ([]byte, bool) {
	e, ok := s.old[k] // read only after openPages
	if !ok || e.off+e.n > s.size {
		return nil, false
	}
	page := make([]byte, e.n)
	if _, err := s.pack.ReadAt(page, e.off); err != nil || sha256.Sum256(page) != e.sum {
		return nil, false
	}
	s.mu.Lock()
	s.used[k] = e
	s.reused++
	s.mu.Unlock()
	return page, true
}

// Put appends page to the pack. A page that cannot be kept is dropped:
// the build goes on, and the next renders it again.
func (s *pageStore) Put(k site.PageKey, page []byte) error {
	s.mu.Lock()
	if s.broken != nil {
		s.mu.Unlock()
		return nil
	}
	e := pageEntry{off: s.end, n: int64(len(page)), sum: sha256.Sum256(page)}
	s.end += e.n
	s.mu.Unlock()
	_, err := s.pack.WriteAt(page, e.off)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		s.broken = fmt.Errorf("keep a page in %s: %w", s.dir, err)
		return nil
	}
	s.used[k] = e
	s.kept++
	return nil
}

// commit makes the pages this build used the store's index, compacting
// the pack when most of it is garbage, and closes the store.
func (s *pageStore) commit() (PageReuse, error) {
	defer s.close()
	r := PageReuse{Reused: s.reused, Rendered: s.kept}
	if s.broken != nil {
		return r, s.broken
	}
	var live int64
	for _, e := range s.used {
		live += e.n
	}
	name := s.name
	if s.end > compactAbove && s.end > 2*live {
		var err error
		if name, err = s.compact(); err != nil {
			return r, err
		}
	} else if err := s.pack.Sync(); err != nil {
		return r, fmt.Errorf("keep the pages: %w", err)
	}
	if err := WriteFileAtomic(filepath.Join(s.dir, pagesIndex), encodePagesIndex(name, s.used), 0o644); err != nil {
		return r, fmt.Errorf("keep the pages: %w", err)
	}
	// Packs the index no longer names: an earlier compaction's, or one a
	// killed compaction left.
	packs, _ := filepath.Glob(filepath.Join(s.dir, "pages-*.pack"))
	for _, p := range packs {
		if filepath.Base(p) != name {
			os.Remove(p)
		}
	}
	return r, nil
}

// compact writes the pages this build used into a new pack, synced, and
// returns its name; the index is then pointed at it.
func (s *pageStore) compact() (string, error) {
	var n int
	fmt.Sscanf(s.name, "pages-%d.pack", &n)
	name := fmt.Sprintf("pages-%d.pack", n+1)
	f, err := os.Create(filepath.Join(s.dir, name))
	if err != nil {
		return "", fmt.Errorf("compact the pages: %w", err)
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	var off int64
	for _, k := range sortedKeys(s.used) {
		e := s.used[k]
		if _, err := io.Copy(w, io.NewSectionReader(s.pack, e.off, e.n)); err != nil {
			return "", fmt.Errorf("compact the pages: %w", err)
		}
		s.used[k] = pageEntry{off: off, n: e.n, sum: e.sum}
		off += e.n
	}
	if err := w.Flush(); err != nil {
		return "", fmt.Errorf("compact the pages: %w", err)
	}
	if err := f.Sync(); err != nil {
		return "", fmt.Errorf("compact the pages: %w", err)
	}
	return name, nil
}

// abort closes the store without changing its index.
func (s *pageStore) abort() { s.close() }

func (s *pageStore) close() {
	if s.pack != nil {
		s.pack.Close()
		s.pack = nil
	}
	if s.lock != nil {
		unlockFile(s.lock)
		s.lock = nil
	}
}

// sortedKeys are the keys of entries in byte order: the index and a
// compacted pack list the pages in it.
func sortedKeys(entries map[site.PageKey]pageEntry) []site.PageKey {
	return slices.SortedFunc(maps.Keys(entries), func(a, b site.PageKey) int { return bytes.Compare(a[:], b[:]) })
}

func encodePagesIndex(pack string, entries map[site.PageKey]pageEntry) []byte {
	var b bytes.Buffer
	b.WriteString(pagesMagic)
	b.WriteString(pack + "\n")
	for _, k := range sortedKeys(entries) {
		e := entries[k]
		b.Write(k[:])
		b.Write(binary.BigEndian.AppendUint64(nil, uint64(e.off)))
		b.Write(binary.BigEndian.AppendUint64(nil, uint64(e.n)))
		b.Write(e.sum[:])
	}
	return b.Bytes()
}

// readPagesIndex reads an index: the pack it names and its entries. No
// index is an empty store.
func readPagesIndex(path string) (string, map[site.PageKey]pageEntry, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil, nil
	}
	if err != nil {
		return "", nil, err
	}
	rest, ok := bytes.CutPrefix(data, []byte(pagesMagic))
	if !ok {
		return "", nil, fmt.Errorf("%s: not a page index of this engram", path)
	}
	line, rest, ok := bytes.Cut(rest, []byte("\n"))
	name := string(line)
	if !ok || len(rest)%entryLength != 0 || !strings.HasPrefix(name, "pages-") || filepath.Base(name) != name {
		return "", nil, fmt.Errorf("%s: damaged", path)
	}
	entries := make(map[site.PageKey]pageEntry, len(rest)/entryLength)
	for ; len(rest) > 0; rest = rest[entryLength:] {
		var k site.PageKey
		copy(k[:], rest)
		e := pageEntry{off: int64(binary.BigEndian.Uint64(rest[32:])), n: int64(binary.BigEndian.Uint64(rest[40:]))}
		copy(e.sum[:], rest[48:])
		if e.off < 0 || e.n < 0 {
			return "", nil, fmt.Errorf("%s: damaged", path)
		}
		entries[k] = e
	}
	return name, entries, nil
}
