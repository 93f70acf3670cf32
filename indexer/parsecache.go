package indexer

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
	"github.com/engramhq/engram/site"
	"golang.org/x/sync/errgroup"
)

// The parse store: <store>/parsed keeps what parsing gave for each note
// of the output last published (the note and its diagnostics), by the
// SHA-256 of the note's path and of the bytes read (after redaction). A
// build parses only the notes whose key it does not hold: per-note work
// once per note content (issue 30, decision 2).
//
//	magic, the parser's key, then chunks (each its length and a gob
//	stream of up to parsedChunk entries), then the SHA-256 of all
//	that comes before it
//
// The file is written as it is encoded, beside the store's (a temporary
// file, as the page store's pack grows during a build), and takes the
// store's name only once the output is published; a build refused,
// failed or killed leaves it to be removed. Neither writing nor reading
// it holds more than a few chunks' bytes at once (at 100,000 notes the
// file is 140 MB).
//
// The parser's key is the binary's (site.BinaryID: any change of code
// changes it) and the folders that say what a note is (engram.toml
// [paths]): a parse is a function of these and the key of its entry.
//
// Like the page store, it holds only what a build published (SPEC §6,
// "Caches hold only what was published"): it is written when a build's
// output is published, with the notes that output holds, and never a
// private note. An entry that does not come back from gob as it went in
// (a value gob cannot carry exactly) is left out, and parsed every time.
// A file that is damaged, cut short or of another key is not read, and
// the build says so.

const (
	parsedFile  = "parsed"
	parsedMagic = "engram parsed 1\n"
	// parsedChunk bounds what one gob stream holds: gob's types go once
	// per stream, and a round trip is checked one chunk at a time.
	parsedChunk = 1024
)

// ParseReuse is what a build took from the parse store.
type ParseReuse struct {
	// Reused notes were taken from the store; Parsed ones were parsed.
	Reused, Parsed int
	// Reset is why the store's file was not read (damaged, cut short,
	// another engram's); nil when it was read or there was none.
	Reset error
	// Err is why the next file could not be made: the store keeps the
	// one it had, and the build itself is good.
	Err error
}

// parsedEntry is one note as parsing gave it.
type parsedEntry struct {
	Sum   [sha256.Size]byte
	Note  note.Note
	Diags []note.Diagnostic
}

// parseCache is the parse store as one build uses it.
type parseCache struct {
	key [sha256.Size]byte
	old map[[sha256.Size]byte]*parsedEntry

	dir string // the store's folder; "" when there is none

	mu    sync.Mutex // guards what parseAll's goroutines record
	sums  map[string][sha256.Size]byte
	diags map[string][]note.Diagnostic
	reuse ParseReuse
	// next is the temporary file that becomes the store's file when the
	// build is published; "" when there is none.
	next string
}

// parseKey is the key of the parser: the binary and the roots.
func parseKey(roots parse.Roots) [sha256.Size]byte {
	h := sha256.New()
	for _, f := range [][]byte{[]byte(parsedMagic), site.BinaryID(), []byte(strings.Join(roots.Episodes, "\x00")), []byte(strings.Join(roots.Patterns, "\x00"))} {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(f)))
		h.Write(n[:])
		h.Write(f)
	}
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

// contentSum is the key of a note's entry.
func contentSum(path string, src []byte) [sha256.Size]byte {
	h := sha256.New()
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(path)))
	h.Write(n[:])
	h.Write([]byte(path))
	h.Write(src)
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

// openParseCache reads the parse store of opt.Repo for a parser with
// roots. It never fails: a store it cannot use is one that holds
// nothing, and why is in reuse.Reset (a file that is missing is no
// reason).
func openParseCache(opt Options, roots parse.Roots) *parseCache {
	registerGob()
	pc := &parseCache{key: parseKey(roots), sums: map[string][sha256.Size]byte{}, diags: map[string][]note.Diagnostic{}}
	dir, err := pagesDir(opt)
	if err != nil {
		return pc
	}
	pc.dir = dir
	f, err := os.Open(filepath.Join(dir, parsedFile))
	if errors.Is(err, os.ErrNotExist) {
		return pc
	}
	if err == nil {
		pc.old, err = decodeParsed(f, pc.key)
		f.Close()
	}
	if err != nil {
		pc.reuse.Reset = err
		pc.old = nil
	}
	return pc
}

// decodeParsed reads the entries of a parse store's file; none, and no
// error, for another parser's.
func decodeParsed(f *os.File, key [sha256.Size]byte) (map[[sha256.Size]byte]*parsedEntry, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	head := int64(len(parsedMagic) + sha256.Size)
	if st.Size() < head+sha256.Size {
		return nil, errors.New("it is not a parse store, or is cut short")
	}
	h := sha256.New()
	r := bufio.NewReader(io.TeeReader(io.LimitReader(f, st.Size()-sha256.Size), h))
	first := make([]byte, head)
	if _, err := io.ReadFull(r, first); err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(first, []byte(parsedMagic)) {
		return nil, errors.New("it is not a parse store")
	}
	if !bytes.Equal(first[len(parsedMagic):], key[:]) {
		return nil, nil // another binary's: unused, and nothing to say
	}
	old := map[[sha256.Size]byte]*parsedEntry{}
	left := st.Size() - sha256.Size - head
	var n [8]byte
	for left > 0 {
		if _, err := io.ReadFull(r, n[:]); err != nil || binary.BigEndian.Uint64(n[:]) > uint64(left-8) {
			return nil, errors.New("a chunk runs past its end: damaged or cut short")
		}
		size := int64(binary.BigEndian.Uint64(n[:]))
		var chunk []parsedEntry
		lr := io.LimitReader(r, size)
		if err := gob.NewDecoder(lr).Decode(&chunk); err != nil {
			return nil, fmt.Errorf("a chunk does not decode (damaged): %w", err)
		}
		if _, err := io.Copy(io.Discard, lr); err != nil {
			return nil, err
		}
		for i := range chunk {
			old[chunk[i].Sum] = &chunk[i]
		}
		left -= 8 + size
	}
	sum := make([]byte, sha256.Size)
	if _, err := f.ReadAt(sum, st.Size()-sha256.Size); err != nil {
		return nil, err
	}
	if !bytes.Equal(sum, h.Sum(nil)) {
		return nil, errors.New("its bytes fail their SHA-256: damaged")
	}
	return old, nil
}

// get returns the parse of the note at path with bytes src, if the store
// holds it, and records its key for the next store.
func (pc *parseCache) get(path string, src []byte) (parsed, [sha256.Size]byte, bool) {
	sum := contentSum(path, src)
	e, ok := pc.old[sum] // read only once opened
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if !ok {
		pc.reuse.Parsed++
		return parsed{}, sum, false
	}
	pc.reuse.Reused++
	pc.record(path, sum, e.Diags)
	return parsed{note: e.Note, diags: e.Diags, ok: true}, sum, true
}

// put records the parse of a note that was parsed, to keep it.
func (pc *parseCache) put(path string, sum [sha256.Size]byte, diags []note.Diagnostic) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	pc.record(path, sum, diags)
}

func (pc *parseCache) record(path string, sum [sha256.Size]byte, diags []note.Diagnostic) {
	pc.sums[path] = sum
	pc.diags[path] = diags
}

// keep writes the next store's file from the notes a build publishes,
// as parsing gave them: call it before anything changes them. A private
// note is never kept; nor is one gob does not give back as it went in.
// What keeps it from being written is said in reuse.Err.
func (pc *parseCache) keep(notes []note.Note) {
	if pc.dir == "" {
		return
	}
	var entries []parsedEntry
	for _, n := range notes {
		sum, ok := pc.sums[n.Path]
		if !ok || n.Private || !gobSafe(reflect.ValueOf(n.Extra)) {
			continue
		}
		entries = append(entries, parsedEntry{Sum: sum, Note: n, Diags: pc.diags[n.Path]})
	}
	next, err := writeParsed(pc.dir, pc.key, entries)
	if err != nil {
		pc.reuse.Err = fmt.Errorf("the parse store cannot keep the notes: %w", err)
		return
	}
	pc.next = next
}

// writeParsed writes entries as a parse store's file, in a temporary
// file in dir whose name it returns. Chunks are encoded (and checked)
// on every core, a few at a time, and written in order as they come.
func writeParsed(dir string, key [sha256.Size]byte, entries []parsedEntry) (name string, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	f, err := os.CreateTemp(dir, ".engram-write-parsed-*")
	if err != nil {
		return "", err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(f.Name())
		}
	}()
	h := sha256.New()
	w := bufio.NewWriter(f)
	out := io.MultiWriter(w, h)
	out.Write([]byte(parsedMagic))
	out.Write(key[:])
	wave := runtime.GOMAXPROCS(0)
	chunks := make([][]byte, wave)
	for start := 0; start < len(entries); start += wave * parsedChunk {
		var g errgroup.Group
		for i := range wave {
			from := start + i*parsedChunk
			chunks[i] = nil
			if from >= len(entries) {
				break
			}
			g.Go(func() (err error) {
				chunks[i], err = roundTrip(entries[from:min(from+parsedChunk, len(entries))])
				return err
			})
		}
		if err := g.Wait(); err != nil {
			return "", err
		}
		for _, c := range chunks {
			if c != nil {
				out.Write(binary.BigEndian.AppendUint64(nil, uint64(len(c))))
				out.Write(c)
			}
		}
	}
	w.Write(h.Sum(nil))
	if err := w.Flush(); err != nil {
		return "", err
	}
	return f.Name(), f.Sync()
}

// roundTrip encodes entries as one gob stream, keeping only those that
// decode equal to what went in.
func roundTrip(entries []parsedEntry) ([]byte, error) {
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(entries); err != nil {
		return nil, err
	}
	var back []parsedEntry
	if err := gob.NewDecoder(bytes.NewReader(b.Bytes())).Decode(&back); err != nil {
		return nil, err
	}
	same := entries[:0:0]
	for i := range entries {
		if i < len(back) && reflect.DeepEqual(back[i], entries[i]) {
			same = append(same, entries[i])
		}
	}
	if len(same) == len(entries) {
		return b.Bytes(), nil
	}
	b.Reset()
	err := gob.NewEncoder(&b).Encode(same)
	return b.Bytes(), err
}

// gobSafe says whether v, a value of a note's front matter, holds only
// the types the parse store registers with gob: an entry with another
// would fail the whole stream.
func gobSafe(v reflect.Value) bool {
	if !v.IsValid() {
		return true
	}
	switch x := v.Interface().(type) {
	case nil, string, bool, int, int64, float64, time.Time:
		return true
	case []any:
		for _, e := range x {
			if !gobSafe(reflect.ValueOf(e)) {
				return false
			}
		}
		return true
	case map[string]any:
		for _, e := range x {
			if !gobSafe(reflect.ValueOf(e)) {
				return false
			}
		}
		return true
	}
	return false
}

// registerGob registers the types a note's front matter holds under an
// interface, once.
var registerGob = sync.OnceFunc(func() {
	gob.Register(map[string]any{})
	gob.Register([]any{})
	gob.Register(time.Time{})
})

// keepParsed gives the parse store's file the one a published build
// wrote. A rename that fails leaves the old one, which holds only what
// an earlier output published.
func (s *pageStore) keepParsed() error {
	if s.parsed == "" {
		return nil
	}
	return os.Rename(s.parsed, filepath.Join(s.dir, parsedFile))
}

// discard removes the file the build wrote for the parse store, if it
// was not kept: the build was not published.
func (pc *parseCache) discard() {
	if pc != nil && pc.next != "" {
		os.Remove(pc.next)
	}
}
