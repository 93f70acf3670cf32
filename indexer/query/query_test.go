package query

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
)

var ref = time.Date(2026, 8, 10, 12, 0, 0, 0, time.UTC)

func rate(f float64) *float64 { return &f }

func testSnapshot() *Snapshot {
	ep := func(id, date, outcome, task string, tags []string, ds ...export.Decision) Episode {
		return Episode{EpisodeSummary: export.EpisodeSummary{EpisodeHead: export.EpisodeHead{ID: id, Title: id, Date: date, Outcome: note.Outcome(outcome), Task: task, Tags: tags, URL: "/episodes/" + id + "/"}}, Decisions: ds}
	}
	dec := func(id, typ, chosen, outcome, ts string, options ...string) export.Decision {
		return export.Decision{ID: id, Type: note.DecisionType(typ), Chosen: chosen, Outcome: note.Outcome(outcome), Timestamp: ts, Options: options}
	}
	pat := func(id, typ string, r *float64, n int, anti bool) export.PatternSummary {
		p := export.PatternSummary{Pattern: export.Pattern{ID: id, Type: typ, SuccessRate: r, Occurrences: n, Antipattern: anti}}
		if r != nil {
			c := *r / 2
			p.Confidence = &c
		}
		return p
	}
	return &Snapshot{
		ReferenceTime: ref,
		Episodes: []Episode{
			ep("EP-3", "2026-08-09T10:00:00Z", "failure", "Retry payouts", []string{"payouts"},
				dec("d002", "test", "skip", "", "2026-08-09T10:05:00Z", "skip", "run all"),
				dec("d001", "design", "Retry at once!", "", "2026-08-09T10:01:00Z", "retry at once", "retry with backoff", "give up")),
			ep("EP-2", "2026-08-05T10:00:00Z", "success", "Add backoff", []string{"#Payouts", "retries"},
				dec("d001", "design", "retry with backoff", "partial", "")),
			ep("EP-1", "2026-07-01T10:00:00Z", "partial", "Ledger close", nil,
				dec("d001", "design", "Retry with Backoff.", "", ""),
				dec("d002", "", "give up", "", "")),
		},
		Patterns: []export.PatternSummary{
			pat("A-declared", "antipattern", nil, 0, true),
			pat("P-good", "pattern", rate(0.9), 10, false),
			pat("P-low", "pattern", rate(0.25), 4, true),
			pat("P-few", "pattern", rate(0.8), 1, false),
			pat("P-edge", "pattern", rate(0.3), 2, true),
		},
	}
}

func TestFindEpisodes(t *testing.T) {
	s := testSnapshot()
	since, err := ParseSince("7d", ref)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		f    EpisodeFilter
		want []string
	}{
		{"all, newest first", EpisodeFilter{}, []string{"EP-3", "EP-2", "EP-1"}},
		{"outcome", EpisodeFilter{Outcome: "FAILURE"}, []string{"EP-3"}},
		{"tag ignores case and #", EpisodeFilter{Tag: "payouts"}, []string{"EP-3", "EP-2"}},
		{"task word, any case", EpisodeFilter{Task: "BACKOFF"}, []string{"EP-2"}},
		// Words, not a substring (issue 32): every word, in any order,
		// with any ending; never a piece of a word.
		{"task words in any order", EpisodeFilter{Task: "payouts retry"}, []string{"EP-3"}},
		{"task words with other endings", EpisodeFilter{Task: "retries payout"}, []string{"EP-3"}},
		{"task needs every word", EpisodeFilter{Task: "retry ledger"}, []string{}},
		{"task word inside a word is no match", EpisodeFilter{Task: "edge"}, []string{}},
		{"task of stop words only: the text", EpisodeFilter{Task: "A"}, []string{"EP-3", "EP-2"}},
		{"since 7d from the reference time", EpisodeFilter{Since: since}, []string{"EP-3", "EP-2"}},
		{"nothing", EpisodeFilter{Tag: "nope"}, []string{}},
	}
	for _, tt := range tests {
		var got []string
		for _, e := range s.FindEpisodes(tt.f) {
			got = append(got, e.ID)
		}
		if !slices.Equal(got, tt.want) && !(len(got) == 0 && len(tt.want) == 0) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestParseSince(t *testing.T) {
	for in, want := range map[string]time.Time{
		"36h":                  ref.Add(-36 * time.Hour),
		"7d":                   ref.AddDate(0, 0, -7),
		"2w":                   ref.AddDate(0, 0, -14),
		"2026-08-01":           time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC),
		"2026-08-01T09:00:00Z": time.Date(2026, 8, 1, 9, 0, 0, 0, time.UTC),
	} {
		if got, err := ParseSince(in, ref); err != nil || !got.Equal(want) {
			t.Errorf("ParseSince(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "yesterday", "7", "-3d", "7y", "99999999999d"} {
		if _, err := ParseSince(bad, ref); err == nil {
			t.Errorf("ParseSince(%q): no error", bad)
		}
	}
}

func TestPatternsAndAntipatterns(t *testing.T) {
	s := testSnapshot()
	ids := func(ps []export.PatternSummary) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.ID)
		}
		return out
	}
	if got := ids(s.BestPatterns(0.7, 3)); !slices.Equal(got, []string{"P-good"}) {
		t.Errorf("best patterns = %q", got)
	}
	if got := ids(s.BestPatterns(0, 0)); !slices.Equal(got, []string{"P-good", "P-few"}) {
		t.Errorf("all patterns that are not antipatterns = %q", got)
	}
	// Declared antipatterns always; the rate rule by the given thresholds;
	// 0.3 is inclusive; no rate sorts last.
	if got := ids(s.FindAntipatterns(0.3, 2)); !slices.Equal(got, []string{"P-low", "P-edge", "A-declared"}) {
		t.Errorf("antipatterns(0.3, 2) = %q", got)
	}
	if got := ids(s.FindAntipatterns(0.8, 1)); !slices.Equal(got, []string{"P-low", "P-edge", "P-few", "A-declared"}) {
		t.Errorf("antipatterns(0.8, 1) = %q", got)
	}
}

func TestDecisions(t *testing.T) {
	s := testSnapshot()
	d, err := s.Decisions("ep-3")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range d.Items {
		got = append(got, x.ID)
	}
	if d.Episode != "EP-3" || !slices.Equal(got, []string{"d001", "d002"}) {
		t.Errorf("decisions of %s = %q, want d001 d002 (by timestamp)", d.Episode, got)
	}
	d, _ = s.Decisions("EP-1")
	if d.Items[0].ID != "d001" || d.Items[1].ID != "d002" {
		t.Errorf("untimed decisions not in file order: %+v", d.Items)
	}
	var nf *NotFoundError
	if _, err := s.Decisions("EP"); !errors.As(err, &nf) || len(nf.Suggestions) != 3 {
		t.Errorf("unknown episode: %v", err)
	}
}

func TestWhatIf(t *testing.T) {
	s := testSnapshot()
	w, err := s.WhatIf("EP-3", "D001", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Items) != 2 || w.Items[0].Option != "retry with backoff" || w.Items[1].Option != "give up" {
		t.Fatalf("options = %+v", w.Items)
	}
	backoff := w.Items[0]
	// EP-2 chose it (decision outcome partial, 0.5) and EP-1 wrote it in
	// another case with a full stop (its episode's outcome, partial).
	if backoff.Count != 2 || *backoff.SuccessRate != 0.5 || backoff.Episodes[0].ID != "EP-2" || backoff.Episodes[1].ID != "EP-1" {
		t.Errorf("retry with backoff: %+v", backoff)
	}
	// EP-1 chose "give up", but in a decision without a type.
	if giveUp := w.Items[1]; giveUp.Count != 0 || giveUp.SuccessRate != nil || giveUp.Episodes == nil {
		t.Errorf("give up: %+v", giveUp)
	}
	w, err = s.WhatIf("EP-3", "d001", "Retry With Backoff")
	if err != nil || len(w.Items) != 1 || w.Items[0].Option != "retry with backoff" {
		t.Errorf("--option: %+v, %v", w.Items, err)
	}
	w, err = s.WhatIf("EP-3", "d001", "something new")
	if err != nil || len(w.Items) != 1 || w.Items[0].Count != 0 {
		t.Errorf("--option not listed: %+v, %v", w.Items, err)
	}
	var nf *NotFoundError
	if _, err := s.WhatIf("EP-3", "d009", ""); !errors.As(err, &nf) || !slices.Equal(nf.Suggestions, []string{"d002", "d001"}) {
		t.Errorf("unknown decision: %v", err)
	}
}
