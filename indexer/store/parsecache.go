package store

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
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
//	magic, the parser's key, then chunks (each its key, its length and
//	its entries in JSON), then the SHA-256 of all that comes before it
//
// A note goes in the chunk of its bucket (the first byte of its path's
// SHA-256), and a chunk's key is the SHA-256 of its entries' keys: a
// chunk whose notes did not change has the same key, and its bytes are
// copied into the next file, not encoded again. A one-note edit
// encodes one chunk of 256.
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
// private note. An entry that does not come back as it went in (a value
// the encoding cannot carry exactly) is left out, and parsed every time.
// A file that is damaged, cut short or of another key is not read, and
// the build says so.

const (
	ParsedFile  = "parsed"
	ParsedMagic = "engram parsed 3\n"
	// parsedBuckets is how many chunks the notes are spread over.
	parsedBuckets = 256
)

// ParseReuse is what a build took from the parse store.
type ParseReuse struct {
	// Reused notes were taken from the store; Parsed ones were parsed.
	Reused, Parsed int
	// Encoded is how many of the next file's chunks were encoded; the
	// others were copied from the file read (their notes unchanged).
	Encoded int
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

// ParseCache is the parse store as one build uses it.
type ParseCache struct {
	key [sha256.Size]byte
	old map[[sha256.Size]byte]*parsedEntry
	// file is the store's file as it was read, open until keep has
	// copied from it the chunks that did not change (chunks, by key).
	file   *os.File
	chunks map[[sha256.Size]byte]chunkRef

	dir string // the store's folder; "" when there is none

	mu sync.Mutex // guards what parseAll's goroutines record
	// read is each note parsed or taken from the store, by path: its
	// entry less the note, which keep takes from the notes published.
	read  map[string]parsedEntry
	reuse ParseReuse
	// next is the temporary file that becomes the store's file when the
	// build is published; "" when there is none.
	next string
}

// parseKey is the key of the parser: the binary and the roots.
func parseKey(roots parse.Roots) [sha256.Size]byte {
	return fieldsSum([]byte(ParsedMagic), site.BinaryID(), []byte(strings.Join(roots.Episodes, "\x00")), []byte(strings.Join(roots.Patterns, "\x00")))
}

// contentSum is the key of a note's entry.
func contentSum(path string, src []byte) [sha256.Size]byte {
	return fieldsSum([]byte(path), src)
}

// fieldsSum is the SHA-256 of fields, each after its length, so that no
// two lists of fields share one.
func fieldsSum(fields ...[]byte) [sha256.Size]byte {
	h := sha256.New()
	for _, f := range fields {
		h.Write(binary.BigEndian.AppendUint64(nil, uint64(len(f))))
		h.Write(f)
	}
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

// OpenParseCache reads the parse store of repo for a parser with
// roots. It never fails: a store it cannot use is one that holds
// nothing, and why is in reuse.Reset (a file that is missing is no
// reason).
func OpenParseCache(repo, cacheDir string, roots parse.Roots) *ParseCache {
	pc := &ParseCache{key: parseKey(roots), read: map[string]parsedEntry{}}
	dir, err := PagesDir(repo, cacheDir)
	if err != nil {
		return pc
	}
	pc.dir = dir
	f, err := os.Open(filepath.Join(dir, ParsedFile))
	if errors.Is(err, os.ErrNotExist) {
		return pc
	}
	if err == nil {
		pc.old, pc.chunks, err = decodeParsed(f, pc.key)
		pc.file = f
	}
	if err != nil {
		pc.reuse.Reset = err
		pc.old, pc.chunks = nil, nil
	}
	return pc
}

// chunkRef is where a chunk's entries are in the store's file.
type chunkRef struct{ off, n int64 }

// decodeParsed reads the entries of a parse store's file, and where
// each chunk is; none, and no error, for another parser's.
func decodeParsed(f *os.File, key [sha256.Size]byte) (map[[sha256.Size]byte]*parsedEntry, map[[sha256.Size]byte]chunkRef, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	head := int64(len(ParsedMagic) + sha256.Size)
	if st.Size() < head+sha256.Size {
		return nil, nil, errors.New("it is not a parse store, or is cut short")
	}
	h := sha256.New()
	r := bufio.NewReader(io.TeeReader(io.LimitReader(f, st.Size()-sha256.Size), h))
	first := make([]byte, head)
	if _, err := io.ReadFull(r, first); err != nil {
		return nil, nil, err
	}
	if !bytes.HasPrefix(first, []byte(ParsedMagic)) {
		return nil, nil, errors.New("it is not a parse store (or another engram's)")
	}
	if !bytes.Equal(first[len(ParsedMagic):], key[:]) {
		return nil, nil, nil // another binary's: unused, and nothing to say
	}
	old := map[[sha256.Size]byte]*parsedEntry{}
	chunks := map[[sha256.Size]byte]chunkRef{}
	off, end := head, st.Size()-sha256.Size
	var hdr [sha256.Size + 8]byte
	// Chunks are read in order (the SHA-256 runs over them) and decoded
	// on every core, a few at a time.
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	var mu sync.Mutex
	defer g.Wait()
	for off < end {
		if _, err := io.ReadFull(r, hdr[:]); err != nil || binary.BigEndian.Uint64(hdr[sha256.Size:]) > uint64(end-off-int64(len(hdr))) {
			return nil, nil, errors.New("a chunk runs past its end: damaged or cut short")
		}
		ref := chunkRef{off: off + int64(len(hdr)), n: int64(binary.BigEndian.Uint64(hdr[sha256.Size:]))}
		data := make([]byte, ref.n)
		if _, err := io.ReadFull(r, data); err != nil {
			return nil, nil, errors.New("a chunk is cut short")
		}
		g.Go(func() error {
			entries, err := decodeChunk(data)
			if err != nil {
				return fmt.Errorf("a chunk does not decode (damaged): %w", err)
			}
			mu.Lock()
			defer mu.Unlock()
			for _, e := range entries {
				old[e.Sum] = e
			}
			return nil
		})
		chunks[[sha256.Size]byte(hdr[:sha256.Size])] = ref
		off = ref.off + ref.n
	}
	if err := g.Wait(); err != nil {
		return nil, nil, err
	}
	sum := make([]byte, sha256.Size)
	if _, err := f.ReadAt(sum, end); err != nil {
		return nil, nil, err
	}
	if !bytes.Equal(sum, h.Sum(nil)) {
		return nil, nil, errors.New("its bytes fail their SHA-256: damaged")
	}
	return old, chunks, nil
}

// Get returns the parse of the note at path with bytes src, if the store
// holds it (ok), and records its key for the next store; sum is the key
// Put takes when it does not.
func (pc *ParseCache) Get(path string, src []byte) (n note.Note, diags []note.Diagnostic, sum [sha256.Size]byte, ok bool) {
	sum = contentSum(path, src)
	e, ok := pc.old[sum] // read only once opened
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if !ok {
		pc.reuse.Parsed++
		return note.Note{}, nil, sum, false
	}
	pc.reuse.Reused++
	pc.record(path, sum, e.Diags)
	return e.Note, e.Diags, sum, true
}

// Put records the parse of a note that was parsed, to keep it.
func (pc *ParseCache) Put(path string, sum [sha256.Size]byte, diags []note.Diagnostic) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	pc.record(path, sum, diags)
}

func (pc *ParseCache) record(path string, sum [sha256.Size]byte, diags []note.Diagnostic) {
	pc.read[path] = parsedEntry{Sum: sum, Diags: diags}
}

// Keep writes the next store's file from the notes a build publishes,
// as parsing gave them: call it before anything changes them. A private
// note is never kept; nor is one that does not come back as it went in.
// What keeps it from being written is said in reuse.Err.
func (pc *ParseCache) Keep(notes []note.Note) {
	defer pc.closeOld()
	if pc.dir == "" {
		return
	}
	buckets := make([][]parsedEntry, parsedBuckets)
	for _, n := range notes {
		e, ok := pc.read[n.Path]
		if !ok || n.Private {
			continue
		}
		e.Note = n
		b := sha256.Sum256([]byte(n.Path))[0]
		buckets[b] = append(buckets[b], e)
	}
	next, err := pc.write(buckets)
	if err != nil {
		pc.reuse.Err = fmt.Errorf("the parse store cannot keep the notes: %w", err)
		return
	}
	pc.next = next
}

// closeOld lets go of the store's file as it was read.
func (pc *ParseCache) closeOld() {
	if pc.file != nil {
		pc.file.Close()
		pc.file, pc.chunks = nil, nil
	}
}

// chunkKey is the key of a chunk of entries: what its notes are.
func chunkKey(entries []parsedEntry) [sha256.Size]byte {
	h := sha256.New()
	for _, e := range entries {
		h.Write(e.Sum[:])
	}
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

// write writes buckets as a parse store's file, in a temporary file in
// the store's folder whose name it returns. A chunk the old file holds
// under the same key is copied from it; the others are encoded (and
// checked) on every core, and all are written in order.
func (pc *ParseCache) write(buckets [][]parsedEntry) (name string, err error) {
	if err := os.MkdirAll(pc.dir, 0o755); err != nil {
		return "", err
	}
	f, err := os.CreateTemp(pc.dir, ".engram-write-parsed-*")
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
	out.Write([]byte(ParsedMagic))
	out.Write(pc.key[:])
	// A few chunks at a time: the file is never whole in memory.
	wave := 4 * runtime.GOMAXPROCS(0)
	for start := 0; start < len(buckets); start += wave {
		part := buckets[start:min(start+wave, len(buckets))]
		chunks, keys, err := pc.chunksOf(part)
		if err != nil {
			return "", err
		}
		for i, c := range chunks {
			if c != nil {
				out.Write(keys[i][:])
				out.Write(binary.BigEndian.AppendUint64(nil, uint64(len(c))))
				out.Write(c)
			}
		}
	}
	w.Write(h.Sum(nil))
	// Not synced: a file that a crash leaves short or garbled fails its
	// SHA-256, and the next build parses every note.
	if err := w.Flush(); err != nil {
		return "", err
	}
	return f.Name(), nil
}

// chunksOf is the chunk of each of buckets (nil for an empty one) and
// its key, made at once: copied from the old file when it holds the
// chunk's key, else encoded and checked.
func (pc *ParseCache) chunksOf(buckets [][]parsedEntry) ([][]byte, [][sha256.Size]byte, error) {
	chunks := make([][]byte, len(buckets))
	keys := make([][sha256.Size]byte, len(buckets))
	var g errgroup.Group
	for i, b := range buckets {
		if len(b) == 0 {
			continue
		}
		keys[i] = chunkKey(b)
		g.Go(func() (err error) {
			if ref, ok := pc.chunks[keys[i]]; ok {
				chunks[i] = make([]byte, ref.n)
				if _, err = pc.file.ReadAt(chunks[i], ref.off); err == nil {
					return nil
				}
			}
			pc.mu.Lock()
			pc.reuse.Encoded++
			pc.mu.Unlock()
			chunks[i], err = roundTrip(b)
			return err
		})
	}
	err := g.Wait()
	return chunks, keys, err
}

// roundTrip encodes entries as a chunk, keeping only those that come
// back exactly as they went in (reflect.DeepEqual): a value the chunk's
// encoding cannot carry (a front matter value of a type tagged does not
// know, a number that is not finite) leaves its note out of the store,
// never wrong in it.
func roundTrip(entries []parsedEntry) ([]byte, error) {
	// The chunk is the JSON array of the entries that come back: each
	// is encoded once, and the array joined from those bytes.
	chunk := []byte{'['}
	for _, e := range entries {
		st, ok := stored(e)
		if !ok {
			continue
		}
		one, err := json.Marshal(st)
		if err != nil {
			continue
		}
		var back storedEntry
		if err := json.Unmarshal(one, &back); err != nil {
			continue
		}
		if got, ok := back.parsed(); ok && reflect.DeepEqual(*got, e) {
			if len(chunk) > 1 {
				chunk = append(chunk, ',')
			}
			chunk = append(chunk, one...)
		}
	}
	return append(chunk, ']'), nil
}

// decodeChunk is the entries of a chunk.
func decodeChunk(data []byte) ([]*parsedEntry, error) {
	var st []storedEntry
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, err
	}
	out := make([]*parsedEntry, 0, len(st))
	for _, s := range st {
		e, ok := s.parsed()
		if !ok {
			return nil, errors.New("an entry has no key")
		}
		out = append(out, e)
	}
	return out, nil
}

// storedEntry is a parsedEntry as the store's file holds it, in JSON,
// which keeps what gob loses (an empty list apart from none, a pointer
// to zero apart from nil); the note's front matter extras go as a
// tagged tree, since JSON alone would make an int a float64 and a time
// a string.
type storedEntry struct {
	Sum   []byte
	Note  note.Note
	Extra *tagged `json:",omitempty"`
	Diags []storedDiag
}

// storedDiag is a note.Diagnostic whose severity goes as its number (a
// Diagnostic's JSON names it, for people, and cannot be read back).
type storedDiag struct {
	Path, Message, Rule string
	Line, Col, Severity int
}

func stored(e parsedEntry) (storedEntry, bool) {
	st := storedEntry{Sum: e.Sum[:], Note: e.Note}
	if e.Diags != nil {
		st.Diags = make([]storedDiag, len(e.Diags))
	}
	for i, d := range e.Diags {
		st.Diags[i] = storedDiag{Path: d.Path, Message: d.Message, Rule: d.Rule, Line: d.Line, Col: d.Col, Severity: int(d.Severity)}
	}
	st.Note.Extra = nil
	if e.Note.Extra != nil {
		t, ok := toTagged(e.Note.Extra)
		if !ok {
			return st, false
		}
		st.Extra = &t
	}
	return st, true
}

func (s storedEntry) parsed() (*parsedEntry, bool) {
	if len(s.Sum) != sha256.Size {
		return nil, false
	}
	e := &parsedEntry{Sum: [sha256.Size]byte(s.Sum), Note: s.Note}
	if s.Diags != nil {
		e.Diags = make([]note.Diagnostic, len(s.Diags))
	}
	for i, d := range s.Diags {
		e.Diags[i] = note.Diagnostic{Path: d.Path, Message: d.Message, Rule: d.Rule, Line: d.Line, Col: d.Col, Severity: note.Severity(d.Severity)}
	}
	if s.Extra != nil {
		x, ok := s.Extra.value().(map[string]any)
		if !ok {
			return nil, false
		}
		e.Note.Extra = x
	}
	return e, true
}

// tagged is a front matter value with its Go type: T names it.
type tagged struct {
	T  string    `json:"t"`
	S  string    `json:"s,omitempty"`
	I  int64     `json:"i,omitempty"`
	F  float64   `json:"f,omitempty"`
	B  bool      `json:"b,omitempty"`
	Tm time.Time `json:"tm"`
	L  []tagged  `json:"l,omitempty"`
	K  []string  `json:"k,omitempty"`
}

// toTagged tags v; false for a type it does not know.
func toTagged(v any) (tagged, bool) {
	switch x := v.(type) {
	case nil:
		return tagged{T: "nil"}, true
	case string:
		return tagged{T: "string", S: x}, true
	case bool:
		return tagged{T: "bool", B: x}, true
	case int:
		return tagged{T: "int", I: int64(x)}, true
	case int64:
		return tagged{T: "int64", I: x}, true
	case float64:
		return tagged{T: "float64", F: x}, true
	case time.Time:
		return tagged{T: "time", Tm: x}, true
	case []any:
		t := tagged{T: "list"}
		if x == nil {
			t.T = "nil-list"
		}
		for _, e := range x {
			te, ok := toTagged(e)
			if !ok {
				return t, false
			}
			t.L = append(t.L, te)
		}
		return t, true
	case map[string]any:
		t := tagged{T: "map"}
		if x == nil {
			t.T = "nil-map"
		}
		keys := slices.Sorted(maps.Keys(x))
		for _, k := range keys {
			te, ok := toTagged(x[k])
			if !ok {
				return t, false
			}
			t.K, t.L = append(t.K, k), append(t.L, te)
		}
		return t, true
	}
	return tagged{}, false
}

// value is the value t tags; nil for a tag it does not know.
func (t tagged) value() any {
	switch t.T {
	case "string":
		return t.S
	case "bool":
		return t.B
	case "int":
		return int(t.I)
	case "int64":
		return t.I
	case "float64":
		return t.F
	case "time":
		return t.Tm
	case "nil-list":
		return []any(nil)
	case "list":
		l := make([]any, len(t.L))
		for i, e := range t.L {
			l[i] = e.value()
		}
		return l
	case "nil-map":
		return map[string]any(nil)
	case "map":
		m := make(map[string]any, len(t.K))
		for i, k := range t.K {
			if i < len(t.L) {
				m[k] = t.L[i].value()
			}
		}
		return m
	}
	return nil
}

// keepParsed gives the parse store's file the one a published build
// wrote. A rename that fails leaves the old one, which holds only what
// an earlier output published.
func (s *PageStore) keepParsed() error {
	if s.parsed == "" {
		return nil
	}
	return os.Rename(s.parsed, filepath.Join(s.dir, ParsedFile))
}

// Discard removes the file the build wrote for the parse store, if it
// was not kept: the build was not published.
func (pc *ParseCache) Discard() {
	if pc == nil {
		return
	}
	pc.closeOld()
	if pc.next != "" {
		os.Remove(pc.next)
	}
}

// Next is the temporary file Keep wrote, which becomes the store's file
// when the build is published (OpenPages takes it); "" when there is none.
func (pc *ParseCache) Next() string { return pc.next }

// Reuse is what the build took from the store.
func (pc *ParseCache) Reuse() ParseReuse { return pc.reuse }
