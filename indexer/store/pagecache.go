package store

import (
	"bufio"
	"bytes"
	"cmp"
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

	"github.com/engramhq/engram/indexer/secrets"
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
// It holds only what a passing build published (SPEC §6, "Caches hold
// only what was published"). Between builds:
//
//   - the index names pages of the output last published, each of which
//     passed that build's scan for secrets; a page's key holds the
//     scanner's, so it is served again only under the same scan;
//   - the pack ends where the last page the index names ends, and every
//     other byte of it is zero;
//   - there is no other pack.
//
// A build appends the pages it renders past that end as Hugo writes
// them, and when it ends:
//
//   - published: the index names the pages of its output; the bytes of
//     the others (a note changed, was deleted, turned private) are
//     zeroed, or the pack is compacted into a new one;
//   - refused by the scan of its output: the index names the pages it
//     reused (they passed the same scan when they were published); all
//     else, its own new pages first, is zeroed or cut off;
//   - failed or interrupted otherwise: the pack is cut back to where it
//     began, the index kept;
//   - published, but an append failed (a full disk): as when refused,
//     the index names only the pages it reused.
//
// Bytes are zeroed and synced before the index is replaced: a build
// killed in between leaves the old index naming zeros, which fail their
// SHA-256 (every page read is checked) and are rendered again. A build
// killed before it ends leaves pages past the end its index names, and
// perhaps a pack its index does not name; opening the store cuts off the
// first and removes the second before anything else, so what a killed
// build left is gone once the next build starts.

const (
	pagesIndex = "index"
	// pagesMagic starts the index. Format 2 is format 1 with the
	// invariant above (unnamed bytes are zero); an index of format 1 is
	// not read, and its packs are removed with it.
	pagesMagic  = "engram pages 2\n"
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
	// Reset is why the store was started afresh: its index was damaged,
	// cut short, or written by another engram (another format). Damaged
	// counts the pages the index named whose bytes failed their SHA-256
	// and were rendered again. Neither is ever served; both are said.
	Reset   error
	Damaged int
	// ScanKnown is how many of the output's other files the scan for
	// secrets left out: the same bytes passed the same scan in the
	// output last published (scanned.go).
	ScanKnown int
}

type pageEntry struct {
	off, n int64
	sum    [sha256.Size]byte
}

// PageStore is a page store open for one build.
type PageStore struct {
	dir  string
	lock *os.File
	pack *os.File
	name string // the pack's file name

	mu     sync.Mutex
	old    map[site.PageKey]pageEntry // the index the build started from
	used   map[site.PageKey]pageEntry // the next index
	put    []pageEntry                // what this build appended
	size   int64                      // the pack's size when opened
	end    int64                      // where the next page is appended
	broken error                      // a failed append: nothing more is kept
	reset  error                      // why the index was not read
	reused int
	kept   int
	damage int // pages whose bytes failed their SHA-256

	scanKey secrets.Sum   // the output scanner's key (scanned.go)
	scanned []secrets.Sum // the sums of the files of this build's output
	// scanKnown counts the files the output's scan left out: their bytes
	// passed it in the output last published.
	scanKnown int
	// parsed is the parse store's next file (parsecache.go), renamed
	// to the store's with the index of a published build; "" keeps the
	// one there.
	parsed string
}

// PagesDir is the page store of the repository repo, whose cache
// directory is under cacheDir (CacheDir).
func PagesDir(repo, cacheDir string) (string, error) {
	dir, err := CacheDir(repo, cacheDir)
	if err != nil {
		return "", err
	}
	return dir + ".pages", nil
}

// OpenPages opens the page store of repo for one build, first
// clearing what a killed build left (recover). A store that another
// build is using, or that cannot be read, is not used: the build renders
// every page (and says why in PageReuse.Err).
//
// parsed is the parse store's next file that this build wrote before
// it opened the store (parsecache.go): kept with a published output,
// and not taken for what a killed build left.
func OpenPages(repo, cacheDir string, parsed ...string) (*PageStore, error) {
	dir, err := PagesDir(repo, cacheDir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	// Try once: a build that waits here would wait for a whole other build.
	done, cancel := context.WithCancel(context.Background())
	cancel()
	lock, err := LockFile(done, filepath.Join(dir, pagesLock), func() {})
	if err != nil {
		return nil, fmt.Errorf("the page store %s is in use by another build: every page is rendered", dir)
	}
	s := &PageStore{dir: dir, lock: lock, used: map[site.PageKey]pageEntry{}}
	if len(parsed) > 0 {
		s.parsed = parsed[0]
	}
	if err := s.recover(); err != nil {
		s.close()
		return nil, fmt.Errorf("the page store %s: %w", dir, err)
	}
	return s, nil
}

// recover reads the index and brings the files back to it: the pack is
// cut off where the last page it names ends, and other packs (and index
// files a killed rename left) are removed. An index engram cannot read
// (another version's, damaged) is started afresh, and its pack removed:
// the store only ever saves time.
func (s *PageStore) recover() error {
	var err error
	s.name, s.old, err = readPagesIndex(filepath.Join(s.dir, pagesIndex))
	if err != nil {
		s.reset = err
		s.name, s.old = "", nil
		if err := os.Remove(filepath.Join(s.dir, pagesIndex)); err != nil {
			return err
		}
	}
	if s.name == "" {
		s.name = "pages-1.pack"
	}
	if err := removeExcept(s.dir, s.name, filepath.Base(s.parsed)); err != nil {
		return err
	}
	if s.pack, err = os.OpenFile(filepath.Join(s.dir, s.name), os.O_CREATE|os.O_RDWR, 0o644); err != nil {
		return err
	}
	st, err := s.pack.Stat()
	if err != nil {
		return err
	}
	s.size = min(st.Size(), extent(s.old))
	s.end = s.size
	if st.Size() > s.size {
		return s.cut(s.size)
	}
	return nil
}

// removeExcept removes the packs but keep, and the temporary files of an
// index rename that did not happen (or a parse store's file that a
// killed build wrote) but temp.
func removeExcept(dir, keep, temp string) error {
	packs, _ := filepath.Glob(filepath.Join(dir, "pages-*.pack"))
	temps, _ := filepath.Glob(filepath.Join(dir, ".engram-write-*"))
	for _, p := range append(packs, temps...) {
		if filepath.Base(p) == keep || filepath.Base(p) == temp {
			continue
		}
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

// extent is where the last of entries ends.
func extent(entries map[site.PageKey]pageEntry) int64 {
	var end int64
	for _, e := range entries {
		end = max(end, e.off+e.n)
	}
	return end
}

// Get returns the page kept under k, checked against its SHA-256.
func (s *PageStore) Get(k site.PageKey) ([]byte, bool) {
	e, ok := s.old[k] // read only after openPages
	if !ok {
		return nil, false
	}
	page := make([]byte, e.n)
	if e.off+e.n > s.size {
		page = nil // the pack was cut short
	} else if _, err := s.pack.ReadAt(page, e.off); err != nil || sha256.Sum256(page) != e.sum {
		page = nil
	}
	if page == nil {
		s.mu.Lock()
		s.damage++
		s.mu.Unlock()
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
func (s *PageStore) Put(k site.PageKey, page []byte) error {
	s.mu.Lock()
	if s.broken != nil {
		s.mu.Unlock()
		return nil
	}
	e := pageEntry{off: s.end, n: int64(len(page)), sum: sha256.Sum256(page)}
	s.end += e.n
	s.put = append(s.put, e)
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

// Commit ends the build that published its output: the pages it used
// become the store's index, every other page's bytes are zeroed (or the
// pack compacted), and the store is closed. A store an append failed
// (a full disk) keeps only the pages this build reused, as refuse does:
// they are of the output just published, and the pages of the one
// before that it did not use (a note turned private) go. Zeroing and
// cutting never grow a file, so a full disk does not stop them; if the
// index cannot be replaced, the old one names zeros, which fail their
// SHA-256.
func (s *PageStore) Commit() (PageReuse, error) {
	defer s.close()
	r := PageReuse{Reused: s.reused, Rendered: s.kept, Reset: s.reset, Damaged: s.damage, ScanKnown: s.scanKnown}
	if s.broken != nil {
		return r, errors.Join(s.broken, s.keep(s.reusedEntries()), s.writeScanned())
	}
	return r, errors.Join(s.keep(s.used), s.writeScanned(), s.keepParsed())
}

// reusedEntries are the pages this build took from the store, as the
// index it started from names them.
func (s *PageStore) reusedEntries() map[site.PageKey]pageEntry {
	reused := map[site.PageKey]pageEntry{}
	for k, e := range s.used {
		if s.old[k] == e {
			reused[k] = e
		}
	}
	return reused
}

// Refuse ends the build whose output its scan for secrets refused: the
// index keeps the pages the build reused, which passed the same scan
// when they were published, and nothing else; the bytes of the rest,
// this build's new pages first, are zeroed or cut off.
func (s *PageStore) Refuse() error {
	defer s.close()
	return s.keep(s.reusedEntries())
}

// Abort ends a build that failed or was interrupted before its output
// was scanned: the pack is cut back to where it began (the pages this
// build appended were never scanned), and the index is kept.
func (s *PageStore) Abort() error {
	defer s.close()
	return s.cut(s.size)
}

// keep makes entries the store's index. The bytes of every other page
// go first, zeroed in place or left behind in the pack that compaction
// replaces, so that a build killed before the index is replaced leaves
// nothing that index does not name.
func (s *PageStore) keep(entries map[site.PageKey]pageEntry) error {
	var live int64
	for _, e := range entries {
		live += e.n
	}
	name := s.name
	var err error
	if s.end > compactAbove && s.end > 2*live {
		name, entries, err = s.compact(entries)
	} else {
		err = s.zero(entries)
	}
	if err != nil {
		return fmt.Errorf("keep the pages: %w", err)
	}
	if err := WriteFileAtomic(filepath.Join(s.dir, pagesIndex), encodePagesIndex(name, entries), 0o644); err != nil {
		return fmt.Errorf("keep the pages: %w", err)
	}
	// The pack compaction replaced, with the pages no build names.
	return removeExcept(s.dir, name, filepath.Base(s.parsed))
}

// zero overwrites with zeros the bytes of the pages the index names and
// the pages this build appended, except those of entries (the next
// index), cuts the pack off where the last of entries ends, and syncs
// it. Bytes neither names are zero already.
func (s *PageStore) zero(entries map[site.PageKey]pageEntry) error {
	var dead, live []pageEntry
	for k, e := range s.old {
		if entries[k] != e {
			dead = append(dead, e)
		}
	}
	dead = append(dead, s.put...)
	for _, e := range entries {
		live = append(live, e)
	}
	end := extent(entries)
	zeros := make([]byte, 1<<16)
	for _, r := range without(dead, live) {
		for off := r.off; off < min(r.off+r.n, end); {
			n := min(int64(len(zeros)), r.off+r.n-off, end-off)
			if _, err := s.pack.WriteAt(zeros[:n], off); err != nil {
				return err
			}
			off += n
		}
	}
	return s.cut(end)
}

// without is the byte ranges of dead that no range of live overlaps,
// merged and in order. A page listed in both (a damaged index may say
// so) is kept: live bytes are never zeroed.
func without(dead, live []pageEntry) []pageEntry {
	byOff := func(a, b pageEntry) int { return cmp.Compare(a.off, b.off) }
	slices.SortFunc(dead, byOff)
	slices.SortFunc(live, byOff)
	var out []pageEntry
	j := 0
	for _, d := range dead {
		from, to := d.off, d.off+d.n
		for ; j < len(live) && live[j].off+live[j].n <= from; j++ {
		}
		for k := j; k < len(live) && live[k].off < to && from < to; k++ {
			if live[k].off > from {
				out = appendRange(out, from, live[k].off)
			}
			from = max(from, live[k].off+live[k].n)
		}
		if from < to {
			out = appendRange(out, from, to)
		}
	}
	return out
}

// appendRange appends [from, to) to ranges in order, merged with the last
// when they touch.
func appendRange(ranges []pageEntry, from, to int64) []pageEntry {
	if n := len(ranges); n > 0 && ranges[n-1].off+ranges[n-1].n >= from {
		last := &ranges[n-1]
		last.n = max(last.n, to-last.off)
		return ranges
	}
	return append(ranges, pageEntry{off: from, n: to - from})
}

// cut truncates the pack to size bytes and syncs it.
func (s *PageStore) cut(size int64) error {
	if err := s.pack.Truncate(size); err != nil {
		return err
	}
	return s.pack.Sync()
}

// compact writes the pages of entries into a new pack, synced, and
// returns its name and where each page is in it; the index is then
// pointed at it, and the old pack removed.
func (s *PageStore) compact(entries map[site.PageKey]pageEntry) (string, map[site.PageKey]pageEntry, error) {
	var n int
	fmt.Sscanf(s.name, "pages-%d.pack", &n)
	name := fmt.Sprintf("pages-%d.pack", n+1)
	f, err := os.Create(filepath.Join(s.dir, name))
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	moved := make(map[site.PageKey]pageEntry, len(entries))
	var off int64
	for _, k := range sortedKeys(entries) {
		e := entries[k]
		if _, err := io.Copy(w, io.NewSectionReader(s.pack, e.off, e.n)); err != nil {
			return "", nil, err
		}
		moved[k] = pageEntry{off: off, n: e.n, sum: e.sum}
		off += e.n
	}
	if err := w.Flush(); err != nil {
		return "", nil, err
	}
	if err := f.Sync(); err != nil {
		return "", nil, err
	}
	return name, moved, nil
}

func (s *PageStore) close() {
	if s.pack != nil {
		s.pack.Close()
		s.pack = nil
	}
	if s.lock != nil {
		UnlockFile(s.lock)
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
