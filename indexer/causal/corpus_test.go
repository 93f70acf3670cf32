package causal

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
)

// TestBuildCorpus checks Build against the ground truth of generated
// repositories: statistics, explicit weights, no cycles and no dangling
// links among good notes, and the same result on every run.
func TestBuildCorpus(t *testing.T) {
	corpora := []struct {
		name string
		o    gen.Options
	}{
		{"default", gen.Options{}},
		{"seed 7", gen.Options{Seed: 7}},
		{"sized 600", gen.Sized(600)},
	}
	for _, tc := range corpora {
		t.Run(tc.name, func(t *testing.T) {
			c := gen.Generate(tc.o)
			notes := parseCorpus(t, c)
			res := Build(notes, DefaultOptions())
			if again := Build(notes, DefaultOptions()); !reflect.DeepEqual(res, again) {
				t.Fatal("two builds differ")
			}
			checkCorpusStats(t, c, notes, res)
			checkCorpusEdges(t, c, res)
			if len(res.Cycles) != 0 {
				t.Errorf("cycles %v in an acyclic corpus", res.Cycles)
			}
			good := map[string]bool{}
			tautology := map[string]bool{} // planted: the one warning a good note gets
			for _, n := range c.Notes {
				if n.Bad == "" {
					good[n.Title] = true
					good[n.Path] = true
				}
				if n.Pattern != nil && n.Pattern.Tautology {
					tautology[n.Path] = true
				}
			}
			warned := map[string]bool{}
			for _, d := range res.Dangling {
				if good[d.From] {
					t.Errorf("dangling link in a good note: %+v", d)
				}
			}
			for _, d := range res.Diags {
				if d.Rule == "pattern-tautology" && tautology[d.Path] {
					warned[d.Path] = true
					continue
				}
				if good[d.Path] {
					t.Errorf("diagnostic on a good note: %v", d)
				}
			}
			if len(warned) != len(tautology) || len(tautology) == 0 {
				t.Errorf("%d planted tautologies, %d warned", len(tautology), len(warned))
			}
		})
	}
}

func parseCorpus(t *testing.T, c gen.Corpus) []note.Note {
	t.Helper()
	fsys := c.FS()
	p := parse.New(parse.Roots{})
	var notes []note.Note
	for _, path := range slices.Sorted(maps.Keys(fsys)) {
		if !strings.HasSuffix(path, ".md") {
			continue
		}
		n, _, err := p.Parse(path, fsys[path].Data)
		if err != nil {
			continue // refused notes are not handed to Build
		}
		notes = append(notes, n)
	}
	return notes
}

func checkCorpusStats(t *testing.T, c gen.Corpus, notes []note.Note, res Result) {
	t.Helper()
	byTitle := map[string]int{}
	for i, n := range notes {
		byTitle[n.Title] = i
	}
	for _, want := range c.Patterns() {
		i, ok := byTitle[want.Title]
		if !ok {
			t.Errorf("pattern %s not parsed", want.Title)
			continue
		}
		got := res.Stats[i]
		w := want.Pattern
		if got.Source != w.StatsSource || got.Occurrences != w.Occurrences || !near(got.SuccessRate, w.SuccessRate) {
			t.Errorf("%s: stats %s %d %v, want %s %d %v", want.Title, got.Source, got.Occurrences, got.SuccessRate,
				w.StatsSource, w.Occurrences, w.SuccessRate)
		}
		var ev []EvidenceRef
		for _, e := range w.Evidence {
			// The generator's evidence lines give the episodes' own outcomes.
			ev = append(ev, EvidenceRef{ID: e.Episode, Outcome: note.Outcome(e.Outcome), Own: note.Outcome(e.Outcome)})
		}
		if !slices.Equal(got.Evidence, ev) {
			t.Errorf("%s: evidence %v, want %v", want.Title, got.Evidence, ev)
		}
	}
}

func checkCorpusEdges(t *testing.T, c gen.Corpus, res Result) {
	t.Helper()
	edges := map[[3]string]note.Edge{}
	for _, e := range res.Edges {
		edges[[3]string{e.Source, e.Target, string(e.Type)}] = e
	}
	weighted := 0
	for _, p := range c.Patterns() {
		for _, w := range p.Pattern.Edges {
			if w.Weight != 0 {
				weighted++
			}
			e, ok := edges[[3]string{w.Source, w.Target, w.Type}]
			switch {
			case !ok:
				t.Errorf("missing edge %+v", w)
			case w.Weight != 0 && e.Weight < w.Weight-1e-9:
				t.Errorf("edge %s has weight below its explicit %v", edgeString(e), w.Weight)
			}
		}
		for _, ev := range p.Pattern.Evidence {
			if _, ok := edges[[3]string{ev.Episode, p.Title, string(note.EdgeEvidenceFor)}]; !ok {
				t.Errorf("missing evidence edge %s -> %s", ev.Episode, p.Title)
			}
		}
	}
	if weighted == 0 {
		t.Error("the corpus has no explicit weights to check")
	}
}
