package site_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/site"
)

// BenchmarkGraphDoc10k lays out and encodes the causal graph of the
// 10,000-note repository (about 26,000 nodes: each episode brings its
// decisions), as the build does for /graph/index.json.
func BenchmarkGraphDoc10k(b *testing.B) {
	repo, _ := repo10k(b)
	out := filepath.Join(b.TempDir(), "public")
	if _, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out}); err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(out, "api", "v1", "graph.json"))
	if err != nil {
		b.Fatal(err)
	}
	var g export.Graph
	if err := json.Unmarshal(data, &g); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := site.GraphDoc(g); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(g.Nodes)), "nodes")
	b.ReportMetric(float64(len(g.Edges)), "edges")
}
