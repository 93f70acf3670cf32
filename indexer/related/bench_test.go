package related_test

import (
	"testing"
	"time"

	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
	"github.com/engramhq/engram/indexer/related"
)

// BenchmarkFind10k finds the related work of the generated 10,000-note
// repository (8,334 episodes), as every build does.
func BenchmarkFind10k(b *testing.B) {
	notes := generated10k()
	b.ResetTimer()
	for range b.N {
		related.Find(notes)
	}
}

// generated10k are the notes of the generated 10,000-note repository.
func generated10k() []note.Note {
	c := gen.Generate(gen.Sized(10_000))
	files := map[string][]byte{}
	for _, cm := range c.Commits {
		for path, data := range cm.Files {
			files[path] = data
		}
	}
	p := parse.New(parse.Roots{})
	var notes []note.Note
	for _, n := range c.Notes {
		if nn, _, err := p.Parse(n.Path, files[n.Path]); err == nil {
			notes = append(notes, nn)
		}
	}
	return notes
}

// BenchmarkAnalyze10k is what every build runs: the related work and the
// links between the episodes of the generated 10,000-note repository.
func BenchmarkAnalyze10k(b *testing.B) {
	notes := generated10k()
	created := make([]time.Time, len(notes))
	b.ResetTimer()
	for range b.N {
		related.Analyze(notes, created)
	}
}
