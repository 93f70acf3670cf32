package indexer_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/source"
	"github.com/engramhq/engram/indexer/store"
)

// The build and query benchmarks of this file run on a generated
// repository of ENGRAM_BENCH_NOTES notes (gen.Sized; 2,000 unless set),
// small enough to run once (-benchtime 1x) on a loaded machine; the
// whole-build figures at 10,000 notes are site's BenchmarkBuild10k.

var (
	benchOnce sync.Once
	benchDir  string
	benchErr  error
)

// benchNotes is the size of the benchmarks' repository.
func benchNotes(b *testing.B) int {
	n := 2000
	if s := os.Getenv("ENGRAM_BENCH_NOTES"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n < 1 {
			b.Fatalf("ENGRAM_BENCH_NOTES=%q: want a number of notes", s)
		}
	}
	return n
}

// benchRepo writes the benchmarks' repository once per test binary.
func benchRepo(b *testing.B) string {
	b.Helper()
	n := benchNotes(b)
	benchOnce.Do(func() {
		benchDir, benchErr = os.MkdirTemp("", "engram-bench-")
		if benchErr == nil {
			benchErr = source.WriteRepo(benchDir, gen.Generate(gen.Sized(n)).Commits)
		}
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchDir
}

// BenchmarkBuild is a whole build into a new output with an empty page
// store (every page rendered), reporting each stage's seconds: with
// -cpuprofile, where a build spends its cores.
func BenchmarkBuild(b *testing.B) {
	repo := benchRepo(b)
	stages := map[string]float64{}
	i := 0
	for b.Loop() {
		i++
		out := filepath.Join(b.TempDir(), fmt.Sprint(i))
		r, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out, CacheDir: b.TempDir()})
		if err != nil {
			b.Fatal(err)
		}
		for _, s := range r.Stages {
			stages[s.Name] += s.Duration.Seconds()
		}
	}
	for name, total := range stages {
		b.ReportMetric(total/float64(b.N), name+"-s/op")
	}
}

// BenchmarkSearch is `engram search` in process: first, with no query
// cache (a build does not write it, so the first query after a build
// reads the repository and makes the cache and the search index), and
// warm, with the cache the first made.
func BenchmarkSearch(b *testing.B) {
	repo := benchRepo(b)
	search := func(b *testing.B, cache string) {
		b.Helper()
		snap, _, err := indexer.Snapshot(context.Background(), indexer.Options{Repo: repo, CacheDir: cache}, store.PartSearch)
		if err != nil {
			b.Fatal(err)
		}
		defer snap.Close()
		if _, err := snap.Search("deploy cache", "", 10, false); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("first", func(b *testing.B) {
		for b.Loop() {
			search(b, b.TempDir())
		}
	})
	b.Run("warm", func(b *testing.B) {
		cache := b.TempDir()
		search(b, cache)
		for b.Loop() {
			search(b, cache)
		}
	})
}
