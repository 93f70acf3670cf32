package source

import (
	"fmt"
	"testing"
	"time"
)

// corpus spreads files over commits: each commit adds its share of new
// notes in 100 directories and rewrites a tenth as many (at least one)
// older ones.
func corpus(files, commits int) []Commit {
	start := time.Date(2025, 1, 1, 9, 0, 0, 0, time.UTC)
	per := files / commits
	cs := make([]Commit, commits)
	for i := range cs {
		c := Commit{Message: fmt.Sprintf("commit %d", i), When: start.Add(time.Duration(i) * 24 * time.Hour), Files: map[string][]byte{}}
		for n := i * per; n < (i+1)*per; n++ {
			c.Files[corpusPath(n)] = fmt.Appendf(nil, "---\ntitle: note %d\n---\nbody %d\n", n, n)
		}
		for k := 0; i > 0 && k < max(1, per/10); k++ {
			n := (i*104729 + k*7919) % (i * per)
			c.Files[corpusPath(n)] = fmt.Appendf(nil, "---\ntitle: note %d\n---\nrevised in %d\n", n, i)
		}
		cs[i] = c
	}
	return cs
}

func corpusPath(n int) string {
	return fmt.Sprintf("episodes/%02d/%d/episode-%06d.md", n%10, n%100, n)
}

func benchmarkOpen(b *testing.B, files, commits int) {
	dir := b.TempDir()
	if err := WriteRepo(dir, corpus(files, commits)); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		repo, _, err := Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		if len(repo.Files) != files || !repo.Files[0].History.Known() {
			b.Fatalf("%d files, first %+v", len(repo.Files), repo.Files[0])
		}
	}
}

func BenchmarkOpen10k(b *testing.B)  { benchmarkOpen(b, 10_000, 20) }
func BenchmarkOpen100k(b *testing.B) { benchmarkOpen(b, 100_000, 200) }

func BenchmarkWriteRepo10k(b *testing.B) {
	cs := corpus(10_000, 20)
	for b.Loop() {
		if err := WriteRepo(b.TempDir(), cs); err != nil {
			b.Fatal(err)
		}
	}
}
