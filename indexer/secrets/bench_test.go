package secrets

import (
	"sort"
	"testing"

	"github.com/engramhq/engram/indexer/gen"
)

// notes10k are the last versions of the files of a generated repository
// of 10,000 notes (gen.Sized), sorted by path.
func notes10k(b *testing.B) (paths []string, data [][]byte, size int64) {
	b.Helper()
	files := map[string][]byte{}
	for _, c := range gen.Generate(gen.Sized(10_000)).Commits {
		for p, d := range c.Files {
			files[p] = d
		}
	}
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		data = append(data, files[p])
		size += int64(len(files[p]))
	}
	return paths, data, size
}

// BenchmarkScan10k: the planned scan of 10,000 notes, one core.
func BenchmarkScan10k(b *testing.B) {
	benchScan(b, func(s *Scanner, path string, data []byte) { s.Scan(path, data) })
}

// BenchmarkScanGitleaks10k: gitleaks over each whole note, as its command
// line scans a directory: what the planned scan is measured against.
func BenchmarkScanGitleaks10k(b *testing.B) {
	benchScan(b, func(s *Scanner, path string, data []byte) { stock(s, path, data) })
}

// benchScan runs scan over every note of a 10,000-note repository.
func benchScan(b *testing.B, scan func(s *Scanner, path string, data []byte)) {
	paths, data, size := notes10k(b)
	s, _, err := New(nil)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	for b.Loop() {
		for i := range paths {
			scan(s, paths[i], data[i])
		}
	}
}
