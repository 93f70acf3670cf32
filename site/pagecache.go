package site

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"debug/elf"
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sync"

	"github.com/spf13/afero"

	"github.com/engramhq/engram/templates"
)

// A build reuses the pages an earlier build rendered (issue 17). Most of
// a page's kinds show only their own page's front matter: what Hugo writes
// for such a page is a function of that content file, its path, the Hugo
// configuration, the templates and the code that renders them, and nothing
// else. Those make its key. A page whose key a PageCache holds has its
// bytes written from the cache, and Hugo sees it only with
// `build.render = "link"` (it keeps its URL, and the lists and the sitemap
// still see it): a regular page as its stub in the list site, in no batch
// (batch.go); the others are rendered and their bytes kept under their
// key.
//
// The kinds that show other pages (kind.list) are always rendered; a test
// (TestCachedKindsReadOnlyTheirPage) holds the others to that.

// PageKey is the key of a rendered page: a SHA-256 of all it depends on.
type PageKey [sha256.Size]byte

// PageCache keeps rendered pages by key, from one build to the next. Its
// methods are called from Hugo's goroutines at once.
type PageCache interface {
	// Get returns the page kept under k, if any.
	Get(k PageKey) ([]byte, bool)
	// Put keeps page under k. An error fails the build; a cache that
	// cannot keep a page may drop it and return nil.
	Put(k PageKey, page []byte) error
}

// pageKeyFormat changes when what goes into a key changes.
const pageKeyFormat = "engram pages 1"

// renderKey is what every page's key shares: the Hugo configuration (base
// URL, title), whether links are made relative, the templates, the
// binary that renders them (Hugo's and engram's code), and the caller's
// salt (Options.PageSalt).
func renderKey(hugoConfig string, relative bool, salt []byte) ([sha256.Size]byte, error) {
	h := sha256.New()
	field := func(b []byte) {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	field([]byte(pageKeyFormat))
	field(BinaryID())
	field([]byte(hugoConfig))
	if relative {
		field([]byte("relative"))
	}
	field(salt)
	err := fs.WalkDir(templates.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(templates.FS, p)
		if err != nil {
			return err
		}
		field([]byte(p))
		field(data)
		return nil
	})
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k, err
}

// pageKey is the key of the page whose content file is content at path
// (relative to content/).
func pageKey(render [sha256.Size]byte, path string, content []byte) PageKey {
	h := sha256.New()
	h.Write(render[:])
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(path)))
	h.Write(n[:])
	h.Write([]byte(path))
	h.Write(content)
	var k PageKey
	h.Sum(k[:0])
	return k
}

var binaryIDOnce = sync.OnceValue(readBinaryID)

// BinaryID identifies the running binary, which any change to the code
// linked in changes: its Go build ID (the note the Go linker writes into
// an ELF executable), or else the SHA-256 of the whole executable. A
// binary that cannot be read gets a random value: nothing it renders is
// reused by another process.
func BinaryID() []byte { return binaryIDOnce() }

func readBinaryID() []byte {
	exe, err := os.Executable()
	if err == nil {
		if id := goBuildID(exe); id != nil {
			return id
		}
		var f *os.File
		if f, err = os.Open(exe); err == nil {
			defer f.Close()
			h := sha256.New()
			if _, err = io.Copy(h, f); err == nil {
				return h.Sum(nil)
			}
		}
	}
	unique := make([]byte, 16)
	_, _ = rand.Read(unique)
	return unique
}

// goBuildID reads the Go build ID note of an ELF executable
// (cmd/internal/buildid reads it the same way): a note named "Go" of
// type 4 in the section .note.go.buildid.
func goBuildID(exe string) []byte {
	f, err := elf.Open(exe)
	if err != nil {
		return nil
	}
	defer f.Close()
	sec := f.Section(".note.go.buildid")
	if sec == nil {
		return nil
	}
	note, err := sec.Data()
	if err != nil || len(note) < 16 {
		return nil
	}
	order := f.ByteOrder
	nameSize, descSize, typ := order.Uint32(note), order.Uint32(note[4:]), order.Uint32(note[8:])
	if nameSize != 4 || typ != 4 || string(note[12:16]) != "Go\x00\x00" || uint64(len(note)) < 16+uint64(descSize) || descSize == 0 {
		return nil
	}
	return bytes.Clone(note[16 : 16+descSize])
}

// reuse is what one render takes from and gives to a PageCache: the
// key every page's shares, where the pages go, the pages written from the
// cache (slash-separated output paths) and the pages to keep (absolute
// output path → key).
type reuse struct {
	cache      PageCache
	render     [sha256.Size]byte
	publishDir string

	mu     sync.Mutex // guards reused and keep while contents runs
	reused []string
	keep   map[string]PageKey
}

// page looks up the page whose content file is content at contentPath. Found,
// its bytes are written into the output at once (Hugo, told only to link
// the page, writes nothing there) and it returns true; not found, the
// page is marked to be kept once Hugo has written it.
func (r *reuse) page(contentPath string, content []byte) (bool, error) {
	out := path.Join(pageDir(contentPath), "index.html")
	full := filepath.Join(r.publishDir, filepath.FromSlash(out))
	k := pageKey(r.render, contentPath, content)
	data, ok := r.cache.Get(k)
	if !ok {
		r.mu.Lock()
		r.keep[full] = k
		r.mu.Unlock()
		return false, nil
	}
	if err := mkdir(filepath.Dir(full)); err != nil {
		return false, err
	}
	if err := os.WriteFile(full, data, 0o644); err != nil {
		return false, err
	}
	r.mu.Lock()
	r.reused = append(r.reused, out)
	r.mu.Unlock()
	return true, nil
}

// mkdir makes the folder dir, and its parents when they are missing. A
// page's folder is its own (episodes/<slug>/), so it is almost always
// new and its parent there: one call where os.MkdirAll makes three.
func mkdir(dir string) error {
	err := os.Mkdir(dir, 0o755)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return nil
	}
	return os.MkdirAll(dir, 0o755)
}

// keepFs is Hugo's destination for a render with a cache: the bytes of
// each page to keep are given to the cache as they are written.
type keepFs struct {
	afero.Fs
	r *reuse
}

func (f keepFs) Create(name string) (afero.File, error) {
	file, err := f.Fs.Create(name)
	return f.wrap(name, file, err)
}

func (f keepFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	file, err := f.Fs.OpenFile(name, flag, perm)
	if flag&(os.O_WRONLY|os.O_RDWR) == 0 {
		return file, err
	}
	return f.wrap(name, file, err)
}

func (f keepFs) wrap(name string, file afero.File, err error) (afero.File, error) {
	if err != nil {
		return file, err
	}
	k, ok := f.r.keep[filepath.Clean(name)]
	if !ok {
		return file, nil
	}
	return &keepFile{File: file, key: k, cache: f.r.cache}, nil
}

// keepFile writes through and gives what was written to the cache on
// Close.
type keepFile struct {
	afero.File
	key   PageKey
	cache PageCache
	buf   bytes.Buffer
}

func (f *keepFile) Write(p []byte) (int, error) {
	n, err := f.File.Write(p)
	f.buf.Write(p[:n])
	return n, err
}

func (f *keepFile) WriteString(s string) (int, error) { return f.Write([]byte(s)) }

func (f *keepFile) Close() error {
	err := f.File.Close()
	if err == nil {
		err = f.cache.Put(f.key, f.buf.Bytes())
	}
	return err
}
