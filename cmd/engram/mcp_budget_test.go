package main

import (
	"context"
	"io"
	"testing"

	"github.com/engramhq/engram/indexer/query"
	"github.com/engramhq/engram/indexer/store"
)

// TestMCPBudgets holds every answer to the seeds' budgets (SPEC §5.2),
// counted with engram's tokenizer over the JSON a client reads: every
// episode and pattern, what-if for every decision, and the path of
// every edge and of every two edges in a row, in the demo and in a
// generated repository of 600 notes.
func TestMCPBudgets(t *testing.T) {
	genRepo := generatedRepo(t, t.TempDir(), 600)
	for _, repo := range []struct{ name, dir string }{{"demo", demoRepo}, {"generated", genRepo}} {
		t.Run(repo.name, func(t *testing.T) {
			parts := store.PartEpisodes | store.PartPatterns | store.PartGraph
			snap, err := (&queryFlags{repo: repo.dir}).snapshot(context.Background(), io.Discard, parts)
			if err != nil {
				t.Fatal(err)
			}
			most := map[string]int{}
			measure := func(kind, id string, v any, budget int) {
				n := countJSON(v)
				if n >= budget {
					t.Errorf("%s %q: %d tokens, budget %d", kind, id, n, budget)
				}
				most[kind] = max(most[kind], n)
			}
			for i := range snap.Episodes {
				e := &snap.Episodes[i]
				measure("episode", e.ID, newEpisodeCard(e), episodeBudget)
				for _, d := range e.Decisions {
					w, err := snap.WhatIf(e.ID, d.ID, "")
					if err != nil {
						t.Fatal(err)
					}
					measure("what_if", e.ID+" "+d.ID, newWhatIfCard(w), whatIfBudget)
				}
			}
			for _, p := range snap.Patterns {
				measure("pattern", p.ID, newPatternCard(p), patternBudget)
			}
			for _, pair := range pathPairs(snap, 5000) {
				p, err := snap.StrongestPath(pair[0], pair[1], 5)
				if err != nil {
					continue // no path within 5 edges
				}
				measure("path", pair[0]+" → "+pair[1], newPathCard(p), pathBudget)
			}
			t.Logf("%s: %d episodes, %d patterns; most tokens per answer: %v", repo.name, len(snap.Episodes), len(snap.Patterns), most)
			for _, kind := range []string{"episode", "pattern", "path", "what_if"} {
				if most[kind] == 0 {
					t.Errorf("no %s was measured", kind)
				}
			}
		})
	}
}

// pathPairs are the ends of every edge and of every two edges in a
// row, at most n.
func pathPairs(snap *query.Snapshot, n int) [][2]string {
	out := map[string][]string{}
	for _, e := range snap.Graph.Edges {
		out[e.Source] = append(out[e.Source], e.Target)
	}
	var pairs [][2]string
	for _, e := range snap.Graph.Edges {
		pairs = append(pairs, [2]string{e.Source, e.Target})
		for _, next := range out[e.Target] {
			pairs = append(pairs, [2]string{e.Source, next})
		}
	}
	return pairs[:min(n, len(pairs))]
}
