package indexer_test

import (
	"context"
	"testing"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/bootstrap"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/source"
)

// BenchmarkBootstrapAreas10k is the practice section and the slices by
// area of 10,000 generated episodes (issue 31: under a second together):
// bootstrap.BuildAll on the documents of a loaded repository, the
// loading not timed.
func BenchmarkBootstrapAreas10k(b *testing.B) {
	repo := b.TempDir()
	if err := source.WriteRepo(repo, gen.Generate(gen.Options{Episodes: 10_000}).Commits); err != nil {
		b.Fatal(err)
	}
	in, err := indexer.Load(context.Background(), indexer.Options{Repo: repo})
	if err != nil {
		b.Fatal(err)
	}
	docs := export.Documents(in.Export)
	b.ResetTimer()
	for b.Loop() {
		whole, areas := bootstrap.BuildAll(docs)
		b.ReportMetric(float64(len(areas)), "slices")
		b.ReportMetric(float64(len(whole.Practice)), "practice")
	}
	b.ReportMetric(float64(len(docs.Episodes)), "episodes")
}
