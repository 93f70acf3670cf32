package secrets

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"runtime"
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
	// Scanner is the scanner the files were scanned with; its Output
	// scans the build's output.
	Scanner *Scanner
}

// ScanFS scans the files of fsys at paths (and reads IgnoreFile from its
// root), on all cores. It returns what it found, and a file system that
// serves the files as they were read, with every secret that is not
// allowed redacted: what the build parses, so that no later message can
// quote a secret. Problems in IgnoreFile are diagnostics.
func ScanFS(ctx context.Context, fsys fs.FS, paths []string) (*Input, fs.FS, []note.Diagnostic, error) {
	ignore, err := fs.ReadFile(fsys, IgnoreFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil, fmt.Errorf("read %s: %w", IgnoreFile, err)
	}
	s, diags, err := New(ignore)
	if err != nil {
		return nil, nil, nil, err
	}
	type result struct {
		data  []byte
		err   error
		found []Finding
		left  bool
	}
	results := make([]result, len(paths))
	err = each(ctx, len(paths), func(i int) {
		data, err := fs.ReadFile(fsys, paths[i])
		if err != nil {
			results[i].err = err
			return
		}
		clean, found, left := s.Clean(paths[i], data)
		results[i] = result{data: clean, found: found, left: len(left) > 0}
	})
	if err != nil {
		return nil, nil, nil, err
	}
	in := &Input{Scanner: s, Withheld: map[string]bool{}}
	files := make(map[string]memFile, len(paths))
	for i, r := range results {
		in.Found = append(in.Found, r.found...)
		switch {
		case r.err != nil:
			files[paths[i]] = memFile{err: r.err}
		case r.left:
			in.Withheld[paths[i]] = true
			files[paths[i]] = memFile{err: errWithheld}
		default:
			files[paths[i]] = memFile{data: r.data}
		}
	}
	return in, memFS{files: files, under: fsys}, diags, nil
}

// errWithheld is why FS does not serve a file.
var errWithheld = errors.New("withheld: a secret in it could not be redacted")

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
