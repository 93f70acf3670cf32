package source

import (
	"fmt"
	"testing"
	"time"
)

// corpus spreads files over commits: each commit adds its share of new
// notes in 100 directories and rewrites a tenth as many (at least one)
// older ones.
func corpus(files, commits int) []Commit { return corpusAt(files, commits, corpusPath) }

// flatPath puts every note in one directory, the worst case for a tree
// diff: each commit rewrites one large tree.
func flatPath(n int) string { return fmt.Sprintf("episodes/episode-%06d.md", n) }

func corpusAt(files, commits int, pathOf func(int) string) []Commit {
	start := time.Date(2025, 1, 1, 9, 0, 0, 0, time.UTC)
	per := files / commits
	cs := make([]Commit, commits)
	for i := range cs {
		c := Commit{Message: fmt.Sprintf("commit %d", i), When: start.Add(time.Duration(i) * 24 * time.Hour), Files: map[string][]byte{}}
		for n := i * per; n < (i+1)*per; n++ {
			c.Files[pathOf(n)] = fmt.Appendf(nil, "---\ntitle: note %d\n---\nbody %d\n", n, n)
		}
		for k := 0; i > 0 && k < max(1, per/10); k++ {
			n := (i*104729 + k*7919) % (i * per)
			c.Files[pathOf(n)] = fmt.Appendf(nil, "---\ntitle: note %d\n---\nrevised in %d\n", n, i)
		}
		cs[i] = c
	}
	return cs
}

func corpusPath(n int) string {
	return fmt.Sprintf("episodes/%02d/%d/episode-%06d.md", n%10, n%100, n)
}

func benchmarkOpen(b *testing.B, commits []Commit, files int) {
	dir := b.TempDir()
	if err := WriteRepo(dir, commits); err != nil {
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

func BenchmarkOpen10k(b *testing.B)  { benchmarkOpen(b, corpus(10_000, 20), 10_000) }
func BenchmarkOpen100k(b *testing.B) { benchmarkOpen(b, corpus(100_000, 200), 100_000) }

// BenchmarkOpenFlat5k is a long history of small commits into one flat
// directory of 5,000 notes.
func BenchmarkOpenFlat5k(b *testing.B) {
	benchmarkOpen(b, corpusAt(5_000, 1_000, flatPath), 5_000)
}

func BenchmarkWriteRepo10k(b *testing.B) {
	cs := corpus(10_000, 20)
	for b.Loop() {
		if err := WriteRepo(b.TempDir(), cs); err != nil {
			b.Fatal(err)
		}
	}
}
