package mine_test

import (
	"testing"

	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/search"
)

// BenchmarkMine mines 10,000 planted episodes (issue 35: under 2 s), the
// corpus parsed and its graph built outside the timer. The analyser's
// first use (bleve's analyser cache) is warmed outside it too.
func BenchmarkMine(b *testing.B) {
	c := gen.Planted(gen.PlantedOptions{Seed: 1, Noise: 2, Episodes: 10000})
	notes, g := parseFiles(b, c.Files)
	search.Analyze("warm")
	b.ResetTimer()
	for b.Loop() {
		if res := mineOf(notes, g); len(res.Candidates) == 0 {
			b.Fatal("no candidates")
		}
	}
}
