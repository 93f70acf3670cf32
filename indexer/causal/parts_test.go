package causal

import (
	"github.com/engramhq/engram/indexer/note"

	"slices"
	"testing"
)

// TestDecisionAndEventEdges: Effects become "causes" edges from the
// decision node to another decision (same episode, or another episode's
// [[EPISODE#d002]]), an episode or a pattern; caused_by and leads_to
// become one leads_to edge per pair of events; only linked events are
// nodes; each episode contains its decisions and its linked events.
func TestDecisionAndEventEdges(t *testing.T) {
	_, res := build(t, repo{
		"episodes/e1.md": episode("EP-1", "success",
			"## Decisions", "",
			"### d001: First", "", "- **Effects**: [[d002]], [[EP-2#d001]], [[PATTERN-p]], [[EP-2]], [[Concept]], [[Missing]]", "",
			"### d002: Second", "",
			"## Events Timeline", "",
			"1. [2026-01-01T00:00:00Z] broke (leads_to e002)",
			"2. [2026-01-01T00:01:00Z] fixed (caused_by e001)",
			"3. [2026-01-01T00:02:00Z] noted (caused_by e009)",
			"4. [2026-01-01T00:03:00Z] alone"),
		"episodes/e2.md": episode("EP-2", "failure", "## Decisions", "", "### d001: Theirs"),
		"patterns/p.md":  pattern("PATTERN-p", ""),
		"notes/c.md":     concept("Concept"),
	})
	want := []string{
		"EP-1 -contains-> EP-1#d001 w=1.0000 n=1",
		"EP-1 -contains-> EP-1#d002 w=1.0000 n=1",
		"EP-1 -contains-> EP-1#e001 w=1.0000 n=1",
		"EP-1 -contains-> EP-1#e002 w=1.0000 n=1",
		"EP-1#d001 -causes-> EP-1#d002 w=0.5000 n=1",
		"EP-1#d001 -causes-> EP-2 w=0.5000 n=1",
		"EP-1#d001 -causes-> EP-2#d001 w=0.5000 n=1",
		"EP-1#d001 -causes-> PATTERN-p w=0.5000 n=1",
		"EP-1#e001 -leads_to-> EP-1#e002 w=0.5000 n=1",
		"EP-2 -contains-> EP-2#d001 w=1.0000 n=1",
	}
	if got := edgeStrings(res.Edges); !slices.Equal(got, want) {
		t.Errorf("edges:\n%q\nwant\n%q", got, want)
	}
	var ids []string
	for _, n := range res.Nodes {
		ids = append(ids, n.Type+" "+n.ID)
	}
	wantNodes := []string{"episode EP-1", "decision EP-1#d001", "decision EP-1#d002", "event EP-1#e001", "event EP-1#e002",
		"episode EP-2", "decision EP-2#d001", "pattern PATTERN-p"}
	if !slices.Equal(ids, wantNodes) {
		t.Errorf("nodes:\n%q\nwant\n%q", ids, wantNodes)
	}
	for rule, n := range map[string]int{"causal-target": 1, "event-ref": 1, "link-dangling": 1} {
		if got := withRule(res.Diags, rule); len(got) != n {
			t.Errorf("%s diagnostics: %v, want %d", rule, got, n)
		}
	}
	if d := withRule(res.Diags, "event-ref"); len(d) == 1 && (d[0].Path != "episodes/e1.md" || d[0].Line != 20) {
		t.Errorf("event-ref at %s:%d, want episodes/e1.md:20", d[0].Path, d[0].Line)
	}
}

// TestAntipatternThresholds: the rate rule uses the configured thresholds
// (inclusive), makes the node an antipattern and turns its edge weights
// around (1 − success_rate).
func TestAntipatternThresholds(t *testing.T) {
	r := repo{
		"episodes/e1.md": episode("EP-1", "failure"),
		"episodes/e2.md": episode("EP-2", "partial"),
		"episodes/e3.md": episode("EP-3", "success"),
		// 0.25 over 2: an antipattern by default.
		"patterns/low.md": pattern("PATTERN-low", "", causalSection("causes [[PATTERN-ok]]"),
			evidenceSection("[[EP-1]] - failure", "[[EP-2]] - partial")),
		// 0.75 over 2.
		"patterns/ok.md": pattern("PATTERN-ok", "", evidenceSection("[[EP-2]] - partial", "[[EP-3]] - success")),
		// 0 over 1: too few occurrences.
		"patterns/one.md": pattern("PATTERN-one", "", evidenceSection("[[EP-1]] - failure")),
		// 0.3 over 10, declared with its occurrences: a claim, which
		// classifies (SPEC §3, default rates).
		"patterns/edge.md": pattern("PATTERN-edge", "success_rate: 0.3\noccurrences: 10\n"),
		// 0.1 declared alone: a bare default, which classifies nothing.
		"patterns/bare.md": pattern("PATTERN-bare", "success_rate: 0.1\n"),
	}
	notes := parseRepo(t, r)
	classes := func(opt Options) map[string]string {
		res := Build(notes, opt)
		out := map[string]string{}
		for _, n := range res.Nodes {
			if n.Type == TypePattern || n.Type == TypeAntipattern {
				out[n.ID] = n.Type
			}
		}
		return out
	}
	got := classes(DefaultOptions())
	want := map[string]string{"PATTERN-low": "antipattern", "PATTERN-ok": "pattern", "PATTERN-one": "pattern", "PATTERN-edge": "antipattern", "PATTERN-bare": "pattern"}
	for id, typ := range want {
		if got[id] != typ {
			t.Errorf("default thresholds: %s is %s, want %s", id, got[id], typ)
		}
	}
	// Inclusive: PATTERN-ok's 0.75 is at the threshold.
	got = classes(Options{AntipatternMaxSuccess: 0.75, AntipatternMinOccurrences: 1})
	for _, id := range []string{"PATTERN-low", "PATTERN-ok", "PATTERN-one", "PATTERN-edge"} {
		if got[id] != "antipattern" {
			t.Errorf("max 0.75 over 1: %s is %s, want antipattern", id, got[id])
		}
	}
	if got["PATTERN-bare"] != "pattern" {
		t.Errorf("max 0.75 over 1: the bare default PATTERN-bare is %s, want pattern", got["PATTERN-bare"])
	}
	// A stricter count: the declared 10 occurrences are counted as such.
	if got = classes(Options{AntipatternMaxSuccess: 0.3, AntipatternMinOccurrences: 11}); got["PATTERN-edge"] != "pattern" {
		t.Errorf("max 0.3 over 11: PATTERN-edge (0.3 over 10) is %s, want pattern", got["PATTERN-edge"])
	}
	res := Build(notes, DefaultOptions())
	// PATTERN-low's edge: Wilson lower bound of 1 − 0.25 over 2.
	if e := res.Edges[slices.IndexFunc(res.Edges, func(e note.Edge) bool { return e.Source == "PATTERN-low" && e.Type == "causes" })]; !near(e.Weight, Wilson(0.75, 2)) {
		t.Errorf("antipattern edge weight %v, want Wilson(0.75, 2) = %v", e.Weight, Wilson(0.75, 2))
	}
}
