package indexer_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/source"
)

var (
	fedBenchOnce sync.Once
	fedBenchDir  string
	fedBenchErr  error
)

// fedBenchRepos writes, once per test binary, one generated repository
// of n notes (one/) and two of n/2 notes each with other seeds, a/
// listing b/ as a source: in a temporary folder under the cache folder
// TestMain makes and removes (XDG_CACHE_HOME), or in
// $ENGRAM_BENCH_FED_DIR/<n> when it is set, made once and kept, so that
// runs of one test binary per variant can alternate (a process that
// builds many sites gets slower as it goes: compare only alternating
// runs).
func fedBenchRepos(b *testing.B, n int) string {
	b.Helper()
	if dir := os.Getenv("ENGRAM_BENCH_FED_DIR"); dir != "" {
		kept := filepath.Join(dir, fmt.Sprint(n))
		if _, err := os.Stat(filepath.Join(kept, "b")); err == nil {
			return kept
		}
		fedBenchDir = kept
	}
	fedBenchOnce.Do(func() {
		if fedBenchDir == "" {
			fedBenchDir, fedBenchErr = os.MkdirTemp(os.Getenv("XDG_CACHE_HOME"), "engram-fed-bench-")
		}
		write := func(dir string, o gen.Options, extra map[string][]byte) {
			if fedBenchErr != nil {
				return
			}
			commits := gen.Generate(o).Commits
			for p, data := range extra {
				commits[len(commits)-1].Files[p] = data
			}
			fedBenchErr = source.WriteRepo(filepath.Join(fedBenchDir, dir), commits)
		}
		one, half := gen.Sized(n), gen.Sized(n/2)
		one.Seed = 1
		write("one", one, nil)
		half.Seed = 2
		write("a", half, map[string][]byte{"engram.toml": []byte("[[sources]]\nnamespace = \"b\"\npath = \"../b\"\n")})
		half.Seed = 3
		write("b", half, nil)
	})
	if fedBenchErr != nil {
		b.Fatal(fedBenchErr)
	}
	return fedBenchDir
}

// BenchmarkBuildFederated is a whole build (as BenchmarkBuild) of one
// repository of ENGRAM_BENCH_NOTES notes (one), and of two of half as
// many each, the second a [[sources]] of the first (federated): issue
// 35's target is federated no more than 10% slower than one.
func BenchmarkBuildFederated(b *testing.B) {
	n := benchNotes(b)
	root := fedBenchRepos(b, n)
	for _, c := range []struct{ name, repo string }{{"one", "one"}, {"federated", "a"}} {
		b.Run(c.name, func(b *testing.B) {
			i, stages := 0, map[string]float64{}
			for b.Loop() {
				i++
				out := filepath.Join(b.TempDir(), fmt.Sprint(i))
				r, err := indexer.Build(context.Background(), indexer.Options{Repo: filepath.Join(root, c.repo), Out: out, CacheDir: b.TempDir()})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(r.Counts["episodes"]+r.Counts["patterns"]+r.Counts["notes"]), "notes")
				for _, s := range r.Stages {
					stages[s.Name] += s.Duration.Seconds()
				}
			}
			for name, total := range stages {
				b.ReportMetric(total/float64(b.N), name+"-s/op")
			}
		})
	}
}
