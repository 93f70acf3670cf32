package indexer_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/source"
)

// BenchmarkBuild10k: a whole build of a generated repository of 10,000
// notes (gen.Sized, the repository the benchmarks of BENCHMARKS.md use)
// into a fresh output, in this process: the benchmark to profile
// (-cpuprofile, -memprofile). Stage times are reported as metrics.
func BenchmarkBuild10k(b *testing.B) {
	repo := b.TempDir()
	if err := source.WriteRepo(repo, gen.Generate(gen.Sized(10_000)).Commits); err != nil {
		b.Fatal(err)
	}
	dir, cache := b.TempDir(), b.TempDir()
	stages := map[string]float64{}
	for b.Loop() {
		out := filepath.Join(dir, "public")
		os.RemoveAll(out)
		r, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out, CacheDir: cache})
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
