package store

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"

	"github.com/engramhq/engram/indexer/secrets"
)

// The page store also keeps which bytes the scan of a published output
// passed: <store>/scanned holds the output scanner's key, then the
// SHA-256 of every file of the output last published. The next build's
// scan of its output leaves out a file with the same bytes under the
// same key (secrets.ScanDirKnown): per-note work once per note content
// (issue 30). An API file of a note that did not change is the same
// bytes, so a one-note edit scans one note's files, not the corpus's;
// and the build hashes the files it writes as it writes them
// (WriteOutput), so such a file is not even read back.
//
// It is written only with the index of a published build (commit), and
// holds hashes, never text: what a refused build's output held is never
// in it.

const (
	scannedFile  = "scanned"
	scannedMagic = "engram scanned 1\n"
)

// KnownScanned returns the sums the output scanner with key passed in
// the output last published; none when the file is missing, damaged or
// of another key.
func (s *PageStore) KnownScanned(key secrets.Sum) map[secrets.Sum]bool {
	data, err := os.ReadFile(filepath.Join(s.dir, scannedFile))
	if err != nil {
		return nil
	}
	rest, ok := bytes.CutPrefix(data, []byte(scannedMagic))
	if !ok || len(rest) < len(key) || !bytes.Equal(rest[:len(key)], key[:]) || (len(rest)-len(key))%len(key) != 0 {
		return nil
	}
	known := make(map[secrets.Sum]bool, (len(rest)-len(key))/len(key))
	for rest = rest[len(key):]; len(rest) > 0; rest = rest[len(key):] {
		known[secrets.Sum(rest[:len(key)])] = true
	}
	return known
}

// PassScanned records the sums of the files of this build's output,
// which its scan under key passed, and counts those that were known;
// Commit writes them.
func (s *PageStore) PassScanned(key secrets.Sum, sums []secrets.Sum, known map[secrets.Sum]bool) {
	s.scanKey, s.scanned = key, sums
	for _, sum := range sums {
		if known[sum] {
			s.scanKnown++
		}
	}
}

// writeScanned replaces the scanned file with what passScanned gave,
// or removes it when this build gave nothing (its output was not
// scanned to the end).
func (s *PageStore) writeScanned() error {
	path := filepath.Join(s.dir, scannedFile)
	if s.scanned == nil {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	sums := slices.Clone(s.scanned)
	slices.SortFunc(sums, func(a, b secrets.Sum) int { return bytes.Compare(a[:], b[:]) })
	sums = slices.Compact(sums)
	var b bytes.Buffer
	b.WriteString(scannedMagic)
	b.Write(s.scanKey[:])
	for _, sum := range sums {
		b.Write(sum[:])
	}
	return WriteFileAtomic(path, b.Bytes(), 0o644)
}
