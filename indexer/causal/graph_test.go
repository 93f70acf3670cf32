package causal

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"testing"

	"github.com/engramhq/engram/indexer/note"
)

// edgeRepo is statsRepo with a target pattern for causal relationships.
func edgeRepo(patternFile string) repo {
	r := statsRepo(patternFile)
	r["patterns/target.md"] = pattern("PATTERN-target", "type: pattern\n")
	return r
}

func TestCausalEdges(t *testing.T) {
	target := "PATTERN-target"
	tests := []struct {
		name     string
		title    string // default PATTERN-p
		front    string
		evidence []string
		causal   []string
		want     []note.Edge // edges out of the pattern, evidence_for left out
		rules    []string
	}{
		{
			name:     "explicit weight wins over statistics",
			evidence: []string{"[[EP-s1]] - success", "[[EP-s2]] - success"},
			causal:   []string{"causes [[PATTERN-target]] (weight 0.8)"},
			want:     []note.Edge{{Source: "PATTERN-p", Target: target, Type: "causes", Weight: 0.8, EvidenceCount: 1}},
		},
		{
			name:     "Wilson of the success rate over the evidence",
			evidence: []string{"[[EP-s1]] - success", "[[EP-s2]] - success", "[[EP-s3]] - success"},
			causal:   []string{"causes [[PATTERN-target]]"},
			want:     []note.Edge{{Source: "PATTERN-p", Target: target, Type: "causes", Weight: Wilson(1, 3), EvidenceCount: 1}},
		},
		{
			name:     "antipattern by title: Wilson of the failure rate",
			title:    "ANTIPATTERN-p",
			evidence: []string{"[[EP-s1]] - success", "[[EP-f1]] - failure", "[[EP-f2]] - failure", "[[EP-f3]] - failure"},
			causal:   []string{"causes [[PATTERN-target]]"},
			want:     []note.Edge{{Source: "ANTIPATTERN-p", Target: target, Type: "causes", Weight: Wilson(0.75, 4), EvidenceCount: 1}},
		},
		{
			name:   "antipattern by type, declared statistics",
			front:  "type: antipattern\nsuccess_rate: 0.2\noccurrences: 10\n",
			causal: []string{"prevents [[PATTERN-target]]"},
			want:   []note.Edge{{Source: "PATTERN-p", Target: target, Type: "prevents", Weight: Wilson(0.8, 10), EvidenceCount: 1}},
		},
		{
			name:   "explicit weight wins for an antipattern",
			title:  "ANTIPATTERN-p",
			front:  "success_rate: 0.2\noccurrences: 10\n",
			causal: []string{"causes [[PATTERN-target]] (weight 0.25)"},
			want:   []note.Edge{{Source: "ANTIPATTERN-p", Target: target, Type: "causes", Weight: 0.25, EvidenceCount: 1}},
		},
		{
			name:   "declared statistics",
			front:  "success_rate: 0.8\noccurrences: 10\n",
			causal: []string{"enables [[PATTERN-target]]"},
			want:   []note.Edge{{Source: "PATTERN-p", Target: target, Type: "enables", Weight: Wilson(0.8, 10), EvidenceCount: 1}},
		},
		{
			name:   "declared rate without occurrences: default",
			front:  "success_rate: 0.8\n",
			causal: []string{"causes [[PATTERN-target]]"},
			want:   []note.Edge{{Source: "PATTERN-p", Target: target, Type: "causes", Weight: defaultWeight, EvidenceCount: 1}},
		},
		{
			name:   "no statistics: default",
			causal: []string{"correlates [[PATTERN-target]]"},
			want:   []note.Edge{{Source: "PATTERN-p", Target: target, Type: "correlates", Weight: defaultWeight, EvidenceCount: 1}},
		},
		{
			name:   "invalid weight: statistics",
			front:  "success_rate: 0.8\noccurrences: 10\n",
			causal: []string{"causes [[PATTERN-target]] (weight 2)"},
			want:   []note.Edge{{Source: "PATTERN-p", Target: target, Type: "causes", Weight: Wilson(0.8, 10), EvidenceCount: 1}},
		},
		{
			name:   "duplicates merged, strongest weight kept",
			causal: []string{"causes [[PATTERN-target]] (weight 0.3)", "causes [[pattern-target]] (weight 0.6)", "Causes [[target]]"},
			want:   []note.Edge{{Source: "PATTERN-p", Target: target, Type: "causes", Weight: 0.6, EvidenceCount: 3}},
		},
		{
			name: "every causal type, sorted by type",
			causal: []string{"prevents [[PATTERN-target]]", "enables [[PATTERN-target]]",
				"correlates [[PATTERN-target]]", "causes [[PATTERN-target]]"},
			want: []note.Edge{
				{Source: "PATTERN-p", Target: target, Type: "causes", Weight: defaultWeight, EvidenceCount: 1},
				{Source: "PATTERN-p", Target: target, Type: "correlates", Weight: defaultWeight, EvidenceCount: 1},
				{Source: "PATTERN-p", Target: target, Type: "enables", Weight: defaultWeight, EvidenceCount: 1},
				{Source: "PATTERN-p", Target: target, Type: "prevents", Weight: defaultWeight, EvidenceCount: 1},
			},
		},
		{
			name:   "episode target",
			causal: []string{"causes [[EP-f1]] (weight 0.9)"},
			want:   []note.Edge{{Source: "PATTERN-p", Target: "EP-f1", Type: "causes", Weight: 0.9, EvidenceCount: 1}},
		},
		{
			name:   "concept target: no edge",
			causal: []string{"causes [[Ledger]]", "causes [[PATTERN-target]]"},
			want:   []note.Edge{{Source: "PATTERN-p", Target: target, Type: "causes", Weight: defaultWeight, EvidenceCount: 1}},
			rules:  []string{"causal-target"},
		},
		{
			name:   "missing target: no edge",
			causal: []string{"causes [[PATTERN-nowhere]]"},
			rules:  []string{"link-dangling"},
		},
		{
			name:   "other relation types are no edges",
			causal: []string{"supports [[PATTERN-target]]"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			title := tt.title
			if title == "" {
				title = "PATTERN-p"
			}
			var body []string
			if len(tt.causal) > 0 {
				body = append(body, causalSection(tt.causal...))
			}
			if len(tt.evidence) > 0 {
				body = append(body, evidenceSection(tt.evidence...))
			}
			_, res := build(t, edgeRepo(pattern(title, tt.front, body...)))
			var got []note.Edge
			for _, e := range res.Edges {
				if e.Source == title && e.Type != note.EdgeEvidenceFor {
					got = append(got, e)
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("edges = %v\nwant %v", edgeStrings(got), edgeStrings(tt.want))
			}
			for i := range got {
				g, w := got[i], tt.want[i]
				if g.Source != w.Source || g.Target != w.Target || g.Type != w.Type || !near(g.Weight, w.Weight) || g.EvidenceCount != w.EvidenceCount {
					t.Errorf("edge %d = %s, want %s", i, edgeString(g), edgeString(w))
				}
			}
			wantRules := tt.rules
			if wantRules == nil {
				wantRules = []string{}
			}
			if r := rules(res.Diags); !slices.Equal(r, wantRules) {
				t.Errorf("rules = %v, want %v\n%s", r, wantRules, diagLines(res.Diags))
			}
		})
	}
}

func TestCausalTargetDiagnostic(t *testing.T) {
	_, res := build(t, edgeRepo(pattern("PATTERN-p", "", causalSection("causes [[Ledger]] (weight 0.4)"))))
	want := []note.Diagnostic{{Path: "patterns/p.md", Line: 7, Col: 10, Severity: note.Warning, Rule: "causal-target",
		Message: "causes [[Ledger]] names a note that is neither a pattern nor an episode; it is not a graph edge"}}
	if !slices.Equal(res.Diags, want) {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", diagLines(res.Diags), diagLines(want))
	}
}

func TestEvidenceEdges(t *testing.T) {
	src := pattern("PATTERN-p", "type: pattern\n",
		causalSection("causes [[PATTERN-target]] (weight 0.7)"),
		evidenceSection("[[EP-s1]] - success", "[[EP-f1]] - failure", "[[s1]] - success", "[[EP-none]] - success",
			"[[Ledger]] - success", "[[EP-s2]] - maybe"))
	_, res := build(t, edgeRepo(src))
	want := []string{
		"EP-f1 -evidence_for-> PATTERN-p w=0.5000 n=1",
		"EP-s1 -evidence_for-> PATTERN-p w=0.5000 n=1",
		"PATTERN-p -causes-> PATTERN-target w=0.7000 n=1",
	}
	if got := edgeStrings(res.Edges); !slices.Equal(got, want) {
		t.Errorf("edges:\n%q\nwant\n%q", got, want)
	}
}

func TestEdgesAndNodesSorted(t *testing.T) {
	r := edgeRepo(pattern("PATTERN-p", "type: pattern\n",
		causalSection("prevents [[EP-f2]]", "causes [[PATTERN-target]]", "causes [[EP-f1]]", "enables [[EP-f1]]"),
		evidenceSection("[[EP-s3]] - success", "[[EP-p1]] - partial", "[[EP-s1]] - success")))
	r["patterns/z.md"] = pattern("ANTIPATTERN-z", "", causalSection("causes [[PATTERN-p]]", "causes [[EP-s1]]"))
	r["patterns/a.md"] = pattern("PATTERN-a", "type: antipattern\n", causalSection("causes [[ANTIPATTERN-z]]"))
	notes, res := build(t, r)

	wantEdges := []string{
		"ANTIPATTERN-z -causes-> EP-s1 w=0.5000 n=1",
		"ANTIPATTERN-z -causes-> PATTERN-p w=0.5000 n=1",
		"EP-p1 -evidence_for-> PATTERN-p w=0.5000 n=1",
		"EP-s1 -evidence_for-> PATTERN-p w=0.5000 n=1",
		"EP-s3 -evidence_for-> PATTERN-p w=0.5000 n=1",
		"PATTERN-a -causes-> ANTIPATTERN-z w=0.5000 n=1",
		"PATTERN-p -causes-> EP-f1 w=0.3100 n=1",
		"PATTERN-p -enables-> EP-f1 w=0.3100 n=1",
		"PATTERN-p -prevents-> EP-f2 w=0.3100 n=1",
		"PATTERN-p -causes-> PATTERN-target w=0.3100 n=1",
	}
	if got := edgeStrings(res.Edges); !slices.Equal(got, wantEdges) {
		t.Errorf("edges:\n%q\nwant\n%q", got, wantEdges)
	}
	if w := Wilson(2.5/3, 3); !near(res.Edges[6].Weight, w) {
		t.Errorf("weight %v, want Wilson(5/6, 3) = %v", res.Edges[6].Weight, w)
	}

	type node struct{ id, typ, label string }
	var got []node
	for _, n := range res.Nodes {
		if notes[n.Note].Title != n.ID {
			t.Errorf("node %s points at note %s", n.ID, notes[n.Note].Title)
		}
		got = append(got, node{n.ID, n.Type, n.Label})
	}
	want := []node{
		{"ANTIPATTERN-z", "antipattern", "ANTIPATTERN-z"},
		{"EP-f1", "episode", "Task of EP-f1"},
		{"EP-f2", "episode", "Task of EP-f2"},
		{"EP-f3", "episode", "Task of EP-f3"},
		{"EP-f4", "episode", "Task of EP-f4"},
		{"EP-f5", "episode", "Task of EP-f5"},
		{"EP-f6", "episode", "Task of EP-f6"},
		{"EP-f7", "episode", "Task of EP-f7"},
		{"EP-p1", "episode", "Task of EP-p1"},
		{"EP-s1", "episode", "Task of EP-s1"},
		{"EP-s2", "episode", "Task of EP-s2"},
		{"EP-s3", "episode", "Task of EP-s3"},
		{"PATTERN-a", "antipattern", "PATTERN-a"},
		{"PATTERN-p", "pattern", "PATTERN-p"},
		{"PATTERN-target", "pattern", "PATTERN-target"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("nodes:\n%v\nwant\n%v", got, want)
	}
	if len(res.Cycles) != 0 {
		t.Errorf("cycles = %v, want none", res.Cycles)
	}
}

func TestCycles(t *testing.T) {
	p := func(title string, causes ...string) string {
		if len(causes) == 0 {
			return pattern(title, "type: pattern\n")
		}
		return pattern(title, "type: pattern\n", causalSection(causes...))
	}
	tests := []struct {
		name  string
		repo  repo
		want  [][]string
		first []string // path of each cycle's diagnostic
	}{
		{
			name: "acyclic",
			repo: repo{
				"patterns/a.md": p("A", "causes [[B]]", "causes [[C]]"),
				"patterns/b.md": p("B", "causes [[C]]"),
				"patterns/c.md": p("C"),
			},
		},
		{
			name: "two patterns cause each other",
			repo: repo{
				"patterns/a.md": p("A", "causes [[B]]"),
				"patterns/b.md": p("B", "causes [[A]]"),
			},
			want:  [][]string{{"A", "B"}},
			first: []string{"patterns/a.md"},
		},
		{
			name: "parallel edges of several types are one cycle",
			repo: repo{
				"patterns/a.md": p("A", "causes [[B]]", "enables [[B]]"),
				"patterns/b.md": p("B", "prevents [[A]]", "correlates [[A]]"),
			},
			want:  [][]string{{"A", "B"}},
			first: []string{"patterns/a.md"},
		},
		{
			name: "three-cycle with a tail, and a separate two-cycle",
			repo: repo{
				"patterns/c.md": p("C", "causes [[E]]"),
				"patterns/d.md": p("D", "causes [[C]]"),
				"patterns/e.md": p("E", "causes [[D]]", "causes [[F]]"),
				"patterns/f.md": p("F"),
				"patterns/x.md": p("X", "causes [[Y]]", "causes [[C]]"),
				"patterns/y.md": p("Y", "causes [[X]]"),
			},
			want:  [][]string{{"C", "D", "E"}, {"X", "Y"}},
			first: []string{"patterns/c.md", "patterns/x.md"},
		},
		{
			name: "cycle through evidence",
			repo: repo{
				"episodes/e.md": episode("EP-1", "success"),
				"patterns/p.md": pattern("P", "", causalSection("causes [[EP-1]]"), evidenceSection("[[EP-1]] - success")),
			},
			want:  [][]string{{"EP-1", "P"}},
			first: []string{"episodes/e.md"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, res := build(t, tt.repo)
			if !reflect.DeepEqual(res.Cycles, tt.want) {
				t.Errorf("cycles = %q, want %q", res.Cycles, tt.want)
			}
			got := withRule(res.Diags, "graph-cycle")
			if len(got) != len(tt.want) {
				t.Fatalf("graph-cycle diagnostics:\n%s\nwant %d", diagLines(got), len(tt.want))
			}
			for i, d := range got {
				if d.Severity != note.Info || d.Path != tt.first[i] || d.Line != 1 || d.Col != 1 {
					t.Errorf("diagnostic %v, want info at %s:1:1", d, tt.first[i])
				}
			}
			if r := rules(res.Diags); len(r) != len(got) {
				t.Errorf("other diagnostics:\n%s", diagLines(res.Diags))
			}
		})
	}
}

// TestSelfLoops: a pattern that causes itself, a decision that is its own
// effect and an event that leads to itself are warnings at their line, and
// never edges (so never cycles).
func TestSelfLoops(t *testing.T) {
	_, res := build(t, repo{
		"patterns/a.md": pattern("A", "", causalSection("causes [[a]]", "causes [[B]]")),
		"patterns/b.md": pattern("B", ""),
		"episodes/e.md": episode("EP", "success",
			"## Decisions", "", "### d001: Loop", "", "- **Effects**: [[d001]], [[EP#d001]]", "",
			"## Events Timeline", "", "1. [2026-01-01T00:00:00Z] x (leads_to e001)"),
	})
	if len(res.Cycles) != 0 {
		t.Errorf("cycles = %q, want none", res.Cycles)
	}
	for _, e := range res.Edges {
		if e.Source == e.Target {
			t.Errorf("self-loop edge %s", edgeString(e))
		}
	}
	got := withRule(res.Diags, "causal-self-loop")
	want := []string{"episodes/e.md:12:16", "episodes/e.md:12:26", "episodes/e.md:16:1", "patterns/a.md:7:10"}
	var pos []string
	for _, d := range got {
		if d.Severity != note.Warning {
			t.Errorf("%v is not a warning", d)
		}
		pos = append(pos, fmt.Sprintf("%s:%d:%d", d.Path, d.Line, d.Col))
	}
	slices.Sort(pos)
	if !reflect.DeepEqual(pos, want) {
		t.Errorf("causal-self-loop at %q, want %q\n%s", pos, want, diagLines(res.Diags))
	}
	if edgeStrings(res.Edges)[0] != "A -causes-> B w=0.5000 n=1" {
		t.Errorf("edges = %q", edgeStrings(res.Edges))
	}
}

func TestCycleMessage(t *testing.T) {
	_, res := build(t, repo{
		"patterns/b.md": pattern("PATTERN-b", "", causalSection("causes [[PATTERN-a]]")),
		"patterns/a.md": pattern("PATTERN-a", "", causalSection("causes [[PATTERN-b]]")),
	})
	want := []note.Diagnostic{{Path: "patterns/a.md", Line: 1, Col: 1, Severity: note.Info, Rule: "graph-cycle",
		Message: "causal cycle: PATTERN-a → PATTERN-b"}}
	if got := withRule(res.Diags, "graph-cycle"); !slices.Equal(got, want) {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", diagLines(got), diagLines(want))
	}
}

// TestBuildEmptyTitle: a note at "episodes/.md" has an empty title. The
// graph library's cycle search stops at the zero value of the vertex
// type, so an empty id used to give an empty component and a panic.
func TestBuildEmptyTitle(t *testing.T) {
	r := repo{
		"episodes/.md":  "---\noutcome: success\ntask: t\npermalink: nameless\n---\n",
		"patterns/a.md": pattern("A", "", causalSection("causes [[B]]", "causes [[nameless]]")),
		"patterns/b.md": pattern("B", "", causalSection("causes [[A]]")),
	}
	notes := parseRepo(t, r)
	if notes[0].Title != "" {
		t.Fatalf("title = %q; the test needs an empty title", notes[0].Title)
	}
	res := Build(notes, DefaultOptions())
	if want := [][]string{{"A", "B"}}; !reflect.DeepEqual(res.Cycles, want) {
		t.Errorf("cycles = %q, want %q", res.Cycles, want)
	}
	if got := edgeStrings(res.Edges); !slices.Contains(got, "A -causes->  w=0.5000 n=1") {
		t.Errorf("edges = %q, want one to the nameless episode", got)
	}
}

func TestBuildDeterministic(t *testing.T) {
	r := edgeRepo(pattern("PATTERN-p", "type: pattern\nsuccess_rate: 0.9\n",
		causalSection("prevents [[EP-f2]]", "causes [[PATTERN-target]]", "causes [[Ledger]]", "causes [[nowhere]]"),
		evidenceSection("[[EP-s3]] - success", "[[EP-p1]] - partial", "[[EP-s1]] - failure", "[[EP-x]] - success")))
	r["patterns/target.md"] = pattern("PATTERN-target", "", causalSection("causes [[PATTERN-p]]", "enables [[PATTERN-q]]"))
	r["patterns/q.md"] = pattern("PATTERN-q", "", causalSection("causes [[PATTERN-target]]", "causes [[PATTERN-q]]"),
		"See [[a]], [[b]], [[c]], [[EP-s1]].")
	notes := parseRepo(t, r)
	first := Build(notes, DefaultOptions())
	if len(first.Cycles) == 0 || len(first.Dangling) == 0 || len(first.Edges) < 5 {
		t.Fatalf("fixture too small to show nondeterminism: %+v", first)
	}
	for range 20 {
		if again := Build(notes, DefaultOptions()); !reflect.DeepEqual(first, again) {
			t.Fatalf("Build differs between runs:\n%+v\n%+v", first, again)
		}
	}
	if !sort.SliceIsSorted(first.Dangling, func(i, j int) bool {
		a, b := first.Dangling[i], first.Dangling[j]
		return a.From < b.From || a.From == b.From && a.Target < b.Target
	}) {
		t.Errorf("dangling not sorted: %v", first.Dangling)
	}
}
