package causal

import (
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/engramhq/engram/indexer/note"
)

func TestTautology(t *testing.T) {
	tests := []struct {
		trigger, action string
		want            bool
	}{
		// ai-agents' own causal-graph.json patterns.
		{"Adopted concurrent timeout fixes and rebumped plugin manifests.", "Adopted concurrent timeout fixes and rebumped plugin manifests.", true},
		{"Testing second", "Second", true},
		{"Designing first", "First", true},
		{"When implementation decision needed", "Fail-closed (Option 2)", false},
		// Case and punctuation do not matter.
		{"Run the tests!", "run the TESTS", true},
		// The trigger inside the action is a real rule: it says what to do.
		{"before a commit", "run the tests before a commit", false},
		{"A deploy fails", "Roll back the deploy", false},
		// Words must be together and in order.
		{"tests fail after merge", "merge tests", false},
		// Empty is incomplete, not a tautology.
		{"", "", false},
		{"When CI is red", "", false},
		{"!!!", "...", false},
	}
	for _, tt := range tests {
		if got := Tautology(tt.trigger, tt.action); got != tt.want {
			t.Errorf("Tautology(%q, %q) = %v, want %v", tt.trigger, tt.action, got, tt.want)
		}
	}
}

func TestHealth(t *testing.T) {
	_, res := build(t, repo{
		"episodes/e1.md": episode("EP-1", "success", "[[Nowhere]] and [[Nowhere]] and [[nowhere]]",
			"## Decisions", "", "### d001: A", "", "- **Effects**: [[d002]]", "", "### d002: B", "", "### d003: Alone"),
		"episodes/e2.md": episode("EP-2", "failure", "## Events Timeline", "",
			"1. [2026-01-01T00:00:00Z] broke", "2. [2026-01-01T00:01:00Z] fixed (caused_by e001)", "3. [2026-01-01T00:02:00Z] unrelated"),
		"episodes/e3.md": episode("EP-3", "success"),
		"patterns/t.md": pattern("PATTERN-echo", "trigger: Adopted the fix\naction: adopted the FIX\n",
			evidenceSection("[[EP-1]] - success")),
		"patterns/d.md": pattern("PATTERN-declared", "success_rate: 0\n", causalSection("prevents [[PATTERN-echo]]")),
		"patterns/n.md": pattern("PATTERN-nothing", "trigger: x\naction: y\n"),
	})
	h := res.Health
	// Graph nodes: 3 episodes, 3 decisions, 2 linked events, 3 patterns;
	// a reader also sees the unrelated event. Isolated (no edge but an
	// episode's own "contains"): EP-2 (its events are linked to each
	// other, not to anything else), EP-3, d003, PATTERN-nothing and the
	// unrelated event.
	if h.Nodes != 12 || h.GraphNodes != 11 || h.Isolated != 5 || !near(h.IsolatedShare, 5.0/12) {
		t.Errorf("nodes %d (graph %d) isolated %d share %v, want 12 (11), 5, 5/12", h.Nodes, h.GraphNodes, h.Isolated, h.IsolatedShare)
	}
	wantTypes := map[note.EdgeType]int{"causes": 1, "leads_to": 1, "evidence_for": 1, "prevents": 1, "contains": 5}
	if !maps.Equal(h.EdgeTypes, wantTypes) {
		t.Errorf("edge types = %v, want %v", h.EdgeTypes, wantTypes)
	}
	// Within one episode: d001 → d002 and e001 → e002 (contains edges
	// are not counted); with a pattern: the evidence and the prevents edge.
	if h.WithinEpisode != 2 || h.BetweenEpisodes != 0 || h.WithPatterns != 2 {
		t.Errorf("within %d between %d with patterns %d, want 2, 0, 2", h.WithinEpisode, h.BetweenEpisodes, h.WithPatterns)
	}
	if h.LeadsToConsecutive != 1 || h.LeadsToConsecutiveShare != 1 {
		t.Errorf("consecutive leads_to %d (%v), want 1 (1)", h.LeadsToConsecutive, h.LeadsToConsecutiveShare)
	}
	if !slices.Equal(h.Placeholders, []string{"PATTERN-declared", "PATTERN-nothing"}) {
		t.Errorf("placeholders = %q", h.Placeholders)
	}
	if !slices.Equal(h.Tautologies, []string{"PATTERN-echo"}) {
		t.Errorf("tautologies = %q", h.Tautologies)
	}
	if !slices.Equal(h.DefaultRates, []string{"PATTERN-declared"}) {
		t.Errorf("default rates = %q", h.DefaultRates)
	}
	// One entry per (note, target) pair; [[nowhere]] is written in
	// another case and stays its own entry.
	wantDangling := []Dangling{{"EP-1", "Nowhere"}, {"EP-1", "nowhere"}}
	if !reflect.DeepEqual(h.Dangling, wantDangling) {
		t.Errorf("dangling = %v, want %v", h.Dangling, wantDangling)
	}
	if len(h.Cycles) != 0 || len(h.Duplicates) != 0 {
		t.Errorf("cycles %v duplicates %v", h.Cycles, h.Duplicates)
	}
	taut := withRule(res.Diags, "pattern-tautology")
	if len(taut) != 1 || taut[0].Path != "patterns/t.md" || taut[0].Severity != note.Warning {
		t.Errorf("pattern-tautology diagnostics: %v", taut)
	}
}

func TestHealthDuplicatesAndEmpty(t *testing.T) {
	notes := parseRepo(t, repo{
		"episodes/a.md": episode("Same", "success"),
		"episodes/b.md": episode("same", "success"),
		"episodes/c.md": episode("Other", "success"),
	})
	res := Build(notes, DefaultOptions())
	if want := [][]string{{"episodes/a.md", "episodes/b.md"}}; !reflect.DeepEqual(res.Health.Duplicates, want) {
		t.Errorf("duplicates = %q, want %q", res.Health.Duplicates, want)
	}
	empty := Build(nil, DefaultOptions())
	if empty.Health.Nodes != 0 || empty.Health.IsolatedShare != 0 {
		t.Errorf("empty graph health = %+v", empty.Health)
	}
}

// TestLeadsToFan: a commit every earlier event leads to (ai-agents'
// newest snapshot has one with 185) is counted as fan-in, an event that
// leads to several as fan-out, each with the most one event has; one
// edge between two events is neither.
func TestLeadsToFan(t *testing.T) {
	_, res := build(t, repo{
		"episodes/e1.md": episode("EP-1", "success", "## Events Timeline", "",
			"1. [2026-01-01T00:00:00Z] edit a", "2. [2026-01-01T00:01:00Z] edit b", "3. [2026-01-01T00:02:00Z] edit c",
			"4. [2026-01-01T00:03:00Z] commit (caused_by e001, e002, e003)"),
		"episodes/e2.md": episode("EP-2", "success", "## Events Timeline", "",
			"1. [2026-01-01T00:00:00Z] plan (leads_to e002, e003)", "2. [2026-01-01T00:01:00Z] do", "3. [2026-01-01T00:02:00Z] check",
			"4. [2026-01-01T00:03:00Z] done (caused_by e003)"),
	})
	h := res.Health
	if h.LeadsToFanIn != 3 || h.LeadsToMaxFanIn != 3 || h.LeadsToFanOut != 2 || h.LeadsToMaxFanOut != 2 {
		t.Errorf("fan in %d (most %d), out %d (most %d); want 3 (3), 2 (2)", h.LeadsToFanIn, h.LeadsToMaxFanIn, h.LeadsToFanOut, h.LeadsToMaxFanOut)
	}
}
