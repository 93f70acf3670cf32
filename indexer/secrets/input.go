package secrets

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/engramhq/engram/indexer/note"
)

// Input is what the secret scan of a repository's files found.
type Input struct {
	// Found are the secrets found, allowed or not, by path and position.
	Found []Finding
	// Withheld are the paths of the files whose secret could not be
	// redacted: ScanFS's file system does not serve them.
	Withheld map[string]bool
	// Renamed gives, for each path that held a secret, the path with
	// the secret redacted: the file is served under it, and every path
	// in Found and Withheld is one (names.go).
	Renamed map[string]string
	// Scanner is the scanner the files were scanned with; its Output
	// scans the build's output.
	Scanner *Scanner
}

// ScanFS scans the files of fsys at paths (and reads IgnoreFile from its
// root), on all cores: their text, and their paths. It returns what it
// found, and a file system that serves the files as they were read,
// with every secret that is not allowed redacted, a path holding one
// under its redacted path (Input.Renamed): what the build parses, so that
// no later message can quote a secret. Problems in IgnoreFile are
// diagnostics.
func ScanFS(ctx context.Context, fsys fs.FS, paths []string) (*Input, fs.FS, []note.Diagnostic, error) {
	ignore, err := fs.ReadFile(fsys, IgnoreFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil, fmt.Errorf("read %s: %w", IgnoreFile, err)
	}
	s, diags, err := New(ignore)
	if err != nil {
		return nil, nil, nil, err
	}
	results := make([]scanned, len(paths))
	err = each(ctx, len(paths), func(i int) { results[i] = s.scanFile(fsys, paths[i]) })
	if err != nil {
		return nil, nil, nil, err
	}
	in := &Input{Scanner: s, Withheld: map[string]bool{}, Renamed: map[string]string{}}
	files := make(map[string]memFile, len(paths))
	for i, r := range results {
		if r.name != paths[i] {
			in.Renamed[paths[i]] = r.name
		}
		in.Found = append(in.Found, r.found...)
		_, clash := files[r.name]
		switch {
		case clash:
			// Two paths that are one once redacted: neither is read.
			in.Withheld[r.name] = true
			files[r.name] = memFile{err: errClash}
		case r.err != nil:
			files[r.name] = memFile{err: r.err}
		case r.left:
			in.Withheld[r.name] = true
			files[r.name] = memFile{err: errWithheld}
		default:
			files[r.name] = memFile{data: r.data}
		}
	}
	return in, memFS{files: files, under: fsys}, diags, nil
}

// scanned is one file scanned: its path (redacted) and text, what was
// found in either, and whether a secret is left in either.
type scanned struct {
	name  string
	data  []byte
	err   error
	found []Finding
	left  bool
}

// scanFile reads and scans one file. A finding in its text names the
// file by its redacted path, and its fingerprint too when the path held
// a secret (such a fingerprint cannot be allowed in IgnoreFile).
func (s *Scanner) scanFile(fsys fs.FS, path string) scanned {
	name, found, left := s.cleanName(path)
	r := scanned{name: name, found: found, left: left}
	data, err := fs.ReadFile(fsys, path)
	if err != nil {
		// The error of the file system names the path; its cause does not.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		r.err = err
		return r
	}
	clean, inText, rest := s.Clean(path, data)
	for _, f := range inText {
		if name != path {
			f.Path, f.Fingerprint = name, name+strings.TrimPrefix(f.Fingerprint, path)
		}
		r.found = append(r.found, f)
	}
	r.data, r.left = clean, r.left || len(rest) > 0
	return r
}

// errWithheld and errClash are why FS does not serve a file.
var (
	errWithheld = errors.New("withheld: a secret in it could not be redacted")
	errClash    = errors.New("withheld: its path with its secret redacted is another file's path")
)

// each calls fn(0) to fn(n-1) on all cores, and stops early when ctx is
// done.
func each(ctx context.Context, n int, fn func(i int)) error {
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				fn(i)
			}
		}()
	}
	var err error
	for i := 0; i < n; i++ {
		if err = ctx.Err(); err != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return err
}

// memFS serves the scanned files from memory: a file changed on disk
// after the scan is never read unscanned. Other names go to the
// underlying file system.
type memFS struct {
	files map[string]memFile
	under fs.FS
}

type memFile struct {
	data []byte
	err  error
}

func (m memFS) ReadFile(name string) ([]byte, error) {
	f, ok := m.files[name]
	if !ok {
		return fs.ReadFile(m.under, name)
	}
	if f.err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: f.err}
	}
	return append([]byte(nil), f.data...), nil
}

func (m memFS) Open(name string) (fs.File, error) {
	f, ok := m.files[name]
	if !ok {
		return m.under.Open(name)
	}
	if f.err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: f.err}
	}
	return &openFile{name: name, data: f.data}, nil
}

// openFile is an open memFile.
type openFile struct {
	name string
	data []byte
	off  int
}

func (f *openFile) Stat() (fs.FileInfo, error) { return fileInfo{f}, nil }
func (f *openFile) Close() error               { return nil }
func (f *openFile) Read(b []byte) (int, error) {
	if f.off >= len(f.data) {
		return 0, io.EOF
	}
	n := copy(b, f.data[f.off:])
	f.off += n
	return n, nil
}

type fileInfo struct{ f *openFile }

func (i fileInfo) Name() string       { return pathBase(i.f.name) }
func (i fileInfo) Size() int64        { return int64(len(i.f.data)) }
func (i fileInfo) Mode() fs.FileMode  { return 0o444 }
func (i fileInfo) ModTime() time.Time { return time.Time{} }
func (i fileInfo) IsDir() bool        { return false }
func (i fileInfo) Sys() any           { return nil }

func pathBase(name string) string {
	for i := len(name) - 1; i >= 0; i-- {
		if name[i] == '/' {
			return name[i+1:]
		}
	}
	return name
}
