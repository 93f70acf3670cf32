package causal

import (
	"slices"
	"testing"
)

// TestDeclaredStatistics: a rate declared with its occurrences (the
// seed's pattern format: success_rate and occurrences in front matter, no
// evidence list) is a claim that classifies the pattern, unflagged; a
// bare rate (no occurrences, or 0) is a default and flagged; a declared
// rate that the evidence contradicts (outside the evidence's 95% Wilson
// interval) is flagged, and the evidence classifies.
func TestDeclaredStatistics(t *testing.T) {
	tests := []struct {
		name     string
		front    string
		evidence []string
		anti     bool
		flags    []string
		rules    []string
	}{
		{name: "seed antipattern: low rate over occurrences", front: "success_rate: 0.2\noccurrences: 5\n", anti: true, flags: []string{}},
		{name: "seed pattern: high rate over occurrences", front: "success_rate: 0.9\noccurrences: 12\n", flags: []string{}},
		{name: "threshold inclusive", front: "success_rate: 0.3\noccurrences: 2\n", anti: true, flags: []string{}},
		{name: "one occurrence does not make an antipattern", front: "success_rate: 0.1\noccurrences: 1\n", flags: []string{}},
		{name: "bare rate: a default", front: "success_rate: 0.2\n", flags: []string{FlagDefaultRate}},
		{name: "zero occurrences: a default", front: "success_rate: 0.2\noccurrences: 0\n", flags: []string{FlagDefaultRate}},
		{
			name:     "evidence within the declared claim",
			front:    "success_rate: 0.9\noccurrences: 10\n",
			evidence: []string{"[[EP-s1]] - success", "[[EP-s2]] - success", "[[EP-f1]] - failure"},
			flags:    []string{},
			rules:    []string{"pattern-rate-drift"},
		},
		{
			name:     "evidence contradicts the declared rate: flagged, the evidence classifies",
			front:    "success_rate: 0.95\noccurrences: 20\n",
			evidence: []string{"[[EP-f1]] - failure", "[[EP-f2]] - failure", "[[EP-f3]] - failure"},
			anti:     true,
			flags:    []string{FlagDefaultRate},
			rules:    []string{"pattern-declared-contradicted"},
		},
		{
			name:     "a declared 0.0 that successes contradict",
			front:    "success_rate: 0.0\noccurrences: 4\n",
			evidence: []string{"[[EP-s1]] - success", "[[EP-s2]] - success", "[[EP-s3]] - success"},
			flags:    []string{FlagDefaultRate},
			rules:    []string{"pattern-declared-contradicted"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var body []string
			if len(tt.evidence) > 0 {
				body = append(body, evidenceSection(tt.evidence...))
			}
			notes, res := build(t, statsRepo(pattern("PATTERN-p", "type: pattern\n"+rule+tt.front, body...)))
			i := noteIndex(t, notes, "PATTERN-p")
			if got := res.Stats[i].Antipattern; got != tt.anti {
				t.Errorf("antipattern = %v, want %v (%+v)", got, tt.anti, res.Stats[i])
			}
			if !slices.Equal(res.Flags[i], tt.flags) {
				t.Errorf("flags = %q, want %q", res.Flags[i], tt.flags)
			}
			wantRules := tt.rules
			if wantRules == nil {
				wantRules = []string{}
			}
			if r := rules(res.Diags); !slices.Equal(r, wantRules) {
				t.Errorf("rules = %v, want %v\n%v", r, wantRules, res.Diags)
			}
			listed := slices.Contains(res.Health.DefaultRates, "PATTERN-p")
			if want := slices.Contains(tt.flags, FlagDefaultRate); listed != want {
				t.Errorf("health lists PATTERN-p as a default rate: %v, want %v", listed, want)
			}
		})
	}
}

// TestDeclaredTemplateRows: a declared claim about no rule (a template
// row such as ai-agents' "T2" → "A2", 0.2 over 2, or an action that
// restates its trigger) classifies nothing, though its rate is declared
// with occurrences; the same row with evidence is classified by it.
func TestDeclaredTemplateRows(t *testing.T) {
	tests := []struct {
		name, front string
		evidence    []string
		anti        bool
	}{
		{name: "placeholder rule", front: "trigger: T2\naction: A2\nsuccess_rate: 0.2\noccurrences: 2\n"},
		{name: "tautology", front: "trigger: Retry the deploy\naction: Retry the deploy\nsuccess_rate: 0.1\noccurrences: 5\n"},
		{name: "placeholder rule with evidence", front: "trigger: T2\naction: A2\n", evidence: []string{"[[EP-f1]] - failure", "[[EP-f2]] - failure"}, anti: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var body []string
			if len(tt.evidence) > 0 {
				body = append(body, evidenceSection(tt.evidence...))
			}
			notes, res := build(t, statsRepo(pattern("PATTERN-p", "type: pattern\n"+tt.front, body...)))
			if got := res.Stats[noteIndex(t, notes, "PATTERN-p")].Antipattern; got != tt.anti {
				t.Errorf("antipattern = %v, want %v", got, tt.anti)
			}
		})
	}
}
