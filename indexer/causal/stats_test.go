package causal

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer/note"
)

func TestWilson(t *testing.T) {
	// Reference values: the 95% Wilson score interval's lower bound, as
	// published in tables and computed by R's binom::binom.wilson.
	tests := []struct {
		name string
		p    float64
		n    int
		want float64
	}{
		{"half of 5", 0.5, 5, 0.170429},
		{"1 of 1", 1, 1, 0.206543},
		{"0 of 10", 0, 10, 0},
		{"0 of 1", 0, 1, 0},
		{"8 of 10", 0.8, 10, 0.490162},
		{"10 of 10", 1, 10, 0.722467},
		{"half of 100", 0.5, 100, 0.403836},
		{"no trials", 0.5, 0, 0},
		{"no trials, rate 1", 1, 0, 0},
		{"negative trials", 1, -3, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Wilson(tt.p, tt.n)
			if math.Abs(got-tt.want) > 1e-5 {
				t.Errorf("Wilson(%v, %d) = %.6f, want %.6f", tt.p, tt.n, got, tt.want)
			}
			if got < 0 || got > tt.p+1e-12 && tt.n > 0 {
				t.Errorf("Wilson(%v, %d) = %v is outside [0, p]", tt.p, tt.n, got)
			}
		})
	}
}

// TestWilsonMonotonic checks that more trials at the same rate give a
// tighter, higher lower bound.
func TestWilsonMonotonic(t *testing.T) {
	for _, p := range []float64{0.1, 0.5, 0.9, 1} {
		prev := 0.0
		for n := 1; n <= 1000; n *= 10 {
			w := Wilson(p, n)
			if w < prev {
				t.Errorf("Wilson(%v, %d) = %v < Wilson at fewer trials %v", p, n, w, prev)
			}
			prev = w
		}
	}
}

// rule is a pattern's trigger and action that no health rule flags.
const rule = "trigger: A deploy fails\naction: Roll back the deploy\n"

// statsRepo holds the episodes every stats case may name.
func statsRepo(patternFile string) repo {
	r := repo{
		"episodes/p1.md":  episode("EP-p1", "partial"),
		"notes/ledger.md": concept("Ledger"),
		"patterns/p.md":   patternFile,
	}
	for i := 1; i <= 3; i++ {
		r[fmt.Sprintf("episodes/s%d.md", i)] = episode(fmt.Sprintf("EP-s%d", i), "success")
	}
	for i := 1; i <= 7; i++ {
		r[fmt.Sprintf("episodes/f%d.md", i)] = episode(fmt.Sprintf("EP-f%d", i), "failure")
	}
	return r
}

func TestStats(t *testing.T) {
	tests := []struct {
		name     string
		front    string
		evidence []string
		want     Stats // Confidence is checked against Wilson
		rules    []string
	}{
		{
			name:     "evidence rate",
			evidence: []string{"[[EP-s1]] - success", "[[EP-p1]] - partial", "[[EP-f1]] - failure"},
			want: Stats{Source: "evidence", Occurrences: 3, SuccessRate: 0.5, Evidence: []EvidenceRef{
				{"EP-s1", "success", ""}, {"EP-p1", "partial", ""}, {"EP-f1", "failure", ""}}},
		},
		{
			name:     "evidence by file name and in any case",
			evidence: []string{"[[s1]] - success", "[[ep-S2]] — Success, after a retry"},
			want:     Stats{Source: "evidence", Occurrences: 2, SuccessRate: 1, Evidence: []EvidenceRef{{"EP-s1", "success", ""}, {"EP-s2", "success", ""}}},
		},
		{
			name:  "declared fallback",
			front: "success_rate: 0.8\noccurrences: 10\n",
			want:  Stats{Source: "declared", Occurrences: 10, SuccessRate: 0.8},
		},
		{
			name:  "declared rate without occurrences",
			front: "success_rate: 0.8\n",
			want:  Stats{Source: "declared", SuccessRate: 0.8},
		},
		{
			name:  "declared occurrences without a rate are not statistics",
			front: "occurrences: 4\n",
			want:  Stats{},
		},
		{
			name: "nothing",
			want: Stats{},
		},
		{
			name:     "evidence episode does not exist",
			evidence: []string{"[[EP-none]] - success", "[[EP-f1]] - failure"},
			want:     Stats{Source: "evidence", Occurrences: 1, SuccessRate: 0, Evidence: []EvidenceRef{{"EP-f1", "failure", ""}}},
			rules:    []string{"link-dangling"},
		},
		{
			name:     "only missing evidence falls back to declared",
			front:    "success_rate: 0.7\noccurrences: 3\n",
			evidence: []string{"[[EP-none]] - success"},
			want:     Stats{Source: "declared", Occurrences: 3, SuccessRate: 0.7},
			rules:    []string{"link-dangling"},
		},
		{
			name:     "bad outcome is not counted",
			evidence: []string{"[[EP-s1]] - maybe", "[[EP-s2]]", "[[EP-f1]] - failure"},
			want:     Stats{Source: "evidence", Occurrences: 1, SuccessRate: 0, Evidence: []EvidenceRef{{"EP-f1", "failure", ""}}},
		},
		{
			name:     "evidence names a concept",
			evidence: []string{"[[Ledger]] - success", "[[EP-s1]] - success"},
			want:     Stats{Source: "evidence", Occurrences: 1, SuccessRate: 1, Evidence: []EvidenceRef{{"EP-s1", "success", ""}}},
			rules:    []string{"evidence-target"},
		},
		{
			name:     "evidence names a pattern",
			evidence: []string{"[[PATTERN-p]] - success"},
			want:     Stats{},
			rules:    []string{"evidence-target"},
		},
		{
			name:     "outcome differs from the episode's own",
			evidence: []string{"[[EP-f1]] - success", "[[EP-s1]] - success"},
			want:     Stats{Source: "evidence", Occurrences: 2, SuccessRate: 1, Evidence: []EvidenceRef{{"EP-f1", "success", ""}, {"EP-s1", "success", ""}}},
			// One line differs from its episode: a mismatch, not a
			// contradicted rate (EP-s1 agrees).
			rules: []string{"evidence-outcome-mismatch"},
		},
		{
			// ai-agents' 0.0: every line says failure, every episode success.
			name:     "a default that the episodes deny",
			evidence: []string{"[[EP-s1]] - failure", "[[EP-s2]] - failure"},
			want:     Stats{Source: "evidence", Occurrences: 2, SuccessRate: 0, Evidence: []EvidenceRef{{"EP-s1", "failure", ""}, {"EP-s2", "failure", ""}}},
			rules:    []string{"evidence-outcome-mismatch", "evidence-outcome-mismatch", "pattern-rate-contradicted"},
		},
		{
			// Lines that vary are a judgment, even where none agrees.
			name:     "varied lines that differ from the episodes",
			evidence: []string{"[[EP-s1]] - failure", "[[EP-f1]] - partial"},
			want:     Stats{Source: "evidence", Occurrences: 2, SuccessRate: 0.25, Evidence: []EvidenceRef{{"EP-s1", "failure", ""}, {"EP-f1", "partial", ""}}},
			rules:    []string{"evidence-outcome-mismatch", "evidence-outcome-mismatch"},
		},
		{
			name:     "one line is not enough to call a rate a default",
			evidence: []string{"[[EP-s1]] - failure"},
			want:     Stats{Source: "evidence", Occurrences: 1, SuccessRate: 0, Evidence: []EvidenceRef{{"EP-s1", "failure", ""}}},
			rules:    []string{"evidence-outcome-mismatch"},
		},
		{
			name:     "declared rate drifts from the evidence",
			front:    "success_rate: 0.9\noccurrences: 2\n",
			evidence: []string{"[[EP-s1]] - success", "[[EP-f1]] - failure"},
			want:     Stats{Source: "evidence", Occurrences: 2, SuccessRate: 0.5, Evidence: []EvidenceRef{{"EP-s1", "success", ""}, {"EP-f1", "failure", ""}}},
			rules:    []string{"pattern-rate-drift"},
		},
		{
			name:     "declared rate close to the evidence",
			front:    "success_rate: 0.55\n",
			evidence: []string{"[[EP-s1]] - success", "[[EP-f1]] - failure"},
			want:     Stats{Source: "evidence", Occurrences: 2, SuccessRate: 0.5, Evidence: []EvidenceRef{{"EP-s1", "success", ""}, {"EP-f1", "failure", ""}}},
		},
		{
			// 0.4 − 1/3 ≈ 0.067: no drift.
			name:     "declared rate within 0.1 below",
			front:    "success_rate: 0.4\n",
			evidence: []string{"[[EP-s1]] - success", "[[EP-f1]] - failure", "[[EP-f2]] - failure"},
			want: Stats{Source: "evidence", Occurrences: 3, SuccessRate: 1.0 / 3, Evidence: []EvidenceRef{
				{"EP-s1", "success", ""}, {"EP-f1", "failure", ""}, {"EP-f2", "failure", ""}}},
		},
		{
			// A difference of exactly 0.1 is not "over 0.1" (SPEC §3),
			// even where binary floating point makes 0.6 − 0.5 or
			// 0.4 − 0.3 a hair above or below it.
			name:     "difference of exactly 0.1",
			front:    "success_rate: 0.6\n",
			evidence: []string{"[[EP-s1]] - success", "[[EP-f1]] - failure"},
			want:     Stats{Source: "evidence", Occurrences: 2, SuccessRate: 0.5, Evidence: []EvidenceRef{{"EP-s1", "success", ""}, {"EP-f1", "failure", ""}}},
		},
		{
			name:     "difference of exactly 0.1, rounding up in binary",
			front:    "success_rate: 0.4\n",
			evidence: tenWith3Successes(),
			want:     Stats{Source: "evidence", Occurrences: 10, SuccessRate: 0.3, Evidence: tenWith3SuccessesRefs()},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := []string{}
			if len(tt.evidence) > 0 {
				body = append(body, evidenceSection(tt.evidence...))
			}
			notes, res := build(t, statsRepo(pattern("PATTERN-p", "type: pattern\n"+rule+tt.front, body...)))
			i := noteIndex(t, notes, "PATTERN-p")
			got := res.Stats[i]
			if got.Source != tt.want.Source || got.Occurrences != tt.want.Occurrences || !near(got.SuccessRate, tt.want.SuccessRate) {
				t.Errorf("stats = %s %d %v, want %s %d %v", got.Source, got.Occurrences, got.SuccessRate,
					tt.want.Source, tt.want.Occurrences, tt.want.SuccessRate)
			}
			if w := Wilson(got.SuccessRate, got.Occurrences); !near(got.Confidence, w) {
				t.Errorf("confidence = %v, want Wilson %v", got.Confidence, w)
			}
			if !slices.Equal(got.Evidence, withOwn(tt.want.Evidence)) {
				t.Errorf("evidence = %v, want %v", got.Evidence, withOwn(tt.want.Evidence))
			}
			if want := slices.Contains(tt.rules, "pattern-rate-contradicted"); got.Contradicted != want {
				t.Errorf("contradicted = %v, want %v", got.Contradicted, want)
			}
			wantRules := tt.rules
			if wantRules == nil {
				wantRules = []string{}
			}
			if r := rules(res.Diags); !slices.Equal(r, wantRules) {
				t.Errorf("rules = %v, want %v\n%v", r, wantRules, res.Diags)
			}
			for j, s := range res.Stats {
				if j != i && s.Source != "" {
					t.Errorf("%s is not a pattern but has stats %+v", notes[j].Title, s)
				}
			}
		})
	}
}

// withOwn fills in the outcome each statsRepo episode records itself,
// which its id says (EP-s1 a success, EP-f1 a failure, EP-p1 partial).
func withOwn(refs []EvidenceRef) []EvidenceRef {
	own := map[string]note.Outcome{"EP-s": "success", "EP-f": "failure", "EP-p": "partial"}
	out := []EvidenceRef{}
	for _, r := range refs {
		r.Own = own[r.ID[:4]]
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// tenWith3Successes is 3 successes and 7 failures, ten distinct episodes
// of statsRepo.
func tenWith3Successes() []string {
	var out []string
	for _, r := range tenWith3SuccessesRefs() {
		out = append(out, "[["+r.ID+"]] - "+string(r.Outcome))
	}
	return out
}

func tenWith3SuccessesRefs() []EvidenceRef {
	refs := []EvidenceRef{{"EP-s1", "success", ""}, {"EP-s2", "success", ""}, {"EP-s3", "success", ""}}
	for i := 1; i <= 7; i++ {
		refs = append(refs, EvidenceRef{fmt.Sprintf("EP-f%d", i), "failure", ""})
	}
	return refs
}

func TestStatsDiagnostics(t *testing.T) {
	src := pattern("PATTERN-p", "type: pattern\n"+rule+"success_rate: 0.95\n",
		"## Context",
		"",
		"Text.",
		"",
		evidenceSection("[[Ledger]] - success", "[[EP-f1]] - success", "[[EP-none]] - success", "[[EP-s1]] - failure"),
	)
	_, res := build(t, statsRepo(src))
	// Front matter is lines 1-7, the evidence items lines 15-18; every
	// item's link starts at column 3.
	want := []note.Diagnostic{
		{Path: "patterns/p.md", Line: 15, Col: 3, Severity: note.Warning, Rule: "evidence-target",
			Message: "evidence [[Ledger]] is not an episode; it is not counted"},
		{Path: "patterns/p.md", Line: 16, Col: 3, Severity: note.Warning, Rule: "evidence-outcome-mismatch",
			Message: "evidence says EP-f1 was a success, but the episode says failure; the evidence line is counted as written"},
		{Path: "patterns/p.md", Line: 18, Col: 3, Severity: note.Warning, Rule: "evidence-outcome-mismatch",
			Message: "evidence says EP-s1 was a failure, but the episode says success; the evidence line is counted as written"},
		{Path: "patterns/p.md", Line: 15, Col: 1, Severity: note.Warning, Rule: "pattern-declared-contradicted",
			Message: "declared success_rate 0.95 is outside the 95% Wilson interval of the evidence (0.50 over 2 episodes: 0.09 to 0.91); the evidence is used, and the pattern is not offered as advice until the two agree"},
		{Path: "patterns/p.md", Line: 17, Col: 3, Severity: note.Warning, Rule: "link-dangling",
			Message: "[[EP-none]] names no note; it is shown as a missing note"},
	}
	note.SortDiagnostics(want)
	got := slices.Clone(res.Diags)
	note.SortDiagnostics(got)
	if !slices.Equal(got, want) {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", diagLines(got), diagLines(want))
	}
}

func diagLines(ds []note.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.String() + "\n")
	}
	return b.String()
}
