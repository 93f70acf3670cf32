package search

import (
	"slices"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
)

// TestStopWords: the stop list is bleve's without exactly its negations.
func TestStopWords(t *testing.T) {
	bleve := analysis.NewTokenMap()
	if err := bleve.LoadBytes(en.EnglishStopWords); err != nil {
		t.Fatal(err)
	}
	ours := stopWords()
	var removed []string
	for w := range bleve {
		if !ours[w] {
			removed = append(removed, w)
		}
	}
	slices.Sort(removed)
	want := []string{
		"aren't", "can't", "cannot", "couldn't", "didn't", "doesn't", "don't",
		"hadn't", "hasn't", "haven't", "isn't", "mustn't", "no", "nor", "not",
		"shan't", "shouldn't", "wasn't", "weren't", "won't", "wouldn't",
	}
	if !slices.Equal(removed, want) {
		t.Errorf("removed %q, want %q", removed, want)
	}
	if len(ours) != len(bleve)-len(want) || !ours["the"] || !ours["do"] {
		t.Errorf("stop list has %d words, want bleve's %d less %d", len(ours), len(bleve), len(want))
	}
}
