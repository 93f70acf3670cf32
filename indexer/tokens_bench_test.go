package indexer_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/store"
	"github.com/engramhq/engram/indexer/tokens"
)

// BenchmarkTokenCounts measures, in o200k_base tokens, what an agent pays
// to read the demo's files against the seeds' per-item budgets (SPEC
// §4.1): an episode under 500, a causal path under 200, a pattern lookup
// under 100; and the bootstrap against its budget. The numbers are custom
// metrics of the benchmark (tokens/…); time per op is meaningless here.
func BenchmarkTokenCounts(b *testing.B) {
	out := filepath.Join(b.TempDir(), "public")
	opt := indexer.Options{Repo: "../content", Out: out, CacheDir: b.TempDir()}
	if _, err := indexer.Build(context.Background(), opt); err != nil {
		b.Fatal(err)
	}
	avg := func(dir string) (mean float64, most int) {
		entries, err := os.ReadDir(filepath.Join(out, "api", "v1", dir))
		if err != nil {
			b.Fatal(err)
		}
		total := 0
		for _, e := range entries {
			data, err := os.ReadFile(filepath.Join(out, "api", "v1", dir, e.Name()))
			if err != nil {
				b.Fatal(err)
			}
			n := tokens.Count(string(data))
			total += n
			most = max(most, n)
		}
		return float64(total) / float64(len(entries)), most
	}
	snap, _, err := indexer.Snapshot(context.Background(), opt, store.PartGraph|store.PartPatterns)
	if err != nil {
		b.Fatal(err)
	}
	paths, pathTokens, pathMost := 0, 0, 0
	for _, p := range snap.Patterns {
		for _, q := range snap.Patterns {
			path, err := snap.StrongestPath(p.ID, q.ID, 5)
			if err != nil {
				continue
			}
			data, _ := json.MarshalIndent(path, "", "  ")
			n := tokens.Count(string(data))
			paths, pathTokens, pathMost = paths+1, pathTokens+n, max(pathMost, n)
		}
	}
	boot, err := os.ReadFile(filepath.Join(out, "api", "v1", "bootstrap.json"))
	if err != nil {
		b.Fatal(err)
	}
	bootMD, _ := os.ReadFile(filepath.Join(out, "api", "v1", "bootstrap.md"))
	// An item of a list file, as an agent extracts it (compact JSON).
	itemTokens := func(file string) (float64, int) {
		var l struct{ Items []json.RawMessage }
		data, err := os.ReadFile(filepath.Join(out, "api", "v1", file))
		if err != nil {
			b.Fatal(err)
		}
		if err := json.Unmarshal(data, &l); err != nil {
			b.Fatal(err)
		}
		total, most := 0, 0
		for _, it := range l.Items {
			var v any
			_ = json.Unmarshal(it, &v)
			compact, _ := json.Marshal(v)
			n := tokens.Count(string(compact))
			total, most = total+n, max(most, n)
		}
		return float64(total) / float64(len(l.Items)), most
	}
	sumEp, sumEpMost := itemTokens("episodes.json")
	sumPat, sumPatMost := itemTokens("patterns.json")
	var bs struct{ Practice, Warnings, RecentFailures, Recent, Patterns, Lessons, Due []json.RawMessage }
	_ = json.Unmarshal(boot, &bs)
	items, itemTotal := 0, 0
	for _, l := range [][]json.RawMessage{bs.Practice, bs.Warnings, bs.RecentFailures, bs.Recent, bs.Patterns, bs.Lessons, bs.Due} {
		for _, it := range l {
			items, itemTotal = items+1, itemTotal+tokens.Count(string(it))
		}
	}
	for b.Loop() {
	}
	b.ReportMetric(sumEp, "tokens/episode-summary")
	b.ReportMetric(float64(sumEpMost), "max-tokens/episode-summary")
	b.ReportMetric(sumPat, "tokens/pattern-summary")
	b.ReportMetric(float64(sumPatMost), "max-tokens/pattern-summary")
	b.ReportMetric(float64(itemTotal)/float64(max(items, 1)), "tokens/bootstrap-item")
	ep, epMost := avg("episodes")
	pat, patMost := avg("patterns")
	b.ReportMetric(ep, "tokens/episode")
	b.ReportMetric(float64(epMost), "max-tokens/episode")
	b.ReportMetric(pat, "tokens/pattern")
	b.ReportMetric(float64(patMost), "max-tokens/pattern")
	b.ReportMetric(float64(pathTokens)/float64(max(paths, 1)), "tokens/path")
	b.ReportMetric(float64(pathMost), "max-tokens/path")
	b.ReportMetric(float64(tokens.Count(string(boot))), "tokens/bootstrap.json")
	b.ReportMetric(float64(tokens.Count(string(bootMD))), "tokens/bootstrap.md")
}
