package indexer_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/search"
	"github.com/engramhq/engram/indexer/source"
)

// searchDocs10k reads a generated repository of 10,000 notes
// (gen.Sized: 8,134 good episodes, 1,666 patterns, 200 bad notes) and
// returns its search documents.
func searchDocs10k(b *testing.B) []search.Doc {
	b.Helper()
	repo := b.TempDir()
	if err := source.WriteRepo(repo, gen.Generate(gen.Sized(10_000)).Commits); err != nil {
		b.Fatal(err)
	}
	l, err := indexer.Load(context.Background(), indexer.Options{Repo: repo})
	if err != nil {
		b.Fatal(err)
	}
	return search.DocsFromSite(export.Documents(l.Export))
}

// BenchmarkSearchIndexBuild10k: the bleve index of 10,000 notes, built
// aside with the offline builder, opened, counted and swapped in, as
// every build and cache refresh does.
func BenchmarkSearchIndexBuild10k(b *testing.B) {
	docs := searchDocs10k(b)
	dir := filepath.Join(b.TempDir(), "search")
	for b.Loop() {
		if err := search.Build(dir, docs); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(docs)), "docs")
}

// BenchmarkSimilarEpisodes10k: the similarity model of the episodes of
// 10,000 notes and every episode's 5 most similar, as a build does.
func BenchmarkSimilarEpisodes10k(b *testing.B) {
	docs := searchDocs10k(b)
	for b.Loop() {
		search.NewSimilarity(docs).All(5)
	}
}
