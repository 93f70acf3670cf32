package indexer_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSeedFormat: a repository written in the seed's pattern format
// (success_rate and occurrences declared, no evidence list) gets its
// antipatterns and its patterns at session start, each marked declared;
// a bare declared rate (no occurrences) is flagged default_rate and is
// neither (SPEC §3, default rates).
func TestSeedFormat(t *testing.T) {
	repo, out := fixtureRepo(t, "seed"), filepath.Join(t.TempDir(), "public")
	build(t, repo, out)
	api := filepath.Join(out, "api", "v1")
	type pattern struct {
		ID          string   `json:"id"`
		StatsSource string   `json:"stats_source"`
		Antipattern bool     `json:"antipattern"`
		Flags       []string `json:"flags"`
	}
	var list struct{ Items []pattern }
	readJSON(t, filepath.Join(api, "patterns.json"), &list)
	want := map[string]pattern{
		"PATTERN-feature-flag-risky-changes": {StatsSource: "declared", Flags: []string{}},
		"PATTERN-retry-ci-until-green":       {StatsSource: "declared", Antipattern: true, Flags: []string{}},
		"ANTIPATTERN-big-bang-change":        {StatsSource: "declared", Antipattern: true, Flags: []string{}},
		"PATTERN-pair-on-incidents":          {StatsSource: "declared", Flags: []string{"default_rate"}},
	}
	for _, p := range list.Items {
		w := want[p.ID]
		if p.StatsSource != w.StatsSource || p.Antipattern != w.Antipattern || !slices.Equal(p.Flags, w.Flags) {
			t.Errorf("%s: %s, antipattern %v, flags %q; want %s, %v, %q", p.ID, p.StatsSource, p.Antipattern, p.Flags, w.StatsSource, w.Antipattern, w.Flags)
		}
	}
	var anti struct{ Items []pattern }
	readJSON(t, filepath.Join(api, "antipatterns.json"), &anti)
	var ids []string
	for _, p := range anti.Items {
		ids = append(ids, p.ID)
	}
	// By success_rate ascending: 0.2, then 0.25.
	if !slices.Equal(ids, []string{"PATTERN-retry-ci-until-green", "ANTIPATTERN-big-bang-change"}) {
		t.Errorf("antipatterns.json lists %q", ids)
	}
	type item struct{ ID, Text string }
	var boot struct{ Warnings, Patterns []item }
	readJSON(t, filepath.Join(api, "bootstrap.json"), &boot)
	has := func(items []item, id string) bool {
		return slices.ContainsFunc(items, func(it item) bool { return it.ID == id && strings.Contains(it.Text, "declared") })
	}
	for _, id := range []string{"PATTERN-retry-ci-until-green", "ANTIPATTERN-big-bang-change"} {
		if !has(boot.Warnings, id) {
			t.Errorf("bootstrap warnings %v lack %s, marked declared", boot.Warnings, id)
		}
	}
	if !has(boot.Patterns, "PATTERN-feature-flag-risky-changes") {
		t.Errorf("bootstrap patterns %v lack PATTERN-feature-flag-risky-changes, marked declared", boot.Patterns)
	}
	for _, it := range slices.Concat(boot.Warnings, boot.Patterns) {
		if it.ID == "PATTERN-pair-on-incidents" {
			t.Errorf("the bare default is in the bootstrap: %v", it)
		}
	}
	page := string(readJSON(t, filepath.Join(out, "patterns", "pattern-retry-ci-until-green", "index.html"), nil))
	if !strings.Contains(page, "Its declared success rate") {
		t.Errorf("the declared antipattern's page does not say its rate is declared")
	}
}
