package secrets

import (
	"context"
	"crypto/sha256"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
)

// Sum is the SHA-256 of a file's bytes.
type Sum = [sha256.Size]byte

// ScanDirKnown scans every file under dir, a build's finished output,
// with s (see Output), and returns the findings that are not allowed, by
// path (slash-separated, relative to dir) and position. A file byte for
// byte the same as one already scanned (a page's JSON twin in the API) is
// scanned once. The files in scanned (by the same paths) are left out:
// the caller knows a scanner with the same Key found nothing in these
// very bytes at these paths. So is every file whose bytes' SHA-256 is in
// known: the caller knows a scanner with the same Key found nothing in
// those bytes (a file of an earlier output that passed; the scan of an
// output reads only its bytes, never its path). It returns the SHA-256
// of every file it read, so that the caller can know them next time once
// the output has passed. written are the SHA-256 of files the caller
// wrote under dir itself, from bytes it hashed as it wrote them (by
// path, as scanned): one whose sum is known is not read back either.
func (s *Scanner) ScanDirKnown(ctx context.Context, dir string, scanned map[string]bool, known map[Sum]bool, written map[string]Sum) ([]Finding, []Sum, error) {
	var paths []string
	var trusted []Sum
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			paths = append(paths, p)
			return nil
		}
		rel = filepath.ToSlash(rel)
		if sum, ok := written[rel]; ok && known[sum] {
			trusted = append(trusted, sum)
		} else if !scanned[rel] {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	var mu sync.Mutex
	seen := map[[sha256.Size]byte]bool{}
	sums := make([]Sum, len(paths))
	found := make([][]Finding, len(paths))
	errs := make([]error, len(paths))
	// Files are read into reused buffers: a Finding keeps nothing of the
	// text, and an output is hundreds of megabytes.
	buffers := sync.Pool{New: func() any { return new([]byte) }}
	err = each(ctx, len(paths), func(i int) {
		buf := buffers.Get().(*[]byte)
		defer buffers.Put(buf)
		data, err := readInto(buf, paths[i])
		if err != nil {
			errs[i] = err
			return
		}
		sum := sha256.Sum256(data)
		sums[i] = sum
		mu.Lock()
		dup := seen[sum]
		seen[sum] = true
		mu.Unlock()
		if dup || known[sum] {
			return
		}
		rel, err := filepath.Rel(dir, paths[i])
		if err != nil {
			errs[i] = err
			return
		}
		for _, f := range s.Scan(filepath.ToSlash(rel), data) {
			if !f.Allowed {
				found[i] = append(found[i], f)
			}
		}
	})
	if err != nil {
		return nil, nil, err
	}
	var out []Finding
	for i := range paths {
		if errs[i] != nil {
			return nil, nil, errs[i]
		}
		out = append(out, found[i]...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, append(sums, trusted...), nil
}

// readInto reads a file into *buf, grown as needed.
func readInto(buf *[]byte, path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if n := int(info.Size()) + 1; cap(*buf) < n {
		*buf = make([]byte, 0, n)
	}
	b := (*buf)[:0]
	for {
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			*buf = b
			return b, nil
		}
		if err != nil {
			return nil, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// ScanTexts scans texts, named by paths, with s on all cores, and
// returns the findings that are not allowed, text by text in order: for
// what a build keeps that is not a file of its output (the query cache).
func (s *Scanner) ScanTexts(ctx context.Context, paths []string, texts [][]byte) ([]Finding, error) {
	found := make([][]Finding, len(texts))
	err := each(ctx, len(texts), func(i int) {
		for _, f := range s.Scan(paths[i], texts[i]) {
			if !f.Allowed {
				found[i] = append(found[i], f)
			}
		}
	})
	if err != nil {
		return nil, err
	}
	var out []Finding
	for _, f := range found {
		out = append(out, f...)
	}
	return out, nil
}
