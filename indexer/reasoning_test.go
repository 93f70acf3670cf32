package indexer_test

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/bootstrap"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/query"
	"github.com/engramhq/engram/indexer/source"
	"github.com/engramhq/engram/indexer/store"
)

// TestCausalReasoningGenerated checks SPEC §3 and §5.1 on a generated
// repository no other test uses (its own seed, 600 notes) against the
// generator's ground truth, with formulas written again here rather than
// borrowed from the code under test.
func TestCausalReasoningGenerated(t *testing.T) {
	o := gen.Sized(600)
	o.Seed = 20261121
	corpus := gen.Generate(o)
	repo := t.TempDir()
	if err := source.WriteRepo(repo, corpus.Commits); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	opt := indexer.Options{Repo: repo, Out: t.TempDir() + "/public", CacheDir: t.TempDir()}
	l, err := indexer.Load(ctx, opt)
	if err != nil {
		t.Fatal(err)
	}
	docs := export.Documents(l.Export)
	snap, info, err := indexer.Snapshot(ctx, opt, store.PartEpisodes|store.PartPatterns|store.PartGraph)
	if err != nil || !info.Refreshed || info.CacheErr != nil {
		t.Fatalf("first snapshot: refreshed %v, cache error %v, error %v", info.Refreshed, info.CacheErr, err)
	}
	patterns := map[string]gen.Pattern{}
	for _, n := range corpus.Patterns() {
		patterns[n.Title] = *n.Pattern
	}

	t.Run("statistics and confidence of every pattern", func(t *testing.T) {
		if len(snap.Patterns) != len(patterns) {
			t.Fatalf("%d patterns, want %d", len(snap.Patterns), len(patterns))
		}
		for _, p := range snap.Patterns {
			want := patterns[p.ID]
			if p.StatsSource != want.StatsSource || p.Occurrences != want.Occurrences || !near(*p.SuccessRate, want.SuccessRate) {
				t.Errorf("%s: %s %v over %d, want %s %v over %d", p.ID, p.StatsSource, *p.SuccessRate, p.Occurrences, want.StatsSource, want.SuccessRate, want.Occurrences)
			}
			if !near(*p.Confidence, wilson(want.SuccessRate, want.Occurrences)) {
				t.Errorf("%s: confidence %v, want %v", p.ID, *p.Confidence, wilson(want.SuccessRate, want.Occurrences))
			}
			if p.Antipattern != want.Antipattern {
				t.Errorf("%s: antipattern %v, want %v", p.ID, p.Antipattern, want.Antipattern)
			}
		}
	})

	t.Run("antipattern order", func(t *testing.T) {
		var want []string
		for id, p := range patterns {
			if p.Antipattern {
				want = append(want, id)
			}
		}
		sort.Slice(want, func(i, j int) bool {
			a, b := patterns[want[i]], patterns[want[j]]
			if a.SuccessRate != b.SuccessRate {
				return a.SuccessRate < b.SuccessRate
			}
			if a.Occurrences != b.Occurrences {
				return a.Occurrences > b.Occurrences
			}
			return want[i] < want[j]
		})
		var got, fromJSON []string
		for _, p := range snap.FindAntipatterns(0.3, 2) {
			got = append(got, p.ID)
		}
		for _, p := range docs.Antipatterns {
			fromJSON = append(fromJSON, p.ID)
		}
		if len(want) < 5 || !slices.Equal(got, want) || !slices.Equal(fromJSON, want) {
			t.Errorf("antipatterns:\n query %q\n  json %q\n  want %q", got, fromJSON, want)
		}
	})

	// Edge weights by SPEC §3, from the ground truth.
	weights := map[[2]string]float64{}
	for id, p := range patterns {
		for _, e := range p.Edges {
			w := e.Weight
			if w == 0 {
				rate := p.SuccessRate
				if p.Antipattern {
					rate = 1 - rate
				}
				w = 0.5
				if p.Occurrences > 0 {
					w = wilson(rate, p.Occurrences)
				}
			}
			weights[[2]string{id, e.Target}] = math.Round(w*1e4) / 1e4
		}
	}
	t.Run("edge weights", func(t *testing.T) {
		n := 0
		for _, e := range snap.Graph.Edges {
			if w, ok := weights[[2]string{e.Source, e.Target}]; ok {
				n++
				if e.Weight != w {
					t.Errorf("%s -> %s: weight %v, want %v", e.Source, e.Target, e.Weight, w)
				}
			}
		}
		if n != len(weights) {
			t.Errorf("%d pattern edges in the graph, want %d", n, len(weights))
		}
	})

	t.Run("strongest paths", func(t *testing.T) {
		ids := slices.Sorted(maps.Keys(patterns))
		found := 0
		for _, from := range ids {
			for _, to := range ids {
				if from == to {
					continue
				}
				want, ok := bruteForcePath(weights, from, to, 5)
				got, err := snap.StrongestPath(from, to, 5)
				var none *query.NoPathError
				switch {
				case !ok && errors.As(err, &none):
				case !ok:
					t.Errorf("%s → %s: got %v (%v), want no path", from, to, got.Nodes, err)
				case err != nil:
					t.Errorf("%s → %s: %v, want %q", from, to, err, want.nodes)
				case !slices.Equal(got.Nodes, want.nodes) || math.Abs(got.Strength-want.strength) > 1e-4:
					t.Errorf("%s → %s: %q (%v), want %q (%v)", from, to, got.Nodes, got.Strength, want.nodes, want.strength)
				default:
					found++
				}
			}
		}
		t.Logf("%d connected pairs checked", found)
		if found < 20 {
			t.Errorf("only %d connected pairs: the test proves little", found)
		}
	})

	// Every declared-only pattern of the generator declares its
	// occurrences (1 to 8): a claim, not a bare default (SPEC §3), and the
	// declared rates of the others agree with their evidence.
	t.Run("health flags tautologies and no declared claim", func(t *testing.T) {
		var taut []string
		declared := 0
		for id, p := range patterns {
			if p.Tautology {
				taut = append(taut, id)
			}
			if p.StatsSource == "declared" && p.DeclaredOccurrences > 0 {
				declared++
			}
		}
		slices.Sort(taut)
		if len(taut) == 0 || !slices.Equal(docs.Health.Tautologies, taut) {
			t.Errorf("tautologies %q, want %q", docs.Health.Tautologies, taut)
		}
		if declared == 0 || len(docs.Health.DefaultRates) != 0 {
			t.Errorf("default rates %q among %d declared claims, want none", docs.Health.DefaultRates, declared)
		}
		if docs.Health.EdgeTypes["evidence_for"] == 0 || docs.Health.EdgeTypes["causes"] == 0 || docs.Health.IsolatedShare <= 0 || docs.Health.IsolatedShare >= 1 {
			t.Errorf("health %+v", docs.Health)
		}
	})

	t.Run("what-if weighs the other options", func(t *testing.T) {
		type past struct{ episode, decision, outcome string }
		byChoice := map[[2]string][]past{} // (type, chosen) -> decisions
		for _, e := range corpus.Episodes() {
			for _, d := range e.Decisions {
				k := [2]string{d.Type, d.Chosen}
				byChoice[k] = append(byChoice[k], past{e.Title, d.ID, d.Outcome})
			}
		}
		weighed := 0
		for _, e := range corpus.Episodes() {
			for _, d := range e.Decisions {
				w, err := snap.WhatIf(e.Title, d.ID, "")
				if err != nil {
					t.Fatalf("%s %s: %v", e.Title, d.ID, err)
				}
				var options []string
				for _, o := range w.Items {
					options = append(options, o.Option)
				}
				want := slices.DeleteFunc(slices.Clone(d.Options), func(o string) bool { return o == d.Chosen })
				if !slices.Equal(options, want) {
					t.Fatalf("%s %s: options %q, want %q", e.Title, d.ID, options, want)
				}
				for _, alt := range w.Items {
					var wantPast []string
					sum := 0.0
					for _, p := range byChoice[[2]string{d.Type, alt.Option}] {
						if p.episode != e.Title {
							wantPast = append(wantPast, p.episode+" "+p.decision)
							sum += map[string]float64{"success": 1, "partial": 0.5}[p.outcome]
						}
					}
					var gotPast []string
					for _, p := range alt.Episodes {
						gotPast = append(gotPast, p.ID+" "+p.Decision)
					}
					slices.Sort(wantPast)
					slices.Sort(gotPast)
					if !slices.Equal(gotPast, wantPast) || alt.Count != len(wantPast) {
						t.Errorf("%s %s %q: precedents %q, want %q", e.Title, d.ID, alt.Option, gotPast, wantPast)
						continue
					}
					if len(wantPast) > 0 {
						weighed++
						rate := sum / float64(len(wantPast))
						if !near(*alt.SuccessRate, rate) || !near(*alt.Confidence, wilson(rate, len(wantPast))) {
							t.Errorf("%s %s %q: rate %v (%v), want %v (%v)", e.Title, d.ID, alt.Option, *alt.SuccessRate, *alt.Confidence, rate, wilson(rate, len(wantPast)))
						}
					} else if alt.SuccessRate != nil {
						t.Errorf("%s %s %q: a rate without precedents", e.Title, d.ID, alt.Option)
					}
				}
			}
		}
		t.Logf("%d options with precedents checked", weighed)
		if weighed < 100 {
			t.Errorf("only %d options had precedents", weighed)
		}
	})

	t.Run("the cache answers the same", func(t *testing.T) {
		again, info, err := indexer.Snapshot(ctx, opt, store.PartEpisodes|store.PartPatterns|store.PartGraph)
		if err != nil || info.Refreshed {
			t.Fatalf("second snapshot: refreshed %v, error %v", info.Refreshed, err)
		}
		fresh := query.FromSite(docs, bootstrap.Candidates{})
		for name, pair := range map[string][2]any{
			"patterns": {again.Patterns, fresh.Patterns}, "episodes": {again.Episodes, fresh.Episodes},
			"edges": {again.Graph.Edges, fresh.Graph.Edges}, "nodes": {again.Graph.Nodes, fresh.Graph.Nodes},
		} {
			if !reflect.DeepEqual(pair[0], pair[1]) {
				a, _ := json.Marshal(pair[0])
				b, _ := json.Marshal(pair[1])
				i := 0
				for i < min(len(a), len(b)) && a[i] == b[i] {
					i++
				}
				t.Errorf("cached %s differ from the documents at byte %d: %.80s vs %.80s", name, i, a[max(i-40, 0):], b[max(i-40, 0):])
			}
		}
	})
}

// wilson is the 95% Wilson score lower bound, as any statistics text
// writes it.
func wilson(p float64, n int) float64 {
	if n == 0 {
		return 0
	}
	z, fn := 1.96, float64(n)
	return math.Max(0, (p+z*z/(2*fn)-z*math.Sqrt((p*(1-p)+z*z/(4*fn))/fn))/(1+z*z/fn))
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-4 }

type oraclePath struct {
	nodes    []string
	strength float64
}

// bruteForcePath enumerates every simple path of at most maxDepth edges
// and keeps the strongest; ties go to fewer edges, then smaller ids.
func bruteForcePath(weights map[[2]string]float64, from, to string, maxDepth int) (oraclePath, bool) {
	out := map[string][]string{}
	for k := range weights {
		out[k[0]] = append(out[k[0]], k[1])
	}
	var best oraclePath
	found := false
	var walk func(path []string, s float64)
	walk = func(path []string, s float64) {
		last := path[len(path)-1]
		if last == to {
			better := !found || s > best.strength*(1+1e-12) ||
				s >= best.strength*(1-1e-12) && (len(path) < len(best.nodes) ||
					len(path) == len(best.nodes) && strings.Join(path, "\x00") < strings.Join(best.nodes, "\x00"))
			if better {
				best, found = oraclePath{slices.Clone(path), s}, true
			}
			return
		}
		if len(path) > maxDepth {
			return
		}
		for _, next := range out[last] {
			if !slices.Contains(path, next) {
				walk(append(path, next), s*weights[[2]string{last, next}])
			}
		}
	}
	walk([]string{from}, 1)
	return best, found
}
