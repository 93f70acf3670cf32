package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/source"
	"github.com/engramhq/engram/indexer/store"
)

// The query benchmarks run the engram binary as a user does, one process
// per query, with the cache warm: process start, the repository's
// fingerprint, reading the cache and answering.

// benchRepo writes a generated repository and warms its query cache.
func benchRepo(b *testing.B, o gen.Options) (repo, cache string) {
	b.Helper()
	repo, cache = b.TempDir(), b.TempDir()
	if err := source.WriteRepo(repo, gen.Generate(o).Commits); err != nil {
		b.Fatal(err)
	}
	if _, _, err := indexer.Snapshot(context.Background(), indexer.Options{Repo: repo, CacheDir: cache}, store.PartPatterns); err != nil {
		b.Fatal(err)
	}
	return repo, cache
}

// engramBinary builds the command once per benchmark.
func engramBinary(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "engram")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func runProcess(b *testing.B, bin, cache string, args ...string) {
	b.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), cacheEnv+"="+cache)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("engram %v: %v\n%s", args, err, out)
	}
}

// BenchmarkAntipatternsProcess10k: `engram antipatterns --json` on a
// repository of 10,000 notes (gen.Sized: 1,667 patterns, 8,133 episodes).
func BenchmarkAntipatternsProcess10k(b *testing.B) {
	repo, cache := benchRepo(b, gen.Sized(10_000))
	bin := engramBinary(b)
	runProcess(b, bin, cache, "antipatterns", "--repo", repo, "--json") // the cache holds the graph too
	for b.Loop() {
		runProcess(b, bin, cache, "antipatterns", "--repo", repo, "--json")
	}
}

// BenchmarkPathProcess10kPatterns: `engram path` on a repository of
// 10,000 patterns (each with up to three causal edges to earlier ones)
// and 1,000 episodes, between two patterns four edges apart.
func BenchmarkPathProcess10kPatterns(b *testing.B) {
	o := gen.Options{Episodes: 1000, Patterns: 10_000}
	corpus := gen.Generate(o)
	ps := corpus.Patterns()
	repo, cache := benchRepo(b, o)
	bin := engramBinary(b)
	// A pair joined by a chain of four first edges, from the newest
	// pattern that has one.
	byTitle := map[string]gen.Note{}
	for _, p := range ps {
		byTitle[p.Title] = p
	}
	var from, to string
	for i := len(ps) - 1; i >= 0 && to == ""; i-- {
		cur, n := ps[i], 0
		for ; n < 4 && len(cur.Pattern.Edges) > 0; n++ {
			cur = byTitle[cur.Pattern.Edges[0].Target]
		}
		if n == 4 {
			from, to = ps[i].Title, cur.Title
		}
	}
	runProcess(b, bin, cache, "path", "--repo", repo, from, to, "--json")
	for b.Loop() {
		runProcess(b, bin, cache, "path", "--repo", repo, from, to, "--json")
	}
}

// BenchmarkSearchProcess10k: `engram search --json` on a repository of
// 10,000 notes (gen.Sized), one process per query, cycling through
// queries drawn from the corpus: a planted word, a task, two words of a
// task, a common word. Besides the mean (ns/op) it reports the median and
// the 95th percentile of the process's wall time.
func BenchmarkSearchProcess10k(b *testing.B) {
	o := gen.Sized(10_000)
	repo, cache := benchRepo(b, o)
	bin := engramBinary(b)
	var queries []string
	for i, n := range gen.Generate(o).Episodes() {
		if i%400 == 0 {
			words := strings.Fields(n.Task)
			queries = append(queries, n.Word, n.Task, words[0]+" "+words[len(words)-1], "cache")
		}
	}
	runProcess(b, bin, cache, "search", "--repo", repo, "--json", queries[0])
	var times []time.Duration
	i := 0
	for b.Loop() {
		began := time.Now()
		runProcess(b, bin, cache, "search", "--repo", repo, "--json", queries[i%len(queries)])
		times = append(times, time.Since(began))
		i++
	}
	slices.Sort(times)
	pct := func(p float64) float64 {
		return float64(times[min(len(times)-1, int(p*float64(len(times))))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.95), "p95-ms")
}
