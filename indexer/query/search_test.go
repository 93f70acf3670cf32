package query

import (
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/search"
)

// searchSnapshot is a snapshot with a search index and a causal graph:
// EP-1's decision d001 causes EP-2; EP-1 and EP-2 are evidence for
// PATTERN-a, which prevents PATTERN-b.
func searchSnapshot(t *testing.T) *Snapshot {
	t.Helper()
	docs := []search.Doc{
		{ID: "EP-1", Type: "episode", Title: "EP-1", Task: "ledger backoff", URL: "/episodes/ep-1/", Similar: "ledger backoff"},
		{ID: "EP-2", Type: "episode", Title: "EP-2", Task: "ledger clock", URL: "/episodes/ep-2/", Similar: "ledger clock"},
		{ID: "PATTERN-a", Type: "pattern", Title: "PATTERN-a", Task: "inject the clock", URL: "/patterns/a/"},
		{ID: "PATTERN-b", Type: "antipattern", Title: "PATTERN-b", Task: "sleep", URL: "/patterns/b/"},
	}
	dir := filepath.Join(t.TempDir(), "search")
	if err := search.Build(dir, docs); err != nil {
		t.Fatal(err)
	}
	idx, err := search.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	snap := &Snapshot{ReferenceTime: ref, Index: idx, Similar: search.NewSimilarity(docs)}
	t.Cleanup(func() { snap.Close() })
	snap.Graph.Nodes = []Node{{"EP-1", "episode"}, {"EP-1#d001", "decision"}, {"EP-1#e002", "event"}, {"EP-2", "episode"}, {"PATTERN-a", "pattern"}, {"PATTERN-b", "antipattern"}}
	snap.Graph.Edges = []note.Edge{
		{Source: "EP-1#d001", Target: "EP-2", Type: "causes", Weight: 0.5},
		{Source: "EP-1#e002", Target: "EP-1#d001", Type: "leads_to", Weight: 0.5},
		{Source: "EP-1", Target: "PATTERN-a", Type: "evidence_for", Weight: 0.5},
		{Source: "EP-2", Target: "PATTERN-a", Type: "evidence_for", Weight: 0.5},
		{Source: "EP-2", Target: "PATTERN-a", Type: "correlates", Weight: 0.9},
		{Source: "PATTERN-a", Target: "PATTERN-b", Type: "prevents", Weight: 0.8},
		{Source: "PATTERN-a", Target: "PATTERN-a", Type: "causes", Weight: 1},
	}
	return snap
}

func TestSearchExpand(t *testing.T) {
	snap := searchSnapshot(t)
	plain, err := snap.Search("clock", "", 10, false)
	if err != nil {
		t.Fatal(err)
	}
	items, err := snap.Search("clock", "", 10, true)
	if err != nil {
		t.Fatal(err)
	}
	// The hits, each followed by its neighbours not listed yet; the
	// self-loop and the hits themselves are not repeated.
	if len(plain) != 2 || len(items) < 2 {
		t.Fatalf("hits %v, expanded %v", plain, items)
	}
	byID := map[string]SearchItem{}
	for _, it := range items {
		if _, dup := byID[it.ID]; dup {
			t.Errorf("%s listed twice", it.ID)
		}
		byID[it.ID] = it
	}
	for _, h := range plain {
		if byID[h.ID].Via != "" || byID[h.ID].Score != h.Score {
			t.Errorf("hit %s changed: %+v", h.ID, byID[h.ID])
		}
	}
	b, d := byID["PATTERN-b"], byID["EP-1#d001"]
	if b.Via != "PATTERN-a" || b.Type != "antipattern" || b.URL != "/patterns/b/" || b.Score != round4(plainScore(plain, "PATTERN-a")*0.8*0.5) {
		t.Errorf("PATTERN-b: %+v", b)
	}
	if d.Via != "EP-2" || d.Type != "decision" || d.URL != "/episodes/ep-1/#decision-d001" || d.Score != round4(plainScore(plain, "EP-2")*0.5*0.5) {
		t.Errorf("EP-1#d001: %+v", d)
	}
	if _, ok := byID["EP-1#e002"]; ok {
		t.Error("a neighbour's neighbour was added")
	}
	// Below its hit, strongest edge first.
	after := map[string][]string{"PATTERN-a": {"PATTERN-b", "EP-1"}, "EP-2": {"EP-1#d001"}}
	var want []string
	for _, h := range plain {
		want = append(append(want, h.ID), after[h.ID]...)
	}
	var got []string
	for _, it := range items {
		got = append(got, it.ID)
	}
	if !slices.Equal(got, want) {
		t.Errorf("expanded %q, want %q", got, want)
	}
}

func plainScore(items []SearchItem, id string) float64 {
	for _, it := range items {
		if it.ID == id {
			return it.Score
		}
	}
	return 0
}

func TestSimilarQueries(t *testing.T) {
	snap := searchSnapshot(t)
	if _, err := snap.SimilarToEpisode("ep-1", 5); err != nil {
		t.Errorf("by slug, ignoring case: %v", err)
	}
	var nf *NotFoundError
	if _, err := snap.SimilarToEpisode("EP-9", 5); !errors.As(err, &nf) {
		t.Errorf("unknown episode: %v", err)
	}
	items, err := snap.SimilarToText("ledger", 5)
	if err != nil || len(items) != 2 || items[0].Type != "episode" {
		t.Errorf("SimilarToText: %v, %v", items, err)
	}
	if _, err := (&Snapshot{}).Search("x", "", 1, false); err == nil {
		t.Error("Search without an index: no error")
	}
}
